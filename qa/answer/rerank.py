"""Re-rank retrieved passages by sentence evidence: how well their best sentence answers the question.

Retrieval scores a passage as a whole (BM25 over a section, the best ~150-word window by
cosine); a section-sized passage can score well on its many loosely related words while
another holds the one sentence that answers. The engine scores every sentence of the top
candidates anyway (``qa.answer.evidence``; the sentence vectors are made when the index is
built), so mixing in each candidate's best-sentence score costs no model pass.

The settings are a frozen ``RerankConfig`` handed to the engine; ``benchmarks/rerank_grid.py``
measured the defaults (numbers in docs/measurements.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, NamedTuple, Sequence

Normalise = Literal["top", "minmax"]
NORMALISATIONS: tuple[str, ...] = ("top", "minmax")


@dataclass(frozen=True, slots=True)
class RerankConfig:
    """How the engine re-ranks: the evidence's share, how deep, and the restatement rule.

    Attributes:
        weight: share of the best-sentence score in the mixed score (0 turns re-ranking off).
        depth: candidates re-ranked, whatever top_k; the rest keep their retrieval order behind them.
        normalise: how retrieval scores are put on 0..1 over the candidates ("top" or "minmax").
        restated: the cosine at which two sentences state the same fact.
        restated_depth: how many of the first passages are looked at for a restatement.

    The defaults were measured with benchmarks/rerank_grid.py and relnotes eval (docs/measurements.md).
    """

    weight: float = 0.3
    depth: int = 20
    normalise: Normalise = "minmax"
    restated: float = 0.7
    restated_depth: int = 5

    def __post_init__(self) -> None:
        if not 0 <= self.weight <= 1:
            raise ValueError(f"weight must be within 0..1, got {self.weight}")
        if self.depth < 1 or self.restated_depth < 1:
            raise ValueError(f"depths must be at least 1, got {self.depth} and {self.restated_depth}")
        if self.normalise not in NORMALISATIONS:
            raise ValueError(f"Unknown normalisation {self.normalise!r}; use one of: {', '.join(NORMALISATIONS)}")

    def applies(self, mode: str) -> bool:
        """Whether answers in ``mode`` are re-ranked: in every mode (in bm25 the evidence is term
        coverage only), unless the weight is 0."""
        return self.weight > 0


DEFAULT_RERANK = RerankConfig()


class Statement(NamedTuple):
    """What ``restated_first`` knows of a passage: its document and release, and its best
    sentence's score for the question and text (None: the passage has no sentence)."""

    document: str
    version: str | None
    score: float
    text: str | None


Pairwise = Callable[[str, Sequence[str]], Sequence[float]]  # a sentence, others -> their cosines with it


def restated_first(statements: Sequence[Statement], cosines: Pairwise, threshold: float) -> int | None:
    """Which passage should replace the first, or None.

    Two documents of one release often state the same fact (a release blog and a news
    article about it). Their passages' retrieval scores then reflect everything else they
    say; which one answers is better told by the sentence that states it. So among the
    passages after the first that come from another document of the same release and whose
    best sentence restates the first's (cosine >= ``threshold``), the one whose best sentence
    scores highest goes first, if it scores higher than the first's.

    Args:
        statements: the candidates in rank order, the current first passage first.
        cosines: the cosine of a sentence with each of several others (``index.Similarity.pairwise``).
        threshold: the cosine at which two sentences state the same thing.
    """
    if len(statements) < 2 or statements[0].text is None or not statements[0].version:
        return None
    top = statements[0]
    others = [i for i, s in enumerate(statements[1:], 1)
              if s.text is not None and s.document != top.document and s.version == top.version]
    if not others:
        return None
    best, best_score = None, top.score
    for i, cosine in zip(others, cosines(top.text, [statements[i].text for i in others])):
        if cosine >= threshold and statements[i].score > best_score:
            best, best_score = i, statements[i].score
    return best


def rerank(
    scores: Sequence[float],
    evidence: Sequence[float],
    weight: float = DEFAULT_RERANK.weight,
    normalise: Normalise = DEFAULT_RERANK.normalise,
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
    s = [float(x) for x in scores]
    e = [float(x) for x in evidence]
    n = len(e)
    if n > len(s):
        raise ValueError(f"{n} evidence values for {len(s)} scores")
    if normalise not in NORMALISATIONS:
        raise ValueError(f"Unknown normalisation {normalise!r}; use one of: {', '.join(NORMALISATIONS)}")
    if not n:
        return list(range(len(s))), s
    top, low = max(s[:n]), min(s[:n])
    if normalise == "top":
        norm = [x / top for x in s] if top > 0 else [0.0] * len(s)
    else:
        norm = [(x - low) / (top - low) for x in s] if top > low else [1.0] * len(s)
    mixed = [(1 - weight) * x for x in norm]
    for i in range(n):
        mixed[i] += weight * e[i]
    order = sorted(range(n), key=lambda i: (-mixed[i], i)) + list(range(n, len(s)))
    return order, mixed
