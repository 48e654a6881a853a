"""Dense retrieval: an inner-product faiss index over window vectors, items scored by their best.

Exact (IndexFlatIP) up to ``ANN_MIN_VECTORS`` windows; above, an inverted file (IndexIVFFlat,
``lists(n)`` k-means cells, ``NPROBE`` of them searched): docs/decisions/0100-exact-then-ivf-dense-search.md.
An exact index of up to ``NUMPY_EXACT_MAX`` vectors is read and searched in numpy, faiss never
imported (``flat``: docs/decisions/0016-exact-vectors-without-faiss.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import DenseIndexFileError
from ..store.stores import release
from ..runtime import cpu_count, faiss_threads, import_faiss
from .flat import is_flat, item_starts, read_flat, top_items, write_flat

# why: where exact search stops meeting a 60 ms hybrid p50, and the probes that keep recall@10
# against exact search high (docs/decisions/0100-exact-then-ivf-dense-search.md).
ANN_MIN_VECTORS = 250_000  # RELNOTES_ANN_MIN_VECTORS overrides it
NPROBE = 24
TRAIN_POINTS = 64  # k-means sample: this many vectors a cell at most
DEEP_CELLS = 4  # a deep list probes cells holding this many times its chunks (the same record)
# why: numpy's product over mapped vectors matches faiss's exact search up to about 50k vectors
# (22 ms against 24 ms for 1,000 items) and falls behind above (90 ms against 54 ms at 240k), where
# a corpus that large makes faiss's import (~50 ms) a small part of a question anyway
# (docs/decisions/0016-exact-vectors-without-faiss.md).
NUMPY_EXACT_MAX = 65_536  # vectors an exact index may hold to be searched in numpy
ADD_ROWS = 32_768  # vectors handed to faiss at a time: a build's mapped store leaves memory as faiss copies it


def approximate_from() -> int:
    """Window vectors from which a build is approximate: RELNOTES_ANN_MIN_VECTORS, else ANN_MIN_VECTORS."""
    value = os.environ.get("RELNOTES_ANN_MIN_VECTORS", "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else ANN_MIN_VECTORS


def lists(n_vectors: int) -> int:
    """k-means cells of an IVF index over ``n_vectors``: about 4 sqrt(n) (faiss's guideline)."""
    return max(1, min(n_vectors // 39, int(4 * n_vectors**0.5)))  # 39 training points a cell at least


def _check_owners(owners: np.ndarray | None, n_vectors: int) -> np.ndarray:
    """Owners as an int64 array: non-decreasing item rows 0, 1, ... with every item owning a vector."""
    if owners is None:
        return np.arange(n_vectors, dtype=np.int64)
    owners = np.asarray(owners)
    if owners.shape != (n_vectors,) or not np.issubdtype(owners.dtype, np.integer):
        raise ValueError(f"owners must be {n_vectors} integers, one per vector, got {owners.dtype} {owners.shape}")
    steps = np.diff(owners)
    if n_vectors and (owners[0] != 0 or np.any((steps != 0) & (steps != 1))):
        raise ValueError("owners must number items 0, 1, 2, ... in order, each owning consecutive vectors")
    return owners.astype(np.int64)


class DenseIndex:
    """Inner-product search over unit vectors, scoring items by their best vector: exact (stored as
    a faiss IndexFlatIP; up to ``NUMPY_EXACT_MAX`` vectors searched in numpy, ``flat``) or, for a
    large index, approximate (faiss IndexIVFFlat).

    An item (a chunk) owns one or more consecutive vectors (its windows): ``owners[v]`` is the
    item of vector ``v``. Search ranks items by the best inner product of any of their vectors.
    """

    def __init__(self, index: Any, owners: np.ndarray | None = None) -> None:
        """Wrap an (n_vectors, dim) float32 array, searched exactly (``flat``), or a faiss
        IndexFlatIP or IndexIVFFlat; use build() or load() instead."""
        self._index = index
        self._rows = index if isinstance(index, np.ndarray) else None
        self._lists = int(getattr(index, "nlist", 0))  # 0: exact
        self._owners = _check_owners(owners, self.n_vectors)
        self._starts = item_starts(self._owners) if self._rows is not None else None
        self._items = int(self._owners[-1]) + 1 if self._owners.size else 0
        self._widest = int(np.bincount(self._owners).max()) if self._owners.size else 1

    @classmethod
    def build(cls, vectors: np.ndarray, owners: np.ndarray | None = None, *,
              approximate: bool | None = None) -> DenseIndex:
        """Index a (n_vectors, dim) array; ``owners[v]`` is the item of row v (None: row i is item i).

        ``approximate``: an IVF index (None: when there are at least ``approximate_from()`` rows).
        """
        store, vectors = vectors, np.asarray(vectors)  # store: a build's memory map, released as faiss copies it
        if vectors.ndim != 2 or vectors.shape[1] < 1:
            raise ValueError(f"vectors must have shape (n, dim) with dim >= 1, got {vectors.shape}")
        owners = _check_owners(owners, len(vectors))
        dim, rows = int(vectors.shape[1]), np.ascontiguousarray(vectors, dtype=np.float32)
        if approximate is None:
            approximate = len(vectors) >= approximate_from()
        if not (approximate and len(vectors)):  # exact: searched in numpy, written as faiss writes an IndexFlatIP
            mapped = isinstance(store, np.memmap) and store.dtype == np.float32 and store.flags.c_contiguous
            return cls(store if mapped else rows, owners)  # a build's map itself: its pages leave as it is written
        faiss = import_faiss()
        index = faiss.index_factory(dim, f"IVF{lists(len(vectors))},Flat", faiss.METRIC_INNER_PRODUCT)
        index.cp.seed = 0  # the same vectors give the same cells
        index.cp.max_points_per_centroid = TRAIN_POINTS  # k-means on a sample: cost n * cells
        faiss.omp_set_num_threads(cpu_count())  # training is one big job: every core
        try:
            index.train(rows)
            release(store)  # the training sample's pages
        finally:
            faiss.omp_set_num_threads(faiss_threads())  # back to one thread a query
        index.nprobe = min(NPROBE, index.nlist)
        for start in range(0, len(rows), ADD_ROWS):
            index.add(rows[start:start + ADD_ROWS])
            release(store)
        return cls(index, owners)

    @property
    def approximate(self) -> str | None:
        """"IVF n cells, p probed" for an approximate index, else None (exact)."""
        return f"IVF {self._lists:,} cells, {self._index.nprobe} probed" if self._lists else None

    @property
    def n(self) -> int:
        """Number of indexed items (chunks)."""
        return self._items

    @property
    def n_vectors(self) -> int:
        """Number of indexed vectors (windows)."""
        return len(self._rows) if self._rows is not None else int(self._index.ntotal)

    @property
    def dim(self) -> int:
        """Vector size."""
        return int(self._rows.shape[1]) if self._rows is not None else int(self._index.d)

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """Top-k items by the best inner product of their vectors with query, best first.

        Args:
            query: a (dim,) or (1, dim) vector.
            k: how many items at most.
            allowed: optional bool mask of length n (items); only True items can be returned. The
                filter runs inside the faiss search (IDSelectorBitmap), so k allowed items come
                back whenever that many exist (exact search; an approximate index returns those
                of the cells it probes).

        Returns:
            (item, score) pairs sorted by score descending, ties by item.
        """
        q = np.ascontiguousarray(np.asarray(query, dtype=np.float32).reshape(1, -1))
        if q.shape[1] != self.dim:
            raise ValueError(f"query has dim {q.shape[1]}, index has dim {self.dim}")
        if k < 0:
            raise ValueError(f"k must be >= 0, got {k}")
        mask = None
        if allowed is not None:
            mask = np.asarray(allowed)
            if mask.dtype != np.bool_ or mask.shape != (self.n,):
                raise ValueError(f"allowed must be a bool array of shape ({self.n},), got "
                                 f"{mask.dtype} {mask.shape}")
        if self._rows is not None:
            return top_items(self._rows, q[0], self._starts, k, mask)
        faiss = import_faiss()
        params = None
        available = self.n_vectors
        if mask is not None:
            vector_mask = mask[self._owners]
            available = int(np.count_nonzero(vector_mask))
            bits = np.packbits(vector_mask, bitorder="little")  # faiss reads bit i of byte i >> 3
            selector = faiss.IDSelectorBitmap(self.n_vectors, faiss.swig_ptr(bits))
            params = faiss.SearchParameters(sel=selector)
        if self._lists:
            # A filter leaving a fraction f of the vectors probes 1/f as many cells (about as many
            # allowed vectors seen as without it); one leaving at most NPROBE / lists of them (a
            # release, usually) probes every cell: exact. A deep list (hybrid asks for 1,000 chunks)
            # probes cells enough to hold DEEP_CELLS times as many of the allowed chunks.
            items = int(np.count_nonzero(mask)) if mask is not None else self.n
            cells = max(self._index.nprobe * self.n_vectors / max(available, 1), DEEP_CELLS * k * self._lists / max(items, 1))
            params = faiss.SearchParametersIVF(sel=params.sel if params else None)
            params.nprobe = min(self._lists, int(np.ceil(cells)))
        # k items need at most k * (most vectors of one item) vectors: each item fills at most that many.
        depth = min(k * self._widest, available)
        if depth == 0:
            return []
        scores, rows = self._index.search(q, depth, params=params)
        found = rows[0] >= 0
        items, scores = self._owners[rows[0][found]], scores[0][found]
        _, first = np.unique(items, return_index=True)  # faiss sorts best first: an item's first row is its best
        hits = [(int(items[i]), float(scores[i])) for i in first]
        hits.sort(key=lambda hit: (-hit[1], hit[0]))
        return hits[:k]

    def vectors(self) -> np.ndarray:
        """All indexed vectors as a (n_vectors, dim) float32 array (for incremental rebuilds)."""
        if self.n_vectors == 0:
            return np.empty((0, self.dim), dtype=np.float32)
        if self._rows is not None:
            return np.array(self._rows, dtype=np.float32)
        return np.asarray(self._index.reconstruct_n(0, self.n_vectors), dtype=np.float32)

    def save(self, path: Path) -> None:
        """Write the index to path (faiss format, no pickle); an exact one as ``flat.write_flat``.

        Raises:
            OSError: the file could not be written (faiss's own errors are RuntimeError).
        """
        if self._rows is not None:
            write_flat(path, self._rows)
            return
        import_faiss().write_index(self._index, str(path))

    @classmethod
    def load(cls, path: Path, owners: np.ndarray | None = None) -> DenseIndex:
        """Read an index written by save(); ``owners`` as for build() (the faiss file holds only vectors).

        Raises:
            DenseIndexFileError: the file is missing, unreadable, not an inner-product index this
                module writes, or holds a different number of vectors than ``owners``.
        """
        path = Path(path)
        if not path.is_file():
            raise DenseIndexFileError(f"No dense index file at {path}; rebuild it with: relnotes index")
        if is_flat(path):
            try:
                rows = read_flat(path)
            except (OSError, ValueError) as err:
                raise DenseIndexFileError(f"Cannot read dense index {path} ({err}); rebuild it with: relnotes index") from err
            if len(rows) <= NUMPY_EXACT_MAX:
                return cls._checked(path, rows, len(rows), owners)
        faiss = import_faiss()
        try:
            # Memory-mapped: the vectors stay in the page cache, shared by every process that has the
            # index open (the chat, relnotes mcp, relnotes serve), and only what a search reads is
            # resident. A rebuild renames the directory away before deleting it: the map stays valid.
            flags = getattr(faiss, "IO_FLAG_MMAP_IFC", 0) | getattr(faiss, "IO_FLAG_READ_ONLY", 0)
            try:
                index = faiss.read_index(str(path), flags)
            except RuntimeError:  # a file system that cannot map it (or an old faiss): read it whole
                index = faiss.read_index(str(path))
        except RuntimeError as err:
            raise DenseIndexFileError(
                f"Cannot read dense index {path} ({str(err).splitlines()[0]}); "
                "rebuild it with: relnotes index"
            ) from err
        exact = isinstance(index, faiss.IndexFlatIP)
        if not (exact or isinstance(index, faiss.IndexIVFFlat) and index.metric_type == faiss.METRIC_INNER_PRODUCT):
            raise DenseIndexFileError(
                f"{path} holds a {type(index).__name__}, not an inner-product index; "
                "rebuild it with: relnotes index"
            )
        return cls._checked(path, index, int(index.ntotal), owners)

    @classmethod
    def _checked(cls, path: Path, index: Any, total: int, owners: np.ndarray | None) -> DenseIndex:
        """The index read from ``path``, if it holds a vector for every window of ``owners``."""
        if owners is not None and len(owners) != total:
            raise DenseIndexFileError(
                f"{path} holds {total} vectors, out of step with the {len(owners)} windows of its chunks; "
                "rebuild it with: relnotes index"
            )
        return cls(index, owners)
