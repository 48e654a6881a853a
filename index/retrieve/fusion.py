"""Rank fusion of BM25 and dense result lists: reciprocal rank fusion and weighted min-max."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

FusionMethod = Literal["rrf", "minmax"]
FUSION_METHODS: tuple[str, ...] = get_args(FusionMethod)


def _check_weights(weights: Sequence[float] | None, count: int) -> list[float]:
    """Weights as a list of count finite non-negative floats (all 1.0 when None)."""
    if weights is None:
        return [1.0] * count
    if len(weights) != count:
        raise ValueError(f"got {len(weights)} weights for {count} result lists")
    out = [float(w) for w in weights]
    if any(not math.isfinite(w) or w < 0 for w in out):
        raise ValueError(f"weights must be finite and >= 0, got {list(weights)}")
    return out


def _ranked(scores: dict[int, float], best_rank: dict[int, int]) -> list[tuple[int, float]]:
    """Sort by score desc, then best single-list rank, then id: a deterministic order."""
    return sorted(scores.items(), key=lambda item: (-item[1], best_rank[item[0]], item[0]))


def rrf(
    rankings: Sequence[Sequence[int]], k: int = 60, weights: Sequence[float] | None = None
) -> list[tuple[int, float]]:
    """Reciprocal rank fusion (Cormack et al. 2009): score(d) = sum_i w_i / (k + rank_i(d)).

    Args:
        rankings: lists of ids, best first. Ranks are 1-based; a repeated id in one list counts
            once, at its first position, and later ids move up (the list is deduplicated first).
        k: the RRF constant (>= 0); larger flattens the difference between top ranks.
        weights: one non-negative weight per list; None means all 1.

    Returns:
        (id, score) pairs, each id once, sorted by score desc, ties by best single rank then id.
    """
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    ws = _check_weights(weights, len(rankings))
    scores: dict[int, float] = {}
    best_rank: dict[int, int] = {}
    for ranking, w in zip(rankings, ws):
        seen: set[int] = set()
        for doc in ranking:
            if doc in seen:
                continue
            seen.add(doc)
            rank = len(seen)
            scores[doc] = scores.get(doc, 0.0) + w / (k + rank)
            best_rank[doc] = min(best_rank.get(doc, rank), rank)
    return _ranked(scores, best_rank)


def minmax(
    results: Sequence[Sequence[tuple[int, float]]], weights: Sequence[float]
) -> list[tuple[int, float]]:
    """Weighted sum of min-max normalised scores: score(d) = sum_i w_i * (s_i(d) - min_i) / (max_i - min_i).

    A doc missing from a list gets 0 for it. When every score in a list is equal (one hit, or
    ties), each of its docs gets 1 there: the list ranks them all first. An empty list adds
    nothing. A repeated id in one list keeps its best score.

    Args:
        results: lists of (id, score), higher is better; order inside a list does not matter.
        weights: one non-negative weight per list.

    Returns:
        (id, score) pairs, each id once, sorted by score desc, ties by best single rank then id.
    """
    ws = _check_weights(weights, len(results))
    scores: dict[int, float] = {}
    best_rank: dict[int, int] = {}
    for hits, w in zip(results, ws):
        best: dict[int, float] = {}
        for doc, score in hits:
            score = float(score)
            if doc not in best or score > best[doc]:
                best[doc] = score
        if not best:
            continue
        lo, hi = min(best.values()), max(best.values())
        span = hi - lo
        ordered = sorted(best.items(), key=lambda item: (-item[1], item[0]))
        for rank, (doc, score) in enumerate(ordered, start=1):
            norm = (score - lo) / span if span > 0 else 1.0
            scores[doc] = scores.get(doc, 0.0) + w * norm
            best_rank[doc] = min(best_rank.get(doc, rank), rank)
    return _ranked(scores, best_rank)


@dataclass(frozen=True, slots=True)
class FusionParams:
    """How to fuse the result lists: weights are (bm25, dense), ``sentences`` the weight of the
    sentence list (0: not fused), depth is hits taken from each list, k is RRF's."""

    method: FusionMethod
    k: int
    weights: tuple[float, float]
    depth: int
    sentences: float = 0.0

    def __post_init__(self) -> None:
        if self.method not in FUSION_METHODS:
            raise ValueError(f"unknown fusion method {self.method!r}; valid: {', '.join(FUSION_METHODS)}")
        if self.k < 0:
            raise ValueError(f"k must be >= 0, got {self.k}")
        if len(self.weights) != 2:
            raise ValueError(f"weights must be (bm25, dense), got {self.weights!r}")
        _check_weights([*self.weights, self.sentences], 3)
        if self.depth < 1:
            raise ValueError(f"depth must be >= 1, got {self.depth}")


def fuse(
    lexical: Sequence[tuple[int, float]],
    dense: Sequence[tuple[int, float]],
    params: FusionParams,
    sentences: Sequence[tuple[int, float]] | None = None,
) -> list[tuple[int, float]]:
    """Fuse a BM25 and a dense result list (each best first) with params, and the sentence list
    (chunks by their best sentence) when given and ``params.sentences`` > 0.

    With the sentence list, scores are divided by the sum of the three weights, so a min-max
    score stays within 0..1 as with two lists whose weights sum to 1.
    """
    lists = [list(lexical)[: params.depth], list(dense)[: params.depth]]
    weights = list(params.weights)
    if sentences is not None and params.sentences > 0:
        lists.append(list(sentences)[: params.depth])
        weights.append(params.sentences)
    if params.method == "rrf":
        fused = rrf([[d for d, _ in hits] for hits in lists], params.k, weights)
    else:
        fused = minmax(lists, weights)
    if len(lists) == 2:
        return fused
    total = sum(weights)  # > 0: the sentence weight is; every score is at most total (or total / (k + 1))
    return [(d, score / total) for d, score in fused]


# Equal weights: 0.6 / 0.4 was best on SciFact train but fell below dense alone on the bundled
# questions, 0.5 / 0.5 did not; the sentence list counts as much (docs/measurements.md).
# k is unused by minmax; it is kept at the usual RRF value for a switch to method="rrf".
DEFAULT_FUSION = FusionParams(method="minmax", k=60, weights=(0.5, 0.5), depth=1000, sentences=0.5)

# why: in a changelog's lists of one-line items a section window dilutes an item among forty and
# the sentence list finds it; prose loses with these weights, so they go by the corpus's shape
# (docs/decisions/0104-list-fusion-by-corpus-shape.md).
LIST_FUSION = FusionParams(method="minmax", k=60, weights=(0.5, 0.3), depth=1000, sentences=0.7)
LIST_SHARE = 0.5  # share of items that are list items from which a corpus is list-shaped (the same record)


def fusion_for(list_share: float) -> FusionParams:
    """The fusion for a corpus whose items are ``list_share`` list items (``corpus.items.list_share``)."""
    return LIST_FUSION if list_share >= LIST_SHARE else DEFAULT_FUSION
