"""Source 1: the notes files a release's source archive ships (``pick``'s rules), hash-checked."""

from __future__ import annotations

import tempfile
from pathlib import Path

from ...errors import ArchiveTooLarge, HashMismatch
from ..http import download
from ..model import NotesRecord, Published

NAME = "archive"
FAILS_THE_PACKAGE = True  # a bad archive is reported, never passed over


def find(release: Published, earlier: NotesRecord | None, limit: int):
    from . import Found, NoNotesHere
    from ..archive import ArchiveReader
    from ..fetch import pick_notes

    archive = release.archive
    if archive is None:
        raise NoNotesHere(release.no_archive or "the index lists no source archive")
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
            looked = len(reader.members)
    if not files:
        raise NoNotesHere(f"no release notes in its archive ({archive.filename}, {looked} file"
                          f"{'s' if looked != 1 else ''} looked at)")
    return Found(tuple(files), tuple(skipped), archive.url, archive.hash_name, archive.hash_value)
