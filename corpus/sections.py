"""Split a document into sections: breadcrumb paths, verbatim text, line ranges and versions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .markdown import Heading, markdown_headings
from .model import Document, Section
from .plaintext import text_outline
from .repair import Line, as_lines, repair_markdown
from .rst import markup_mask, rst_headings
from .headings import find_date, opens_with_version, release_heading, release_line, release_version


@dataclass(frozen=True, slots=True)
class Outline:
    """A document's logical lines, its title line (if any), where content starts, and its headings."""

    lines: tuple[Line, ...]
    title: str | None
    title_index: int | None
    content_start: int
    headings: tuple[Heading, ...]

    @property
    def releases(self) -> tuple[str, ...]:
        """Versions of the release headings, in document order, without repeats."""
        seen: dict[str, None] = {}
        for h in self.headings:
            v = release_version(h.text)
            if v:
                seen.setdefault(v, None)
        return tuple(seen)


def build_outline(text: str, fmt: str, given_title: str | None, source: str | None = None) -> Outline:
    """Outline of ``text`` in format ``fmt``; the title line is found only when no title is given.

    Raises:
        MalformedReST: a reStructuredText title is broken (``source`` names the file).
    """
    if fmt in ("markdown", "rst"):
        if fmt == "markdown":
            lines = repair_markdown(text)
            headings = markdown_headings(lines)
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
        return Outline(tuple(lines), title, title_index, start, tuple(headings))
    lines = as_lines(text)
    o = text_outline(lines, given_title)
    return Outline(tuple(lines), o.title, o.title_index, o.content_start, o.headings)


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
    stack: list[Heading] = []
    version, date, status = doc.version, document_date(doc, o), None
    release_level = None  # the level of the release headings, once one is seen
    for n, h in enumerate(heads):
        while stack and stack[-1].level >= h.level:
            stack.pop()
        stack.append(h)
        end = heads[n + 1].index if n + 1 < len(heads) else len(lines)
        body = _body(lines, h.index + h.span, end)
        release = release_heading(h.text)
        if release is not None and release.version is None:  # "[Unreleased]": a release with no number yet,
            if (h.level <= release_level) if release_level is not None else doc.version is None:  # not a subsection
                version, date, status = None, None, "unreleased"
        elif release is not None:
            release_level = h.level if release_level is None else min(release_level, h.level)
            under = release_line(body[0].split("\n", 1)[0]) if body else None
            version, date = release.version, release.date or (under.date if under else None)
            status = release.status or (under.status if under else None)
        if body is None:
            body = ("", lines[h.index].start, lines[h.index + h.span - 1].end)
        path = (doc.title,) + tuple(s.text for s in stack)
        sections.append(Section(doc.id, path, body[0], body[1], body[2], version, h.anchor, h.level, date, status))
    return sections


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


_RELEASE_WORD = re.compile(r"^\s*\[?\s*(?:version|release)\s*[\]:\-–—]?\s*(?:\(.*\))?\s*$", re.IGNORECASE)


def release_warnings(doc: Document) -> tuple[str, ...]:
    """What looks like a release but did not give one: a "Version" heading with no number, a
    release heading repeated, a document with no release at all (numpy's template.rst)."""
    o = outline(doc)
    out: list[str] = []
    seen: dict[str, int] = {}
    for h in o.headings:
        line = o.lines[h.index + (1 if doc.format == "rst" and h.span == 3 else 0)].start
        found = release_heading(h.text)
        if found is None and _RELEASE_WORD.match(h.text):
            out.append(f"line {line}: {h.text!r} looks like a release heading but names no version")
        elif found is not None and found.version:
            if found.version in seen:
                out.append(f"line {line}: release {found.version} again (first at line {seen[found.version]})")
            seen.setdefault(found.version, line)
    if not doc.version and not seen:
        out.append("no release found: no version in the title, the headings, the file name or a release tag")
    return tuple(out)
