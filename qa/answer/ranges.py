"""Ranges of releases a question names: "between 2.9 and 2.14", "from 1.10 to 2.0", "since 1.70",
"after 0.24", "before 2.0", "up to 3.0", "2.2 -> 3.0", ``release:2.10..2.14``.

A range is (since, until]: the releases after ``since`` up to and including ``until`` ("before"
excludes its bound). A bound is a release only where a release mention would be one
(``question``): after "v", "version", "release" or a product of the corpus, or a number whose
major the corpus has releases of. "2.9 vs 2.14 speed" compares two releases and is no range;
"since Python 3.10" names no release of the corpus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import ReleaseRange
from .question import RELEASE_NUMBER, _NOT_A_QUANTITY, _names, release_name

_ARROW = r"(?:->|→|=>|\.\.\.?|–|—)"


@dataclass(frozen=True, slots=True)
class RangeMention:
    """A range found in a question and where it is (so its bounds are not read as releases too)."""

    range: ReleaseRange
    span: tuple[int, int]


def _bound(products: tuple[str, ...]) -> str:
    """A release bound as a question writes it: an optional product name or release word, then the number."""
    names = sorted(_names(products), key=len, reverse=True)
    words = [re.escape(n) for n in names] + ["version", "release", "rel\\.?", "ver\\.?"]
    return r"(?:(?:" + "|".join(words) + r")\s+)?v?" + RELEASE_NUMBER + _NOT_A_QUANTITY


def _patterns(products: tuple[str, ...]) -> list[tuple[str, re.Pattern]]:
    """(how the groups read, pattern) for each wording, most specific first."""
    b = _bound(products)
    flags = re.IGNORECASE
    return [
        ("since-until", re.compile(r"\bbetween\s+" + b + r"\s+and\s+" + b, flags)),
        ("since-until", re.compile(r"\bfrom\s+" + b + r"\s*(?:to|until|till|through|thru|up\s+to|" + _ARROW + r")\s*" + b, flags)),
        ("until-since", re.compile(r"\bto\s+" + b + r"\s+from\s+" + b, flags)),
        ("since-until", re.compile(r"(?<![\w.])" + b + r"\s*(?:" + _ARROW + r"|\bto\b)\s*" + b, flags)),
        ("since", re.compile(r"\b(?:since|after|newer\s+than|later\s+than)\s+" + b, flags)),
        ("before", re.compile(r"\b(?:before|prior\s+to|older\s+than|earlier\s+than)\s+" + b, flags)),
        ("until", re.compile(r"\b(?:up\s+to(?:\s+and\s+including)?|until|till|through|thru)\s+" + b, flags)),
    ]


# The loose wording of an upgrade ("we're stuck on flask 2.0, anything that'll break if we jump
# to 2.2?", "we pinned numpy 2.0, what breaks if we move to 2.3"): a release, then later "to" a
# release, read as a range only when the question is about upgrading.
_UPGRADING = re.compile(r"\bbreak|\bupgrad|\bmov(?:e|ing)\s+to\b|\bjump|\bbump|\bswitch|\bmigrat|\bincompatib",
                        re.IGNORECASE)


def _loose(products: tuple[str, ...]) -> re.Pattern:
    b = _bound(products)
    return re.compile(r"(?<![\w.])" + b + r"\b.{1,80}?\b(?:to|->|→)\s+" + b, re.IGNORECASE)


_INLINE = re.compile(r"(?<!\S)release:v?" + RELEASE_NUMBER + r"\.\.v?" + RELEASE_NUMBER + r"(?=[\s,.;?!]|$)", re.IGNORECASE)
_YES_NO = re.compile(r"^\s*(?:does|do|did|is|are|was|were|can|could|will|has|have|should)\b", re.IGNORECASE)
_SINCE_WHEN = re.compile(r"\bsince\s+when\b", re.IGNORECASE)


def find_range(question: str, known: tuple[str, ...] = (), products: tuple[str, ...] = ()) -> RangeMention | None:
    """The range of releases ``question`` names, or None.

    Args:
        question: the question as typed.
        known: the releases of the corpus; a bare bound counts only when its major is one of theirs.
        products: the corpus's products, whose names may precede a bound ("pydantic 1.10").
    """
    inline = _INLINE.search(question)
    if inline:
        return RangeMention(ReleaseRange(_normal(inline.group(1)), _normal(inline.group(2))), inline.span())
    majors = {k.split(".")[0] for k in known}
    for shape, pattern in _patterns(products):
        for m in pattern.finditer(question):
            if shape == "since" and _SINCE_WHEN.match(question, m.start()):
                continue
            values = [_normal(v) for v in m.groups() if v]
            if not _all_accepted(values, m.group(0), majors, products):
                continue
            if shape == "since-until":
                found = ReleaseRange(values[0], values[1])
            elif shape == "until-since":
                found = ReleaseRange(values[1], values[0])
            elif shape == "since":  # a yes/no question asks about the state from that release on
                found = ReleaseRange(values[0], None, since_inclusive=bool(_YES_NO.match(question)))
            elif shape == "before":
                found = ReleaseRange(None, values[0], until_inclusive=False)
            else:
                found = ReleaseRange(None, values[0])
            if found.empty():
                continue
            return RangeMention(found, m.span())
    if _UPGRADING.search(question):
        for m in _loose(products).finditer(question):
            values = [_normal(v) for v in m.groups() if v]
            if _all_accepted(values, m.group(0), majors, products):
                found = ReleaseRange(values[0], values[1])
                if not found.empty():
                    return RangeMention(found, m.span())
    return None


def inline_range(value: str) -> ReleaseRange | None:
    """``2.10..2.14`` (as in ``release:2.10..2.14``) as a range, else None."""
    m = _INLINE.fullmatch("release:" + value.strip())
    return ReleaseRange(_normal(m.group(1)), _normal(m.group(2))) if m else None


def _normal(value: str) -> str:
    return release_name(value.lower())


def _all_accepted(values: list[str], text: str, majors: set[str], products: tuple[str, ...]) -> bool:
    """The bounds are releases of the corpus: one named after a product or a release word
    ("between widgetlib 5.0 and 6.0") vouches for both; else each is of a major the corpus has."""
    named = False
    for value in values:
        before = text[: text.lower().find(value)].lower().split()
        named = named or bool(before) and (before[-1] in _names(products) or before[-1] in ("version", "release"))
    return named or all(v.split(".")[0] in majors for v in values)
