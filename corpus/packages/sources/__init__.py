"""Where a package keeps its release notes: sources tried in order until one gives notes.

Each source is one module with ``NAME`` and ``find(release, earlier, limit) -> Found``, raising
``NoNotesHere`` (with why) when it has none; a new source is one file and one line in ``CHAIN``:

1. ``archive``: the source archive's notes files (hash-checked; its failures fail the package);
2. ``metadata``: the index's own text (PyPI's description, npm's readme) when it holds releases;
3. ``repository``: the changelog files of the GitHub repository the metadata names, at the
   release's tag (a monorepo's package folder first, then its root and docs);
4. ``releases``: the repository's GitHub Releases, only the package's own tags in a monorepo;
5. ``webpage``: the changelog page the metadata links (HTML read by ``corpus.html``).

A source other than the archive that fails (a refusal, a rate limit, no answer) is one of the
reasons kept in ``tried``; the next source is asked.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ...errors import PackageError
from ..model import NotesFile, NotesRecord, Published, Skipped, Tried
from . import archive, metadata, releases, repository, webpage

CHAIN = 1  # bump when the chain changes: a version kept by an older chain is fetched again
SOURCES = (archive, metadata, repository, releases, webpage)


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


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def find_notes(release: Published, earlier: NotesRecord | None, limit: int) -> tuple[Found | None, str, tuple[Tried, ...]]:
    """The first source's notes for ``release`` (None when none gave any), its name, and the
    sources before it (or all of them) with why each gave none.

    Raises:
        PackageError: the archive source failed (hash mismatch, unsafe or broken archive, too large).
    """
    tried: list[Tried] = []
    for source in SOURCES:
        try:
            found = source.find(release, earlier, limit)
        except NoNotesHere as why:
            tried.append(Tried(source.NAME, str(why)))
            continue
        except PackageError as exc:
            if getattr(source, "FAILS_THE_PACKAGE", False):
                raise
            tried.append(Tried(source.NAME, str(exc), failed=True))
            continue
        return found, source.NAME, tuple(tried)
    return None, "", tuple(tried)
