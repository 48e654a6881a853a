"""Hits as the answer shows them: ranked, cited passages whose scores fall with rank."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from index import Hit

from ..model import Passage, citation_of

SCORE_STEP = 1e-4  # what a passage moved first scores above the one after it (shown to 4 places)


def _falling(hits: list[Hit]) -> list[Hit]:
    """The hits with scores that fall with rank: a passage moved first (the earliest release,
    a better restatement) scores just above the one after it, so a TREC run file, which
    trec_eval orders by score, says what the ranking says. Scores already falling stay."""
    out: list[Hit] = []
    floor = None
    for h in reversed(hits):
        score = h.score if floor is None or h.score > floor else floor + SCORE_STEP
        out.append(h if score == h.score else replace(h, score=score))
        floor = score
    return out[::-1]


def _passages(hits: Sequence[Hit]) -> tuple[Passage, ...]:
    """Hits as ranked, cited passages."""
    return tuple(Passage(rank, h.chunk.id, h.chunk.text, round(h.score, 6), citation_of(h.chunk))
                 for rank, h in enumerate(hits, 1))
