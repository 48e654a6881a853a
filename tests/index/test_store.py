"""Index persistence: round trip, incremental embedding, corruption, interruption, filters."""

from __future__ import annotations

import errno
import json
import os
import threading
from pathlib import Path

import numpy as np
import pytest

from index.store import atomic
from index.build import pipeline as store
from index.build import writer
from index.errors import IndexCorrupt, IndexMissing, IndexWriteError
from index.store.manifest import INDEX_FORMAT_VERSION, read_manifest
from index.retrieve.reader import LoadedIndex
from index.retrieve.search import Searcher
from index.retrieve.tokenizer import tokenize
from tests.support.fakes import FakeEncoder, make_chunk

TEXTS = [
    ("MPS gets native Metal kernels for lu_factor and lu_solve, over 100x faster.", "2.14"),
    ("The nccl2 backend adds fault-tolerant process-group reconfiguration.", "2.14"),
    ("FlexAttention now runs on Intel GPUs through the XPU backend.", "2.9"),
    ("Symmetric memory enables easy programming of multi-GPU kernels.", "2.9"),
    ("torch.compile can toggle error or resume on graph breaks.", "2.9"),
    ("FlexAttention gains deterministic backward and new tile configs.", "2.13"),
    ("CUDA 13 wheels are now the default on Linux x86.", "2.13"),
]
CORPUS = {"fingerprint": "f0", "inputs": ["<test>"], "documents": {"d": {"source": "x", "sha256": "0"}}}


def chunks(texts=TEXTS):
    return [make_chunk(i, text, version) for i, (text, version) in enumerate(texts)]


def build(directory: Path, items, encoder=None, previous=None, previous_sentences=None):
    encoder = encoder or FakeEncoder()
    return store.build_index(directory, items, encoder=encoder, corpus=CORPUS, previous=previous,
                             previous_sentences=previous_sentences), encoder


def open_loaded(directory: Path, encoder: FakeEncoder) -> LoadedIndex:
    loaded = LoadedIndex(directory)
    loaded.set_encoder(encoder)
    return loaded


def test_round_trip_keeps_chunks_scores_and_vectors(tmp_path: Path) -> None:
    items = chunks()
    report, encoder = build(tmp_path / "idx", items)
    assert (report.chunks, report.embedded, report.reused) == (len(items), len(items), 0)
    loaded = open_loaded(tmp_path / "idx", encoder)
    assert loaded.chunks == tuple(items)
    expected = encoder.encode([c.index_text for c in items])
    np.testing.assert_allclose(loaded.dense().vectors(), expected, atol=1e-6)
    query = tokenize("lu_factor speedup on MPS")
    assert loaded.lexical.top_k(query, 1)[0][0] == 0
    manifest = read_manifest(tmp_path / "idx")
    assert manifest.format_version == INDEX_FORMAT_VERSION
    assert manifest.model["name"] == "fake-encoder" and manifest.model["dim"] == encoder.dim
    assert set(manifest.files) >= {"chunks.jsonl", "vectors.faiss"}
    assert manifest.counts["chunks"] == len(items)


