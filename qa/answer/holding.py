"""Whether an item holds what a which-release question names exactly ("3.8", "np.sort",
"descending=True"): the pool of items that may state the fact, narrowed by each such thing."""

from __future__ import annotations

import re
from typing import Sequence

from corpus.items import item_words
from corpus.regex import lazy_compile
from corpus.textform import index_form

from ..question.changes import CHANGES_STATED
from .digest import Entry


def holding(entries: Sequence[Entry], pool: list[int], exact: Sequence[str], removal: bool = False) -> list[int]:
    """The entries of ``pool`` holding each of ``exact`` that any of them holds (a version first, then the
    longest: "descending=true", then "np.sort"; "urllib3" and "2.0": "support for urllib3 2.0" is not stated
    by "now supports urllib3 v1.24"); ``pool`` when nothing is named exactly, or only names none of them
    holds, none when a version or an advisory ("CVE-2022-40897") named is in none of them. For a ``removal`` of
    a version the items naming it in a clause saying a removal come first ("Drop support for Python 3.7, 3.8",
    not "Add support for Python 3.11" beside it), then those raising the lowest Python supported above it
    ("Minimum Python version is now 3.10" for 3.9); an item of removals naming it otherwise than as the lowest
    still supported counts as one such clause ("requires Python 3.9 or later" drops no 3.9); none other."""
    texts = {i: _text(entries[i]) for i in pool}
    narrowed = False
    # each thing named narrows the pool, when an item of it holds it: "urllib3" and "2.0"; a version first, the
    # surest ("the freeze_time tests that take fixtures broke on pytest 8.4.0": "Fix compatibility with pytest 8.4.0")
    for thing in sorted(exact, key=lambda t: not _VERSION.fullmatch(t)):
        tiers = (_DROPPED, _FLOORED) if removal else (_AS_WRITTEN,)
        holding = next((found for tier in tiers if (found := [
            i for i in pool if holds(texts[i], thing, tier)
            or tier == _DROPPED and entries[i].item.kind == "removed" and holds(texts[i], thing, _NAMED)])), [])
        if holding:
            pool, narrowed = holding, True
    # a version asked for ("dropped Python 3.8") that no item names: no item states it; a name
    # written as code in the question ("`Some(x) && ...`") may be worded otherwise in the notes
    return [] if not narrowed and (_names_version(exact) or any(_ADVISORY.fullmatch(thing) for thing in exact)) else pool


def _names_version(exact: Sequence[str]) -> bool:
    """Whether a question names a version exactly ("3.8", "python 2.x"): another thing's, which an item stating it
    must hold (``holds``: as written or within a bound)."""
    return any(_VERSION.fullmatch(thing) or _MAJOR.fullmatch(thing) for thing in exact)


def holds_named(entry: Entry, exact: Sequence[str]) -> bool:
    """Whether the item holds one of the things a question names exactly."""
    text = _text(entry)
    return any(holds(text, thing) for thing in exact)


def _text(entry: Entry) -> str:
    """An item's words and its heading, as ``holds`` reads them, without its release's own version (a heading
    "2.0.2" holds no "SQLAlchemy 2.0"; "4.3.5 - last Python 2.7 Maintenance Release" still holds 2.7)."""
    heading, version = " ".join(entry.chunk.section[-1:]), entry.chunk.version
    if version:
        heading = re.sub(r"(?<![\w.])v?" + re.escape(version) + r"(?!\w|\.\d)", " ", heading, flags=re.IGNORECASE)
    return index_form(item_words(entry.text) + " " + heading).lower()


_VERSION = lazy_compile(r"\d+(?:\.\d+)+")  # "3.8", as a question names it exactly
_MAJOR = lazy_compile(r"(\S+) (\d+)\.x")  # "python 2" (``vocabulary.majors``)
_ADVISORY = lazy_compile(r"cve-\d{4}-\d+|ghsa(?:-[a-z\d]{4}){3}")  # a security advisory's id, lower case
ALNUM = lazy_compile(r"([a-z]{2,})(\d+)")  # a name and its number: "qt5", "pyqt6", "http2"


_ASIDE = lazy_compile(r"\([^()]*\)")


def _below(text: str, version: str) -> bool:
    """Whether the text names a bound of versions below which ``version`` falls: "Python versions less than 3.7",
    "versions older than 3.8", "Python versions prior to 3.6", "Python < 3.7" hold 2.7 (and 3.6); "Python 3 versions
    prior to 3.6" holds 3.5, not 2.7; a bound in parentheses counts when none stands outside them."""
    asked = tuple(int(n) for n in version.split("."))
    # a bound in an aside counts when the item names none outside it: not "Drop support for Python < 3.5 (all
    # versions of Python < 3.6 are EOL)" for 3.5
    outside = _ASIDE.sub(" ", text)
    read = outside if _BOUND.search(outside) else text
    return any(asked < tuple(int(n) for n in m.group("bound").split("."))
               and (m.group("major") is None or asked[0] == int(m.group("major"))) for m in _BOUND.finditer(read))


def _floored(text: str, version: str) -> bool:
    """Whether the text raises the lowest Python supported above ``version`` ("Minimum Python version is now 3.10"
    holds 3.9)."""
    asked = tuple(int(n) for n in version.split("."))
    return any(asked < tuple(int(n) for n in (m.group("bound") or m.group("named")).split("."))
               for m in _FLOOR.finditer(text))


