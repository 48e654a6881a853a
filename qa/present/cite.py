"""The one citation formatter: what every front end prints to say where a passage comes from.

A citation names the release, the heading path and ``file:start-end`` (with the JSON body
field when lines count inside it), and the URL where the source has one. Front ends style
these parts (rich on the terminal, Textual content in the chat, Markdown in reports) but never
format them on their own.
"""

from __future__ import annotations

from corpus.model import Chunk

from ..model import Citation

NO_RELEASE = "-"
SHOWN = " › "  # between headings where a person reads them (terminal, chat)
PLAIN = " > "  # between headings in text meant to be pasted or parsed (copy, Markdown, CSV, search)


def release(c: Citation | Chunk) -> str:
    """The release, or "-" for text of no known release."""
    return c.version or NO_RELEASE


def release_kind(c: Citation | Chunk) -> str:
    """The release, then the kind of change where the section names one: "2.14 · fixed"."""
    return f"{release(c)} · {c.kind}" if c.kind else release(c)


def heading(c: Citation | Chunk, sep: str = SHOWN) -> str:
    """The heading path, outermost first."""
    return sep.join(c.section)


def location(c: Citation | Chunk) -> str:
    """``file:start-end``, with the JSON body field when lines count inside it."""
    where = f"{c.source}:{c.lines[0]}-{c.lines[1]}"
    return f"{where} ({c.body_field})" if c.body_field else where


def plain(c: Citation) -> str:
    """The citation as one line of plain text: title · release · heading path · file:lines · URL."""
    parts = [c.title, release_kind(c), heading(c, PLAIN), location(c)]
    return " · ".join(parts + ([c.url] if c.url else []))