def test_incremental_rebuild_embeds_only_changed_chunks(tmp_path: Path) -> None:
    items = chunks()
    _, first = build(tmp_path / "idx", items)
    old = open_loaded(tmp_path / "idx", first)
    previous, previous_sentences = old.previous_vectors(), old.previous_sentence_vectors()
    changed = list(items)
    changed[2] = make_chunk(2, "FlexAttention now runs on Intel GPUs and Arm CPUs.", "2.9")
    del changed[5]  # a removed chunk disappears from both sides
    encoder = FakeEncoder()
    report, _ = build(tmp_path / "idx", changed, encoder, previous, previous_sentences)
    # one window and its one new sentence are embedded; every other vector is reused
    assert encoder.embedded == 2 and report.embedded == 1 and report.reused == len(changed) - 1
    loaded = open_loaded(tmp_path / "idx", encoder)
    assert [c.id for c in loaded.chunks] == [c.id for c in changed]
    assert loaded.lexical.n_docs == loaded.dense().n == len(changed)
    hits = Searcher(loaded).search("deterministic backward tile configs", k=10, mode="bm25")
    assert all(h.chunk.id != "c0005" for h in hits)


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_release_filter_applies_before_fusion(tmp_path: Path, mode: str) -> None:
    _, encoder = build(tmp_path / "idx", chunks())
    searcher = Searcher(open_loaded(tmp_path / "idx", encoder))
    # The query matches 2.9 and 2.13 chunks best ("kernels" also hits a 2.14 one): only 2.14 may come back.
    hits = searcher.search("FlexAttention Intel GPUs deterministic backward kernels", k=10, mode=mode, versions=["2.14"])
    assert hits and {h.chunk.version for h in hits} == {"2.14"}
    ids = [h.chunk.id for h in hits]
    assert len(ids) == len(set(ids))
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_hybrid_dedupes_by_chunk_id_not_text(tmp_path: Path) -> None:
    same = "This release is composed of 3216 commits from 452 contributors."
    items = [make_chunk(0, same, "2.9"), make_chunk(1, same, "2.13"), make_chunk(2, "unrelated text here", "2.14")]
    _, encoder = build(tmp_path / "idx", items)
    hits = Searcher(open_loaded(tmp_path / "idx", encoder)).search("commits contributors", k=5)
    assert [h.chunk.id for h in hits][:2] in (["c0000", "c0001"], ["c0001", "c0000"])


def test_missing_index_is_reported(tmp_path: Path) -> None:
    with pytest.raises(IndexMissing, match="relnotes index"):
        LoadedIndex(tmp_path / "nothing")


def test_deleted_manifest_is_corrupt(tmp_path: Path) -> None:
    build(tmp_path / "idx", chunks())
    (tmp_path / "idx" / "manifest.json").unlink()
    with pytest.raises(IndexCorrupt, match="manifest.json"):
        LoadedIndex(tmp_path / "idx")


@pytest.mark.parametrize("name", ["chunks.jsonl", "vectors.faiss", "lexical.npz"])
def test_truncated_file_fails_its_checksum(tmp_path: Path, name: str) -> None:
    _, encoder = build(tmp_path / "idx", chunks())
    path = tmp_path / "idx" / name
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(IndexCorrupt, match="checksum") as info:
        open_loaded(tmp_path / "idx", encoder).dense()
    assert name in str(info.value) and "relnotes index --rebuild" in str(info.value)


def test_chunks_truncated_mid_line_without_checksum_check(tmp_path: Path) -> None:
    build(tmp_path / "idx", chunks())
    path = tmp_path / "idx" / "chunks.jsonl"
    path.write_text(path.read_text()[:-40])
    with pytest.raises(IndexCorrupt, match=r"line \d+ is damaged"):
        LoadedIndex(tmp_path / "idx", verify=False)


def test_vectors_out_of_step_with_chunks(tmp_path: Path) -> None:
    build(tmp_path / "a", chunks())
    _, encoder = build(tmp_path / "b", chunks()[:3])
    os.replace(tmp_path / "b" / "vectors.faiss", tmp_path / "a" / "vectors.faiss")
    with pytest.raises(IndexCorrupt, match="out of step"):
        LoadedIndex(tmp_path / "a", verify=False).dense()


def test_interrupted_build_keeps_the_previous_index(tmp_path: Path) -> None:
    items = chunks()
    build(tmp_path / "idx", items)
    before = (tmp_path / "idx" / "manifest.json").read_text()
    failing = FakeEncoder()
    failing.fail_after = 2
    with pytest.raises(KeyboardInterrupt):
        build(tmp_path / "idx", [make_chunk(i + 10, t) for i, (t, _) in enumerate(TEXTS)], failing)
    assert (tmp_path / "idx" / "manifest.json").read_text() == before
    assert LoadedIndex(tmp_path / "idx").chunks == tuple(items)
    # no temporary index left; what was embedded before the interrupt is kept for the next build
    assert sorted(p.name for p in tmp_path.iterdir()) == [".idx.lock", ".idx.shards", "idx"]


