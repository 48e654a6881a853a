"""BM25 scored from precomputed postings with numpy, equal to rank-bm25 (``index.retrieve.bm25``),
and its files in the index."""

from __future__ import annotations

import json
import zipfile
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from ..errors import IndexCorrupt
from ..store.layout import LEXICAL_ARRAYS as ARRAYS_FILE
from ..store.layout import LEXICAL_META as META_FILE
from .bm25 import DEFAULT_PARAMS, BM25Params, term_idf, term_weights

LEXICAL_FORMAT_VERSION = 1  # lexical.json and lexical.npz (the index directory's own: store.manifest)
_ARRAY_NAMES = ("indptr", "doc_ids", "weights", "idf", "doc_len")


class LexicalIndex:
    """Term -> postings (doc rows and BM25 weights), CSC-like; equal to rank_bm25's get_scores."""

    __slots__ = ("params", "n_docs", "_vocab", "_indptr", "_doc_ids", "_weights", "_idf", "_absent", "_doc_len")

    def __init__(
        self,
        params: BM25Params,
        vocab: list[str],
        indptr: np.ndarray,
        doc_ids: np.ndarray,
        weights: np.ndarray,
        idf: np.ndarray,
        doc_len: np.ndarray,
    ) -> None:
        """Wrap built arrays; use `build` or `load` instead."""
        self.params = params
        self.n_docs = int(doc_len.shape[0])
        self._vocab = {term: i for i, term in enumerate(vocab)}
        self._indptr = indptr
        self._doc_ids = doc_ids
        self._weights = weights
        self._idf = idf
        self._doc_len = doc_len
        # BM25Plus adds idf*delta for a query term even where tf=0; okapi and l add nothing.
        self._absent = idf * params.delta if params.variant == "plus" else np.zeros_like(idf)

    @classmethod
    def build(cls, docs: Iterable[Sequence[str]], params: BM25Params = DEFAULT_PARAMS) -> LexicalIndex:
        """Index tokenized documents; row i of every result is the i-th document.

        ``docs`` is read once, one document at a time (a generator keeps a large corpus's tokens
        out of memory); the statistics and scores are rank_bm25's (``params.model``), to the bit.

        Args:
            docs: one token list per document (an empty list is allowed).
            params: the BM25 variant and parameters.

        Returns:
            The index; an empty corpus (or one without tokens) gives an index that returns no hits.
        """
        vocab: dict[str, int] = {}
        nd: list[int] = []  # documents holding each term
        terms, tf, per_doc, lengths = array("i"), array("d"), array("q"), array("q")
        for doc in docs:
            if isinstance(doc, str):
                raise TypeError("LexicalIndex.build takes token lists, not strings; tokenize the text first")
            counts = Counter(doc)  # first occurrence order, as rank_bm25's frequencies
            lengths.append(len(doc))
            per_doc.append(len(counts))
            for word, count in counts.items():
                term = vocab.setdefault(word, len(vocab))
                if term == len(nd):
                    nd.append(0)
                nd[term] += 1
                terms.append(term)
                tf.append(count)
        doc_len = np.frombuffer(lengths, dtype=np.int64).copy() if lengths else np.zeros(0, np.int64)
        if not doc_len.sum():  # rank_bm25 divides by zero here
            empty_f, empty_i = np.zeros(0, np.float64), np.zeros(0, np.int32)
            return cls(params, [], np.zeros(1, np.int64), empty_i, empty_f, empty_f, doc_len)
        idf = term_idf(params, nd, len(doc_len))
        term_ids = np.frombuffer(terms, dtype=np.int32)
        order = np.argsort(term_ids, kind="stable")  # stable: rows stay ascending within a term
        rows = np.repeat(np.arange(len(doc_len), dtype=np.int32), np.frombuffer(per_doc, dtype=np.int64))[order]
        term_ids, tfs = term_ids[order], np.frombuffer(tf, dtype=np.float64)[order]
        del order, terms, tf
        indptr = np.zeros(len(vocab) + 1, dtype=np.int64)
        np.cumsum(np.bincount(term_ids, minlength=len(vocab)), out=indptr[1:])
        avgdl = int(doc_len.sum()) / len(doc_len)  # rank_bm25's avgdl: tokens / documents
        weights = term_weights(params, idf[term_ids], tfs, doc_len.astype(np.float64)[rows], avgdl)
        return cls(params, list(vocab), indptr, rows, weights, idf, doc_len)

    def knows(self, token: str) -> bool:
        """Whether any document holds ``token`` (as ``index.tokenize`` gives it)."""
        return token in self._vocab

    def idf(self, tokens: Sequence[str], missing: float | None = 0.0) -> list[float]:
        """The idf of each token; ``missing`` for a token not in the vocabulary (None: the highest idf)."""
        if missing is None:
            missing = float(self._idf.max()) if self._idf.size else 0.0
        return [float(self._idf[self._vocab[t]]) if t in self._vocab else missing for t in tokens]

    def _query_terms(self, query_tokens: Sequence[str]) -> list[tuple[int, int]]:
        """(term id, count) of the in-vocabulary query tokens; repeats count as rank_bm25 counts them."""
        if isinstance(query_tokens, str):
            raise TypeError("query_tokens must be a token list, not a string; tokenize the query first")
        counts = Counter(query_tokens)
        return [(self._vocab[t], c) for t, c in counts.items() if t in self._vocab]

    def _postings(self, terms: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray, float]:
        """Rows and count-weighted BM25 weights of the query terms' postings, and the tf=0 constant."""
        ptr = self._indptr
        rows = np.concatenate([self._doc_ids[ptr[t] : ptr[t + 1]] for t, _ in terms])
        weights = np.concatenate([self._weights[ptr[t] : ptr[t + 1]] * c for t, c in terms])
        return rows, weights, float(sum(c * self._absent[t] for t, c in terms))

    def scores(self, query_tokens: Sequence[str]) -> np.ndarray:
        """BM25 score of every document (length n_docs), equal to rank_bm25's get_scores."""
        terms = self._query_terms(query_tokens)
        if not terms:
            return np.zeros(self.n_docs, dtype=np.float64)
        rows, weights, absent = self._postings(terms)
        # bincount sums postings as fast as a scipy.sparse product here, without importing scipy.
        out = np.bincount(rows, weights, minlength=self.n_docs)
        if absent:
            out += absent
        return out

    def top_k(self, query_tokens: Sequence[str], k: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The k best rows holding at least one query token, by score desc then row asc.

        Args:
            query_tokens: tokens from `index.retrieve.tokenizer.tokenize`.
            k: how many rows at most.
            allowed: optional bool mask of length n_docs; only True rows are ranked (filter before ranking).

        Returns:
            (row, score) pairs, best first.
        """
        if allowed is not None:
            allowed = np.asarray(allowed)
            if allowed.dtype != np.bool_ or allowed.shape != (self.n_docs,):
                raise ValueError(
                    f"allowed must be a bool array of shape ({self.n_docs},), got {allowed.dtype} {allowed.shape}"
                )
        terms = self._query_terms(query_tokens)
        if k <= 0 or not terms:
            return []
        rows, weights, absent = self._postings(terms)
        hit = np.zeros(self.n_docs, dtype=np.bool_)
        hit[rows] = True
        if allowed is not None:
            hit &= allowed
        candidates = np.flatnonzero(hit)
        if not candidates.size:
            return []
        scores = np.bincount(rows, weights, minlength=self.n_docs)[candidates] + absent
        if candidates.size > k:
            kth = np.partition(scores, candidates.size - k)[candidates.size - k]
            keep = scores >= kth  # ties at the k-th score are all kept, then broken by row
            candidates, scores = candidates[keep], scores[keep]
        order = np.lexsort((candidates, -scores))[:k]
        return [(int(candidates[i]), float(scores[i])) for i in order]

    def save(self, directory: Path) -> list[str]:
        """Write the index into `directory` (no pickle); return the file names written."""
        directory = Path(directory)
        meta = {
            "format_version": LEXICAL_FORMAT_VERSION,
            "params": self.params.to_json(),
            "n_docs": self.n_docs,
            "vocab": list(self._vocab),
        }
        (directory / META_FILE).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        with open(directory / ARRAYS_FILE, "wb") as f:
            np.savez(
                f,
                indptr=self._indptr,
                doc_ids=self._doc_ids,
                weights=self._weights,
                idf=self._idf,
                doc_len=self._doc_len,
            )
        return [META_FILE, ARRAYS_FILE]

    @classmethod
    def load(cls, directory: Path) -> LexicalIndex:
        """Read an index written by `save`; raise IndexCorrupt if it is missing, unreadable or inconsistent."""
        directory = Path(directory)
        fix = "rebuild it with: relnotes index"
        try:
            meta = json.loads((directory / META_FILE).read_text(encoding="utf-8"))
            with np.load(directory / ARRAYS_FILE, allow_pickle=False) as npz:
                arrays = {name: npz[name] for name in _ARRAY_NAMES}
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as exc:
            raise IndexCorrupt(f"Unreadable BM25 index in {directory} ({exc}); {fix}") from exc
        if meta.get("format_version") != LEXICAL_FORMAT_VERSION:
            raise IndexCorrupt(
                f"BM25 index in {directory} has format {meta.get('format_version')!r}, expected {LEXICAL_FORMAT_VERSION}; {fix}"
            )
        try:
            params = BM25Params.from_json(meta["params"])
            vocab = list(meta["vocab"])
            n_docs = int(meta["n_docs"])
        except (KeyError, TypeError, ValueError) as exc:
            raise IndexCorrupt(f"Bad BM25 metadata in {directory / META_FILE} ({exc}); {fix}") from exc
        indptr, doc_ids = arrays["indptr"], arrays["doc_ids"]
        consistent = (
            indptr.shape == (len(vocab) + 1,)
            and arrays["idf"].shape == (len(vocab),)
            and arrays["doc_len"].shape == (n_docs,)
            and doc_ids.shape == arrays["weights"].shape == (int(indptr[-1]),)
            and (doc_ids.size == 0 or (int(doc_ids.min()) >= 0 and int(doc_ids.max()) < n_docs))
        )
        if not consistent:
            raise IndexCorrupt(f"BM25 index arrays in {directory} disagree with {META_FILE}; {fix}")
        return cls(params, vocab, indptr, doc_ids, arrays["weights"], arrays["idf"], arrays["doc_len"])
