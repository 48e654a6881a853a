"""The approximate dense index of a large corpus (IVF): recall against exact search, filters
applied inside faiss (a narrow one searched exactly), saved and reopened, chosen by size."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from index.retrieve import dense
from index.retrieve.dense import DenseIndex, lists


def clustered(n: int, dim: int = 48, centres: int = 60, seed: int = 0) -> np.ndarray:
    """Unit vectors around a few centres, as embeddings of a corpus are."""
    rng = np.random.default_rng(seed)
    middle = rng.standard_normal((centres, dim))
    rows = middle[rng.integers(0, centres, n)] + 0.35 * rng.standard_normal((n, dim))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def recall_at_10(approx: DenseIndex, exact: DenseIndex, queries: np.ndarray, allowed=None) -> float:
    found = [len({i for i, _ in approx.search(q, 10, allowed)} & {i for i, _ in exact.search(q, 10, allowed)})
             for q in queries]
    return sum(found) / (10 * len(queries))


def test_recall_against_exact_search_and_the_same_scores() -> None:
    rows = clustered(12000)
    approx, exact = DenseIndex.build(rows, approximate=True), DenseIndex.build(rows)
    assert approx.approximate == f"IVF {lists(12000)} cells, {dense.NPROBE} probed" and exact.approximate is None
    queries = clustered(50, seed=1)
    assert recall_at_10(approx, exact, queries) >= 0.9
    (item, score), (best_item, best_score) = approx.search(queries[0], 1)[0], exact.search(queries[0], 1)[0]
    assert item == best_item and score == pytest.approx(best_score)  # a hit's score is its exact inner product


def test_a_deep_list_probes_cells_enough_for_it() -> None:
    rows = clustered(12000)
    approx, exact = DenseIndex.build(rows, approximate=True), DenseIndex.build(rows)
    assert dense.NPROBE * 12000 / lists(12000) < 1000  # the default probes alone hold fewer vectors
    query = clustered(1, seed=4)[0]
    deep = approx.search(query, 1000)
    assert len(deep) == 1000 and recall_at_10(approx, exact, clustered(20, seed=5)) >= 0.9
    assert len({i for i, _ in deep} & {i for i, _ in exact.search(query, 1000)}) >= 900


def test_a_narrow_filter_is_searched_exactly_inside_faiss() -> None:
    rows = clustered(12000)
    owners = np.repeat(np.arange(6000), 2)  # two windows a chunk
    approx, exact = DenseIndex.build(rows, owners, approximate=True), DenseIndex.build(rows, owners)
    allowed = np.zeros(6000, dtype=bool)
    allowed[100:160] = True  # one release's chunks
    for q in clustered(20, seed=2):
        hits, truth = approx.search(q, 10, allowed), exact.search(q, 10, allowed)  # faiss and numpy: same sums, last bits apart
        assert [i for i, _ in hits] == [i for i, _ in truth] and len(hits) == 10 and all(allowed[i] for i, _ in hits)
        assert [s for _, s in hits] == pytest.approx([s for _, s in truth], abs=1e-6)
    half = np.arange(6000) % 2 == 0  # a broad filter: probes scaled, still approximate
    assert recall_at_10(approx, exact, clustered(30, seed=3), half) >= 0.9


def test_saved_and_reopened_with_its_vectors_in_order(tmp_path: Path) -> None:
    rows = clustered(3000)
    DenseIndex.build(rows, approximate=True).save(tmp_path / "v.faiss")
    again = DenseIndex.load(tmp_path / "v.faiss", np.arange(3000))
    assert again.approximate and again.n == 3000
    assert np.array_equal(again.vectors(), rows)  # what an incremental rebuild reuses


def test_the_size_decides_and_a_build_writes_it(tmp_path: Path, monkeypatch) -> None:
    from index.build.pipeline import build_index
    from index.retrieve.reader import LoadedIndex
    from tests.support.fakes import FakeEncoder, make_chunk

    chunks = [make_chunk(i, f"Fixed item {i} of the cache module number {i % 17}.") for i in range(400)]
    corpus = {"fingerprint": "f", "inputs": ["<test>"], "documents": {}}
    monkeypatch.setattr(dense, "ANN_MIN_VECTORS", 10**9)
    build_index(tmp_path / "exact", chunks, encoder=FakeEncoder(), corpus=corpus)
    assert LoadedIndex(tmp_path / "exact").dense().approximate is None
    assert "search" not in LoadedIndex(tmp_path / "exact").manifest.model
    monkeypatch.setattr(dense, "ANN_MIN_VECTORS", 100)
    build_index(tmp_path / "ivf", chunks, encoder=FakeEncoder(), corpus=corpus)
    loaded = LoadedIndex(tmp_path / "ivf")
    assert loaded.dense().approximate == loaded.manifest.model["search"] == "IVF 10 cells, 10 probed"  # 400 windows: 400 // 39 cells
    assert np.array_equal(loaded.dense().vectors(), LoadedIndex(tmp_path / "exact").dense().vectors())
    query = FakeEncoder().encode(["Fixed item 7 of the cache module number 7."])[0]
    assert loaded.dense().search(query, 1)[0][0] == 7
    # an update of an approximate index reuses every vector and stays approximate
    report = build_index(tmp_path / "ivf", chunks, encoder=FakeEncoder(), corpus=corpus,
                         previous=loaded.previous_vectors(), previous_sentences=loaded.previous_sentence_vectors())
    assert report.embedded == 0 and report.reused == 400
    assert LoadedIndex(tmp_path / "ivf").dense().approximate


def test_status_says_how_the_index_is_searched(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from qa.cli.main import cli
    from tests.support.fakes import FakeEncoder

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "CHANGELOG.md").write_text("# Changelog\n\n" + "".join(
        f"## [1.{n}.0]\n\n- Fixed the cache case {n}.\n- Added option {n}.\n\n" for n in range(30)))
    monkeypatch.setattr(dense, "ANN_MIN_VECTORS", 20)
    monkeypatch.setattr("index.encode.encoders.Encoder", lambda *a, **k: FakeEncoder())
    run = CliRunner().invoke
    built = run(cli, ["index", "--corpus", str(notes), "--index", str(tmp_path / "idx")])
    assert built.exit_code == 0, built.output
    out = run(cli, ["status", "--corpus", str(notes), "--index", str(tmp_path / "idx")]).output
    assert "search:    approximate, IVF " in out and " probed" in out
