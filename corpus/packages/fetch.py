"""Fetch one package's release notes: the index's metadata, the archive (size-capped, hash-checked),
its notes files picked by rule, kept in the notes store. A version already kept is not fetched again.

Nothing from an archive is run or unpacked whole: members are listed and checked, and only the
notes files are read (``archive``). A local archive or folder goes through the same picking.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from ..errors import ArchiveTooLarge, HashMismatch
from . import pick, store
from .archive import ArchiveReader, Member
from .http import download
from .manifests import project_identity
from .model import Archive, NotesFile, NotesRecord, PackageRef, Skipped
from .registry import find_archive

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
    that knows it, kept in the store; a version kept with the same hash (picked by the same
    rules) is not fetched again.

    Raises:
        PackageError: unknown package, unreachable or refusing index, no source archive, over
            ``limit``, hash mismatch, not an archive, an unsafe member (the message names the
            package and what to do). Nothing is written then, and earlier notes stay.
    """
    archive = find_archive(ref, indexes)
    kept = store.find(archive.ecosystem, archive.name, archive.version)
    if kept is not None and kept.hash_value == archive.hash_value and kept.rules == pick.RULES:
        return Fetched(ref, kept, "up to date")
    what = f"{archive.name} {archive.version}"
    if archive.size is not None and archive.size > limit:
        raise ArchiveTooLarge(f"{what}: the index lists its archive at {archive.size} bytes, over the limit of "
                              f"{limit}; not downloaded (give its notes with --corpus PATH instead)")
    with tempfile.TemporaryDirectory(prefix="relnotes-fetch-") as scratch:
        path = Path(scratch) / "archive"
        digest = download(archive.url, path, limit, what, archive.hash_name)
        if digest != archive.hash_value:
            raise HashMismatch(f"{what}: the archive's {archive.hash_name} is {digest[:16]}..., the index published "
                               f"{archive.hash_value[:16]}...; not kept: try again, and report it to the index if it "
                               "persists")
        with ArchiveReader(path, what) as reader:
            files, skipped = pick_notes(reader.members, reader.read, reader.links)
    return Fetched(ref, store.write_version(archive, files, skipped, now()), "fetched")


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
