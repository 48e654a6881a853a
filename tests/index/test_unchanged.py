"""An index whose corpus is unchanged since it was last read opens without reading a file
(``index.lifecycle.unchanged``), and any change sends the open the long way, as before."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

import corpus
import index.encode.encoders
import index.lifecycle.opening as opening
from corpus import stamp as stamps
from index.errors import IndexStale
from index.lifecycle.unchanged import STAMP_FILE
from tests.support.fakes import FakeEncoder

NOTES = {
    "a.md": "# Tool 1.0\n\n## Features\n\nAdded the frobnicator for fast widgets.\n",
    "b.md": "# Tool 1.1\n\n## Fixes\n\nFixed a crash on start.\n",
}


@pytest.fixture
def reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each corpus read by an open (a count); files written a moment ago count for the stamp here."""
    monkeypatch.setattr(stamps, "RACY_SECONDS", 0)
    monkeypatch.setattr(index.encode.encoders, "Encoder", lambda model_path=None: FakeEncoder())
    real, counted = corpus.load_documents, []
    monkeypatch.setattr(corpus, "load_documents", lambda *a, **k: counted.append(1) or real(*a, **k))
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, text in NOTES.items():
        (folder / name).write_text(text)
    time.sleep(0.05)  # past the clock tick of the writes
    return counted


def open_(tmp_path: Path, **kwargs):
    return opening.open_index([tmp_path / "notes"], index_dir=tmp_path / "idx", **kwargs)


def test_a_second_open_reads_no_file_and_answers_the_same(tmp_path: Path, reads: list[int]) -> None:
    built, report = open_(tmp_path)
    assert report is not None and reads == [1] and (tmp_path / "idx" / STAMP_FILE).is_file()
    again, report = open_(tmp_path, dense=True)
    assert report is None and reads == [1]  # the corpus was not read again
    assert again.chunks == built.chunks and again.manifest.corpus == built.manifest.corpus


def test_an_edited_file_is_read_and_the_index_rebuilt(tmp_path: Path, reads: list[int]) -> None:
    open_(tmp_path)
    (tmp_path / "notes" / "b.md").write_text("# Tool 1.1\n\n## Fixes\n\nFixed a hang on exit.\n")
    time.sleep(0.05)
    with pytest.raises(IndexStale, match=r"corpus changed \(0 added, 0 removed, 1 changed documents\)"):
        open_(tmp_path, update=False)
    loaded, report = open_(tmp_path)
    assert report is not None and "hang on exit" in " ".join(c.text for c in loaded.chunks)
    _, report = open_(tmp_path)
    assert report is None and reads == [1, 1, 1]  # read for the refusal and the rebuild; then known unchanged


def test_a_damaged_or_foreign_stamp_file_means_reading(tmp_path: Path, reads: list[int]) -> None:
    open_(tmp_path)
    stamp_file = tmp_path / "idx" / STAMP_FILE
    for text in ("{not json", json.dumps({"stamp": "x", "manifest": "y"}), "[]"):
        stamp_file.write_text(text)
        _, report = open_(tmp_path)
        assert report is None
    assert reads == [1, 1, 1, 1]
    open_(tmp_path)
    assert reads == [1, 1, 1, 1]  # the last read kept a good stamp again


def test_files_left_out_as_bad_are_said_on_every_open(tmp_path: Path, reads: list[int]) -> None:
    (tmp_path / "notes" / "bad.json").write_text("{ not json")
    time.sleep(0.05)
    skipped: list[str] = []
    open_(tmp_path, skip_bad=True, on_skip=lambda err: skipped.append(str(err)))
    open_(tmp_path, on_skip=lambda err: skipped.append(str(err)))
    assert len(skipped) == 2 and all("bad.json" in s for s in skipped) and reads == [1, 1]


def test_an_index_that_cannot_keep_its_stamp_still_opens(tmp_path: Path, reads: list[int],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from index.lifecycle import unchanged

    def read_only(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(unchanged, "tempfile", SimpleNamespace(mkstemp=read_only))  # as in a read-only index
    open_(tmp_path)
    _, report = open_(tmp_path)
    assert report is None and reads == [1, 1] and not (tmp_path / "idx" / STAMP_FILE).exists()
    assert [p.name for p in (tmp_path / "idx").iterdir() if p.name.startswith(".")] == []


def test_a_first_stage_keeps_it_and_the_vectors_build_keeps_it_for_the_new_manifest(tmp_path: Path,
                                                                                     reads: list[int]) -> None:
    first, _ = open_(tmp_path, staged=True)
    assert not first.complete
    staged, report = open_(tmp_path, staged=True)
    assert report is None and not staged.complete and reads == [1]
    whole, report = open_(tmp_path)  # the vectors are built: the corpus is read for the chunks
    assert whole.complete and report is not None and reads == [1, 1]
    again, report = open_(tmp_path)
    assert again.complete and report is None and reads == [1, 1]


def test_a_rebuild_asked_for_reads_the_corpus(tmp_path: Path, reads: list[int]) -> None:
    open_(tmp_path)
    _, report = open_(tmp_path, rebuild=True)
    assert report is not None and reads == [1, 1]


def test_a_bad_file_left_out_of_a_clean_index_keeps_stopping_a_plain_open(tmp_path: Path, reads: list[int]) -> None:
    """--skip-bad over an index built clean leaves the same documents (nothing rebuilt, the manifest
    records no skip): no stamp may vouch for that read, or the next plain open would not see the file."""
    from corpus import BinaryFile

    open_(tmp_path)
    (tmp_path / "notes" / "bad.md").write_bytes(b"\x89PNG\r\n")
    time.sleep(0.05)
    skipped: list[str] = []
    _, report = open_(tmp_path, skip_bad=True, on_skip=lambda err: skipped.append(str(err)))
    assert report is None and len(skipped) == 1 and "bad.md" in skipped[0]
    with pytest.raises(BinaryFile, match="bad.md"):
        open_(tmp_path)
    open_(tmp_path, skip_bad=True, on_skip=lambda err: skipped.append(str(err)))
    assert len(skipped) == 2


def test_a_stamp_of_another_record_form_vouches_for_nothing(tmp_path: Path, reads: list[int],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from index.lifecycle import unchanged

    open_(tmp_path)
    monkeypatch.setattr(unchanged, "RECORD_VERSION", unchanged.RECORD_VERSION + 1)  # describe_corpus changed
    open_(tmp_path)
    assert reads == [1, 1]
    open_(tmp_path)
    assert reads == [1, 1]  # kept again for the new form
