"""Which well-known packages ship their release notes, and how many releases relnotes reads from them.

    python benchmarks/fetch_notes.py                       # the packages below, from your pip's and npm's index
    python benchmarks/fetch_notes.py httpx npm:vite        # others
    python benchmarks/fetch_notes.py --cache /tmp/notes    # a cache of its own (default: a temporary one)

Network: it asks the index your pip and npm use (``relnotes add``'s rules: PIP_INDEX_URL, pip's
configuration or its default; npm_config_registry, .npmrc or ``npm config get registry``) for
these named packages only, one after the other, and downloads each newest source archive once.
It prints one row a package: the version fetched, the notes files kept, the releases the corpus
reader finds in them (distinct versions of the chunks), or why there are none.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PYTHON = ["requests", "urllib3", "httpx", "flask", "werkzeug", "jinja2", "click", "django", "numpy", "pytest",
          "sqlalchemy", "pydantic", "attrs", "pillow", "matplotlib", "mypy", "celery", "black", "rich", "packaging"]
NPM = ["npm:react", "npm:vite", "npm:express", "npm:lodash", "npm:typescript"]


def releases_read(record) -> tuple[int, str]:
    """How many distinct releases the corpus reader finds in a package's notes (and an error, if any)."""
    from corpus import load_corpus
    from corpus.errors import CorpusError

    try:
        corpus = load_corpus([record.corpus_input()])
    except CorpusError as exc:
        return 0, str(exc)
    return len({c.version for c in corpus.chunks if c.version}), ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("packages", nargs="*", default=PYTHON + NPM)
    parser.add_argument("--cache", type=Path, default=None, help="XDG cache folder to fetch into (default: a new one)")
    args = parser.parse_args()
    cache = args.cache or Path(tempfile.mkdtemp(prefix="relnotes-fetch-bench-"))
    os.environ["XDG_CACHE_HOME"] = str(cache)

    from corpus.packages import Indexes, add_packages

    indexes = Indexes(None, None)
    rows, started = [], time.perf_counter()
    for spec in args.packages:
        began = time.perf_counter()
        (outcome,) = add_packages([spec], indexes)
        seconds = time.perf_counter() - began
        d = outcome.dependency
        if outcome.action == "failed":
            rows.append((spec, "-", "0", "-", f"failed: {d.problem}", seconds))
            continue
        notes = d.notes
        if not notes.shipped:
            rows.append((spec, notes.version, "0", "-", f"no notes shipped; changelog: {notes.changelog_url or 'not named'}",
                         seconds))
            continue
        count, error = releases_read(notes)
        files = ", ".join(f.path for f in notes.files[:3]) + (f" +{len(notes.files) - 3}" if len(notes.files) > 3 else "")
        rows.append((spec, notes.version, str(len(notes.files)), str(count), error or files, seconds))
    print(f"| package | version | notes files | releases read | files, or why none | s |")
    print("|---|---|---|---|---|---|")
    for spec, version, files, count, what, seconds in rows:
        print(f"| {spec} | {version} | {files} | {count} | {what} | {seconds:.1f} |")
    shipped = sum(r[2] != "0" for r in rows)
    print(f"\n{shipped} of {len(rows)} packages ship notes; {time.perf_counter() - started:.0f} s in all; cache {cache}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
