"""What a question says besides its topic: checked as text, the releases and products it names,
and whether it asks which release did something (``which``).

Find the releases a question names ("in 2.13", "v2.13", "PyTorch 2.13", "release:2.14"),
and the products of the corpus it names ("pydantic", "torch" for PyTorch).

A number counts as a release only where the wording says so: after "v", "release",
"version" or the product's name, with a possessive ("2.13's"), as ``release:X``, bare
after a preposition ("in 2.13", "went into 2.14", "as of 2.13") when it looks like a release
of this corpus (same major version), or opening the question ("2.14: what changed?") when
the corpus holds exactly that release. "CUDA 13.2", "macOS 26.2", "Python 3.15" or "1.2x" are never releases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from corpus.regex import lazy_compile
from corpus.versions import VERSION

from ..errors import BadQuestion
from ..text import CONTROL_CHARS
from .asking import asking_span
from .called import called
from .platforms import platform_spans
from .contrast import OTHER_CHANGE
from .which import asks_which_release, which_spans

MAX_QUESTION_CHARS = 2000


def check_question(question: str) -> str:
    """The question with runs of whitespace made one space, or BadQuestion saying what is wrong."""
    if not isinstance(question, str) or not question.strip():
        raise BadQuestion("The question is empty; type what you want to know, e.g. 'what changed for MPS?'")
    if len(question) > MAX_QUESTION_CHARS:
        raise BadQuestion(
            f"The question is {len(question):,} characters long; keep it under {MAX_QUESTION_CHARS:,}"
        )
    if CONTROL_CHARS.search(question):
        raise BadQuestion("The question holds control characters (such as terminal escapes); remove them")
    return " ".join(question.split())


RELEASE_NUMBER = VERSION  # a release as questions write it: 2.13, 2.13.1, 3.0rc1, 1.0.0-beta.2 (one group)
# a number followed by a unit or a multiplier is a quantity, not a release ("2.5x", "2.5 GHz"); one ending a
# sentence ("upgraded to 1.0. which ...") is one
NOT_A_QUANTITY = (
    r"(?![\w%]|\.(?=\S)|\s*(?:x|times|ms|s|secs?|seconds|[kmgt]i?b|[kmg]?hz|b|bn|m|k|w|fps|tflops|%)(?!\w))"
)
_INLINE = lazy_compile(r"(?<!\S)release:(\S*)", re.IGNORECASE)
_EXPLICIT = lazy_compile(
    # "Metadata-Version 2.6" names a field's value, not a release
    r"(?:(?<![\w-])(?:release|version|ver\.?|rel\.?)\s*|(?<![\w.])v)" + RELEASE_NUMBER + r"(?!\w|\.\S)", re.IGNORECASE
)
_POSSESSIVE = lazy_compile(r"(?<![\w.])v?" + RELEASE_NUMBER + r"['\u2019]s\b", re.IGNORECASE)
_PREPOSITION = lazy_compile(
    r"\b(?:in|into|for|since|from|to|after|before|until|till|through|by|at|as\s+of|of|between|and|vs\.?|versus"
    r"|on|with|about|does|did|do|is|was|will|has|had)\s+(?:the\s+)?"
    + RELEASE_NUMBER
    + NOT_A_QUANTITY,
    re.IGNORECASE,
)
_BEFORE_WORD = lazy_compile(r"(?<![\w.])v?" + RELEASE_NUMBER + r"\s+(?:release|version)s?\b", re.IGNORECASE)  # "the 2.13 release"
_LEADING = lazy_compile(r"^\s*v?" + RELEASE_NUMBER + NOT_A_QUANTITY, re.IGNORECASE)
# a clause telling of another change before a release it names: "after removing it in", "that was dropped in"
_CONTEXT = lazy_compile(r"\b(?:after|since|once|that|which|was|were|had\s+been|having\s+been)\s+(?:\w+\s+){0,2}?"
                        + OTHER_CHANGE + r"\s+(?:it\s+|them\s+)?$", re.IGNORECASE)
# the release a person moved to, told before it: "after upgrading to", "got upgraded", "since we bumped X to",
# "after going to"
_ON = lazy_compile(r"\b(?:upgrad|updat|bump|jump|mov|switch|(?:after|since|once)\s+going\b|went\b)\w*\s+"
                   r"(?P<between>(?:[\w.-]+\s+){0,2}?)(?:(?P<to>to|from)\s+(?:the\s+)?)?$", re.IGNORECASE)
# what the sentence of a release moved to says of it, after it: the trouble is gone there
_WORKS = lazy_compile(r"(?:[^.;!?]|[.!?](?=\S))*?\b(?:(?:is|are|was|were|got|has\s+been|have\s+been)\s+"
                      r"(?:gone|fixed|resolved)|went\s+away|disappeared|works?\s+(?:again|now|fine)"
                      r"|no\s+longer\s+(?:happens|fails|breaks|crashes|raises))\b", re.IGNORECASE)
_ON_WORDS = frozenset({"to", "from", "the", "it", "we", "our", "my", "i", "version", "release", "v"})


@dataclass(frozen=True, slots=True)
class ReleaseQuery:
    """A question with its release mentions found and (for inline filters) removed."""

    text: str
    releases: tuple[str, ...]
    topic: str = ""  # the question without its release mentions (what it is about)
    bad_filters: tuple[str, ...] = ()
    which_release: bool = False
    products: tuple[str, ...] = ()  # products of the corpus the question names, as the corpus spells them
    moved_to: tuple[str, ...] = ()  # the releases a which question says the person moved to ("after upgrading to")
    moved_works: bool = False  # ... and that the trouble is gone there ("after upgrading to 2.2.3 the error is gone")


def named_products(question: str, products: tuple[str, ...]) -> tuple[str, ...]:
    """The products of ``products`` that ``question`` names, wherever it stands (case aside; a
    known alias or part counts: "torch" names PyTorch, "cargo" Rust, but "test" does not name
    pytest nor "pydantic-core" pydantic; ``qa.question.products``), in corpus order."""
    from .products import named

    found = {n.product for n in named(question, products) if n.held}
    return tuple(p for p in products if p in found)


def _product_pattern(products: tuple[str, ...]) -> re.Pattern | None:
    return _pattern_of(tuple(products))


@lru_cache(maxsize=8)
def _pattern_of(products: tuple[str, ...]) -> re.Pattern | None:
    """A held product's name and a release after it ("dateutil 2.8.1"), compiled once a corpus."""
    names = sorted(called(products), key=len, reverse=True)
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in names)
    # "Python-Markdown 3.11" is markdown's (qa.question.products.held_names)
    return re.compile(r"\b(?:(?:python|py)[-_])?(?:" + alternatives + r")\s*v?" + RELEASE_NUMBER + r"(?!\w|\.\S)", re.IGNORECASE)


