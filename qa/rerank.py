"""Re-rank retrieved passages by sentence evidence: how well their best sentence answers the question.

Retrieval scores a passage as a whole (BM25 over a section, the best ~150-word window by
cosine); a section-sized passage can score well on its many loosely related words while
another holds the one sentence that answers. The engine scores every sentence of the top
candidates anyway (``qa.extract``; the sentence vectors are made when the index is built), so
mixing in each candidate's best-sentence score costs no model pass.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, Sequence

import numpy as np

RERANK_WEIGHT = 0.3  # share of the best-sentence score in the mixed score (0 turns re-ranking off)
RERANK_DEPTH = 20  # candidates re-ranked, whatever top_k; the rest keep their retrieval order behind them
Normalise = Literal["top", "minmax"]
RERANK_NORMALISE: Normalise = "minmax"  # retrieval scores mapped to 0..1 over the candidates
RERANK_MODES = frozenset({"hybrid", "dense", "bm25"})  # in bm25 mode the evidence is term coverage only
# A passage of another document of the same release whose best sentence restates the top
# passage's (cosine at least RESTATED) and answers the question better goes first; looked for
# among the first RESTATED_DEPTH. Measured on the three bundled sets (the 2.14 news article
# restates the 2.14 blog): hit@1 0.763 / 0.833 / 0.771 -> 0.781 / 0.833 / 0.833; at 0.6
# 0.763 / 0.867 / 0.833, at 0.8 0.772 / 0.833 / 0.771; any chunk of the same release instead
# of another document's was worse (0.719 on the first set at 0.6).
RESTATED = 0.7
RESTATED_DEPTH = 5


class Statement(NamedTuple):
    """What ``restated_first`` knows of a passage: its document and release, and its best
    sentence's score for the question and unit vector (None: the passage has no sentence)."""

    document: str
    version: str | None
    score: float
    vector: np.ndarray | None


def restated_first(statements: Sequence[Statement], threshold: float = RESTATED) -> int | None:
    """Which passage should replace the first, or None.

    Two documents of one release often state the same fact (a release blog and a news
    article about it). Their passages' retrieval scores then reflect everything else they
    say; which one answers is better told by the sentence that states it. So among the
    passages after the first that come from another document of the same release and whose
    best sentence restates the first's (cosine >= ``threshold``), the one whose best sentence
    scores highest goes first, if it scores higher than the first's.

    Args:
        statements: the candidates in rank order, the current first passage first.
        threshold: the cosine at which two sentences state the same thing.
    """
    if len(statements) < 2 or statements[0].vector is None or not statements[0].version:
        return None
    top = statements[0]
    best, best_score = None, top.score
    for i, s in enumerate(statements[1:], 1):
        if s.vector is None or s.document == top.document or s.version != top.version:
            continue
        if float(np.dot(top.vector, s.vector)) >= threshold and s.score > best_score:
            best, best_score = i, s.score
    return best


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
