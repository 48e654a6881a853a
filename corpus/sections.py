"""Split a document into sections: breadcrumb paths, verbatim text, line ranges and versions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .markdown import Heading, markdown_headings
from .nesting import release_subsections, series_headings
from .model import Document, Section
from .plaintext import plain_outline
from .release_lines import markdown_release_lines
from .regex import lazy_compile
from .repair import Line, as_lines, repair_markdown
from .rst import link_mask, markup_mask, rst_headings
from .dates import date_order
from .headings import (ReleaseHeading, bare_release, find_date, opens_with_version, parts_of_one_release, release_heading,
                       release_line)

_FIELD = lazy_compile(r"^\s*:\w[\w -]*:(?:\s|$)")  # a reST field: ":release-date: 2024-04-17"


@dataclass(frozen=True, slots=True)
class Outline:
    """A document's logical lines, its title line (if any), where content starts, and its headings."""

    lines: tuple[Line, ...]
    title: str | None
    title_index: int | None
    content_start: int
    headings: tuple[Heading, ...]
    names: frozenset[str] = frozenset()  # words of bare release headings ("mypy": "Mypy 2.3"), lower case
    order: str | None = None  # how its headings write a numeric date's day and month ("dmy", "mdy": corpus.dates)
    series: frozenset[int] = frozenset()  # line indexes of headings that group a series ("## 5.0" over "### 5.0.1")

    def release(self, heading: Heading) -> ReleaseHeading | None:
        """The release ``heading`` opens in this document, or None (a series' heading opens none)."""
        return None if heading.index in self.series else release_heading(heading.text, self.names, self.order)

    @property
    def releases(self) -> tuple[str, ...]:
        """Versions of the release headings, in document order, without repeats."""
        seen: dict[str, None] = {}
        for h in self.headings:
            found = self.release(h)
            if found and found.version:
                seen.setdefault(found.version, None)
        return tuple(seen)


def release_names(headings: tuple[Heading, ...]) -> frozenset[str]:
    """The words that open bare release headings: a name before two or more versions, written no
    deeper than the document's other release headings ("Mypy 2.3", "Mypy 2.1", "Mypy 2.3.1" beside
    "Next Release"); a single "Python 3.12", or "CUDA 12.8" under a release, names none."""
    families: dict[str, list[tuple[int, str]]] = {}
    for h in headings:
        bare = bare_release(h.text)
        if bare is not None:
            families.setdefault(bare[0].lower(), []).append((h.level, bare[1]))
    top = min((h.level for h in headings if release_heading(h.text) is not None), default=7)
    return frozenset(word for word, found in families.items()
                     if len({v for _, v in found}) >= 2 and min(level for level, _ in found) <= top)


def build_outline(text: str, fmt: str, given_title: str | None, source: str | None = None) -> Outline:
    """Outline of ``text`` in format ``fmt``; the title line is found only when no title is given.

    Raises:
        MalformedReST: a reStructuredText title is broken (``source`` names the file).
    """
    if fmt in ("markdown", "rst"):
        if fmt == "markdown":
            lines = repair_markdown(text)
            headings = markdown_headings(lines)
            if not any(release_heading(h.text) for h in headings):
                headings = markdown_release_lines(lines, headings)
            headings = release_subsections(lines, headings)
            first = next((i for i, ln in enumerate(lines) if ln.text.strip()), None)
        else:
            lines = as_lines(text)
            headings = rst_headings(lines, source)
            first = headings[0].index if headings and not _content_before(lines, headings[0].index) else None
        title_index, title = None, None
        if headings and headings[0].index == first and headings[0].level == 1:
            h = headings[0]
            # reST: a style of its own is the title, even "NumPy 2.3.0 Release Notes" (one release a file)
            own = fmt == "rst" and all(o.level != 1 for o in headings[1:])
            if (own or (fmt == "markdown" and not opens_with_version(h.text))) and given_title in (None, h.text):
                title_index, title = h.index, h.text
                headings = headings[1:]
        start = 0
        if title_index is not None:
            start = title_index + (headings_span(lines, title_index) if fmt == "markdown" else h.span)
        return _outline(lines, title, title_index, start, headings)
    lines = as_lines(text)
    o = plain_outline(lines, given_title)
    return _outline(lines, o.title, o.title_index, o.content_start, o.headings)


def _outline(lines: list[Line], title: str | None, title_index: int | None, start: int, headings) -> Outline:
    """The outline of these lines and headings, with the names of its bare releases and its date order."""
    headings = tuple(headings)
    return Outline(tuple(lines), title, title_index, start, headings, release_names(headings),
                   date_order(h.text for h in headings), series_headings(lines, headings))


