"""Run a question set through a retriever in several modes and summarise the metrics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from corpus.model import Chunk

from .questions import Question, normalise
from .metrics import Metrics, Ranking, summarise

Retrieve = Callable[[str, str, int], Sequence[Chunk]]  # (question, mode, k) -> ranked chunks


@dataclass(frozen=True, slots=True)
class ModeResult:
    """Metrics of one mode over the question set, per kind, and the questions it missed."""

    mode: str
    metrics: Metrics
    per_kind: dict[str, Metrics]
    misses: tuple[tuple[str, int | None], ...]  # (question id, first relevant rank within depth or None)
    unjudgeable: tuple[str, ...]  # questions no chunk of the corpus is relevant to
    rankings: tuple[Ranking, ...] = ()


def service_retrieve(service) -> Retrieve:
    """``retrieve`` over an ``AnswerService``: the passages ``ask`` answers with, as chunks."""
    by_id = {c.id: c for c in service.chunks}

    def retrieve(question: str, mode: str, k: int) -> list[Chunk]:
        return [by_id[p.chunk_id] for p in service.ask(question, top_k=k, mode=mode).passages]

    return retrieve


def judge(questions: Sequence[Question], chunks: Sequence[Chunk]) -> dict[str, frozenset[str]]:
    """For each question, the ids of every corpus chunk relevant to it."""
    texts = [(c, normalise(c.text)) for c in chunks]
    return {q.id: frozenset(c.id for c, text in texts if q.relevant(c, text)) for q in questions}


def evaluate(
    questions: Sequence[Question],
    chunks: Sequence[Chunk],
    retrieve: Retrieve,
    modes: Sequence[str],
    *,
    ks: Sequence[int] = (1, 5, 10),
    depth: int = 20,
    miss_k: int = 1,
) -> list[ModeResult]:
    """Evaluate ``retrieve`` on ``questions`` for each mode.

    Args:
        questions: the question set.
        chunks: every chunk of the corpus (to find all relevant ones, whatever was retrieved).
        retrieve: returns the ranked chunks for (question, mode, k).
        modes: e.g. ("bm25", "dense", "hybrid").
        ks: the k of each hit@k column.
        depth: how many passages to retrieve (>= max(ks), 10 for MRR/nDCG).
        miss_k: a question is listed as missed when no relevant passage is in its top miss_k.
    """
    relevant = judge(questions, chunks)
    depth = max(depth, *ks, 10)
    results = []
    for mode in modes:
        rankings = [
            Ranking(q.id, tuple(c.id for c in retrieve(q.question, mode, depth)), relevant[q.id]) for q in questions
        ]
        kinds: dict[str, list[Ranking]] = {}
        for q, r in zip(questions, rankings):
            kinds.setdefault(q.kind or "-", []).append(r)
        misses = tuple(
            (r.qid, r.first_hit()) for r in rankings if (r.first_hit() or depth + 1) > miss_k
        )
        results.append(
            ModeResult(
                mode=mode,
                metrics=summarise(rankings, ks),
                per_kind={kind: summarise(rs, ks) for kind, rs in sorted(kinds.items())},
                misses=misses,
                unjudgeable=tuple(q.id for q in questions if not relevant[q.id]),
                rankings=tuple(rankings),
            )
        )
    return results
