"""Exact vectors without faiss: the IndexFlatIP file read and written as faiss does, and searched
in numpy as faiss searches it (same items, scores to the last bits)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from index.errors import DenseIndexFileError
from index.retrieve.dense import DenseIndex
from index.retrieve.flat import item_starts, read_flat, top_items, write_flat
from index.runtime import import_faiss


def unit_rows(n: int, dim: int, seed: int = 0) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def faiss_flat(rows: np.ndarray):
    faiss = import_faiss()
    index = faiss.IndexFlatIP(rows.shape[1])
    index.add(rows)
    return faiss, index


@pytest.mark.parametrize("n", [0, 1, 70])
def test_the_file_is_byte_for_byte_the_one_faiss_writes(tmp_path: Path, n: int) -> None:
    rows = unit_rows(n, 12)
    faiss, index = faiss_flat(rows)
    faiss.write_index(index, str(tmp_path / "faiss.faiss"))
    write_flat(tmp_path / "ours.faiss", rows, slice_rows=16)  # several slices
    assert (tmp_path / "ours.faiss").read_bytes() == (tmp_path / "faiss.faiss").read_bytes()
    assert np.array_equal(read_flat(tmp_path / "faiss.faiss"), rows)
    back = faiss.read_index(str(tmp_path / "ours.faiss"))
    assert isinstance(back, faiss.IndexFlatIP) and np.array_equal(back.reconstruct_n(0, n), rows)


def test_search_finds_what_faiss_finds(tmp_path: Path) -> None:
    rows = unit_rows(3000, 32, seed=4)
    owners = np.repeat(np.arange(1000), 3)
    faiss, index = faiss_flat(rows)
    faiss.write_index(index, str(tmp_path / "v.faiss"))
    loaded = DenseIndex.load(tmp_path / "v.faiss", owners)
    for query in unit_rows(10, 32, seed=5):
        scores, found = index.search(query[None, :], 60)
        items = list(dict.fromkeys(int(owners[r]) for r in found[0]))[:10]  # each item at its best window
        hits = loaded.search(query, 10)
        assert [i for i, _ in hits] == items
        assert [s for _, s in hits] == pytest.approx([float(np.max(rows[owners == i] @ query)) for i in items], abs=1e-6)


def test_ties_go_by_item_and_the_mask_keeps_items_out() -> None:
    rows = np.array([[1, 0], [1, 0], [0, 1], [1, 0], [0.6, 0.8]], dtype=np.float32)
    owners = np.array([0, 1, 1, 2, 3])
    starts = item_starts(owners)
    query = np.array([1, 0], dtype=np.float32)
    assert top_items(rows, query, starts, 2) == [(0, 1.0), (1, 1.0)]  # three tie at 1.0: the first two items
    allowed = np.array([False, False, True, True])
    assert top_items(rows, query, starts, 2, allowed) == [(2, 1.0), (3, pytest.approx(0.6))]
    assert top_items(rows, query, starts, 9, allowed) == [(2, 1.0), (3, pytest.approx(0.6))]
    assert top_items(rows, query, starts, 3, np.zeros(4, dtype=bool)) == []
    assert top_items(rows, query, starts, 0) == []


@pytest.mark.parametrize("damage", ["cut", "header", "metric", "count"])
def test_a_damaged_file_is_a_clear_error(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "vectors.faiss"
    write_flat(path, unit_rows(5, 4))
    data = bytearray(path.read_bytes())
    if damage == "cut":
        data = data[:-7]
    elif damage == "header":
        data = data[:20]
    elif damage == "metric":
        data[33:37] = (1).to_bytes(4, "little")  # METRIC_L2
    else:
        data[37:45] = (19).to_bytes(8, "little")  # floats != vectors x dimensions
    path.write_bytes(bytes(data))
    with pytest.raises(DenseIndexFileError, match=r"^Cannot read dense index .*vectors\.faiss \(.+\); rebuild it with: relnotes index$"):
        DenseIndex.load(path)


def test_a_build_keeps_its_store_and_writes_it_whole(tmp_path: Path) -> None:
    store = np.lib.format.open_memmap(tmp_path / "store.npy", mode="w+", dtype=np.float32, shape=(40, 8))
    store[:] = unit_rows(40, 8, seed=9)
    built = DenseIndex.build(store, np.repeat(np.arange(20), 2))
    built.save(tmp_path / "v.faiss")
    again = DenseIndex.load(tmp_path / "v.faiss", np.repeat(np.arange(20), 2))
    assert np.array_equal(again.vectors(), np.asarray(store)) and again.n == 20 and again.approximate is None
    assert again.search(store[7], 3) == built.search(store[7], 3)


def test_a_larger_exact_index_is_searched_by_faiss_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from index.retrieve import dense

    rows, owners = unit_rows(200, 16, seed=2), np.repeat(np.arange(100), 2)
    DenseIndex.build(rows, owners).save(tmp_path / "v.faiss")
    small = DenseIndex.load(tmp_path / "v.faiss", owners)
    monkeypatch.setattr(dense, "NUMPY_EXACT_MAX", 199)
    large = DenseIndex.load(tmp_path / "v.faiss", owners)
    assert large._rows is None and small._rows is not None and large.approximate is None
    for query in unit_rows(5, 16, seed=3):
        mask = np.arange(100) % 3 == 0
        for allowed in (None, mask):
            a, b = small.search(query, 7, allowed), large.search(query, 7, allowed)
            assert [i for i, _ in a] == [i for i, _ in b]
            assert [s for _, s in a] == pytest.approx([s for _, s in b], abs=1e-6)


def test_the_product_runs_numpys_blas_on_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    from threadpoolctl import threadpool_info

    from index.retrieve import flat

    seen: list[int] = []

    class Rows(np.ndarray):
        def __matmul__(self, other):
            seen.extend(lib["num_threads"] for lib in threadpool_info()
                        if lib["user_api"] == "blas" and "numpy" in lib["filepath"])
            return np.asarray(self) @ other

    rows = unit_rows(50, 8).view(Rows)
    assert flat.top_items(rows, unit_rows(1, 8)[0], item_starts(np.arange(50)), 3)
    assert seen and set(seen) == {1}


def test_a_loaded_file_is_searched_through_an_aligned_buffer_not_copied_whole(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The vectors start at byte 45: numpy would copy the whole unaligned map for each product."""
    import tracemalloc

    from index.retrieve import flat

    rows = unit_rows(3000, 64, seed=6)
    write_flat(tmp_path / "v.faiss", rows)
    mapped = read_flat(tmp_path / "v.faiss")
    assert not mapped.flags.aligned and isinstance(mapped, np.memmap)
    monkeypatch.setattr(flat, "BLOCK_ROWS", 256)
    starts = item_starts(np.arange(3000))
    flat.top_items(mapped, rows[0], starts, 5)  # pages mapped in
    tracemalloc.start()
    hits = flat.top_items(mapped, rows[0], starts, 5)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert hits == flat.top_items(rows, rows[0], starts, 5) and hits[0][0] == 0
    assert peak < 3000 * 64 * 4 / 4  # a block and the scores, not the 768 kB matrix


def test_a_build_writes_from_its_mapped_store_and_lets_its_pages_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from index.retrieve import flat

    released: list[bool] = []
    monkeypatch.setattr(flat, "release", lambda store: released.append(isinstance(store, np.memmap)))
    store = np.lib.format.open_memmap(tmp_path / "store.npy", mode="w+", dtype=np.float32, shape=(10, 4))
    store[:] = unit_rows(10, 4)
    DenseIndex.build(store).save(tmp_path / "v.faiss")
    assert released and all(released)
