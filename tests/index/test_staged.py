"""An index in stages, with the real bundled model: chunks and BM25 first (searched in bm25 mode,
saying how far the vectors are), the vectors after, resumed where an interrupted build stopped;
a build interrupted while writing BM25 leaves the previous index as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from index import IndexMissing, LoadedIndex, Searcher, open_index
from index.build import embedding
from index.retrieve.lexical import LexicalIndex
from index.lifecycle.unchanged import STAMP_FILE
from index.store.layout import shards_dir
from index.store.shards import DenseProgress
from tests.support.hardening import listing

DATA = Path(__file__).resolve().parent.parent / "data"
CORPUS = [DATA / "changelog-rust-mini.md", DATA / "changelog-pydantic-mini.md"]


def test_a_staged_open_writes_chunks_and_bm25_only_and_searches_by_bm25(tmp_path: Path) -> None:
    loaded, report = open_index(CORPUS, index_dir=tmp_path / "idx", staged=True)
    assert not loaded.complete and loaded.pending() == DenseProgress(0, 0)  # no build has counted the texts yet
    assert report is not None and report.embedded == 0 and report.chunks == len(loaded.chunks) > 0
    assert sorted(p.name for p in (tmp_path / "idx").iterdir() if p.name != STAMP_FILE) == [
        "chunks.jsonl", "lexical.json", "lexical.npz", "manifest.json"]  # and the corpus stamp, not part of the index
    searcher = Searcher(loaded)
    assert searcher.usable("hybrid") == searcher.usable("dense") == "bm25"
    hits = searcher.search("uncaught panics", k=3, mode="hybrid")
    assert hits and hits == searcher.search("uncaught panics", k=3, mode="bm25")
    assert all(h.dense_rank is None for h in hits)
    with pytest.raises(IndexMissing, match="not built yet; build them with: relnotes index"):
        loaded.dense()
    again, report = open_index(CORPUS, index_dir=tmp_path / "idx", staged=True)
    assert report is None and not again.complete  # a staged open keeps the first stage: nothing is built


def test_an_interrupted_build_keeps_what_it_embedded_and_the_next_embeds_only_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding, "PIECE", 4)  # pieces of 4 texts: a small corpus makes several
    directory = tmp_path / "idx"
    open_index(CORPUS, index_dir=directory, staged=True)
    totals: list[int] = []

    def interrupt_halfway(done: int, total: int, what: str) -> None:
        totals.append(total)
        if done >= total // 2:
            raise KeyboardInterrupt  # as Ctrl+C in the middle of the embedding

    with pytest.raises(KeyboardInterrupt):
        open_index(CORPUS, index_dir=directory, progress=interrupt_halfway)
    total = totals[0]
    kept = LoadedIndex(directory)  # the first stage is still there and answers by BM25
    assert not kept.complete and Searcher(kept).search("uncaught panics", k=1, mode="hybrid")
    pending = kept.pending()
    assert pending.total == total and total // 2 - 4 <= pending.embedded < total and pending.embedded > 0

    finished, report = open_index(CORPUS, index_dir=directory)
    assert finished.complete and finished.pending() is None
    assert report.resumed == pending.embedded  # kept, never encoded again
    assert report.texts_embedded == total - pending.embedded  # only the rest
    assert not shards_dir(directory).exists()  # the index holds them now
    assert listing(tmp_path) == [".idx.lock", "idx"]

    monkeypatch.setenv("RELNOTES_VECTOR_STORE", "0")  # embedded from scratch, not taken from the shared store
    clean, clean_report = open_index(CORPUS, index_dir=tmp_path / "clean")  # never interrupted
    assert clean_report.texts_embedded == total and clean_report.resumed == 0
    np.testing.assert_allclose(finished.dense().vectors(), clean.dense().vectors(), atol=1e-5)
    np.testing.assert_allclose(finished.sentence_vectors().vectors, clean.sentence_vectors().vectors, atol=1e-5)


@pytest.mark.parametrize("staged", [True, False], ids=["first-stage", "complete-index"])
def test_a_build_interrupted_while_writing_bm25_leaves_the_previous_index(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, staged: bool) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    shutil.copy(CORPUS[0], notes / "RELEASES.md")
    directory = tmp_path / "idx"
    before, _ = open_index([notes], index_dir=directory, staged=staged)
    manifest = (directory / "manifest.json").read_text()
    with open(notes / "RELEASES.md", "a", encoding="utf-8") as fh:  # the corpus changes: the next open rebuilds
        fh.write("\nVersion 1.82.0 (2024-10-17)\n===========================\n\n- Added `cargo info`.\n")

    def interrupted(self, folder):
        raise KeyboardInterrupt  # Ctrl+C while the BM25 statistics are written

    monkeypatch.setattr(LexicalIndex, "save", interrupted)
    with pytest.raises(KeyboardInterrupt):
        open_index([notes], index_dir=directory, staged=staged)
    monkeypatch.undo()
    assert (directory / "manifest.json").read_text() == manifest
    kept = LoadedIndex(directory)
    assert kept.chunks == before.chunks and kept.complete == (not staged)
    hits = Searcher(kept).search("panics in extern C functions", k=1, mode="hybrid")
    assert hits and (hits[0].dense_rank is not None) == (not staged)
    assert [name for name in listing(tmp_path) if name != "notes"] == [".idx.lock", "idx"]  # no temporary folder


def test_the_vectors_build_takes_the_first_stages_bm25_as_it_is_and_holds_no_index_meanwhile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc
    import weakref

    from index.build import pipeline

    directory = tmp_path / "idx"
    open_index(CORPUS, index_dir=directory, staged=True)
    staged_bytes = {n: (directory / n).read_bytes() for n in ("lexical.json", "lexical.npz")}
    built, live, held = [], weakref.WeakSet(), []
    real_build, real_init, real_build_index = LexicalIndex.build.__func__, LoadedIndex.__init__, pipeline.build_index
    monkeypatch.setattr(LexicalIndex, "build", classmethod(lambda cls, *a, **k: built.append(1) or real_build(cls, *a, **k)))

    def tracked_init(self, *a, **k) -> None:
        live.add(self)
        real_init(self, *a, **k)

    def build_index(*a, **k):
        held.append(len(live))  # open indexes (their chunks and BM25 in memory) while the vectors are built
        return real_build_index(*a, **k)

    monkeypatch.setattr(LoadedIndex, "__init__", tracked_init)
    monkeypatch.setattr(pipeline, "build_index", build_index)
    loaded, report = open_index(CORPUS, index_dir=directory)
    assert loaded.complete and report is not None and report.texts_embedded > 0
    assert built == [] and held == [0]  # BM25 is not built a second time, and no index is held meanwhile ...
    assert {n: (directory / n).read_bytes() for n in staged_bytes} == staged_bytes  # ... its files taken as they were
    found = Searcher(loaded).search("uncaught panics", k=3, mode="bm25")
    del loaded
    gc.collect()  # the test's own index (a Searcher and it refer to each other)
    whole, _ = open_index(CORPUS, index_dir=tmp_path / "whole")  # never indexed: the first stage, then the vectors
    assert built == [1] and held == [0, 0]
    assert Searcher(whole).search("uncaught panics", k=3, mode="bm25") == found
