"""A build's vector stores: written pages leave the process for the page cache, nothing is lost."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from index.retrieve import dense
from index.retrieve.dense import DenseIndex
from index.store.stores import open_store, release


def _resident_mb() -> float:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS")) / 1024


def _unit(rows: int, dim: int, seed: int = 0) -> np.ndarray:
    vectors = np.random.default_rng(seed).standard_normal((rows, dim), dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_released_rows_read_back_unchanged(tmp_path) -> None:
    store = open_store(tmp_path / "v.npy", 5000, 16, "vectors.faiss")
    vectors = _unit(5000, 16)
    store[:] = vectors
    release(store)
    assert np.array_equal(store, vectors)
    store[7] = 0.5  # writable after a release, and kept
    release(store)
    assert np.all(np.load(tmp_path / "v.npy")[7] == 0.5)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_a_release_gives_the_written_pages_back(tmp_path) -> None:
    store = open_store(tmp_path / "v.npy", 100_000, 384, "vectors.faiss")  # 146 MB
    for start in range(0, 100_000, 10_000):
        store[start:start + 10_000] = 0.25
    written = _resident_mb()
    release(store)
    assert written - _resident_mb() > 100


def test_an_array_or_an_empty_store_is_left_alone(tmp_path) -> None:
    array = np.ones((3, 4), dtype=np.float32)
    release(array)
    assert np.all(array == 1)
    empty = open_store(tmp_path / "none.npy", 0, 4, "vectors.faiss")
    assert empty.shape == (0, 4)
    release(empty)
    assert not (tmp_path / "none.npy").exists()


@pytest.mark.parametrize("approximate", [False, True])
def test_faiss_takes_a_store_in_slices_as_one_array(tmp_path, monkeypatch, approximate) -> None:
    vectors = _unit(3000, 32, seed=1)
    store = open_store(tmp_path / "v.npy", 3000, 32, "vectors.faiss")
    store[:] = vectors
    monkeypatch.setattr(dense, "ADD_ROWS", 700)  # five slices, the last short
    sliced = DenseIndex.build(store, approximate=approximate)
    monkeypatch.setattr(dense, "ADD_ROWS", 10_000)
    whole = DenseIndex.build(vectors, approximate=approximate)
    assert sliced.n_vectors == whole.n_vectors == 3000
    if not approximate:
        assert np.array_equal(sliced.vectors(), whole.vectors())
    for query in vectors[:20]:
        assert sliced.search(query, 10) == whole.search(query, 10)


def test_a_copy_on_write_map_keeps_its_changes(tmp_path) -> None:
    np.save(tmp_path / "v.npy", np.zeros((1000, 8), dtype=np.float32))
    mapped = np.load(tmp_path / "v.npy", mmap_mode="c")
    mapped[:] = 1.0  # in this process's pages only: released, they would be gone
    release(mapped)
    assert np.all(mapped == 1.0) and np.all(np.load(tmp_path / "v.npy") == 0)
