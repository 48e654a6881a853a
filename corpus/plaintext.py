"""Infer the title, site chrome and heading tree of a plain-text release note.

Plain text copied from a web page has no heading markup. A heading is a short title-like
line standing alone between blank lines, followed by body text or by more headings. A run
of headings nests: "Platform Features and Updates" > "CUDA" > "CuTeDSL ...". A run of k
headings ends at the depth of the previous section's heading, so a later "ROCm" > "AOTriton"
pair becomes a sibling of "CUDA" > "CuTeDSL". An ALL-CAPS heading ("API-UNSTABLE FEATURES")
sits at the top and everything after it nests below it.

Site chrome ("Skip to main content", "Blog") above the title line is not content: it is the
one kind of text that no section or chunk holds.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .markdown import Heading
from .regex import lazy_compile
from .repair import Line
from .headings import opens_with_version, release_heading
from .release_lines import dated_release_lines, release_bullets, release_entries, text_release_lines
from .wiki import wiki_headings
from .versions import detect_product, parse_version

MAX_HEADING_WORDS = 14
MAX_HEADING_CHARS = 100
LABEL_REPEATS = 3  # A line seen this often in one document is a label ("API Unstable"), not a heading.
_CHROME_WORDS = 8
_TITLE_SEARCH = 6
_BULLET = lazy_compile(r"^([•·▪◦‣*+>#$(]|[-–—]\s|\d+[.)](\s|$))")
_SENTENCE_BREAK = lazy_compile(r"[.!?]\s+[A-Z\"“(]")
_COMMAND = lazy_compile(r"^(pip3?|python3?|conda|uv|curl|wget|git|npm|cargo|apt(-get)?|brew|docker|cd|sudo)\s")
_BYLINE = lazy_compile(r"^By\b.*\d{4}")
_SITE_SUFFIX = lazy_compile(r"^(.*\S)\s+[–—|-]\s+(\S+(?:\s\S+){0,2})$")


@dataclass(frozen=True, slots=True)
class TextOutline:
    """Where the title and content start, and the inferred headings (levels from 1)."""

    title: str | None
    title_index: int | None
    content_start: int
    headings: tuple[Heading, ...]


def title_like(raw: str) -> bool:
    """Whether a line could be a title or heading: short, unpunctuated, not a list item or command."""
    line = raw.strip()
    if not line or raw[:1].isspace() or len(line) > MAX_HEADING_CHARS:
        return False
    if len(line.split()) > MAX_HEADING_WORDS:
        return False
    # a number first ("Release 2.9 will include:" is a sentence's start)
    release = re.match(r"v?\d", line) is not None and release_heading(line.rstrip(":")) is not None
    if not re.search(r"[^\W\d_]", line) and not release:
        return False  # no letter: a number, unless a release ("4.1.0 (2026-10-28)", "1.4.0 (2016-12-30):")
    if not (line[0].isalnum() or line[0] in "[\"“'") or _BULLET.match(line):
        return False
    if (line[-1] in ".:;,!?|\\" and not (release and line[-1] == ":")) or _SENTENCE_BREAK.search(line):
        return False
    return not (_COMMAND.match(line) or "://" in line or _BYLINE.match(line))


def clean_title(line: str) -> str:
    """A title line without a trailing site name ("PyTorch 2.13 Release Blog – PyTorch")."""
    line = " ".join(line.split())
    m = _SITE_SUFFIX.match(line)
    if m and (parse_version(m.group(1)) or detect_product(m.group(1))) and not parse_version(m.group(2)):
        return m.group(1)
    return line


def _find_title(lines: list[Line], given: str | None) -> int | None:
    """The title line: the first title-like line naming a product or version, below short chrome."""
    found = _search_title(lines)
    if found is None or given is None:
        return found
    same = clean_title(lines[found].text).casefold() == " ".join(given.split()).casefold()
    return found if same else None


def _search_title(lines: list[Line]) -> int | None:
    nonblank = [i for i, ln in enumerate(lines) if ln.text.strip()][:_TITLE_SEARCH]
    if not nonblank:
        return None
    for k, i in enumerate(nonblank):
        text = lines[i].text
        if title_like(text) and (parse_version(text) or detect_product(text)):
            chrome = [lines[j].text for j in nonblank[:k]]
            if all(len(c.split()) <= _CHROME_WORDS and title_like(c) for c in chrome):
                return i
            break
    return nonblank[0] if title_like(lines[nonblank[0]].text) else None


def text_outline(lines: list[Line], given_title: str | None = None) -> TextOutline:
    """Infer title line, chrome and headings of a plain-text document."""
    t = _find_title(lines, given_title)
    start = 0 if t is None else t + 1
    counts = Counter(ln.text.strip().casefold() for ln in lines if ln.text.strip())
    n = len(lines)

    def blank(i: int) -> bool:
        return i < 0 or i >= n or not lines[i].text.strip()

    candidate = [
        i >= start
        and title_like(lines[i].text)
        and counts[lines[i].text.strip().casefold()] < LABEL_REPEATS
        and (blank(i - 1) or i == start)
        and blank(i + 1)
        for i in range(n)
    ]
    # A candidate is a heading if body text follows it, directly or after more headings.
    is_heading = [False] * n
    next_heading = False  # whether the next non-blank line (scanning backwards) is a heading
    seen_text = False
    for i in range(n - 1, start - 1, -1):
        if blank(i):
            continue
        if candidate[i] and seen_text:
            is_heading[i] = True
        else:
            is_heading[i] = False
        seen_text = True if not candidate[i] else (is_heading[i] or next_heading)
        if not candidate[i]:
            seen_text = True
        next_heading = is_heading[i]
    return TextOutline(
        title=clean_title(lines[t].text) if t is not None else None,
        title_index=t,
        content_start=start,
        headings=tuple(_levels(lines, [i for i in range(n) if is_heading[i]])),
    )


def _all_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 6 and len(text.split()) >= 2 and all(c.isupper() for c in letters)


def _levels(lines: list[Line], idx: list[int]) -> list[Heading]:
    """Assign levels to heading runs (consecutive headings with only blank lines between)."""
    runs: list[list[int]] = []
    for i in idx:
        if runs and all(not lines[k].text.strip() for k in range(runs[-1][-1] + 1, i)):
            runs[-1].append(i)
        else:
            runs.append([i])
    out: list[Heading] = []
    base, leaf = 0, 0
    for run in runs:
        texts = [" ".join(lines[i].text.split()) for i in run]
        if _all_caps(texts[0]):
            base, first = 1, 1
        elif leaf == 0:
            first = base + 1
        else:
            first = max(base + 1, leaf - len(run) + 1)
        for k, (i, text) in enumerate(zip(run, texts)):
            out.append(Heading(i, min(first + k, 6), text, None))
        leaf = min(first + len(run) - 1, 6)
    return out


_RELEASE_ITEM = lazy_compile(r"^[-*+]\s+(v?\d+(?:\.\d+)+\S*?):(?:\s|$)")  # tabulate's "- 0.10.0: Add support ..."
_MARGIN_ITEM = lazy_compile(r"^[-*+]\s")


def release_items(lines: list[Line]) -> list[Heading]:
    """A changelog written as one list, an item a release (tabulate's ``- 0.10.0: Add support for
    ...``): each such item opens its release, as a heading of no lines of its own (span 0: the item
    stays the release's text). Three or more, and nearly every item at the margin is one."""
    found = []
    for i, ln in enumerate(lines):
        m = _RELEASE_ITEM.match(ln.text)
        if m and release_heading(m.group(1)) is not None:
            found.append(Heading(i, 1, m.group(1).lstrip("v"), None, 0))
    items = sum(1 for ln in lines if _MARGIN_ITEM.match(ln.text))
    return found if len(found) >= 3 and len(found) >= 0.8 * items else []


def plain_outline(lines: list[Line], given_title: str | None = None) -> TextOutline:
    """The outline of a plain-text document: its wiki-style headings (``corpus.wiki``) where it
    writes two or more, else the inferred ones (``text_outline``), with the releases the document
    writes in a shape of no heading markup (``_SHAPES``: tabulate's list ``- 0.10.0: ...``,
    websocket-client's ``- 1.9.2`` over nested items, ruamel.yaml's ``[0.19.0, 2025-12-31]:`` over
    its list, unidecode's ChangeLog entries ``2024-01-11<TAB>unidecode 1.3.8``, httplib2's and
feedparser's lines at the margin each a release over its indented text) where every inferred
    release heading is one of them (a ChangeLog entry with a blank line under it is both). A first
    line that opens a release (simplejson's ``Version 4.3.0 released 2026-11-10``) is the first
    release, not the title."""
    if wiki := wiki_headings(lines):
        return TextOutline(None, None, 0, tuple(wiki))
    o = text_outline(lines, given_title)
    headings = o.headings
    inferred = {h.index for h in headings if release_heading(h.text)}
    items = next((found for shape in _SHAPES if (found := shape(lines))), [])
    if items and inferred <= (taken := {i.index for i in items}):  # the inferred releases are of the shape too
        headings = tuple(sorted((*items, *(h for h in headings if h.index not in taken)), key=lambda h: h.index))
    read = any(h.index == o.title_index for h in headings)  # the title line read as a release already
    if read and given_title is None and release_heading(o.title) is None:  # a ChangeLog entry marking one
        return TextOutline(None, None, 0, headings)
    if o.title_index is not None and given_title is None and (opens_with_version(o.title) or read) \
            and release_heading(o.title) is not None and any(release_heading(h.text) for h in headings):
        level = min(h.level for h in headings if release_heading(h.text))
        first = Heading(o.title_index, level, o.title, None)
        rest = tuple(h for h in headings if h.index != o.title_index)
        return TextOutline(None, None, 0, (first, *rest))
    return TextOutline(o.title, o.title_index, o.content_start, headings)


# Releases written with no heading markup, by shape; the first a document writes is read (releases
# as the lines at the margin first: they are the whole file's shape where they are found).
_SHAPES = (release_entries, release_items, release_bullets, text_release_lines, dated_release_lines)
