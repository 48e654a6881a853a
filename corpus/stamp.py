"""What reading a corpus depends on, from file metadata alone: a stamp that tells a later reader
the corpus is as it was without reading a file (``index.lifecycle.unchanged`` keeps it beside an
index; reading the zoo's 139 files took 0.39 s of every question).

The stamp covers the inputs as given (paths, products and their other names), every file they lead to, the places a
project file naming their product may be (``products.project_files``: one appearing or edited
changes a product), this package's own code and tables (a reader that changed may read the
same files otherwise) and the Python reading them (its version and Unicode tables). Each file counts by size, modification and change times and inode: an
edit changes the change time even when the modification time is set back. A file changed in the
last ``RACY_SECONDS`` could change again within the same clock tick unseen, so then there is no
stamp (as git's "racily clean" entries), nor when a path cannot be listed.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import unicodedata
from pathlib import Path
from typing import Sequence

from .errors import CorpusError
from .inputs import CorpusInput, as_input
from .products import project_files
from .discovery import discover

RACY_SECONDS = 2
_PACKAGE = Path(__file__).parent


def corpus_stamp(paths: Sequence[Path | CorpusInput] | None) -> str | None:
    """A digest of what ``load_documents(paths)`` depends on (None: the bundled notes), or None
    when it cannot be told (a path that cannot be listed, a file changed a moment ago)."""
    try:
        inputs = None if paths is None else [as_input(p) for p in paths]
        files = discover(None) if inputs is None else [f for given in inputs for f in discover([given.path])]
    except (CorpusError, OSError, ValueError):
        return None
    # the Python that reads: its TOML reader (3.11+) and Unicode tables shape the documents too
    rows: list = [["inputs", None if inputs is None else [[str(given), *given.other_names] for given in inputs],
                   list(sys.version_info[:2]), unicodedata.unidata_version]]
    folders: dict[Path, None] = {}
    for f in files:
        rows.append([f.display, f.relative, _stat(f.path)])
        folders.setdefault(f.path.parent)
    rows.extend([str(place), _stat(place)] for folder in folders for place in project_files(folder))
    rows.extend([str(path.relative_to(_PACKAGE)), _stat(path)] for path in _code())
    recent = time.time_ns() - RACY_SECONDS * 1_000_000_000
    if any(row[-1] is not None and max(row[-1][1:3]) >= recent for row in rows[1:]):
        return None
    return hashlib.sha256(json.dumps(rows).encode("utf-8")).hexdigest()


def _stat(path: Path) -> list[int] | None:
    """(size, modification ns, change ns, inode) of a file; None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _code() -> list[Path]:
    """This package's files (its code, its tables and the bundled notes), sorted."""
    found = []
    for root, dirs, names in os.walk(_PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        found.extend(Path(root) / name for name in names if not name.endswith((".pyc", ".pyo")))
    return sorted(found)
