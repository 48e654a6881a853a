"""Exact vectors read from a faiss IndexFlatIP file and searched in numpy, without faiss.

Importing faiss took a quarter of a cold ``relnotes ask`` that searches a few thousand vectors;
an exact index is a header and a float32 matrix, which numpy maps and multiplies as fast as
faiss does (docs/decisions/0016-exact-vectors-without-faiss.md). The file is the one faiss
writes (``write_index`` of an IndexFlatIP, read here as faiss's ``read_index`` does)::

    b"IxFI" | d: int32 | ntotal: int64 | 2 x int64 (1 << 20) | is_trained: bool | metric: int32 (0)
    | n floats: uint64 (ntotal * d) | ntotal x d float32, row-major, little-endian

``write_flat`` writes that file (faiss reads it back, tested); an approximate (IVF) index is
built, written, read and searched by faiss.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from ..runtime import one_blas_thread
from ..store.stores import release

FOURCC = b"IxFI"  # faiss's IndexFlatIP (IndexFlatL2 is "IxF2", IVF indexes "IwFl")
_HEADER = struct.Struct("<4siqqq?iQ")
_DUMMY = 1 << 20  # faiss writes this twice where old versions kept other fields
_INNER_PRODUCT = 0  # faiss::METRIC_INNER_PRODUCT
BLOCK_ROWS = 4_096  # vectors copied to an aligned buffer at a time: 6 MB at 384 dimensions


def is_flat(path: Path) -> bool:
    """Whether the file at ``path`` starts as a faiss IndexFlatIP file (False if unreadable)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(len(FOURCC)) == FOURCC
    except OSError:
        return False


def read_flat(path: Path) -> np.ndarray:
    """The (ntotal, d) float32 vectors of a faiss IndexFlatIP file, memory-mapped read-only: the
    pages stay in the page cache, shared by every process with the index open, and only what a
    search reads is resident (as faiss's IO_FLAG_MMAP read). A rebuild renames the index directory
    away before deleting it, so the map stays valid.

    Raises:
        OSError: the file cannot be read.
        ValueError: it is not a whole IndexFlatIP file (another kind, a bad header, or cut short).
    """
    with open(path, "rb") as fh:
        head = fh.read(_HEADER.size)
        size = fh.seek(0, 2)
    if len(head) < _HEADER.size:
        raise ValueError("cut short in its header")
    fourcc, dim, total, dummy1, dummy2, _trained, metric, floats = _HEADER.unpack(head)
    if fourcc != FOURCC or metric != _INNER_PRODUCT:
        raise ValueError("not an exact inner-product index")
    if dim < 1 or total < 0 or (dummy1, dummy2) != (_DUMMY, _DUMMY) or floats != total * dim:
        raise ValueError(f"a bad header ({dim} dimensions, {total} vectors, {floats} floats)")
    if size != _HEADER.size + 4 * floats:
        raise ValueError(f"{size:,} bytes, not the {_HEADER.size + 4 * floats:,} of {total:,} vectors of {dim}")
    if total == 0:
        return np.zeros((0, dim), dtype=np.float32)
    return np.memmap(path, dtype="<f4", mode="r", offset=_HEADER.size, shape=(total, dim))


def write_flat(path: Path, rows: np.ndarray, slice_rows: int = 32_768) -> None:
    """Write (n, dim) float32 ``rows`` as faiss writes an IndexFlatIP, ``slice_rows`` at a time: a
    build's memory-mapped store leaves memory as it is written (``release``).

    Raises:
        OSError: the file could not be written (a full disk, a size limit).
    """
    total, dim = rows.shape
    with open(path, "wb") as fh:
        fh.write(_HEADER.pack(FOURCC, dim, total, _DUMMY, _DUMMY, True, _INNER_PRODUCT, total * dim))
        for start in range(0, total, slice_rows):
            fh.write(memoryview(np.ascontiguousarray(rows[start:start + slice_rows], dtype="<f4")))
            release(rows)


def _products(rows: np.ndarray, query: np.ndarray) -> np.ndarray:
    """``rows @ query`` on one BLAS thread. The file's vectors start at byte 45, so their map is
    not 4-byte aligned, and numpy would copy the whole matrix for each product (100 MB at 65,536
    vectors): they go through one aligned buffer of ``BLOCK_ROWS`` rows at a time instead."""
    if rows.flags.aligned and rows.flags.c_contiguous:
        with one_blas_thread():
            return np.asarray(rows @ query, dtype=np.float32)
    out = np.empty(len(rows), dtype=np.float32)
    buffer = np.empty((min(BLOCK_ROWS, len(rows)), rows.shape[1]), dtype=np.float32)
    with one_blas_thread():
        for start in range(0, len(rows), BLOCK_ROWS):
            part = buffer[: min(BLOCK_ROWS, len(rows) - start)]
            part[...] = rows[start:start + len(part)]
            np.matmul(part, query, out=out[start:start + len(part)])
    return out


def item_starts(owners: np.ndarray) -> np.ndarray:
    """The first vector of each item, for owners numbering items 0, 1, ... on consecutive vectors."""
    if not owners.size:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.concatenate(([True], owners[1:] != owners[:-1])))


def top_items(rows: np.ndarray, query: np.ndarray, starts: np.ndarray, k: int,
              allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
    """The ``k`` items whose best vector has the highest inner product with ``query`` (a (dim,)
    float32 vector), as (item, score) best first, ties by item; ``starts`` from ``item_starts``;
    ``allowed``: an item mask, only True items come back."""
    if k == 0 or not len(rows):
        return []
    best = np.maximum.reduceat(_products(rows, np.ascontiguousarray(query, dtype=np.float32)), starts)
    items = np.flatnonzero(allowed) if allowed is not None else np.arange(len(best))
    if len(items) > k:  # those at least as good as the k-th, ties at the k-th kept to be ordered by item
        kth = np.partition(best[items], len(items) - k)[len(items) - k]
        items = items[best[items] >= kth]
    items = items[np.lexsort((items, -best[items]))[:k]]
    return list(zip(items.tolist(), best[items].astype(np.float64).tolist()))