def links_only(o: Outline) -> bool:
    """Whether a reStructuredText outline only points at other files: every release section holds
    nothing but links and comments (Django's releases/index.txt: "6.1 release" over a toctree), or,
    with no heading under the title, the whole text does (matplotlib's api_changes_3.10.0.rst:
    ``.. contents::`` and four ``.. include::``); a ``.. note::`` has text to read."""
    mask = link_mask(list(o.lines))

    def markup_only(lo: int, hi: int) -> bool:
        found = [m for ln, m in zip(o.lines[lo:hi], mask[lo:hi]) if ln.text.strip()]
        return bool(found) and all(found)

    opened = [n for n, h in enumerate(o.headings) if o.release(h)]
    if not opened:
        return not o.headings and markup_only(o.content_start, len(o.lines))
    for n in opened:
        h, after = o.headings[n], o.headings[n + 1 :]
        if o.lines[h.index].text.startswith(".."):
            return False  # a release directive (".. changelog::"): its content is the notes
        end = after[0].index if after else len(o.lines)
        if (after and after[0].level > h.level) or not markup_only(h.index + h.span, end):
            return False
    return True


def _content_before(lines: list[Line], end: int) -> bool:
    """Whether a reST document has text before line ``end`` other than explicit markup."""
    mask = markup_mask(lines[:end])
    return any(ln.text.strip() and not m for ln, m in zip(lines[:end], mask))


def headings_span(lines: list[Line], i: int) -> int:
    """Logical lines a title heading occupies (2 when a setext underline follows)."""
    nxt = lines[i + 1].text.strip() if i + 1 < len(lines) else ""
    return 2 if nxt and set(nxt) <= {"="} else 1


@lru_cache(maxsize=16)
def outline(doc: Document) -> Outline:
    """The (cached) outline of a loaded document."""
    return build_outline(doc.text, doc.format, doc.title)


def chrome_lines(doc: Document) -> tuple[int, ...]:
    """Original line numbers of site chrome above the title line: the only text no chunk holds."""
    o = outline(doc)
    return tuple(n for ln in o.lines[: max(0, (o.title_index or 0))] if ln.text.strip()
                 for n in range(ln.start, ln.end + 1))


def _body(lines: tuple[Line, ...], lo: int, hi: int) -> tuple[str, int, int] | None:
    """Text of lines[lo:hi] without blank lines at either end, and its original line range."""
    while lo < hi and not lines[lo].text.strip():
        lo += 1
    while hi > lo and not lines[hi - 1].text.strip():
        hi -= 1
    if lo >= hi:
        return None
    return "\n".join(ln.text for ln in lines[lo:hi]), lines[lo].start, lines[hi - 1].end


def parse_sections(doc: Document) -> list[Section]:
    """The document's sections in order; path[0] is the title, text before any heading is (title,).

    A release heading ("## v2.1.0", "Version 1.80.0 (2024-07-25)", ``corpus.headings``) gives its
    own section and everything after it, up to the next release heading, that release's version,
    date and status; an unreleased one ("[Unreleased]") gives no version; sections before any
    release heading carry the document's version and date.
    """
    o = outline(doc)
    lines, heads = o.lines, o.headings
    sections: list[Section] = []
    first_head = heads[0].index if heads else len(lines)
    lo = o.content_start
    pre = _body(lines, lo, first_head)
    if pre or not heads:
        if pre is None:
            at = lines[o.title_index] if o.title_index is not None else lines[0]
            pre = ("", at.start, at.end)
        sections.append(Section(doc.id, (doc.title,), pre[0], pre[1], pre[2], doc.version, None, 0,
                                document_date(doc, o)))
    stack: list[tuple[Heading, tuple | None]] = []  # each heading with the release it opens
    carried = (doc.version, document_date(doc, o), None)  # (version, date, status) of the last release seen
    release_level = None  # the level of the release headings, once one is seen
    for n, h in enumerate(heads):
        while stack and stack[-1][0].level >= h.level:
            stack.pop()
        end = heads[n + 1].index if n + 1 < len(heads) else len(lines)
        body = _body(lines, h.index + h.span, end)
        release, opened = o.release(h), None
        if release is not None and release.version is None:  # "[Unreleased]": a release with no number yet,
            if (h.level <= release_level) if release_level is not None else doc.version is None:  # not a subsection
                opened = (None, None, "unreleased")
        elif release is not None:
            release_level = h.level if release_level is None else min(release_level, h.level)
            under = date_under(body[0]) if body else None
            opened = (release.version, release.date or (under.date if under else None),
                      release.status or (under.status if under else None))
        stack.append((h, opened))
        carried = opened or carried
        # The release a heading sits in: "### Acknowledgements" after "### Mypy 2.3.1" is 2.3's, as its
        # heading path says; under no release heading, the last one seen.
        version, date, status = next((r for _, r in reversed(stack) if r), carried)
        if h.index in o.series:  # "## 5.0" over "### 5.0.1": its heading is no release's text
            version, date, status = None, None, None
        if body is None:
            body = ("", lines[h.index].start, lines[h.index + h.span - 1].end)
        path = (doc.title,) + tuple(x.text for x, _ in stack)
        sections.append(Section(doc.id, path, body[0], body[1], body[2], version, h.anchor, h.level, date, status))
    return sections


