"""Re-rank retrieved passages by sentence evidence: how well their best sentence answers the question.

Retrieval scores a passage as a whole (BM25 over a section, the best ~150-word window by
cosine); a section-sized passage can score well on its many loosely related words while
another holds the one sentence that answers. The engine scores every sentence of the top
candidates anyway (``qa.extract``; the sentence vectors are made when the index is built), so
mixing in each candidate's best-sentence score costs no model pass.
"""

from __future__ import annotations

from typing import Literal, Sequence

import numpy as np

RERANK_WEIGHT = 0.3  # share of the best-sentence score in the mixed score (0 turns re-ranking off)
RERANK_DEPTH = 20  # candidates re-ranked, whatever top_k; the rest keep their retrieval order behind them
Normalise = Literal["top", "minmax"]
RERANK_NORMALISE: Normalise = "minmax"  # retrieval scores mapped to 0..1 over the candidates
RERANK_MODES = frozenset({"hybrid", "dense", "bm25"})  # in bm25 mode the evidence is term coverage only


def rerank(
    scores: Sequence[float],
    evidence: Sequence[float],
    weight: float = RERANK_WEIGHT,
    normalise: Normalise = RERANK_NORMALISE,
) -> tuple[list[int], list[float]]:
    """The candidates in order of ``(1 - weight) * retrieval + weight * evidence``, best first.

    Only the first ``len(evidence)`` candidates are re-ranked; any further ones keep their
    retrieval order behind them, mixed as if their evidence were 0 (so mixed scores still fall
    with rank: evidence is never negative).

    Args:
        scores: retrieval scores of the candidates, best first (any scale).
        evidence: the best-sentence score (0..1) of each of the first candidates.
        weight: the share of evidence in the mixed score.
        normalise: how retrieval scores are put on a 0..1 scale, over the re-ranked candidates:
            "top" divides by the best score; "minmax" maps the best to 1 and the worst to 0.

    Returns:
        The candidate indices in the new order (ties keep retrieval order), and each
        candidate's mixed score (indexed like ``scores``).

    Raises:
        ValueError: more evidence values than scores, or ``normalise`` is neither "top" nor "minmax".
    """
    s = np.asarray(scores, dtype=np.float64)
    e = np.asarray(evidence, dtype=np.float64)
    n = len(e)
    if n > len(s):
        raise ValueError(f"{n} evidence values for {len(s)} scores")
    if normalise not in ("top", "minmax"):
        raise ValueError(f"Unknown normalisation {normalise!r}; use one of: top, minmax")
    if not n:
        return list(range(len(s))), [float(x) for x in s]
    top, low = s[:n].max(), s[:n].min()
    if normalise == "top":
        norm = s / top if top > 0 else np.zeros_like(s)
    else:
        norm = (s - low) / (top - low) if top > low else np.ones_like(s)
    mixed = (1 - weight) * norm
    mixed[:n] += weight * e
    order = sorted(range(n), key=lambda i: (-mixed[i], i)) + list(range(n, len(s)))
    return order, [float(m) for m in mixed]
