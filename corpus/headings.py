"""Release headings in the conventions real projects use: the version, its date and its status.

A release heading names one version and little else: "v2.1.0", "Version 1.80.0 (2024-07-25)",
"## [8.2.7] - 2026-05-19", "0.28.0 (28th November, 2024)", "9.1.0 (YANKED)", or a word before
the number when what follows says it is a release: a date, a status or "release notes" ("pytest
9.1.0 (2026-06-13)", "NumPy 2.3.0 Release Notes", "pytest 3.9.0 (2018-10-15 - not published ...)",
pyasn1's "Revision 0.6.5, released 26-10-2026": dates as ``corpus.dates`` reads them);
"Python 3.12 support" is a feature heading, not a release. Pallets write the
date on the line under the title ("Released 2024-11-13", "Unreleased"), bmds-ui in an emphasised
line ("*Released on 2025-04-25.*"), celery and SQLAlchemy in a field ("  :release-date: 2024-04-17",
"    :released: June 27, 2026"). "Unreleased", "[UNRELEASED]" or "In development" is a release
section with no number. A bare "Mypy 2.3" is a release only where the document writes its releases
so ("Mypy 2.3", "Mypy 2.1", ...: ``bare_release`` and ``corpus.sections``), else a feature heading
like "Python 3.12"; after a date, as a GNU ChangeLog entry names a release ("2024-01-11 unidecode
1.3.8", esprima's "2018-06-17: Version 4.0.1"), it is one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .dates import ISO, MONTHS, NUMERIC, SPELLED, find_date
from .regex import lazy_compile
from .versions import VERSION

# The historical form: "version"/"release" or "[" before the number, anything after a break.
# "2.2.0. (2007-07-31)" and html5lib's "0.999999999/1.0b10" too.
_LEADING = lazy_compile(r"^\s*(?:(?:version|release):?\s+|\[)?v?" + VERSION + r"\]?(?=$|[\s(\-–—:,/]|\.(?:\s|$))", re.IGNORECASE)
# termcolor's "## 2.0.0 and newer" (see the GitHub releases): a range of releases, not one.
_RANGE = lazy_compile(r"^\s*(?:and|or)\s+(?:newer|later|above|up|onwards|beyond)\b", re.IGNORECASE)
# A word before the number ("pytest 9.1.0"): what follows must say release (a date, a status, "release notes").
_WORDED = lazy_compile(r"^\s*\[?[A-Za-z][\w.+-]*\s+v?" + VERSION + r"\]?(?P<rest>.*)$", re.IGNORECASE)
# Two words before it, a product and its part (Twisted's "Twisted Conch 17.1.0 (2017-02-04)", each
# part's notes of one release): a release only when a date follows.
_TWO_WORDED = lazy_compile(r"^\s*\[?[A-Za-z][\w.+-]*\s+[A-Za-z][\w.+-]*\s+v?" + VERSION + r"\]?(?P<rest>.*)$", re.IGNORECASE)
_STATUS = r"released|yanked|unreleased|final|stable|lts|pre-?release|hotfix|security|release\s+notes?|release|notes?"
_SUFFIX = lazy_compile(
    r"^(?:[\s\-–—:,.()\[\]/]|\d{4}-\d{2}-\d{2}|\d{1,2}(?:st|nd|rd|th)?\b|\d{4}\b|(?:" + _STATUS + "|" + MONTHS + r")\b)+$",
    re.IGNORECASE,
)
_UNRELEASED = lazy_compile(
    r"^\s*\[?\s*(?:unreleased|upcoming|in\s+development|not\s+yet\s+released|next\s+release)\s*\]?\s*(?:\([^)]*\))?\s*$",
    re.IGNORECASE,
)
_RELEASED_LINE = lazy_compile(
    r"^\s*(?:released|release\s+date)\s*:?\s*(.+?)\s*$|^\s*(unreleased)\s*$|^\s*\*?([^*]{6,40}?)\*?\s*$", re.IGNORECASE)
_EMPHASISED = lazy_compile(r"^\s*(\*{1,2}|_{1,2})(released\b[^*_]*?)\1\s*$", re.IGNORECASE)  # "*Released on 2025-04-25.*"
_QUOTED = lazy_compile(r"^\s*>[ \t]?")  # a Markdown quote's marker: "> 4 September 2026"
_DATE_FIELD = lazy_compile(r"^\s*:(?:released|release[-_ ]?date|date):\s*(\S.*?)\s*$", re.IGNORECASE)  # a reST field
# A name and a number, nothing else ("Mypy 2.3"): a release where the document's releases are written so.
_BARE = lazy_compile(r"^\s*([A-Za-z][\w+-]*)\s+v?" + VERSION + r"\s*$")
# A date before the release, as a GNU ChangeLog dates its entries ("2024-01-11<TAB>unidecode 1.3.8"),
# or with a colon (esprima's "2018-06-17: Version 4.0.1").
_DATE_FIRST = lazy_compile(r"^\s*(\d{4}-\d\d-\d\d):?[ \t]+(?P<rest>\S.*)$")
# A GNU ChangeLog entry's bullet that marks a release (pyOpenSSL's "* Release 0.15", "* Released version
# 0.6.", "* Version 0.5. Yay!", "* Initial release (0.1, ...)"; dnspython's "* (Version 1.14.0 released)";
# Emacs' "* Version 21.1 released."; GCC's "* GCC 9.1.0 released."): a release word, or a name and
# "released" after, then what may follow the release: "released", a remark in parentheses, a new sentence.
_MARKER = lazy_compile(r"^\(?\s*(?:(?:initial\s+)?(?:release[ds]?|releasing|version)(?:\s+version)?\s+(?P<open>\()?"
                       r"|[A-Za-z][\w+-]*\s+(?=v?\d[\w.+-]*\s+released\b))v?(?P<v>" + VERSION + r")(?P<rest>.*)$", re.IGNORECASE)
_MARKER_REST = lazy_compile(r"^(?:\s*released)?\s*(?:\([^()]*\))?\s*[.!]?\s*\)?\s*[.!]?\s*$|^\.\s+\S", re.IGNORECASE)
# A pre-release tag written apart from its number (nltk's "Version 2.0.1 (rc1) 2011-04-11", psycopg2's
# "2.0 beta 7"): part of the version, spelled as PEP 440 does (2.0.1rc1, 2.0b7); "2.0 beta" alone is 2.0.
_APART_TAG = lazy_compile(r"\s*\(\s*(alpha|beta|rc|a|b)[\s.]*(\d+)\s*\)|\s+(alpha|beta|rc)\s*(\d+)\b", re.IGNORECASE)
_PEP440 = {"alpha": "a", "beta": "b"}
# a platform's version is no release of the product: "What's new in Python 3.12", "Changes in Django 5.0"
_PLATFORMS = (r"(?:python|cpython|pypy|django|node(?:\.?js)?|java|jdk|ruby|rust|go|php|perl|windows|macos|ios|android"
              r"|linux|ubuntu|debian)\b")
# What a heading says before the release it opens (psycopg2's "What's new in psycopg 2.9.13", pymongo's
# "Changes in Version 4.20.1 (2026/11/19)"): such words, at most one name, "version", then the release alone.
_INTRO = lazy_compile(r"^\s*(?:what'?s\s+new\s+in|changes\s+in)\s+(?:(?!version\b|" + _PLATFORMS + r")[A-Za-z][\w.+-]*\s+)?"
                      r"(?:version\s+)?v?"
                      + VERSION + r"(?P<rest>.*)$", re.IGNORECASE)
# A date still to come ("2023-08-xx"): it says the line is a release's, but gives no date.
_PLACEHOLDER_DATE = lazy_compile(r"(?<!\d)\d{4}-(?:\d{1,2}|xx)-(?:\d{1,2}|xx)(?![\w])", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ReleaseHeading:
    """What a release heading says: the version (None for an unreleased section), date, status."""

    version: str | None
    date: str | None = None  # ISO 8601 (YYYY-MM-DD) when the heading gives a full date
    status: str | None = None  # "yanked" or "unreleased" when the source says so


def release_heading(text: str, names: frozenset[str] = frozenset(), order: str | None = None) -> ReleaseHeading | None:
    """The release a heading opens, or None for any other heading; ``names`` are the lower-case
    words that open the document's bare release headings ("mypy" for "Mypy 2.3"), ``order`` how it
    writes a numeric date ("dmy": pyasn1's "Revision 0.4.7, released 01-09-2019" is 1 September)."""
    if names:
        bare = bare_release(text)
        if bare is not None and bare[0].lower() in names:
            return ReleaseHeading(bare[1])
    if _UNRELEASED.match(text):
        return ReleaseHeading(None, None, "unreleased")
    if dated := _DATE_FIRST.match(text):  # "2024-01-11 unidecode 1.3.8": the date, then the release alone
        bare, alone = bare_release(dated.group("rest")), release_alone(dated.group("rest"))
        version = bare[1] if bare else alone.version if alone is not None else None
        return ReleaseHeading(version, find_date(dated.group(1))) if version else None
    m = _LEADING.match(text)
    if m is None and (intro := _INTRO.match(text)) and _alone_after(text, intro.end(1)):
        m = intro
    if m is None:
        worded = _WORDED.match(text)
        if worded is None and (two := _TWO_WORDED.match(text)) and find_date(two.group("rest")):
            worded = two
        rest = worded.group("rest") if worded else ""
        says_release = find_date(rest) is not None or NUMERIC.search(rest) is not None or re.search(
            r"release\s+notes|changelog|\(\s*(?:yanked|unreleased|released)\s*\)", rest, re.IGNORECASE) is not None
        dated = re.match(r"\s*[(\[]", rest) is not None and find_date(rest[:40]) is not None  # "(2018-10-15 - ...)"
        if worded is None or not rest.strip() or not ((_SUFFIX.match(rest) and says_release) or dated):
            return None  # "Python 3.12 support", "Node 20.1 LTS": a feature or a dependency, not a release
        m = worded
    elif _RANGE.match(text[m.end():]):
        return None
    status = "yanked" if re.search(r"\byanked\b", text, re.IGNORECASE) else (
        "unreleased" if re.search(r"\bunreleased\b|in\s+development|not\s+yet\s+released", text, re.IGNORECASE) else None)
    version, end = _tagged(text, m.group(1), m.end(1))
    return ReleaseHeading(version, find_date(text[end:], order), status)


def _tagged(text: str, version: str, end: int) -> tuple[str, int]:
    """The version with a pre-release tag written apart after it ("2.0.1 (rc1)" -> "2.0.1rc1",
    "2.0 beta 7" -> "2.0b7"), and where the two end in ``text``."""
    tag = _APART_TAG.match(text, end)
    if tag is None or re.search(r"[A-Za-z]", version.split(".")[-1]):
        return version, end
    word, number = (tag.group(1), tag.group(2)) if tag.group(1) else (tag.group(3), tag.group(4))
    return version + _PEP440.get(word.lower(), word.lower()) + number, tag.end()


def _alone_after(text: str, end: int) -> bool:
    """Whether ``text`` says nothing after its version at ``end`` but a pre-release tag, a date or a status."""
    rest = text[_tagged(text, "0", end)[1]:]
    return not rest.strip() or _SUFFIX.match(rest) is not None


def release_alone(text: str) -> ReleaseHeading | None:
    """The release a line names when it says nothing more: a version and at most a date or status
    ("4.0.0rc1", "4.0.0 (2023-08-01)", "[0.19.0, 2025-12-31]", "3.0.0 (2023-08-xx)", "Unreleased").
    Only such a line can open a release with no heading markup (agronholm's bold ``**4.16.0**``,
    ruamel.yaml's ``[0.19.0, 2025-12-31]:``): "NOTE: ..." or "1.2.3 - the version we ship" is prose."""
    found = release_heading(text)
    if found is None or found.version is None:
        return found
    m = _LEADING.match(text) or _INTRO.match(text) or _WORDED.match(text)
    if m is None:
        return None  # a date, then a name and a version ("2024-01-11 unidecode 1.3.8"): a ChangeLog entry's line
    rest = _PLACEHOLDER_DATE.sub(" ", text[_tagged(text, m.group(1), m.end(1))[1]:])
    return found if not rest.strip() or _SUFFIX.match(rest) else None


def release_marker(text: str) -> str | None:
    """The version a ChangeLog entry's bullet marks as released, when it says only that ("Release
    0.15", "Released version 0.6.", "(Version 1.14.0 released)", "Version 0.5. Yay!", "Initial release
    (0.1, don't expect much ...)"), else None: "Fix a regression present in 0.15", "Preparing release
    2.0.5." and "Version 1.2 adds a flag." mark none."""
    m = _MARKER.match(text.strip())
    if m is None:
        return None
    rest = m.group("rest")
    aside = m.group("open") is not None and rest[:1] in (",", ")")  # "(0.1, don't expect much ...)"
    return m.group("v") if aside or _MARKER_REST.match(rest) else None


def bare_release(text: str) -> tuple[str, str] | None:
    """The name and version of a heading that is only those two ("Mypy 2.3" -> ("Mypy", "2.3"))."""
    m = _BARE.match(text)
    return (m.group(1), m.group(2)) if m and m.group(1).lower() not in ("version", "release", "v") else None


def parts_of_one_release(first: str, again: str) -> bool:
    """Whether two headings of one version are parts of one product's release, each its notes
    ("Twisted Core 17.1.0 (...)", "Twisted Conch 17.1.0 (...)"), not a release written twice."""
    a, b = _TWO_WORDED.match(first), _TWO_WORDED.match(again)
    return a is not None and b is not None and first.split()[0].lower() == again.split()[0].lower() and first != again


def release_version(heading: str) -> str | None:
    """The version a heading opens a release of ("## v2.9.0 (2024-09-05)"), else None."""
    found = release_heading(heading)
    return found.version if found else None


def opens_with_version(text: str) -> bool:
    """Whether a heading starts with its version ("v2.1.0", "Version 1.80.0", "[1.2.3] - ..."):
    such a first heading opens a release; "# PyTorch 2.14 Release Notes" is a title."""
    return _LEADING.match(text) is not None


def release_line(text: str) -> ReleaseHeading | None:
    """The line under a release title that dates it ("Released 2024-11-13", "*August 7, 2024*",
    "*Released on 2025-04-25.*", ":release-date: 2024-04-17", "> 4 September 2026") or says "Unreleased"."""
    field = _DATE_FIELD.match(text)
    if field:
        date = find_date(field.group(1))
        return ReleaseHeading(None, date, None) if date else None
    text = _QUOTED.sub("", text)  # a quoted line (auto-changelog's "> 4 September 2026") says the same
    emphasised = _EMPHASISED.match(text)
    m = _RELEASED_LINE.match(emphasised.group(2) if emphasised else text)
    if m is None:
        return None
    if m.group(2):
        return ReleaseHeading(None, None, "unreleased")
    if m.group(3) is not None:  # a line that is only a date
        alone = m.group(3).strip()
        return ReleaseHeading(None, find_date(alone), None) if ISO.fullmatch(alone) or SPELLED.fullmatch(alone) else None
    date = find_date(m.group(1))
    return ReleaseHeading(None, date, None) if date else None
