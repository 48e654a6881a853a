"""Fetch one package's release notes: the index's metadata, then the sources of notes in order
(``sources``: the archive, size-capped and hash-checked, its notes files picked by rule; the
metadata; the repository; GitHub Releases; the changelog page), kept in the notes store. A version
already kept is not fetched again.

Nothing from an archive is run or unpacked whole: members are listed and checked, and only the
notes files are read (``archive``). A local archive or folder goes through the same picking.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from ..errors import ArchiveTooLarge
from . import pick, store
from .archive import ArchiveReader, Member
from .manifests import project_identity
from .model import Archive, NotesFile, NotesRecord, PackageRef, Skipped
from .registry import find_release

# Refused before downloading when the index says so, and cut off while streaming otherwise
# (the largest sdists of well-known packages are a few hundred MB): docs/decisions/0013-notes-from-source-archives.md
MAX_ARCHIVE_BYTES = 2 * 1024**3
Action = Literal["fetched", "up to date"]


@dataclass(frozen=True, slots=True)
class Fetched:
    """What ``fetch`` did for one package: fetched it, or found the published version already kept."""

    ref: PackageRef
    record: NotesRecord
    action: Action


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def fetch(ref: PackageRef, indexes: tuple[str, ...], *, limit: int = MAX_ARCHIVE_BYTES) -> Fetched:
    """The notes of ``ref`` (its newest release, or ``ref.version``) from the first of ``indexes``
    that knows it, from the first source of ``sources.SOURCES`` that has some, kept in the store
    with where they came from and each source tried before and why it gave none. A version kept
    by the same rules and chain (and, from the archive, with the same hash) is not fetched again.

    Raises:
        PackageError: unknown package, unreachable or refusing index, an archive over ``limit``,
            with a hash mismatch, not an archive or with an unsafe member (the message names the
            package and what to do). Nothing is written then, and earlier notes stay.
    """
    from .sources import CHAIN, find_notes

    release = find_release(ref, indexes)
    kept = store.find(release.ecosystem, release.name, release.version)
    if kept is not None and kept.rules == pick.RULES and kept.chain == CHAIN and (
            kept.source != "archive" or release.archive is None or kept.hash_value == release.archive.hash_value) and (
            kept.shipped or not any(t.failed for t in kept.tried)):  # a source that could not be asked: ask again
        return Fetched(ref, kept, "up to date")
    found, source, tried = find_notes(release, store.find(release.ecosystem, release.name), limit)
    archive = release.archive
    if found is None:
        origin = archive or Archive(release.ecosystem, release.name, release.version, release.metadata_url, "",
                                    "sha256", "", release.index_url, None, release.changelog_url)
        record = store.write_version(replace(origin, changelog_url=release.changelog_url), [], [], now(),
                                     source="", tried=tried, chain=CHAIN)
        return Fetched(ref, record, "fetched")
    origin = archive if source == "archive" else Archive(
        release.ecosystem, release.name, release.version, found.url, found.files[0][0].path, found.hash_name,
        found.hash_value, release.index_url, None, release.changelog_url)
    record = store.write_version(replace(origin, changelog_url=release.changelog_url), list(found.files),
                                 list(found.skipped), now(), source=source, tried=tried, etag=found.etag, chain=CHAIN)
    return Fetched(ref, record, "fetched")


def pick_notes(members: list[Member], read,
               links: list[tuple[str, str]] = ()) -> tuple[list[tuple[NotesFile, bytes]], list[Skipped]]:
    """The notes files among ``members`` (``pick``'s rules), with their bytes, and what was left out
    and why (``links``: the links inside the archive, never followed)."""
    by_name = {m.name: m for m in members}
    chosen, fragments = pick.candidates(list(by_name))
    files: list[tuple[NotesFile, bytes]] = []
    skipped = [Skipped(member, why) for member, why in [*links, *fragments]]
    seen: dict[str, str] = {}
    for candidate in chosen:
        data = read(by_name[candidate.member])
        reason = pick.stub_reason(data.decode("utf-8", "replace"))
        same = seen.get(pick.fingerprint(data))
        if reason or same:
            skipped.append(Skipped(candidate.member, reason or f"the same text as {same}"))
            continue
        seen[pick.fingerprint(data)] = candidate.path
        files.append((NotesFile(candidate.path, candidate.member), data))
    return files, skipped


def fetch_local(path: Path, name: str, version: str) -> Fetched:
    """The notes of a local archive (``.tar.gz``, ``.tgz``, ``.zip``) or source folder, kept as
    package ``name`` version ``version`` (the ``local`` index)."""
    what = f"{name} {version}"
    archive = Archive("pypi", name, version, path.resolve().as_uri(), path.name, "sha256", "", "local")
    if path.is_dir():
        members = [Member(f"{path.name}/{p.relative_to(path).as_posix()}", p.stat().st_size)
                   for p in sorted(path.rglob("*")) if p.is_file() and not p.is_symlink()
                   and not any(part.startswith(".") for part in p.relative_to(path).parts)]
        files, skipped = pick_notes(members, lambda m: (path / m.name.split("/", 1)[1]).read_bytes())
    else:
        if os.path.getsize(path) > MAX_ARCHIVE_BYTES:
            raise ArchiveTooLarge(f"{what}: {path} is over the limit of {MAX_ARCHIVE_BYTES} bytes")
        with ArchiveReader(path, what) as reader:
            files, skipped = pick_notes(reader.members, reader.read, reader.links)
    ref = PackageRef("pypi", name, version)
    return Fetched(ref, store.write_version(archive, files, skipped, now()), "fetched")


def local_identity(path: Path) -> tuple[str, str]:
    """The package name and version of a local archive or folder: an sdist's or npm tarball's
    file name (``flask-3.0.0.tar.gz``), a folder's pyproject.toml or package.json, else its name
    and "local"."""
    from packaging.utils import InvalidSdistFilename, parse_sdist_filename

    if path.is_dir():
        name, version = project_identity(path)
        return name or path.name, version or "local"
    try:
        name, version = parse_sdist_filename(path.name)
        return str(name), str(version)
    except InvalidSdistFilename:
        stem = path.name.removesuffix(".tgz").removesuffix(".tar.gz")
        base, _, version = stem.rpartition("-")
        return (base, version) if base and version[:1].isdigit() else (stem, "local")
