"""Split a document into sections: breadcrumb paths, verbatim text, line ranges and versions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .markdown import Heading, markdown_headings
from .model import Document, Section
from .plaintext import text_outline
from .repair import Line, as_lines, repair_markdown
from .versions import release_version


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


def build_outline(text: str, fmt: str, given_title: str | None) -> Outline:
    """Outline of ``text`` in format ``fmt``; the title line is found only when no title is given."""
    if fmt == "markdown":
        lines = repair_markdown(text)
        headings = markdown_headings(lines)
        title_index, title = None, None
        first = next((i for i, ln in enumerate(lines) if ln.text.strip()), None)
        if headings and headings[0].index == first and headings[0].level == 1:
            h = headings[0]
            if not release_version(h.text) and (given_title is None or h.text == given_title):
                title_index, title = h.index, h.text
                headings = headings[1:]
        start = 0
        if title_index is not None:
            start = title_index + headings_span(lines, title_index)
        return Outline(tuple(lines), title, title_index, start, tuple(headings))
    lines = as_lines(text)
    o = text_outline(lines, given_title)
    return Outline(tuple(lines), o.title, o.title_index, o.content_start, o.headings)


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

    A release heading ("## v2.1.0", "Version 1.80.0 (2024-07-25)") gives its own section and
    everything after it, up to the next release heading, that release's version; other
    sections carry the document's version.
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
        sections.append(Section(doc.id, (doc.title,), pre[0], pre[1], pre[2], doc.version, None, 0))
    stack: list[Heading] = []
    version = doc.version
    for n, h in enumerate(heads):
        while stack and stack[-1].level >= h.level:
            stack.pop()
        stack.append(h)
        v = release_version(h.text)
        if v:
            version = v
        end = heads[n + 1].index if n + 1 < len(heads) else len(lines)
        body = _body(lines, h.index + h.span, end)
        if body is None:
            body = ("", lines[h.index].start, lines[h.index + h.span - 1].end)
        path = (doc.title,) + tuple(s.text for s in stack)
        sections.append(Section(doc.id, path, body[0], body[1], body[2], version, h.anchor, h.level))
    return sections


def releases(doc: Document) -> tuple[str, ...]:
    """Versions of the document's release headings, in order (empty for a single-release note)."""
    return outline(doc).releases