def release_name(value: str) -> str:
    """A release as given, without a "v" prefix ("v2.14" -> "2.14"): how --release values are read."""
    return value.lstrip("vV")


def _normal(version: str) -> str:
    return release_name(version.lower())


def find_releases(question: str, known: tuple[str, ...] = (), products: tuple[str, ...] = ()) -> ReleaseQuery:
    """Detect release mentions in ``question``.

    Args:
        question: the user's question.
        known: releases in the corpus; a bare "in 2.11" counts only when its major matches one.
        products: product names in the corpus ("PyTorch"), so "PyTorch 2.13" is a release.

    Returns:
        A ReleaseQuery: the question with ``release:X`` filters removed, the releases named in
        order of appearance (deduplicated), malformed ``release:`` values, and whether it asks
        which release introduced something.
    """
    found: list[tuple[int, str]] = []
    spans: list[tuple[int, int]] = []
    bad: list[str] = []
    text = question
    for m in _INLINE.finditer(question):
        value = m.group(1).strip(",.;?!")
        if re.fullmatch(r"v?" + RELEASE_NUMBER, value, re.IGNORECASE):
            found.append((m.start(), _normal(value)))
        else:
            bad.append(value)
    text = _INLINE.sub(" ", text)
    patterns = [_EXPLICIT, _POSSESSIVE]
    product = _product_pattern(products)
    if product is not None:
        patterns.append(product)
    which = asks_which_release(question, products)
    # "when did typeguard bring back X after removing it in 3.0?", "after upgrading to pathspec 0.12.0, X
    # returns None. fixed in what release?": the release of another change or the one a person is on, told as
    # context; the one asked about is not in it
    moved: list[str] = []
    works: list[bool] = []
    asking = asking_span(text, tuple(products)) if which else None  # "I'm on flask 2.3.0. Which release ...?"

    def told(start: int, end: int, value: str, said: str = "") -> bool:  # "to 1.0" of "got upgraded to 1.0": its "to"
        on = _ON.search(text, 0, start)
        if which and on is not None and (on.group("to") is not None or re.match(r"(?:to|from)\b", said, re.IGNORECASE)):
            if not set(on.group("between").lower().split()) - called(tuple(products)) - _ON_WORDS:
                moved.append(value)  # the product's release, not "bumping Werkzeug to 2.3.0"
                works.append(bool(_WORKS.match(text, end)))  # "... to flask 2.2.3 the error is gone"
            return True
        return which and bool(_CONTEXT.search(text, 0, start) or (asking and not asking[0] <= start < asking[1]))

    for pattern in patterns:
        for m in pattern.finditer(text):
            if not told(m.start(), m.end(), _normal(m.group(1))):
                found.append((m.start(), _normal(m.group(1))))
            spans.append(m.span())
    majors = {k.split(".")[0] for k in known}
    platform = platform_spans(text, called(tuple(products)) if products else frozenset())
    # "on Python 3.14 ... installs greenlet on 3.14": a number a platform's is that platform's again
    theirs = {_normal(v) for a, b in platform for v in re.findall(RELEASE_NUMBER, text[a:b])}
    for m in [*_PREPOSITION.finditer(text), *_BEFORE_WORD.finditer(text)]:
        value = _normal(m.group(1))
        if value.split(".")[0] in majors and value not in theirs and not any(a <= m.start(1) < b for a, b in platform):
            if not told(m.start(), m.end(), value, m.group(0)):
                found.append((m.start(), value))
            spans.append(m.span())
    leading = _LEADING.match(text)  # "2.14: what changed for MPS?" -- only a release the corpus holds
    if leading and _normal(leading.group(1)) in {_normal(k) for k in known}:
        found.append((leading.start(1), _normal(leading.group(1))))
        spans.append(leading.span())
    spans.extend(which_spans(text, tuple(products)))  # "which pydantic 1.x release", "which point release": no topic words
    releases: list[str] = []
    for _, value in sorted(found):
        if value not in releases:
            releases.append(value)
    return ReleaseQuery(
        text=" ".join(text.split()),
        releases=tuple(releases),
        topic=" ".join(_without(text, spans).split()),
        bad_filters=tuple(bad),
        which_release=which,
        products=named_products(text, products),
        moved_to=tuple(dict.fromkeys(moved)),
        moved_works=any(works),
    )


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` (overlapping or not) made a space."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    for start, end in reversed(merged):
        text = text[:start] + " " + text[end:]
    return text

