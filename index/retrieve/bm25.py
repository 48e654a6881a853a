"""BM25 as rank-bm25 0.2.2 defines it: the variants, their parameters and the formulas of its idf
and term weights (``index.retrieve.lexical`` scores with them from precomputed postings)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Literal

import numpy as np

VARIANTS = ("okapi", "plus", "l")


@dataclass(frozen=True, slots=True)
class BM25Params:
    """Which rank-bm25 class scores, and its parameters (delta: plus/l only; epsilon: okapi only)."""

    variant: Literal["okapi", "plus", "l"]
    k1: float
    b: float
    delta: float = 1.0
    epsilon: float = 0.25

    def __post_init__(self) -> None:
        """Reject values rank-bm25 would accept but that make no sense."""
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown BM25 variant {self.variant!r}; valid: {', '.join(VARIANTS)}")
        if not self.k1 >= 0:
            raise ValueError(f"BM25 k1 must be >= 0, got {self.k1}")
        if not 0 <= self.b <= 1:
            raise ValueError(f"BM25 b must be in [0, 1], got {self.b}")
        if not self.delta >= 0:
            raise ValueError(f"BM25 delta must be >= 0, got {self.delta}")
        if not self.epsilon >= 0:
            raise ValueError(f"BM25 epsilon must be >= 0, got {self.epsilon}")

    def to_json(self) -> dict:
        """A JSON-able dict (recorded in the manifest)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> BM25Params:
        """The inverse of `to_json`."""
        return cls(
            variant=data["variant"],
            k1=float(data["k1"]),
            b=float(data["b"]),
            delta=float(data["delta"]),
            epsilon=float(data["epsilon"]),
        )

    def model(self, docs: Sequence[Sequence[str]]):
        """The rank_bm25 object these parameters define (it needs >= 1 token in the corpus)."""
        import rank_bm25

        if self.variant == "okapi":
            return rank_bm25.BM25Okapi(docs, k1=self.k1, b=self.b, epsilon=self.epsilon)
        if self.variant == "plus":
            return rank_bm25.BM25Plus(docs, k1=self.k1, b=self.b, delta=self.delta)
        return rank_bm25.BM25L(docs, k1=self.k1, b=self.b, delta=self.delta)


# why: BM25Plus's idf stays positive for words in most documents ("pytorch", "release"), where
# BM25Okapi floors them to one value; k1 and b are the best of a grid on SciFact train
# (docs/decisions/0106-bm25-defaults.md).
DEFAULT_PARAMS = BM25Params(variant="plus", k1=1.2, b=0.5, delta=1.0, epsilon=0.25)


def term_weights(params: BM25Params, idf: np.ndarray, tf: np.ndarray, dl: np.ndarray, avgdl: float) -> np.ndarray:
    """Each (term, doc) posting's score, written as rank_bm25's get_scores writes it (tf=0 part excluded)."""
    k1, b, delta = params.k1, params.b, params.delta
    if params.variant == "okapi":
        return idf * (tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)))
    if params.variant == "plus":
        return idf * ((tf * (k1 + 1)) / (k1 * (1 - b + b * dl / avgdl) + tf))
    ctd = tf / (1 - b + b * dl / avgdl)
    # rank_bm25's BM25L multiplies by tf once more than Lv & Zhai's formula; kept, to equal it.
    return idf * tf * (k1 + 1) * (ctd + delta) / (k1 + ctd + delta)


def term_idf(params: BM25Params, nd: list[int], n_docs: int) -> np.ndarray:
    """Each term's idf from its document count, as rank_bm25's ``_calc_idf`` computes it."""
    if params.variant == "plus":
        values = [math.log((n_docs + 1) / freq) for freq in nd]
    elif params.variant == "l":
        values = [math.log(n_docs + 1) - math.log(freq + 0.5) for freq in nd]
    else:  # okapi: a negative idf (a term in over half the documents) becomes epsilon * the mean idf
        values = [math.log(n_docs - freq + 0.5) - math.log(freq + 0.5) for freq in nd]
        total = 0.0
        for value in values:  # summed in rank_bm25's order, so the mean is its mean to the bit
            total += value
        eps = params.epsilon * (total / len(values))
        values = [eps if value < 0 else value for value in values]
    return np.asarray(values, dtype=np.float64)
