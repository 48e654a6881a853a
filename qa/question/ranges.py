"""Ranges of releases a question names: "between 2.9 and 2.14", "from 1.10 to 2.0", "since 1.70",
"after 0.24", "before 2.0", "up to 3.0", "after 1.1 but before 2.1", "2.2 -> 3.0", ``release:2.10..2.14``.

A range is (since, until]: the releases after ``since`` up to and including ``until`` ("before"
excludes its bound; ``qa.model.ReleaseRange``). A bound is a release only where a release
mention would be one (``question``): after "v", "version", "release" or a product of the
corpus, or a number whose major the corpus has releases of, and never right after another
thing's name ("since Python 3.10", "CUDA 12.4 to 12.8"). "2.9 vs 2.14 speed" compares two
releases and is no range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from corpus.regex import lazy_compile

from ..errors import BadQuestion
from ..model import ReleaseRange
from .called import product_words
from .releases import NOT_A_QUANTITY, RELEASE_NUMBER, release_name
from .vocabulary import PLATFORMS

_ARROW = r"(?:->|→|=>|\.\.\.?|–|—)"


@dataclass(frozen=True, slots=True)
class RangeMention:
    """A range found in a question and where it is (so its bounds are not read as releases too);
    ``inline`` for ``release:A..B``, which is a filter and not part of the question's words."""

    range: ReleaseRange
    span: tuple[int, int]
    inline: bool = False


def _bound(products: tuple[str, ...]) -> str:
    """A release bound as a question writes it: an optional product name or release word, then the number."""
    names = sorted(product_words(products), key=len, reverse=True)
    words = [re.escape(n) for n in names] + ["version", "release", "rel\\.?", "ver\\.?"]
    return r"(?:(?:" + "|".join(words) + r")\s+)?v?" + RELEASE_NUMBER + NOT_A_QUANTITY


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
_UPGRADING = lazy_compile(r"\bbreak|\bupgrad|\bmov(?:e|ing)\s+to\b|\bjump|\bbump|\bswitch|\bmigrat|\bincompatib",
                        re.IGNORECASE)
_INLINE = lazy_compile(r"(?<!\S)release:v?" + RELEASE_NUMBER + r"\.\.v?" + RELEASE_NUMBER + r"(?=[\s,.;?!]|$)", re.IGNORECASE)
_YES_NO = lazy_compile(r"^\s*(?:does|do|did|is|are|was|were|can|could|will|has|have|should)\b", re.IGNORECASE)
_SINCE_WHEN = lazy_compile(r"\bsince\s+when\b", re.IGNORECASE)
_NUMBERED = lazy_compile(r"\d\.\d")  # what RELEASE_NUMBER needs at least (corpus.versions.VERSION)


def _loose(products: tuple[str, ...]) -> re.Pattern:
    b = _bound(products)
    return re.compile(r"(?<![\w.])" + b + r"\b.{1,80}?\b(?:to|->|→)\s+" + b, re.IGNORECASE)


def find_range(question: str, known: tuple[str, ...] = (), products: tuple[str, ...] = ()) -> RangeMention | None:
    """The range of releases ``question`` names, or None.

    Args:
        question: the question as typed.
        known: the releases of the corpus; a bare bound counts only when its major is one of theirs.
        products: the corpus's products, whose names may precede a bound ("pydantic 1.10").

    Raises:
        BadQuestion: an inline ``release:A..B`` that runs backwards, or a second one.
    """
    inlines = list(_INLINE.finditer(question))
    if inlines:
        if len(inlines) > 1:
            raise BadQuestion(f"'{inlines[1].group(0)}' is a second range; ask about one range at a time")
        m = inlines[0]
        found = ReleaseRange.between(_normal(m.group(1)), _normal(m.group(2)))
        if found.empty():
            raise BadQuestion(f"'{m.group(0)}' runs backwards; write the older release first, like release:2.10..2.14")
        return RangeMention(found, m.span(), inline=True)
    majors = {k.split(".")[0] for k in known}
    first = _first(question, majors, products)
    if first is None:
        return None
    one_sided = first.range.since is None or first.range.until is None
    if one_sided:  # "after 1.1 but before 2.1": the other bound elsewhere in the question
        start, end = first.span
        rest = question[:start] + " " * (end - start) + question[end:]
        other = _first(rest, majors, products, one_sided_only=True)
        if other is not None and (other.range.since is None) != (first.range.since is None):
            a, b = (first, other) if first.range.since is not None else (other, first)
            merged = ReleaseRange(a.range.since, b.range.until, b.range.until_inclusive, a.range.since_inclusive)
            if not merged.empty():
                return RangeMention(merged, (min(start, other.span[0]), max(end, other.span[1])))
    return first


