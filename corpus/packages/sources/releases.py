"""Source 4: the GitHub Releases of the repository the metadata names (``GET /repos/O/R/releases``,
every page through the Link headers, at most ``MAX_PAGES``), kept as the ``gh api`` export the
corpus reads (``github-releases.json``). Only the package's own releases: tagged ``NAME@1.2.3``,
``NAME-v1.2.3`` or a bare ``v1.2.3`` when the repository's tags name several packages (a monorepo:
vite's ``create-vite@5.0.0`` is not vite's; a package with tags of its own gets only those).
Drafts and empty bodies are left out.

On refresh the first page is asked with the ETag kept (If-None-Match): a 304 keeps the releases
read before without counting against the rate limit.
"""

from __future__ import annotations

import json

from ...errors import SourceRefused
from ...regex import lazy_compile
from .. import githubapi
from ..model import NotesFile, NotesRecord, Published
from ..repository import repository_of

NAME = "releases"
MAX_PAGES = 10  # 100 releases a page
FILE = "github-releases.json"
_TAG = lazy_compile(r"^(?:(.+?)(?:@|[-_/]))?v?(\d+(?:\.\d+)*(?:[-.+]?[\w.]*)?)$")


def tag_owner(tag: str) -> str | None:
    """The package a tag names (``react-dom@19.0.0`` -> ``react-dom``), "" for a bare version, None
    for no version at all."""
    match = _TAG.match(tag.strip())
    if not match:
        return None
    return (match.group(1) or "").lower()


def own_releases(found: list[dict], name: str) -> list[dict]:
    """The releases of ``name`` among a repository's: those tagged with its name (``NAME@1.2.3``,
    ``NAME-v1.2.3``) when any is, else those tagged with a bare version (``v1.2.3``); never
    another package's (``create-vite@5.0.0`` for vite), drafts or empty bodies."""
    names = {name.lower(), name.rsplit("/", 1)[-1].lower()}
    named, bare = [], []
    for release in found:
        owner = tag_owner(str(release.get("tag_name") or ""))
        if owner is None or release.get("draft") or not str(release.get("body") or "").strip():
            continue
        if owner in names or owner.lstrip("@") in names:
            named.append(release)
        elif owner == "":
            bare.append(release)
    return named or bare


def _pages(slug: str, what: str, etag: str | None) -> tuple[int, list[dict], str | None]:
    """The first page's status, the releases of every page, and the first page's ETag."""
    answer = githubapi.api_get(f"/repos/{slug}/releases?per_page=100", what, etag=etag)
    if answer.status in (304, 404):
        return answer.status, [], etag
    first_etag = answer.headers.get("etag")
    found, url, pages = [], None, 0
    while True:
        try:
            page = json.loads(answer.body)
        except ValueError:
            raise SourceRefused(f"{what}: GitHub's releases of {slug} are not JSON") from None
        if not isinstance(page, list):
            raise SourceRefused(f"{what}: GitHub's releases of {slug} are not a list")
        found += [r for r in page if isinstance(r, dict)]
        pages += 1
        url = githubapi.next_page(answer)
        if not url or pages >= MAX_PAGES:
            break
        answer_next = githubapi.api_get("", what, url=url)
        if answer_next.status != 200:
            break
        answer = answer_next
    return 200, found, first_etag


def find(release: Published, earlier: NotesRecord | None, limit: int):
    from . import Found, NoNotesHere, sha256

    repo, why = repository_of(release)
    if repo is None:
        raise NoNotesHere(why)
    what = f"{release.name} {release.version}"
    url = f"{githubapi.api_base()}/repos/{repo.slug}/releases"
    before = earlier if earlier and earlier.source == NAME and earlier.etag else None
    status, found, etag = _pages(repo.slug, what, before.etag if before else None)
    if status == 404:
        raise NoNotesHere(f"github.com/{repo.slug}: no such repository, or not public (404)")
    if status == 304:  # what was kept before is current
        try:
            data = (before.files_dir / FILE).read_bytes()
        except OSError:
            raise SourceRefused(f"{what}: GitHub answered 304 for {url}, but the releases kept before are gone; "
                                "remove the package's folder in the cache and run again") from None
        return Found(((NotesFile(FILE, url, sha256(data)), data),), (), url, "sha256", sha256(data), etag)
    own = own_releases(found, release.name)
    if not own:
        tags = ", ".join(str(r.get("tag_name")) for r in found[:3])
        raise NoNotesHere(f"github.com/{repo.slug} has no releases" if not found else
                          f"none of github.com/{repo.slug}'s {len(found)} releases is tagged as {release.name}'s "
                          f"({tags}, ...)")
    data = json.dumps(own, ensure_ascii=False, indent=1).encode("utf-8")
    return Found(((NotesFile(FILE, url, sha256(data)), data),), (), url, "sha256", sha256(data), etag)
