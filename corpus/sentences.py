"""Split a passage into sentences that are verbatim substrings of it (the answer quotes them; the index embeds them)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .items import split_items
from .regex import lazy_compile

# A sentence ends at . ! ? (then closing quotes/brackets) before whitespace and a capital,
# digit, quote, bracket, backtick or a code name (torch.compile); a blank line or a new list
# item also ends one. PR attribution lines ("(PR #123 by ...)") are not sentences, nor pieces of fewer than
# MIN_WORDS words but a rename.
_END = lazy_compile(r"(?<=[.!?])[\"”')\]]*[ \t]+(?=[A-Z0-9\"“(\[`*]|[a-z_]\w*[._(:]\w)|\n[ \t]*\n|\n(?=[ \t]*(?:[-*+•]|\d+[.)])\s)")
_NOT_AN_END = lazy_compile(r"(?:\be\.g|\bi\.e|\betc|\bvs|\bcf|\bNo|\bFig|\bPR|\bMr|\bDr|\bapprox)\.$", re.IGNORECASE)
ATTRIBUTION = lazy_compile(r"^[\s(\[]*(?:PRs?\b|See\s*\[?\s*#)|^\W*$")
_BULLET = lazy_compile(r"^[ \t]*(?:[-*+•]|\d+[.)])[ \t]+")
MIN_WORDS = 4
# ... or fewer when they state a rename ("``CORS_ORIGIN_ALLOW_ALL`` -> ``CORS_ALLOW_ALL_ORIGINS``", a list's item)
_RENAMED = lazy_compile(r"\S\s*(?:->|→|=>)\s*\S")


@dataclass(frozen=True, slots=True)
class Span:
    """A sentence's offsets in the passage text; ``text`` is passage[start:end]."""

    start: int
    end: int
    text: str


def split_sentences(text: str) -> list[Span]:
    """Sentences of ``text`` in order, each a verbatim slice (stripped of edge whitespace and
    bullets); a sentence never runs from one item into the next (``corpus.items``): a list
    without full stops is one sentence an item."""
    spans: list[Span] = []
    for item in split_items(text):
        offset = item.start
        spans.extend(Span(s.start + offset, s.end + offset, s.text) for s in _split(text[item.start : item.end]))
    return spans


def _split(text: str) -> list[Span]:
    """The sentences of one item or paragraph."""
    spans: list[Span] = []
    start = 0
    cuts = [m for m in _END.finditer(text) if not _NOT_AN_END.search(text[: m.start()])]
    for m in [*cuts, None]:
        end = m.start() if m is not None else len(text)
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        bullet = _BULLET.match(piece[lead:])
        if bullet:
            lead += bullet.end()
        body = piece[lead:].rstrip()
        words = len(body.split())
        if body and (words >= MIN_WORDS or words >= 3 and _RENAMED.search(body)) and not ATTRIBUTION.match(body):
            spans.append(Span(start + lead, start + lead + len(body), body))
        if m is not None:
            start = m.end()
    return spans
