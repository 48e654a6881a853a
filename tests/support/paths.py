"""Where the tests find things, the same from every test folder."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"  # the small fixture corpus
BUNDLED = REPO / "corpus" / "data"  # the corpus shipped in the package
QUESTION_SETS = REPO / "benchmarks" / "questions"  # the shipped question sets
CHANGELOGS = REPO.parent / "shared" / "data" / "changelogs"  # optional: tests that use it skip without it
ZOO = REPO.parent / "shared" / "data" / "zoo"  # optional too: real notes in five projects' shapes
