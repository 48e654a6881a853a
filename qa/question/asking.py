"""The sentence of a question that asks which release, when another before it tells its context
("attrs.evolve(inst=obj) now raises a TypeError. in which version did evolve stop taking inst?")."""

from __future__ import annotations

import re

from corpus.regex import lazy_compile

from .changes import asks_last
from .vocabulary import content_words
from .which import asks_which_release


# where a question's sentences part: "... from source. which psutil release ...", "... is gone - which release ..."
# (not "the ? operator", nor "e.g. the namespace")
_PARTS = lazy_compile(r"(?<=[\w)\]`'\"][.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)\s+(?=\S)"
                      r"|\s+[-\u2013\u2014]\s+|\s*;\s+")


def asking_part(sentence: str) -> str:
    """The sentence asking which release (``asking_sentence``) as what the question is about, when another
    tells its context before it ("attrs.evolve(inst=obj) now raises a TypeError. in which version did evolve
    stop taking inst?" -> "in which version did evolve stop taking inst?"); "" for a question of one sentence
    or one pointing back ("which release introduced that warning?": the context is its subject)."""
    return "" if _POINTS_BACK.search(sentence) else sentence


def asking_span(question: str, products: tuple[str, ...]) -> tuple[int, int] | None:
    """Where in ``question`` the sentence asking which release stands, when another sentence stands beside it
    ("I'm on flask 2.3.0. Which release dropped Python 3.7?": the second); None for a question of one sentence."""
    spans, at = [], 0
    for cut in [*_PARTS.finditer(question), None]:
        end = cut.start() if cut else len(question)
        if question[at:end].strip():
            spans.append((at, end))
        at = cut.end() if cut else at
    return next((span for span in reversed(spans) if asks_which_release(question[span[0]:span[1]], products)
                 or asks_last(question[span[0]:span[1]], question)), None) if len(spans) > 1 else None


def pointed(sentence: str) -> str:
    """What the sentence asking which release (``asking_sentence``) points back to by name, when another tells
    its context first ("... requests objects are never freed. Which release fixed that leak?" -> "leak"); ""
    when it names nothing ("which release changed that?") or points to nothing."""
    back = _POINTS_BACK.search(sentence)
    noun = (back.group("noun") or "").lower() if back else ""
    # "that one", "that again": nothing named; "that bug", "that vulnerability": nothing told apart
    return noun if noun in content_words(noun) and noun not in _GENERIC else ""


def asking_sentence(question: str, products: tuple[str, ...]) -> str:
    """The text of the sentence asking which release (``asking_span``), "" for a question of one sentence."""
    span = asking_span(question, products)
    return question[span[0]:span[1]] if span else ""


_GENERIC = frozenset("bug bugs issue issues problem problems error errors vulnerability vulnerabilities crash crashes "
                     "regression regressions behavior behaviour change changes feature features fix fixes thing things "
                     "warning warnings".split())


# an asking sentence ending on what the context told: "which release changed that?", "... introduced that warning?"
# or on a default the context told of: "Which release switched the default?"
_POINTS_BACK = lazy_compile(r"\b(?:(?:that|this|these|those)(?:\s+(?P<noun>[\w-]+))?|(?:it|them)(?:\s+[\w-]+)?)\W*$"
                            r"|\bthe\s+defaults?\W*$", re.IGNORECASE)