def _first(question: str, majors: set[str], products: tuple[str, ...], one_sided_only: bool = False) -> RangeMention | None:
    """The first wording of ``_patterns`` (then the loose upgrade wording) that names a range."""
    if not _NUMBERED.search(question):  # every bound is a release number: no pattern to build and run
        return None
    for shape, pattern in _patterns(products):
        if one_sided_only and shape not in ("since", "before", "until"):
            continue
        for m in pattern.finditer(question):
            if shape == "since" and _SINCE_WHEN.match(question, m.start()):
                continue
            values = [_normal(v) for v in m.groups() if v]
            if not _all_accepted(values, m, question, majors, products):
                continue
            if shape == "since-until":
                found = ReleaseRange.between(values[0], values[1])
            elif shape == "until-since":
                found = ReleaseRange.between(values[1], values[0])
            elif shape == "since":  # a yes/no question asks about the state from that release on
                found = ReleaseRange(values[0], None, since_inclusive=bool(_YES_NO.match(question)))
            elif shape == "before":
                found = ReleaseRange(None, values[0], until_inclusive=False)
            else:
                found = ReleaseRange(None, values[0])
            if not found.empty():
                return RangeMention(found, m.span())
    if not one_sided_only and _UPGRADING.search(question):
        for m in _loose(products).finditer(question):
            values = [_normal(v) for v in m.groups() if v]
            if _all_accepted(values, m, question, majors, products):
                found = ReleaseRange.between(values[0], values[1])
                if not found.empty():
                    return RangeMention(found, m.span())
    return None


def _normal(value: str) -> str:
    return release_name(value.lower())


def _all_accepted(values: list[str], m: re.Match, question: str, majors: set[str], products: tuple[str, ...]) -> bool:
    """The bounds are releases of the corpus: never right after another thing's name ("python
    3.8"); one named after a product or a release word ("between widgetlib 5.0 and 6.0")
    vouches for both; else each is of a major the corpus has."""
    named = False
    text = m.group(0).lower()
    names = product_words(products)
    for value in values:
        at = text.find(value)
        before = [w.strip(",.;:()") for w in (question[: m.start()].lower() + " " + text[:at]).split()]
        word = before[-1] if before else ""
        # the nearest name before it, within a few words: "python 3.10 up to 3.12" is Python's
        nearest = next((w for w in reversed(before[-4:]) if w in PLATFORMS or w in names), "")
        if nearest in PLATFORMS and nearest not in names:
            return False
        named = named or word in names or word in ("version", "release")
    return named or all(v.split(".")[0] in majors for v in values)


class BadBound(ValueError):
    """A range given as two bounds (``--since``/``--until``, a tool's since/until) that is not
    one: ``name`` is the bound at fault; ``backwards`` when the range runs backwards."""

    def __init__(self, message: str, name: str, backwards: bool = False) -> None:
        super().__init__(message)
        self.name = name
        self.backwards = backwards


def range_of(since: str | None, until: str | None, names: tuple[str, str] = ("--since", "--until")) -> ReleaseRange | None:
    """The range after ``since`` up to ``until`` (either may be None: open), None when both are;
    each bound written like 2.14, v1.10.2 or 3.0rc1, a two-part ``since`` standing for its series
    (``ReleaseRange.between``).

    Raises:
        BadBound: a bound that is no release (or no string), or a range that runs backwards;
            the message names the bounds by ``names``.
    """
    if since is None and until is None:
        return None
    for name, value in zip(names, (since, until)):
        if value is not None and (not isinstance(value, str)
                                  or not re.fullmatch(r"v?" + RELEASE_NUMBER, value.strip(), re.IGNORECASE)):
            raise BadBound(f"{value!r} is not a release; write it like 2.14, 1.10.2 or 3.0rc1", name)
    since, until = (release_name(v.strip()).lower() if v else None for v in (since, until))
    span = ReleaseRange.between(since, until) if since and until else ReleaseRange(since, until)
    if span.empty():
        raise BadBound(f"{names[1]} {until} is not after {names[0]} {since}; give the older release first",
                       names[0], backwards=True)
    return span
