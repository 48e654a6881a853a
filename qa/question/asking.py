"""The sentence of a question that asks which release, when another before it tells its context
("attrs.evolve(inst=obj) now raises a TypeError. in which version did evolve stop taking inst?")."""

from __future__ import annotations

import re

from corpus.regex import lazy_compile

from .vocabulary import content_words
from .which import asks_which_release


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


def pointed(question: str, products: tuple[str, ...]) -> str:
    """What the sentence asking which release points back to by name, when another tells its context first
    ("... requests objects are never freed. Which release fixed that leak?" -> "leak"); "" when it names
    nothing ("which release changed that?") or points to nothing."""
    parts = [p for p in _PARTS.split(question) if p.strip()]
    part = next((p for p in reversed(parts) if asks_which_release(p, products)), "") if len(parts) > 1 else ""
    back = _POINTS_BACK.search(part)
    noun = (back.group("noun") or "").lower() if back else ""
    return noun if noun in content_words(noun) else ""  # "that one", "that again": nothing named


# an asking sentence ending on what the context told: "which release changed that?", "... introduced that warning?"
# or on a default the context told of: "Which release switched the default?"
_POINTS_BACK = lazy_compile(r"\b(?:(?:that|this|these|those)(?:\s+(?P<noun>[\w-]+))?|(?:it|them)(?:\s+[\w-]+)?)\W*$"
                            r"|\bthe\s+defaults?\W*$", re.IGNORECASE)
