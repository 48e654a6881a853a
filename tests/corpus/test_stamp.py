"""The corpus stamp: the same while nothing reading the corpus depends on changes, another when
a file, a file list, a project file or a product given changes, none when it cannot be told."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from corpus import CorpusInput
from corpus import stamp as stamps
from corpus.stamp import corpus_stamp

TICK = 0.05  # file times move by the kernel's clock tick: changes a test makes are this far apart


@pytest.fixture
def notes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(stamps, "RACY_SECONDS", 0)  # files written a moment ago count (tests only)
    folder = tmp_path / "proj" / "docs"
    folder.mkdir(parents=True)
    (folder / "CHANGES.md").write_text("# Tool 1.0\n\nAdded widgets.\n")
    (folder / "OLD.rst").write_text("Tool 0.9\n========\n\nFixed a crash.\n")
    time.sleep(TICK)
    return folder


def changed(folder: Path, change) -> bool:
    before = corpus_stamp([folder])
    change()
    time.sleep(TICK)
    after = corpus_stamp([folder])
    assert before is not None and after is not None
    return before != after


def test_the_same_while_nothing_changes(notes: Path) -> None:
    assert corpus_stamp([notes]) == corpus_stamp([notes]) is not None
    assert corpus_stamp(None) == corpus_stamp(None) is not None  # the bundled notes
    assert corpus_stamp([notes]) != corpus_stamp(None)


def test_an_edit_changes_it_even_with_the_old_size_and_modification_time(notes: Path) -> None:
    path = notes / "CHANGES.md"
    st = path.stat()

    def edit() -> None:
        path.write_text("# Tool 1.0\n\nAdded gadgets.\n")  # the same size
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # the old modification time: the change time moves

    assert changed(notes, edit)


@pytest.mark.parametrize("change", ["new file", "removed file", "project file", "ignored file"])
def test_the_files_and_the_project_files_around_them_count(notes: Path, change: str) -> None:
    act = {
        "new file": lambda: (notes / "NEWS.txt").write_text("Tool 1.1\n\nNew.\n"),
        "removed file": lambda: (notes / "OLD.rst").unlink(),
        "project file": lambda: (notes.parent / "pyproject.toml").write_text('[project]\nname = "gizmo"\n'),
        "ignored file": lambda: (notes / "logo.png").write_bytes(b"\x89PNG"),
    }[change]
    assert changed(notes, act) is (change != "ignored file")


def test_the_product_given_counts(notes: Path) -> None:
    assert corpus_stamp([CorpusInput(notes, "gizmo")]) != corpus_stamp([notes])
    assert corpus_stamp([CorpusInput(notes, "gizmo")]) != corpus_stamp([CorpusInput(notes, "widget")])


def test_the_readers_code_and_tables_count() -> None:
    code = {str(p.relative_to(stamps._PACKAGE)) for p in stamps._code()}
    assert {"readers.py", "records.py", "products.py", "stamp.py"} <= code
    assert any(name.startswith("data/") for name in code) and not any("__pycache__" in name for name in code)


def test_none_when_it_cannot_be_told(tmp_path: Path, notes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert corpus_stamp([tmp_path / "absent"]) is None
    monkeypatch.setattr(stamps, "RACY_SECONDS", 2)
    (notes / "CHANGES.md").write_text("# Tool 1.0\n\nJust edited.\n")
    assert corpus_stamp([notes]) is None  # changed a moment ago: a second edit in the same tick would go unseen


def test_the_python_that_reads_counts(notes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    before = corpus_stamp([notes])
    monkeypatch.setattr(sys, "version_info", (3, 99, 0, "final", 0))  # another TOML reader, other Unicode tables
    assert corpus_stamp([notes]) != before