def test_disk_full_while_writing_keeps_the_previous_index(tmp_path: Path, monkeypatch) -> None:
    items = chunks()
    build(tmp_path / "idx", items)

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer, "write_chunks", full)
    with pytest.raises(IndexWriteError, match="disk full"):
        build(tmp_path / "idx", chunks()[:2])
    assert LoadedIndex(tmp_path / "idx").chunks == tuple(items)
    # no temporary index left (the folder of embedded vectors may stay for the next build)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".idx.shards") == [".idx.lock", "idx"]


def test_read_only_directory_is_a_clear_error(tmp_path: Path, monkeypatch) -> None:
    """Root ignores permission bits, so the refusal is simulated where the build creates files."""
    items = chunks()
    build(tmp_path / "idx", items)

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(atomic.tempfile, "mkdtemp", refuse)
    with pytest.raises(IndexWriteError, match=r"Permission denied.*--index DIR"):
        build(tmp_path / "idx", chunks()[:2])
    assert LoadedIndex(tmp_path / "idx").chunks == tuple(items)


def test_two_builds_at_once_do_not_mix(tmp_path: Path) -> None:
    a = chunks()
    b = [make_chunk(i + 100, f"other text number {i}", "2.13") for i in range(5)]
    errors: list[BaseException] = []

    def run(items):
        try:
            build(tmp_path / "idx", items)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(items,)) for items in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    loaded = LoadedIndex(tmp_path / "idx")
    assert loaded.chunks in (tuple(a), tuple(b))
    assert loaded.dense().n == len(loaded.chunks)


def test_path_with_spaces_and_unicode(tmp_path: Path) -> None:
    directory = tmp_path / "my índex dir ✓" / "idx"
    _, encoder = build(directory, chunks())
    assert len(open_loaded(directory, encoder).chunks) == len(TEXTS)


def test_nothing_is_pickled(tmp_path: Path) -> None:
    build(tmp_path / "idx", chunks())
    for path in (tmp_path / "idx").iterdir():
        assert b"\x80\x04\x95" not in path.read_bytes()[:64], f"{path.name} looks like a pickle"
    json.loads((tmp_path / "idx" / "manifest.json").read_text())


@pytest.mark.parametrize("field", ["files", "model", "counts", "format_version"])
def test_damaged_manifest_fields_are_corruption(tmp_path: Path, field: str) -> None:
    build(tmp_path / "idx", chunks())
    path = tmp_path / "idx" / "manifest.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), field: [] if field != "format_version" else "1"}))
    with pytest.raises(IndexCorrupt, match=f"damaged fields \\({field}\\)"):
        LoadedIndex(tmp_path / "idx")


def test_index_under_a_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    with pytest.raises(IndexWriteError, match="--index DIR"):
        build(tmp_path / "afile" / "idx", chunks())


def test_vectors_are_not_reused_across_models_of_the_same_name(tmp_path: Path) -> None:
    items = chunks()
    first = FakeEncoder(name="model")
    build(tmp_path / "idx", items, first)
    previous = open_loaded(tmp_path / "idx", first).previous_vectors()
    other = FakeEncoder(name="model", dim=16)
    other.path = Path("/elsewhere/model")
    report, _ = build(tmp_path / "idx", items, other, previous)
    assert report.embedded == len(items)


