"""What a source gives: ``Found`` (the notes files and their origin), or ``NoNotesHere`` with why."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ...metadata import Identity
from ..model import NotesFile, Skipped


class NoNotesHere(Exception):
    """A source has no notes for the package (the message says why); not an error of the run."""


@dataclass(frozen=True, slots=True)
class Found:
    """The notes one source gave: the files with their bytes, what was left out, and their origin."""

    files: tuple[tuple[NotesFile, bytes], ...]
    skipped: tuple[Skipped, ...]
    url: str  # the archive, file, API page or web page read
    hash_name: str
    hash_value: str
    etag: str | None = None
    identity: Identity | None = None  # what the archive's own metadata (PKG-INFO, package.json) says of the product


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