# a bound of versions: "python versions less than 3.7", "versions older than 3.8", "python < 3.7", "python 3
# versions prior to 3.6" (of that major only)
_BOUND = lazy_compile(r"\b(?:python\s*(?P<major>\d+)\s+versions?|python|py|versions?)\s*"
                      r"(?:(?:less|older|earlier|lower)\s+than|prior\s+to|below|before|<)\s*"
                      r"(?:python\s*)?v?(?P<bound>\d+(?:\.\d+)+)(?!\w|\.\d)")  # "... < 3.6." ends a sentence
# the lowest Python still supported, raised: "minimum python version is now 3.10", "the minimum version is now
# python 3.9", "raise the minimum supported python version to 3.9"; never another
# thing's ("the minimum supported django version is 4.2") nor a condition ("for python >= 3.11")
_FLOOR = lazy_compile(r"\bminimum\s+(?:supported\s+|required\s+)?(?:python|py)\s+(?:versions?\s+)?"
                      r"(?:(?:is|was)\s+(?:now\s+)?|now\s+|of\s+|(?:raised|bumped|increased)\s+to\s+|to\s+)?v?(?P<bound>\d+(?:\.\d+)+)"
                      r"(?!\w|\.\d)|\bminimum\s+(?:supported\s+|required\s+)?versions?\s+(?:is\s+now|is|was)\s+python\s*v?"
                      r"(?P<named>\d+(?:\.\d+)+)(?!\w|\.\d)")


# how ``holds`` reads a version (``holding``)
_AS_WRITTEN, _NAMED, _FLOORED, _DROPPED = "as written", "named", "floored", "dropped"
# the lowest version still supported, named: "python >= 3.9", "python 3.9 or later"
_AT_LEAST = lazy_compile(r"\b(?:python|py)\s*(?:>=\s*v?\d+(?:\.\d+)+|v?\d+(?:\.\d+)+\s*or\s+(?:later|newer|above|greater"
                         r"|higher)\b)")  # not "on python 3.11+": a condition, as questions write it too
_FIXING = lazy_compile(r"\W*fix")  # "Fix forward compatibility with Python 3.8: ... will not be supported anymore"
# where an item's clauses part: "add support for python 3.13, drop support for python 3.5", "...; now requires"
_CLAUSE = lazy_compile(r"[.;!?](?:\s|$)|,\s*(?=(?:and\s+|but\s+)?(?:add|drop|remov|support|deprecat|requir|test)\w*)"
                       r"|\s+and\s+(?=(?:add|drop|remov|deprecat|start)\w*)")


def holds(text: str, thing: str, how: str = _AS_WRITTEN) -> bool:
    """Whether an item's text (and heading) holds ``thing``: as written, or a dotted name by its
    parts ("monkeypatch.context" in "``monkeypatch`` now supports a ``context()`` function") or by
    its last one ("np.cov" in "*cov* has new ``fweights``"), a keyword argument as code ("proxies=" in "The
    deprecated `proxies` argument has now been removed"), a name and its number apart ("qt5" in "Qt 5"), a
    decorator by its name as code ("@deprecated" in "adding `typing_extensions.deprecated`"). A version ``how``:
    as written (literally or below a bound, ``_below``), named otherwise than as the lowest Python supported
    (``_FLOOR``), or below that lowest one only (``_floored``)."""
    if _VERSION.fullmatch(thing):  # a version, whole: "Python3.8" holds 3.8, "3.18" and "13.8" do not
        # ... but not as a bound's ("Drop support for Python < 3.5" does not hold 3.5)
        if how == _FLOORED:
            return _floored(text, thing)
        if how == _DROPPED:
            return any(holds(clause, thing, _NAMED) and CHANGES_STATED["removed"].search(clause)
                       and not _FIXING.match(clause) for clause in _CLAUSE.split(text))
        bounded = _BOUND.sub(" ", text)
        if how == _NAMED:
            bounded = _AT_LEAST.sub(" ", _FLOOR.sub(" ", bounded))
        literal = re.search(r"(?<![\d.])" + re.escape(thing) + r"(?![\w])", bounded)
        return bool(literal) or _below(text, thing)
    if major := _MAJOR.fullmatch(thing):  # "Python 2.7", "python2", "Python-2", "Python 2 support" hold "python 2.x"
        return bool(re.search(r"(?<![\w.])" + re.escape(major.group(1)) + r"[\s-]*v?" + major.group(2) + r"(?:\.\d|(?![\w.]))",
                              text))
    if re.search(r"(?<![\w])" + re.escape(thing) + r"(?![\w])", text):  # "validate" in "ParserElement.validate()"
        return True
    if thing.startswith("@") and len(thing) > 1:  # a decorator by its name as code: "adding `typing_extensions.deprecated`"
        return bool(re.search(r"[.@]" + re.escape(thing[1:]) + r"`", text))  # not "the `deprecated` argument"
    if spaced := ALNUM.fullmatch(thing):  # a name and its number apart: "qt5" in "Removed support for Qt 5"
        return bool(re.search(r"(?<![\w])" + spaced.group(1) + r"[\s-]" + spaced.group(2) + r"(?![\w])", text))
    if thing.endswith("="):  # a keyword argument named bare: "proxies=" in "the `proxies` argument" too
        return bool(re.search(r"`" + re.escape(thing[:-1]) + r"`", text))
    parts = [p for p in re.split(r"[.:]+", thing) if p]
    if len(parts) < 2:
        return False
    held = [bool(re.search(r"(?<![\w])" + re.escape(p) + r"(?![\w])", text)) for p in parts]
    return all(held) or (held[-1] and len(parts[-1]) > 2)
