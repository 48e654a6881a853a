"""Split sections into retrieval chunks, and chunks into windows that fit the embedding model.

A chunk (the passage a user is shown and BM25 scores) is a whole section up to about
TARGET_WORDS words. The embedding model, all-MiniLM-L6-v2, reads only 256 word pieces, so a
chunk is embedded as one or more windows of about WINDOW_WORDS words (`embedding_windows`),
and dense search scores a chunk by its best window.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

from .documents import short_hash
from .items import item_kind, opens_with_bullet, split_items
from .model import CHUNKER_VERSION, Chunk, Document, Item, Section, breadcrumb  # noqa: F401 - the version, as before
from .regex import lazy_compile
from .repair import Line
from .sections import outline
from .headings import release_heading
from .kinds import section_kind
from .textform import index_form

MODEL_MAX_TOKENS = 256
# Section-sized chunks: same-section siblings stopped competing for rank 1 and an answer more
# often sits inside the passage shown (benchmarks/questions, both sets: hybrid MRR@10 +0.06
# and +0.09 against 150-word chunks).
TARGET_WORDS = 400
TOKEN_BUDGET = 1000  # breadcrumb + text, estimated; bounds code-heavy text, where words are long
WINDOW_WORDS = 150
WINDOW_TOKEN_BUDGET = 210  # breadcrumb + text, estimated; the estimate ran up to 1.19x low on real text
MIN_WORDS = 25
OVERLAP_MAX_WORDS = 40
_PIECE = lazy_compile(r"[A-Za-z]+|\d+|[^\sA-Za-z\d]")
_CAMEL = lazy_compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
# A directive line and its options (".. change::" / ":tags: bug, orm"): a record that stays with its content.
_DIRECTIVE_HEAD = lazy_compile(r"\.\.[ \t]+[\w:+-]+::[^\n]*(?:\n[ \t]*:[\w-]+:[^\n]*)+")
_MARKUP_START = lazy_compile(r"\.\.[ \t]|:\w[\w -]*:(?:\s|$)")  # a directive, a comment or a field
_SENTENCE_END = lazy_compile(r"(?<=[.!?])[\"”')\]]*\s+(?=[A-Z0-9\"“(\[`*])")


def estimate_tokens(text: str) -> int:
    """A cautious estimate of BERT word pieces of what the model reads (``index_form(text)``)."""
    n = 0
    for m in _PIECE.finditer(index_form(text)):
        s = m.group()
        c = s[0]
        if c.isdigit():
            n += 1 if len(s) < 3 else (len(s) + 1) // 2
        elif "a" <= c.lower() <= "z":
            n += sum(1 + max(0, len(p) - 3) // 3 for p in (_CAMEL.findall(s) or [s]))
        else:
            n += 1
    return n


@dataclass(frozen=True, slots=True)
class _Unit:
    start: int
    end: int
    words: int
    tokens: int
    sentence: bool


def _unit(text: str, start: int, end: int, sentence: bool, margin: int | None = None) -> _Unit:
    """A unit of ``text[start:end]``; its word pieces are estimated from ``margin`` (default ``start``)."""
    read = text[start if margin is None else margin : end]
    return _Unit(start, end, len(text[start:end].split()), estimate_tokens(read), sentence)


def _units(text: str, budget: int, target: int) -> list[_Unit]:
    """Paragraphs; a paragraph too long for one chunk becomes lines, sentences, then word runs. A
    directive block (".. change::", its options and the paragraphs indented under it) is one unit
    while it fits, so a chunk never cuts a change from its tags."""
    out: list[_Unit] = []
    block: list[int] | None = None  # [start, end, column] of the directive block being gathered
    # In directive content (SQLAlchemy's release blocks) an indented ".. seealso::" is words where it
    # stands, though dropped where it opens a window: estimated from its line's start, so no window
    # outgrows its budget.
    content = _MARKUP_START.match(text, len(text) - len(text.lstrip())) is not None
    for para in re.finditer(r"\S(?:.|\n(?![ \t]*\n))*", text):
        column = para.start() - text.rfind("\n", 0, para.start()) - 1
        indented_markup = content and column > 0 and para.group().startswith("..")
        if block is not None:
            if column > block[2] and _fits(_unit(text, block[0], para.end(), False, block[0] - block[2]),
                                           budget, target):
                block[1] = para.end()
                continue
            out.append(_unit(text, block[0], block[1], False, block[0] - block[2]))
            block = None
        u = _unit(text, para.start(), para.end(), False, para.start() - column if indented_markup else None)
        if _fits(u, budget, target):
            if _DIRECTIVE_HEAD.fullmatch(para.group()) and _fits(_unit(text, para.start(), para.end(), False,
                                                                        para.start() - column), budget, target):
                block = [para.start(), para.end(), column]
            else:
                out.append(u)
            continue
        for line in re.finditer(r"[^\n]*\S[^\n]*", para.group()):
            base = para.start() + line.start()
            pos = 0
            cuts = [m.start() for m in _SENTENCE_END.finditer(line.group())] + [len(line.group())]
            for cut in cuts:
                seg = line.group()[pos:cut]
                lead = len(seg) - len(seg.lstrip())
                out.extend(_word_runs(text, base + pos + lead, base + cut, budget, target))
                pos = cut
    if block is not None:
        out.append(_unit(text, block[0], block[1], False, block[0] - block[2]))
    return out


def _fits(u: _Unit, budget: int, target: int) -> bool:
    return u.words <= target and u.tokens <= budget


def _word_runs(text: str, start: int, end: int, budget: int, target: int) -> list[_Unit]:
    u = _unit(text, start, end, True)
    if u.words <= target and u.tokens <= budget:
        return [u]
    words = list(re.finditer(r"\S+", text[start:end]))
    out, first, toks = [], 0, 0
    for k, w in enumerate(words):
        t = estimate_tokens(w.group())
        if k > first and (k - first >= target * 2 // 3 or toks + t > budget * 2 // 3):
            out.append(_unit(text, start + words[first].start(), start + words[k - 1].end(), True))
            first, toks = k, 0
        toks += t
    out.append(_unit(text, start + words[first].start(), start + words[-1].end(), True))
    return out


def _windows(units: list[_Unit], budget: int, target: int) -> list[tuple[int, int]]:
    """Greedy windows of units; a window after a split paragraph repeats its last sentence."""
    wins: list[tuple[int, int]] = []
    i = 0
    while i < len(units):
        j, words, toks = i, units[i].words, units[i].tokens
        while j + 1 < len(units) and words + units[j + 1].words <= target and toks + units[j + 1].tokens <= budget:
            j += 1
            words += units[j].words
            toks += units[j].tokens
        wins.append((i, j))
        if j + 1 >= len(units):
            break
        last = units[j]
        overlap = j > i and last.sentence and units[j + 1].sentence and last.words <= OVERLAP_MAX_WORDS
        i = j if overlap and toks <= budget else j + 1
    return _merge_tiny(units, wins, budget)


def _merge_tiny(units: list[_Unit], wins: list[tuple[int, int]], budget: int) -> list[tuple[int, int]]:
    """Merge windows under MIN_WORDS into a neighbour when the result still fits the budget."""

    def cost(a: int, b: int) -> tuple[int, int]:
        return sum(u.words for u in units[a : b + 1]), sum(u.tokens for u in units[a : b + 1])

    out: list[tuple[int, int]] = []
    for w in wins:
        if out and (cost(*w)[0] < MIN_WORDS or cost(*out[-1])[0] < MIN_WORDS):
            merged = (out[-1][0], w[1])
            if cost(*merged)[1] <= budget:
                out[-1] = merged
                continue
        out.append(w)
    return out


def _spans(text: str, crumb: str, budget: int, target: int) -> list[tuple[int, int]]:
    """(start, end) offsets in ``text`` of its windows of about ``target`` words."""
    budget = max(budget - estimate_tokens(crumb), 32)
    units = _units(text, budget, target)
    return [(units[a].start, units[b].end) for a, b in _windows(units, budget, target)]


def embedding_windows(chunk: Chunk) -> tuple[str, ...]:
    """What the embedding model reads for ``chunk``: its breadcrumb and one window of its text each.

    Windows are the chunk text cut as a chunk used to be (paragraphs, then sentences, about
    WINDOW_WORDS words within the model's window, the last sentence repeated when a paragraph
    is cut), without link targets. A chunk that fits is one window equal to its ``index_text``.
    """
    crumb = chunk.breadcrumb
    spans = _spans(chunk.text, crumb, WINDOW_TOKEN_BUDGET, WINDOW_WORDS)
    text = chunk.text
    return tuple(f"{crumb}\n{index_form(text[_margin(text, a) : b])}" for a, b in spans) or (chunk.index_text,)


def _margin(text: str, start: int) -> int:
    """Where a window starting at ``text[start]`` is read from: in directive content (a chunk that
    opens with a field or markup, SQLAlchemy's), the start of its line when it opens with indented
    explicit markup (".. change::", ".. seealso::": words in the chunk, so words in the window,
    though dropped at the margin), else ``start``."""
    line = text.rfind("\n", 0, start) + 1
    content = _MARKUP_START.match(text, len(text) - len(text.lstrip())) is not None
    return line if content and text.startswith("..", start) and line < start and not text[line:start].strip() else start


def _section_lines(all_lines: tuple[Line, ...], starts: list[int], s: Section) -> list[Line]:
    lo = bisect_right(starts, s.start_line - 1)
    hi = bisect_right(starts, s.end_line)
    picked = [ln for ln in all_lines[lo:hi] if ln.end <= s.end_line]
    if s.text and "\n".join(ln.text for ln in picked) != s.text:  # Sections not from parse_sections.
        picked = [Line(t, s.start_line + k, s.start_line + k) for k, t in enumerate(s.text.split("\n"))]
    return picked


def chunk_sections(doc: Document, sections: list[Section]) -> list[Chunk]:
    """Chunks for the document's sections, in order, with stable ids and source line ranges."""
    o = outline(doc)
    starts = [ln.start for ln in o.lines]
    parents = {s.path[:k] for s in sections for k in range(1, len(s.path))}
    seen: Counter[tuple[str, ...]] = Counter()
    chunks: list[Chunk] = []
    for s in sections:
        occurrence = seen[s.path]
        seen[s.path] += 1
        lines = _section_lines(o.lines, starts, s)
        if not s.text.strip():
            if s.path in parents or not lines:
                continue  # Its heading lives on in its children's breadcrumbs.
            text = "\n".join(ln.text for ln in lines)  # A lone empty heading keeps its words.
        else:
            text = s.text
        offsets, pos = [], 0
        for ln in lines:
            offsets.append(pos)
            pos += len(ln.text) + 1
        crumb = breadcrumb(doc.title, s.version, s.path)
        kind = section_kind(tuple(h for h in s.path[1:] if release_heading(h, o.names) is None), doc.kind)
        for ordinal, (start, end) in enumerate(_spans(text, crumb, TOKEN_BUDGET, TARGET_WORDS)):
            first = bisect_right(offsets, start) - 1
            last = bisect_right(offsets, end - 1) - 1
            key = [doc.id, *s.path, str(ordinal)] + ([f"#{occurrence}"] if occurrence else [])
            chunks.append(
                Chunk(
                    id=short_hash(*key, length=16),
                    document=doc.id,
                    title=doc.title,
                    product=doc.product,
                    version=s.version,
                    section=s.path,
                    text=text[start:end],
                    source=doc.source,
                    lines=(lines[first].start, lines[last].end),
                    url=doc.url,
                    anchor=s.anchor,
                    body_field=doc.body_field,
                    kind=kind,
                    items=_items(text, start, end, offsets, lines, kind),
                    other_names=doc.other_names,
                )
            )
    return chunks


def _items(text: str, start: int, end: int, offsets: list[int], lines: list[Line], kind: str | None) -> tuple[Item, ...]:
    """The items of the chunk ``text[start:end]`` with their source lines and kinds."""
    piece = text[start:end]
    out = []
    for span in split_items(piece, _markup_indent(text, start)):
        first = bisect_right(offsets, start + span.start) - 1
        last = bisect_right(offsets, start + span.end - 1) - 1
        kind_ = item_kind(piece[span.start : span.end], kind, span.label)
        out.append(Item(span.start, span.end, (lines[first].start, lines[last].end), kind_))
    return tuple(out)


def _markup_indent(text: str, start: int) -> int:
    """How far the chunk starting at ``text[start]`` is indented in a section that is directive
    content (it opens with explicit markup or a field: SQLAlchemy's ":version: 2.0.51" and
    ".. change::" blocks), so its items are that content's blocks, siblings at their depth; in any
    other section a chunk's first line is the margin (0), unless it opens with a bullet indented in its source:
    isort's "### 5.10.0" over "  - Implemented #1796 ..." and "  - Fixed #1801 ...", siblings at that depth
    (read from the margin, the second would be a sub-item of the first)."""
    lead = text[text.rfind("\n", 0, start) + 1 : start]
    if lead.strip():
        return 0
    end = text.find("\n", start)
    line = text[start:end] if end >= 0 else text[start:]
    if _MARKUP_START.match(text, len(text) - len(text.lstrip())) or opens_with_bullet(line):
        return len(lead)
    return 0
