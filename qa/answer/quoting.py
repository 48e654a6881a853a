"""A quote as the notes' structure offers it: the whole statement of the item it comes from, and
the item's own lines to cite.

- A quoted sentence is the item's statement only as far as its paragraph goes: "Added support for
  key rotation." is followed, in the same item, by "A list of keys can be passed as
  ``secret_key``, oldest to newest."; a quote takes the whole paragraph of its item (its
  sentences from the first to the last) when that is at most ``PARAGRAPH_WORDS`` long, so an
  item's answer is never cut at its first sentence. A longer paragraph keeps the sentences chosen.
- A quote of an item's later sentences comes after the item's first sentence, which states the
  change the rest explains (``with_lead``).
- A quote the first passage holds too is quoted from it (a which-release answer's first passage
  is the one holding the item it quotes: ``releases.ReleaseAnswers.earliest_first``).
- Every quoted sentence cites its item (``corpus.items``): the item's own ``file:start-end``, not
  the lines of the window of the release section its passage is.

Every quote stays a verbatim slice of its passage's text.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from corpus.model import Chunk, Item
from corpus.regex import lazy_compile
from corpus.sentences import Span

from ..model import AnswerSentence, citation_of

PARAGRAPH_WORDS = 80  # an item's paragraph up to this long is quoted whole
LEAD_WORDS = 40  # an item's first sentence up to this long comes before a quote of its later ones
_BLANK = lazy_compile(r"\n[ \t]*\n")
_LISTED = lazy_compile(r"[ \t]*(?:(?:[-*+•]|\d+[.)]|#\.)[ \t]|\.\.[ \t]+[\w:+-]+::)")


def whole_paragraphs(sentences: Sequence[AnswerSentence], chunks: Sequence[Chunk],
                     split: Callable[[str], Sequence[Span]]) -> tuple[AnswerSentence, ...]:
    """Each quoted sentence widened to the paragraph of its item it sits in (its first sentence
    to its last), when that paragraph is at most PARAGRAPH_WORDS words; sentences that end up in
    one quote are one, in the order first quoted. ``chunks[k]`` is passage ``k + 1``'s chunk."""
    out: list[AnswerSentence] = []
    for s in sentences:
        quote = s
        chunk = chunks[s.passage - 1] if 0 < s.passage <= len(chunks) else None
        if chunk is not None:
            at = chunk.text.find(s.text)
            start, end = _paragraph(chunk, at, at + len(s.text)) if at >= 0 else (-1, -1)
            if start >= 0:
                spans = [p for p in split(chunk.text) if p.start >= start and p.end <= end]
                if spans:
                    lo, hi = min(min(p.start for p in spans), at), max(max(p.end for p in spans), at + len(s.text))
                    text = chunk.text[lo:hi]
                    if len(text.split()) <= PARAGRAPH_WORDS:
                        quote = replace(s, text=text)
        if any(o.passage == quote.passage and quote.text in o.text for o in out):
            continue  # already said by a quote of that passage
        out = [o for o in out if not (o.passage == quote.passage and o.text in quote.text)] + [quote]
    return tuple(out)


def with_lead(sentences: Sequence[AnswerSentence], chunks: Sequence[Chunk], split: Callable[[str], Sequence[Span]],
              quotable: Callable[[str], bool]) -> tuple[AnswerSentence, ...]:
    """Each quote from within a list item (or a directive's record; not a paragraph of prose)
    preceded by the item's first sentence, its statement, when the
    quote leaves it out ("``ParseResults`` now has a new method ``deepcopy()`` ..." before "``copy()``
    only makes a shallow copy ..."): at most LEAD_WORDS long and ``quotable`` (not a directive's
    fields), one quote with it and the sentences between when that is one short paragraph (``_one_paragraph``);
    the quotes as they were otherwise. ``chunks[k]`` is passage ``k + 1``'s chunk."""
    out: list[AnswerSentence] = []
    for s in sentences:
        chunk = chunks[s.passage - 1] if 0 < s.passage <= len(chunks) else None
        at = chunk.text.find(s.text) if chunk is not None else -1
        held = _items_over(chunk.items, at, at + len(s.text)) if at >= 0 else []
        if len(held) == 1 and _LISTED.match(chunk.text, held[0].start):  # a list item or record: not prose
            lead = next((p for p in split(chunk.text) if held[0].start <= p.start < held[0].end and quotable(p.text)), None)
            if (lead is not None and lead.end <= at and len(lead.text.split()) <= LEAD_WORDS
                    and not any(o.passage == s.passage and lead.text in o.text for o in (*out, *sentences))):
                whole = chunk.text[lead.start:at + len(s.text)]  # the sentences between too, in one short paragraph
                if _one_paragraph(whole):
                    out.append(replace(s, text=whole))
                    continue
                out.append(AnswerSentence(lead.text, s.passage, s.score))
        out.append(s)
    return tuple(out)


