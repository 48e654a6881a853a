"""The sentence list: chunks ranked by their best sentence, stored at build time and fused in hybrid."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index.build import pipeline as store
from index.errors import IndexCorrupt
from index.retrieve.fusion import DEFAULT_FUSION, FusionParams, fuse
from index.retrieve.reader import LoadedIndex
from index.retrieve.search import Searcher
from index.store.layout import SENTENCE_CHUNKS
from index.retrieve.sentence_vectors import (
    SentenceVectors,
    corpus_sentences,
    sentence_key,
    write_sentence_vectors,
)
from tests.support.fakes import FakeEncoder, make_chunk

CORPUS = {"fingerprint": "f0", "inputs": ["<test>"], "documents": {"d": {"source": "x", "sha256": "0"}}}


def unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_corpus_sentences_lists_each_distinct_sentence_once_and_maps_every_chunk() -> None:
    texts = [
        "Alpha beta gamma delta. A shared sentence is here.",
        "A shared sentence is here. Another sentence with words.",
        "- a b\n- c d",  # items under four words are not sentences: this chunk has none
        "Last chunk has one sentence.",
    ]
    sentences, pairs = corpus_sentences(texts)
    assert sentences == ["Alpha beta gamma delta.", "A shared sentence is here.", "Another sentence with words.",
                         "Last chunk has one sentence."]
    assert pairs.dtype == np.int32 and pairs.tolist() == [[0, 0], [0, 1], [1, 1], [1, 2], [3, 3]]


def test_best_per_chunk_is_the_best_sentence_and_nan_without_one() -> None:
    vectors = np.stack([unit(1, 0, 0), unit(0, 1, 0), unit(1, 1, 0), unit(0, 0, 1)])
    chunks = np.array([[0, 0], [0, 1], [1, 2], [3, 3], [3, 0]], dtype=np.int32)  # chunk 2 has no sentence
    stored = SentenceVectors(["a", "b", "c", "d"], vectors, chunks)
    best = stored.best_per_chunk(unit(0, 1, 0), 4)
    np.testing.assert_allclose(best[[0, 1, 3]], [1.0, 1 / np.sqrt(2), 0.0], atol=1e-6)
    assert np.isnan(best[2])
    assert SentenceVectors(["a", "b", "c", "d"], vectors).best_per_chunk(unit(0, 1, 0), 4) is None  # older index
    # Only the chunks asked for are scored (hybrid asks for what BM25 and the windows found).
    some = stored.best_per_chunk(unit(0, 1, 0), 4, only=np.array([3, 2, 3, 0]))
    np.testing.assert_allclose(some[[0, 3]], [1.0, 0.0], atol=1e-6)
    assert np.isnan(some[1]) and np.isnan(some[2])
    assert np.isnan(stored.best_per_chunk(unit(0, 1, 0), 4, only=np.array([], dtype=np.int64))).all()


@pytest.mark.parametrize(
    "bad",
    [
        np.array([[0, 0], [1, 5]], dtype=np.int32),  # a sentence row the store does not have
        np.array([[0, 0], [3, 1]], dtype=np.int32),  # a chunk the index does not have
        np.array([[1, 0], [0, 1]], dtype=np.int32),  # chunks out of order
        np.array([[0, -1]], dtype=np.int32),
        np.array([0, 1, 2], dtype=np.int32),  # not pairs
        np.array([[0.0, 1.0]]),  # not integers
    ],
    ids=["row", "chunk", "order", "negative", "shape", "dtype"],
)
def test_a_sentence_map_out_of_step_is_corrupt_not_a_crash(tmp_path: Path, bad: np.ndarray) -> None:
    keys = [sentence_key("One sentence of words."), sentence_key("Two sentences of words.")]
    write_sentence_vectors(tmp_path, keys, np.stack([unit(1, 0), unit(0, 1)]), np.zeros((0, 2), dtype=np.int32))
    with open(tmp_path / SENTENCE_CHUNKS, "wb") as fh:
        np.save(fh, bad, allow_pickle=False)
    with pytest.raises(IndexCorrupt, match=r"sentence_chunks\.npy is out of step.*relnotes index --rebuild"):
        SentenceVectors.load(tmp_path, n_chunks=2)


def test_a_sentence_map_that_is_not_npy_is_corrupt(tmp_path: Path) -> None:
    write_sentence_vectors(tmp_path, [sentence_key("One sentence of words.")], unit(1, 0)[None],
                           np.array([[0, 0]], dtype=np.int32))
    (tmp_path / SENTENCE_CHUNKS).write_bytes(b"not numpy")
    with pytest.raises(IndexCorrupt, match="unreadable"):
        SentenceVectors.load(tmp_path, n_chunks=1)


TEXTS = [
    ("The allocator now buckets large allocations to bound reserved memory. Other words follow here.", "2.14"),
    ("Native kernels replace older fallbacks for linear algebra. Speedups reach many times.", "2.14"),
    ("- lu_solve\n- cholesky", "2.13"),  # a list of names: no sentence
    ("Graph breaks can now resume or error in marked regions of compiled code.", "2.9"),
]


@pytest.fixture()
def built(tmp_path: Path):
    encoder = FakeEncoder()
    items = [make_chunk(i, text, version) for i, (text, version) in enumerate(TEXTS)]
    store.build_index(tmp_path / "idx", items, encoder=encoder, corpus=CORPUS)
    loaded = LoadedIndex(tmp_path / "idx")
    loaded.set_encoder(encoder)
    return loaded, encoder


def test_the_build_stores_which_sentences_each_chunk_holds(built) -> None:
    loaded, encoder = built
    assert SENTENCE_CHUNKS in loaded.manifest.files
    stored = loaded.sentence_vectors()
    owners = stored.chunks[:, 0].tolist()
    assert owners == [0, 0, 1, 1, 3]  # chunk 2 (names only) has none
    first = stored.vectors[stored.chunks[0, 1]]
    np.testing.assert_allclose(first, encoder.encode([TEXTS[0][0].split(". ")[0] + "."])[0], atol=1e-6)


def test_sentence_list_ranks_chunks_by_their_best_sentence(built) -> None:
    loaded, encoder = built
    searcher = Searcher(loaded)
    query = encoder.encode(["Graph breaks can now resume or error in marked regions of compiled code."])[0]
    hits = searcher.sentences(query, 10, None)
    assert hits[0] == (3, pytest.approx(1.0, abs=1e-5))
    scores = [s for _, s in hits]
    assert sorted(r for r, _ in hits) == [0, 1, 3] and scores == sorted(scores, reverse=True)  # 2: no sentence
    assert [r for r, _ in hits][0] == 3
    # A chunk with no sentence keeps the score its best window had in the dense list.
    with_windows = dict(searcher.sentences(query, 10, None, windows=[(2, 0.42), (3, 0.1)]))
    assert with_windows[2] == pytest.approx(0.42) and with_windows[3] == pytest.approx(1.0, abs=1e-5)
    # The release filter applies before ranking; k bounds the list.
    allowed = searcher.mask(["2.14"])
    assert {r for r, _ in searcher.sentences(query, 10, allowed)} == {0, 1}
    assert len(searcher.sentences(query, 1, None)) == 1


def test_hybrid_fuses_the_sentence_list_and_reports_its_rank(built) -> None:
    loaded, encoder = built
    question = "allocator buckets bound reserved memory"
    hits = Searcher(loaded).search(question, k=4, mode="hybrid")
    assert hits[0].chunk.version == "2.14" and hits[0].sentence_rank == 1
    assert all(0.0 <= h.score <= 1.0 for h in hits)
    two_lists = Searcher(loaded, fusion=FusionParams("minmax", 60, (0.5, 0.5), 1000)).search(question, k=4)
    assert all(h.sentence_rank is None for h in two_lists)
    assert [h.score for h in two_lists] != [h.score for h in hits]
    for mode in ("bm25", "dense"):  # the single retrievers stay themselves
        assert all(h.sentence_rank is None for h in Searcher(loaded).search(question, k=4, mode=mode))


def test_an_index_without_the_map_searches_with_two_lists(built, tmp_path: Path) -> None:
    loaded, _ = built
    manifest_path = loaded.directory / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    del manifest["files"][SENTENCE_CHUNKS]
    manifest_path.write_text(json.dumps(manifest))
    older = LoadedIndex(loaded.directory)
    older.set_encoder(loaded.encoder())
    assert older.sentence_vectors().chunks is None
    hits = Searcher(older).search("allocator buckets bound reserved memory", k=4)
    assert hits and all(h.sentence_rank is None for h in hits)


def test_fuse_with_the_sentence_list_divides_by_the_weights() -> None:
    lexical, dense = [(1, 2.0), (2, 1.0)], [(2, 0.5), (1, 0.1)]
    sentences = [(3, 0.9), (1, 0.7), (2, 0.5)]
    fused = fuse(lexical, dense, FusionParams("minmax", 60, (0.5, 0.5), 10, sentences=0.5), sentences)
    # 1: (0.5 + 0 + 0.5 * 0.5) / 1.5; 2: (0 + 0.5 + 0) / 1.5; 3: 0.5 / 1.5 (tie: 2 was first in a list earlier)
    assert fused == [(1, pytest.approx(0.5)), (2, pytest.approx(1 / 3)), (3, pytest.approx(1 / 3))]
    off = FusionParams("minmax", 60, (0.5, 0.5), 10)
    assert fuse(lexical, dense, off, sentences) == fuse(lexical, dense, off)
    assert DEFAULT_FUSION.sentences > 0


def test_the_sentence_weight_must_be_a_finite_non_negative_number() -> None:
    for bad in (-0.5, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="weights must be finite and >= 0"):
            FusionParams("minmax", 60, (0.5, 0.5), 10, sentences=bad)


RESULTS = st.lists(st.tuples(st.integers(0, 40), st.floats(-1e6, 1e6, allow_nan=False)), max_size=30)


@settings(max_examples=200, deadline=None)
@given(lexical=RESULTS, dense=RESULTS, sentences=RESULTS, method=st.sampled_from(["rrf", "minmax"]),
       weights=st.tuples(st.floats(0, 10), st.floats(0, 10), st.floats(1e-3, 10)))
def test_three_list_fusion_is_a_sorted_merge_within_bounds(lexical, dense, sentences, method, weights) -> None:
    params = FusionParams(method, 60, weights[:2], 30, sentences=weights[2])
    fused = fuse(lexical, dense, params, sentences)
    ids = [d for d, _ in fused]
    assert len(ids) == len(set(ids)) == len({d for d, _ in lexical + dense + sentences})
    scores = [s for _, s in fused]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 <= s <= 1.0 + 1e-9 for s in scores)


def test_a_bad_mask_is_refused_like_the_other_retrievers(built) -> None:
    loaded, encoder = built
    vector = encoder.encode(["graph breaks"])[0]
    for bad in (np.array([1, 0, 1, 1]), np.ones(3, dtype=bool)):
        with pytest.raises(ValueError, match="allowed must be a bool array of shape"):
            Searcher(loaded).sentences(vector, 5, bad)
