"""Bad input files an index was built without (``--skip-bad``), so later opens skip them too.

An index built with ``--skip-bad`` records each file it skipped with its size and modification
time. A later open of the same corpus without ``--skip-bad`` skips those files again (saying so)
while they are unchanged, instead of stopping at the first; a new bad file, or a recorded one
that changed, stops it as before.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from corpus import CorpusError, CorpusInput, NoSupportedFiles

if TYPE_CHECKING:  # pragma: no cover
    from corpus import Document

from ..errors import IndexCorrupt, IndexMissing
from ..store.manifest import read_manifest

Notify = Callable[..., None]


def stamp(path: str) -> list[int] | None:
    """(size, modification time in ns) of a file, or None when it cannot be seen."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def recorded(directory: Path) -> dict[str, list[int]]:
    """The files the index at ``directory`` was built without, with their stamps ({} for none)."""
    try:
        skipped = read_manifest(directory).corpus.get("skipped", {})
    except (IndexMissing, IndexCorrupt):
        return {}
    return skipped if isinstance(skipped, dict) else {}


def load_skipping(paths: Sequence[Path | CorpusInput] | None, directory: Path, *, skip_bad: bool = False,
                  on_skip: Notify | None = None) -> tuple[list[Document], dict[str, list[int]]]:
    """The corpus's documents and the bad files left out, as the manifest records them.

    Every bad file is reported through ``on_skip`` (each one, not only the first); without
    ``skip_bad`` only files the index at ``directory`` was built without, unchanged, are left out.

    Raises:
        CorpusError: a bad file (or path) that is neither skipped on request nor recorded as skipped.
    """
    from corpus import load_documents  # the readers: not loaded by an open that reads no file (``unchanged``)

    errors: list[CorpusError] = []
    try:
        documents = load_documents(paths, skip_bad=True, on_skip=errors.append)
    except NoSupportedFiles:
        if errors and not skip_bad:
            raise errors[0] from None
        raise
    known = {} if skip_bad else recorded(directory)
    left_out: dict[str, list[int]] = {}
    for err in errors:
        path = getattr(err, "path", None)
        if not skip_bad and (path is None or known.get(path) is None or known[path] != stamp(path)):
            raise err
        if path is not None and stamp(path) is not None:
            left_out[path] = stamp(path)
        if on_skip is not None:
            on_skip(err)
    return documents, left_out
