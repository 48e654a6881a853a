"""The sentence of a question that asks which release, when another before it tells its context
("attrs.evolve(inst=obj) now raises a TypeError. in which version did evolve stop taking inst?")."""

from __future__ import annotations

import re

from corpus.regex import lazy_compile

from .releases import asks_which_release


# where a question's sentences part: "... from source. which psutil release ...", "... is gone - which release ..."
# (not "the ? operator", nor "e.g. the namespace")
_PARTS = lazy_compile(r"(?<=[\w)\]`'\"][.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)\s+(?=\S)"
                      r"|\s+[-\u2013\u2014]\s+|\s*;\s+")


def asking_part(question: str, products: tuple[str, ...]) -> str:
    """The sentence of a question that asks which release, when another tells its context before it
    ("attrs.evolve(inst=obj) now raises a TypeError. in which version did evolve stop taking inst?"
    -> "in which version did evolve stop taking inst?"); "" for a question of one sentence."""
    parts = [p for p in _PARTS.split(question) if p.strip()]
    if len(parts) < 2:
        return ""
    part = next((p for p in reversed(parts) if asks_which_release(p, products)), "")
    return "" if _POINTS_BACK.search(part) else part  # "which release introduced that warning?": the context is its subject


# an asking sentence ending on what the context told: "which release changed that?", "... introduced that warning?"
# or on a default the context told of: "Which release switched the default?"
_POINTS_BACK = lazy_compile(r"\b(?:that|this|it|these|those|them)(?:\s+[\w-]+)?\W*$|\bthe\s+defaults?\W*$", re.IGNORECASE)
