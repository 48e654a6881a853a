"""Source 3: the changelog files of the GitHub repository the metadata names, read over HTTPS as
raw files (no git): the repository's file list at the release's tag (``NAME@1.2.3``,
``NAME-v1.2.3``, ``v1.2.3``, ``1.2.3``; the default branch when none exists, said so), then the
files ``pick``'s rules choose, in the package's own folder of a monorepo first (npm's
``repository.directory``: ``packages/react/CHANGELOG.md``), else at the root and in its docs
(``docs/release-notes.md``, ``doc/source/whatsnew/``). A Changelog URL into the repository
(``blob/main/CHANGES.md``) is read first."""

from __future__ import annotations

import json
import urllib.parse

from ...errors import SourceRefused
from .. import githubapi
from .. import pick
from ..archive import Member
from ..model import NotesFile, NotesRecord, Published, Skipped
from ..repository import Repository, repository_of

NAME = "repository"
TREE_LIMIT = 32 << 20  # bytes of a recursive file list (the largest monorepos list ~20 MB)
MAX_FILES = 60  # notes files read from one repository at most (a folder of one file per release)
TOP = "repo"  # the list's names are put under one folder, as an archive's are, for ``pick``


def tag_candidates(name: str, version: str, monorepo: bool) -> list[str]:
    """The tags a release of ``name`` may carry, the likeliest first."""
    base = name.rsplit("/", 1)[-1]
    own = [f"{name}@{version}", f"{base}@{version}", f"{base}-v{version}"] if monorepo else []
    found = [*own, f"v{version}", version, *([] if monorepo else [f"{base}-{version}"])]
    return list(dict.fromkeys(found))


def _tree(repo: Repository, release: Published, what: str) -> tuple[str, list[dict], str]:
    """The ref read, its files (``path``, ``size``), and a note when it is the default branch."""
    from . import NoNotesHere

    for ref in [*tag_candidates(release.name, release.version, bool(repo.directory)), "HEAD"]:
        answer = githubapi.api_get(f"/repos/{repo.slug}/git/trees/{urllib.parse.quote(ref, safe='')}?recursive=1",
                                   what, limit=TREE_LIMIT)
        if answer.status == 404:
            if ref == "HEAD":
                raise NoNotesHere(f"github.com/{repo.slug}: no such repository, or not public (404)")
            continue
        try:
            listing = json.loads(answer.body)
            files = [e for e in listing["tree"] if e.get("type") == "blob" and isinstance(e.get("path"), str)]
        except (ValueError, KeyError, TypeError, AttributeError):
            raise SourceRefused(f"{what}: GitHub's file list of {repo.slug} at {ref} is not the API's shape") from None
        note = "" if ref != "HEAD" else f"no tag {release.version} or v{release.version}: read at the default branch"
        return ref, files, note
    raise AssertionError("unreachable: HEAD ends the loop")


def find(release: Published, earlier: NotesRecord | None, limit: int):
    from . import Found, NoNotesHere, sha256
    from ..fetch import pick_notes

    repo, why = repository_of(release)
    if repo is None:
        raise NoNotesHere(why)
    what = f"{release.name} {release.version}"
    ref, files, note = _tree(repo, release, what)
    sizes = {f["path"]: int(f.get("size") or 0) for f in files}
    urls: dict[str, str] = {}

    relative: dict[str, str] = {}  # the name under TOP -> the repository path

    def read(member: Member) -> bytes:
        path = relative[member.name]
        answer = githubapi.raw_file(repo.owner, repo.name, ref, path, what)
        if answer.status != 200:
            raise SourceRefused(f"{what}: {answer.url} answered {answer.status} though the file list names it")
        urls[member.name] = answer.url
        return answer.body

    for folder in dict.fromkeys([repo.directory, ""]):
        inside = [p for p in sizes if not folder or p.startswith(folder + "/")]
        if folder == "" and repo.directory:  # the root's own notes, not another package's folder
            inside = [p for p in inside if not p.startswith(repo.directory.split("/")[0] + "/")]
        relative = {f"{TOP}/{p[len(folder) + 1:] if folder else p}": p for p in inside}
        chosen, _ = pick.candidates(list(relative))
        if repo.file:  # the file the metadata's Changelog URL points at, first
            chosen.sort(key=lambda c: relative[c.member] != repo.file)
        members = [Member(c.member, sizes[relative[c.member]]) for c in chosen[:MAX_FILES]]
        kept, skipped = pick_notes(members, read) if members else ([], [])
        if not kept:
            continue
        extra = [Skipped(relative[c.member], f"over {MAX_FILES} files read from one repository")
                 for c in chosen[MAX_FILES:]]
        notes = [Skipped(f"github.com/{repo.slug}@{ref}", note)] if note else []
        kept = [(NotesFile(f.path, urls.get(f.member, f.member), sha256(data)), data) for f, data in kept]
        digest = sha256(b"".join(bytes.fromhex(f.sha256) for f, _ in kept))
        where = f"https://github.com/{repo.slug}/tree/{ref}" + (f"/{folder}" if folder else "")
        return Found(tuple(kept), tuple(notes + skipped + extra), where, "sha256", digest)
    place = f"github.com/{repo.slug} at {ref}" + (f" (its folder {repo.directory} and root)" if repo.directory else "")
    raise NoNotesHere(f"no changelog file in {place}" + (f"; {note}" if note else ""))