def date_under(body: str) -> ReleaseHeading | None:
    """What the text under a release heading says of its date: its first line ("Released
    2024-11-13", "*Released on 2025-04-25.*"), or a field of the field list it opens with
    (":release-date: 2024-04-17", SQLAlchemy's ":version: 2.1.0b3" then ":released: June 27, 2026")."""
    para = re.split(r"\n[ \t]*\n", body, maxsplit=1)[0].split("\n")
    found = release_line(para[0])
    if found is not None or not all(_FIELD.match(line) for line in para):
        return found
    return next((f for f in map(release_line, para[1:]) if f is not None and f.date), None)


def document_date(doc: Document, o: Outline) -> str | None:
    """A document's date as YYYY-MM-DD: its record's (a GitHub timestamp), else, for a note of
    one release, its title's ("What's new in 2.2.0 (January 19, 2024)") or the line under it."""
    if doc.date:
        return find_date(doc.date) or doc.date
    if not doc.version:
        return None
    first = next((ln.text for ln in o.lines[o.content_start:] if ln.text.strip()), "")
    under = release_line(first)
    return find_date(doc.title) or (under.date if under else None)


def releases(doc: Document) -> tuple[str, ...]:
    """Versions of the document's release headings, in order (empty for a single-release note)."""
    return outline(doc).releases


_RELEASE_WORD = lazy_compile(r"^\s*\[?\s*(?:version|release)\s*[\]:\-–—]?\s*(?:\(.*\))?\s*$", re.IGNORECASE)


def release_warnings(doc: Document) -> tuple[str, ...]:
    """What looks like a release but did not give one: a "Version" heading with no number, a
    release heading repeated, a document with no release at all (numpy's template.rst)."""
    o = outline(doc)
    out: list[str] = []
    seen: dict[str, int] = {}
    texts: dict[str, str] = {}
    for h in o.headings:
        line = o.lines[h.index + (1 if doc.format == "rst" and h.span == 3 else 0)].start
        found = o.release(h)
        if found is None and _RELEASE_WORD.match(h.text):
            out.append(f"line {line}: {h.text!r} looks like a release heading but names no version")
        elif found is not None and found.version:
            if found.version in seen and not parts_of_one_release(texts[found.version], h.text):
                out.append(f"line {line}: release {found.version} again (first at line {seen[found.version]})")
            seen.setdefault(found.version, line)
            texts.setdefault(found.version, h.text)
    if not doc.version and not seen:
        out.append("no release found: no version in the title, the headings, the file name or a release tag")
    unread = _unread_releases(o)
    if len(seen) < 2 and len(unread) >= 3:  # a changelog whose releases were not understood
        first = unread[0]
        out.append(f"{len(unread)} lines start with a version but are not release headings (line {first.start}: "
                   f"{first.text.strip()[:60]!r}): releases written as list items or in this form are not read "
                   "apart; give each release a heading line of its own")
    return tuple(out)


_VERSION_LINE = lazy_compile(r"^(?:[-*+]\s+)?v?\d+(?:\.\d+)+\S*:?(?:\s|$)")


def _unread_releases(o: Outline) -> list[Line]:
    """Lines at the margin that open with a release version (tabulate's "- 0.10.0: Add support
    ...") and are no heading."""
    headed = {h.index for h in o.headings} | ({o.title_index} if o.title_index is not None else set())
    return [ln for i, ln in enumerate(o.lines) if i not in headed and _VERSION_LINE.match(ln.text)
            and release_heading(re.sub(r"^[-*+]\s+", "", ln.text).split(":")[0]) is not None]
