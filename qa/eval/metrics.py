"""Retrieval metrics: hit@k (Recall@k of "any relevant passage"), MRR@10 and nDCG@10.

nDCG comes from pytrec_eval (trec_eval's own code), so numbers match trec_eval and
published tables; hit@k and MRR are simple enough to compute here and are cross-checked
against pytrec_eval's ``success_k`` and ``recip_rank`` in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence


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


def summarise(rankings: Sequence[Ranking], ks: Sequence[int] = (1, 5, 10)) -> Mapping[str, float]:
    """hit@k for each k, MRR@10 and nDCG@10 in one dict."""
    out = {f"hit@{k}": hit_at(rankings, k) for k in ks}
    out["MRR@10"] = mrr_at(rankings, 10)
    out["nDCG@10"] = ndcg_at(rankings, 10)
    return out
