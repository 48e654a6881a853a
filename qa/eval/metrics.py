"""Retrieval metrics: hit@k (Recall@k of "any relevant passage"), MRR@10 and nDCG@10.

nDCG comes from pytrec_eval (trec_eval's own code), so numbers match trec_eval and
published tables; hit@k and MRR are simple enough to compute here and are cross-checked
against pytrec_eval's ``success_k`` and ``recip_rank`` in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping
from typing import Sequence


@dataclass(frozen=True, slots=True)
class Ranking:
    """One question's ranked passage ids and the set of ids judged relevant."""

    qid: str
    ranked: tuple[str, ...]
    relevant: frozenset[str]

    def first_hit(self) -> int | None:
        """1-based rank of the first relevant passage, or None."""
        for rank, pid in enumerate(self.ranked, 1):
            if pid in self.relevant:
                return rank
        return None


def hit_at(rankings: Sequence[Ranking], k: int) -> float:
    """Share of questions with a relevant passage in the top k."""
    if not rankings:
        return 0.0
    return sum(1 for r in rankings if (h := r.first_hit()) is not None and h <= k) / len(rankings)


def mrr_at(rankings: Sequence[Ranking], k: int = 10) -> float:
    """Mean reciprocal rank of the first relevant passage within the top k (0 beyond)."""
    if not rankings:
        return 0.0
    return sum(1 / h for r in rankings if (h := r.first_hit()) is not None and h <= k) / len(rankings)


def ndcg_at(rankings: Sequence[Ranking], k: int = 10) -> float:
    """Mean nDCG@k with binary relevance, computed by pytrec_eval."""
    import pytrec_eval

    judged = [r for r in rankings if r.relevant]
    if not judged:
        return 0.0
    qrels = {r.qid: {pid: 1 for pid in r.relevant} for r in judged}
    run = {r.qid: {pid: float(len(r.ranked) - i) for i, pid in enumerate(r.ranked)} for r in judged}
    for r in judged:
        if not run[r.qid]:
            run[r.qid] = {"__none__": 0.0}  # trec_eval skips a query with no hits; it scores 0
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{k}"})
    scores = evaluator.evaluate(run)
    return sum(scores[q][f"ndcg_cut_{k}"] for q in scores) / len(rankings)


@dataclass(frozen=True, slots=True)
class Metrics(Mapping):
    """Mean metrics of one run: hit@k for each k, MRR@10, nDCG@10 and, for BEIR, Recall@100.

    Also a read-only mapping from column names ("hit@1", "MRR@10", ...) to values, in table order.
    """

    hits: tuple[tuple[int, float], ...]  # (k, hit@k), in the order asked for
    mrr10: float
    ndcg10: float
    recall100: float | None = None

    def __post_init__(self) -> None:
        values = [v for _, v in self.hits] + [self.mrr10, self.ndcg10] + ([self.recall100] if self.recall100 is not None else [])
        if any(not 0 <= v <= 1 for v in values):
            raise ValueError(f"metrics lie within 0..1, got {values}")

    def _columns(self) -> dict[str, float]:
        out = {f"hit@{k}": v for k, v in self.hits}
        out.update({"MRR@10": self.mrr10, "nDCG@10": self.ndcg10})
        return out if self.recall100 is None else {**out, "Recall@100": self.recall100}

    def __getitem__(self, column: str) -> float:
        return self._columns()[column]

    def __iter__(self):
        return iter(self._columns())

    def __len__(self) -> int:
        return len(self._columns())


def summarise(rankings: Sequence[Ranking], ks: Sequence[int] = (1, 5, 10)) -> Metrics:
    """hit@k for each k, MRR@10 and nDCG@10."""
    return Metrics(tuple((k, hit_at(rankings, k)) for k in ks), mrr_at(rankings, 10), ndcg_at(rankings, 10))