def test_a_long_chunk_is_embedded_as_several_windows(tmp_path: Path) -> None:
    from corpus.chunking import embedding_windows

    long_text = " ".join(f"Sentence {i} says the nccl2 backend handles case number {i} well." for i in range(60))
    items = chunks() + [make_chunk(7, long_text, "2.14")]
    windows = embedding_windows(items[-1])
    assert len(windows) >= 3
    report, encoder = build(tmp_path / "idx", items)
    assert (report.chunks, report.embedded) == (len(items), len(TEXTS) + len(windows))
    loaded = open_loaded(tmp_path / "idx", encoder)
    assert loaded.dense().n == len(items) and loaded.dense().n_vectors == report.embedded
    np.testing.assert_allclose(loaded.dense().vectors()[len(TEXTS):], encoder.encode(list(windows)), atol=1e-6)
    assert read_manifest(tmp_path / "idx").counts["vectors"] == report.embedded
    hits = loaded.dense().search(encoder.encode_query(windows[-1]), 1)
    assert hits[0][0] == len(items) - 1  # its last window finds the chunk
    # Changing one sentence near the end re-embeds only the windows that hold it.
    changed = items[:-1] + [make_chunk(7, long_text.replace("case number 59", "case fifty-nine"), "2.14")]
    report2, _ = build(tmp_path / "idx", changed, FakeEncoder(), loaded.previous_vectors())
    assert 1 <= report2.embedded < len(windows)
    assert report2.embedded + report2.reused == report.embedded


def test_vectors_read_back_are_counted_by_window(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The faiss file holds one vector per window: 3 windows of 2 chunks pass, a file missing one fails."""
    from index.retrieve import dense

    vectors, owners = np.eye(3, 4, dtype=np.float32), np.array([0, 0, 1])
    writer._write_vectors(tmp_path / "whole.faiss", vectors, owners)
    real_write = dense.write_flat

    def drop_last(path, rows):  # still a readable faiss file, one window short
        real_write(path, rows[:-1])

    monkeypatch.setattr(dense, "write_flat", drop_last)
    with pytest.raises(OSError, match="vectors.faiss came back incomplete"):
        writer._write_vectors(tmp_path / "vectors.faiss", vectors, owners)


def test_every_sentence_is_embedded_at_build_time_for_the_answers(tmp_path: Path) -> None:
    from corpus.sentences import split_sentences
    from index.store.layout import SENTENCE_FILES as FILES

    items = chunks()
    report, encoder = build(tmp_path / "idx", items)
    loaded = open_loaded(tmp_path / "idx", encoder)
    assert set(FILES) <= set(loaded.manifest.files)
    stored = loaded.sentence_vectors()
    sentences = {s.text for c in items for s in split_sentences(c.text)}
    assert sentences and len(stored) == len(sentences) == loaded.manifest.counts["sentences"]
    for text in sentences:
        assert np.allclose(stored.get(text), encoder.encode([text])[0])
    assert stored.get("A sentence the corpus never had.") is None


def test_a_damaged_sentence_file_is_corrupt_not_a_crash(tmp_path: Path) -> None:
    from index.errors import IndexCorrupt
    from index.store.layout import SENTENCE_VECTORS

    _, encoder = build(tmp_path / "idx", chunks())
    path = tmp_path / "idx" / SENTENCE_VECTORS
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(IndexCorrupt, match="rebuild it with: relnotes index --rebuild"):
        open_loaded(tmp_path / "idx", encoder).sentence_vectors()


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_kind_filter_applies_inside_every_retriever(tmp_path: Path, mode: str) -> None:
    from dataclasses import replace

    items = [replace(c, kind="fixed" if n % 2 else "added") for n, c in enumerate(chunks())]
    _, encoder = build(tmp_path / "idx", items)
    searcher = Searcher(open_loaded(tmp_path / "idx", encoder))
    everything = searcher.search("FlexAttention Intel GPUs deterministic backward kernels", k=10, mode=mode)
    fixed = searcher.search("FlexAttention Intel GPUs deterministic backward kernels", k=10, mode=mode, kinds=["fixed"])
    assert {h.chunk.kind for h in everything} == {"fixed", "added"}
    assert fixed and {h.chunk.kind for h in fixed} == {"fixed"}
    if mode != "bm25":  # every allowed chunk scores in the vector lists: k of them come back, not k minus the others
        assert len(fixed) == min(10, sum(c.kind == "fixed" for c in items))
    assert searcher.search("kernels", k=5, mode=mode, kinds=["security"]) == []
