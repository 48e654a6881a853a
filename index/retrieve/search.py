"""Answer "top k chunks for this query" in bm25, dense or hybrid mode, with a release filter.

Hybrid fuses three lists: BM25, the window vectors (``dense``) and the chunks ranked by their
best sentence (``sentences``, from the sentence vectors the build stores; ``index.retrieve.fusion``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Collection, Sequence

import numpy as np

from corpus.model import Chunk

from ..modes import check_mode
from .filters import kind_mask, product_mask, release_mask, stub_mask
from .reader import LoadedIndex
from .similarity import Similarity
from .tokenizer import tokenize


@dataclass(frozen=True, slots=True)
class Hit:
    """One retrieved chunk with its fused score and the rank each retriever gave it (1-based)."""

    chunk: Chunk
    score: float
    bm25_rank: int | None = None
    dense_rank: int | None = None
    sentence_rank: int | None = None  # in the sentence list (hybrid only)


class Searcher:
    """Runs queries against one LoadedIndex; caches release masks and query vectors between queries.

    ``similarity`` gives the answer the cosines it needs (question against sentences) as floats.
    The fusion is ``fusion``, else the one for the corpus's shape (``index.retrieve.fusion.fusion_for``).
    Not thread-safe (the caches change on every query): one query at a time.
    """

    def __init__(self, index: LoadedIndex, fusion=None) -> None:
        from corpus.items import list_share

        from .fusion import fusion_for

        self.index = index
        if fusion is None:  # by the corpus's shape: item lists or prose (a sample of 2,000 chunks at most)
            sample = index.chunks[:: max(1, len(index.chunks) // 2000)]
            fusion = fusion_for(list_share(c.text[i.start : i.end] for c in sample for i in c.items))
        self.fusion = fusion
        self.similarity = Similarity(index)
        self._masks: dict[tuple[tuple[str, ...], ...], np.ndarray | None] = {}

    def usable(self, mode: str) -> str:
        """``mode``, or "bm25" while the index has no vectors yet (``LoadedIndex.pending`` says how far they are).

        Raises:
            UnknownMode: ``mode`` is not one of MODES.
        """
        mode = check_mode(mode)
        return mode if mode == "bm25" or self.index.complete else "bm25"

    def knows(self, token: str) -> bool:
        """Whether any passage holds ``token`` (stemmed as ``index.tokenize`` stems it: "ciphersuite" is known
        from "ciphersuites")."""
        return self.index.lexical.knows(token)

    def idf(self, tokens: Sequence[str]) -> list[float]:
        """BM25 idf of each token; a word the corpus never uses gets the highest weight."""
        return self.index.lexical.idf(tokens, missing=None)

    def mask(self, versions: Sequence[str] | None, products: Sequence[str] | None = None,
             kinds: Sequence[str] | None = None) -> np.ndarray | None:
        """The filter for ``versions``, ``products`` and ``kinds``, never a stub chunk (None: every chunk)."""
        key = tuple(tuple(sorted(set(given or ()))) for given in (versions, products, kinds))
        if key not in self._masks:
            chunks = self.index.chunks
            mask = ~stub_mask(chunks) if key == ((), (), ()) else self.mask(None, None)
            mask = np.ones(len(chunks), dtype=bool) if mask is None else mask.copy()
            for wanted, select in zip(key, (release_mask, product_mask, kind_mask)):
                if wanted:
                    mask &= select(chunks, wanted)
            self._masks[key] = None if mask.all() else mask
        return self._masks[key]

    def bm25(self, query: str, k: int, allowed: np.ndarray | None,
             ignore: Collection[str] = frozenset()) -> list[tuple[int, float]]:
        """BM25 (row, score) pairs, filtered before ranking; the query's tokens in ``ignore`` are
        left out of it, unless no other token is left."""
        tokens = tokenize(query)
        return self.index.lexical.top_k([t for t in tokens if t not in ignore] or tokens, k, allowed=allowed)

    def dense(self, query: str | np.ndarray, k: int, allowed: np.ndarray | None) -> list[tuple[int, float]]:
        """Dense (row, score) pairs for a query text or its vector, filtered inside faiss."""
        vector = self.similarity.query_vector(query) if isinstance(query, str) else query
        return self.index.dense().search(vector, k, allowed=allowed)

    def sentences(
        self,
        vector: np.ndarray,
        k: int,
        allowed: np.ndarray | None,
        windows: Sequence[tuple[int, float]] = (),
        only: np.ndarray | None = None,
    ) -> list[tuple[int, float]] | None:
        """Chunks by their best sentence's cosine with the query ``vector``: (row, score) pairs,
        filtered; None when the index has no sentence map. A chunk with no sentence (a list of
        names, say) keeps its best window's score from ``windows`` (the dense list), if there.
        ``only``: score only these chunk rows (hybrid passes what BM25 and the windows found)."""
        stored = self.index.sentence_vectors()
        best = stored.best_per_chunk(vector, len(self.index.chunks), only) if stored is not None else None
        if best is None:
            return None
        for row, score in windows:
            if np.isnan(best[row]):
                best[row] = score
        if allowed is not None:
            mask = np.asarray(allowed)
            if mask.dtype != np.bool_ or mask.shape != best.shape:
                raise ValueError(f"allowed must be a bool array of shape {best.shape}, got {mask.dtype} {mask.shape}")
            best[~mask] = np.nan
        found = np.flatnonzero(~np.isnan(best))
        if k < len(found):
            found = found[np.argpartition(-best[found], k - 1)[:k]]
        found = found[np.lexsort((found, -best[found]))]  # best first, ties by row
        return list(zip(found.tolist(), best[found].astype(float).tolist()))

    def search(
        self,
        query: str,
        k: int = 10,
        mode: str = "hybrid",
        versions: Sequence[str] | None = None,
        products: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        ignore: Collection[str] = frozenset(),
    ) -> list[Hit]:
        """Top ``k`` chunks for ``query``.

        Args:
            query: the question text.
            k: how many hits at most.
            mode: "bm25", "dense" or "hybrid" (bm25 while the index has no vectors: ``usable``).
            versions: keep only chunks of these releases (applied in every retriever before fusion).
            products: keep only chunks of these products (and those of no known product), likewise.
            kinds: keep only chunks of sections of these kinds of change ("fixed"), likewise.
            ignore: tokens BM25 leaves out of the query (a question's asking words: "when", "did"),
                unless no other token is left; the dense retrievers read the query whole.

        Returns:
            Hits best first, each chunk at most once.

        Raises:
            UnknownMode: ``mode`` is not one of MODES.
        """
        from .fusion import fuse

        mode = self.usable(mode)
        allowed = self.mask(versions, products, kinds)
        chunks = self.index.chunks
        if k <= 0 or not chunks:
            return []
        if mode == "bm25":
            return [Hit(chunks[r], s, bm25_rank=i) for i, (r, s) in enumerate(self.bm25(query, k, allowed, ignore), 1)]
        vector = self.similarity.query_vector(query)
        if mode == "dense":
            return [Hit(chunks[r], s, dense_rank=i) for i, (r, s) in enumerate(self.dense(vector, k, allowed), 1)]
        depth = max(self.fusion.depth, k)
        lexical = self.bm25(query, depth, allowed, ignore)
        dense = self.dense(vector, depth, allowed)
        sentences = None
        if self.fusion.sentences > 0:  # over the chunks the two lists found: not every sentence of a big corpus
            found = np.fromiter((r for hits in (lexical, dense) for r, _ in hits), dtype=np.int64)
            sentences = self.sentences(vector, depth, allowed, dense, only=found)
        fused = fuse(lexical, dense, replace(self.fusion, depth=depth), sentences)
        lex_rank = {r: i for i, (r, _) in enumerate(lexical, 1)}
        dense_rank = {r: i for i, (r, _) in enumerate(dense, 1)}
        sentence_rank = {r: i for i, (r, _) in enumerate(sentences or (), 1)}
        return [
            Hit(chunks[r], s, bm25_rank=lex_rank.get(r), dense_rank=dense_rank.get(r), sentence_rank=sentence_rank.get(r))
            for r, s in fused[:k]
        ]