def item_lead(sentences: Sequence[AnswerSentence], item: str, split: Callable[[str], Sequence[Span]],
              quotable: Callable[[str], bool]) -> tuple[AnswerSentence, ...]:
    """The sentences quoted from one long ``item``, its first sentence (the statement, at most LEAD_WORDS
    long and ``quotable``) before them when they leave it out: "Class-level `kw_only=True` behavior is now
    consistent with `dataclasses`." before the example that follows it; one quote from the statement to the last
    sentence quoted (those between included) when that is one paragraph at most PARAGRAPH_WORDS long."""
    spans = split(item)
    lead = next((p for p in spans if quotable(p.text)), None)
    if not sentences or lead is None or len(lead.text.split()) > LEAD_WORDS:
        return tuple(sentences)
    # from the statement to the last sentence quoted, the sentences between too, in one short paragraph:
    # "... is no longer enabled by default. The ``safe`` option ... was changed from False to True. Users can ..."
    ends = [item.find(s.text) + len(s.text) for s in sentences if item.find(s.text) >= lead.start]
    if ends and _one_paragraph(item[lead.start:max(ends)]):
        return (AnswerSentence(item[lead.start:max(ends)], sentences[0].passage, sentences[0].score),)
    if any(lead.text in s.text for s in sentences):
        return tuple(sentences)
    return (AnswerSentence(lead.text, sentences[0].passage), *sentences)


def from_first(sentences: Sequence[AnswerSentence], first: str) -> tuple[AnswerSentence, ...]:
    """The quotes, each one the first passage's text ``first`` holds too (overlapping windows of
    one section) quoted from passage 1: the first passage is then the one the answer quotes."""
    return tuple(replace(s, passage=1) if s.passage != 1 and s.text in first else s for s in sentences)


def item_cited(sentences: Sequence[AnswerSentence], chunks: Sequence[Chunk]) -> tuple[AnswerSentence, ...]:
    """Each quoted sentence with its citation: its passage's, with the lines (and kind) of the
    item(s) holding it; the passage's lines where no item holds it (a quoted heading line)."""
    out = []
    for s in sentences:
        if s.citation is not None or not 0 < s.passage <= len(chunks):  # cited already (a which-release item)
            out.append(s)
            continue
        chunk = chunks[s.passage - 1]
        citation = citation_of(chunk)
        at = chunk.text.find(s.text)
        held = _items_over(chunk.items, at, at + len(s.text)) if at >= 0 else []
        if held:
            kinds = {i.kind for i in held}
            citation = replace(citation, lines=(held[0].lines[0], held[-1].lines[1]),
                               kind=held[0].kind if len(kinds) == 1 else citation.kind)
        out.append(replace(s, citation=citation))
    return tuple(out)


def _one_paragraph(text: str) -> bool:
    """Whether ``text`` is of one paragraph (no blank line) at most PARAGRAPH_WORDS long: quoted as one."""
    return not _BLANK.search(text) and len(text.split()) <= PARAGRAPH_WORDS


def _items_over(items: Sequence[Item], start: int, end: int) -> list[Item]:
    """The items of a chunk that ``text[start:end]`` overlaps, in order."""
    return [i for i in items if i.start < end and start < i.end]


def _paragraph(chunk: Chunk, start: int, end: int) -> tuple[int, int]:
    """The offsets of the paragraph of the item holding ``chunk.text[start:end]`` (the item's
    text between blank lines around it); (-1, -1) when no one item holds it."""
    held = _items_over(chunk.items, start, end)
    if len(held) != 1:
        return -1, -1
    item = held[0]
    lo, hi = item.start, item.end
    for m in _BLANK.finditer(chunk.text, item.start, item.end):
        if m.end() <= start:
            lo = m.end()
        elif m.start() >= end:
            hi = m.start()
            break
    return lo, hi
