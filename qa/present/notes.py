"""The words of a note (``qa.model.Note``): the one place an answer's notes become English.

Every medium (the JSON record, the terminal, the chat, MCP text, Markdown) shows a note by
these words, once.
"""

from __future__ import annotations

from typing import Sequence

from corpus.regex import lazy_compile
from corpus.versions import version_key

from ..model import Note

HOLDING_MOST = 12  # releases listed by name when the corpus holds few
_PACKAGE_NAME = lazy_compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")  # a name pip or npm could fetch (``relnotes add``)


def text(note: Note) -> str:
    """One note as a sentence or two."""
    return _WORDS[note.kind](note)


def joined(notes: Sequence[Note]) -> str | None:
    """Notes one after the other, as one text, each ending as a sentence does before the next
    ("Earliest release with strong evidence: 2.0.0. Answered by BM25 alone: ..."); None for none."""
    texts = [text(n) for n in notes]
    return " ".join(t if i == len(texts) - 1 or t.endswith((".", "!", "?")) else t + "." for i, t in enumerate(texts)) or None


def _of(products: Sequence[str]) -> str:
    return f" of {' or '.join(products)}" if products else ""


def _products_held(products: Sequence[str]) -> str:
    return f"it has: {', '.join(products)}" if products else "its documents name no product"


def holding(held: Sequence[str], missing: Sequence[str], most: int = HOLDING_MOST) -> str:
    """What the corpus has instead: every release when few, else the count, the range and the
    releases on either side of the first one asked for."""
    if not held:
        return "it has no releases"
    if len(held) <= most:
        return f"it has: {', '.join(held)}"
    try:
        key = version_key(missing[0])
        at = sum(1 for v in held if version_key(v) < key)
    except ValueError:
        at = len(held)
    near = held[max(0, min(at - 2, len(held) - 4)):][:4]
    return f"it has {len(held)} releases, {held[0]} to {held[-1]}; nearest: {', '.join(near)}"


def _fetch(product: str) -> str:
    """How to fetch the notes a package of that name ships, when the name can be a package's."""
    return f", or fetch those a package ships: relnotes add {product}" if _PACKAGE_NAME.fullmatch(product) else ""


def _range(n: Note) -> str:
    return n.range.describe() if n.range is not None else ""


def _upgrade_some(n: Note) -> str:
    verb = "has" if n.count == 1 else "have"
    return f"{n.count} of the {n.total} releases {_range(n)} {verb} {' or '.join(n.kinds)} items."


def _dense_pending(n: Note) -> str:
    command = n.command or "relnotes index"
    if not n.total:
        return f"Answered by BM25 alone: dense retrieval is not built yet; run `{command}` to build it."
    return (f"Answered by BM25 alone: dense retrieval is still being built: {n.count:,} of {n.total:,} texts; "
            f"run `{command}` to finish it.")


def _dense_building(n: Note) -> str:
    done = f": {n.count:,} of {n.total:,} texts" if n.total else ""
    return (f"Answered by BM25 alone: dense retrieval is being built in the background{done}; "
            "answers switch to hybrid when it is done.")


_WORDS = {
    "not_confident": lambda n: "No passage answers this confidently; the nearest passages follow.",
    "no_match": lambda n: "No passage matches this question.",
    "earliest_release": lambda n: f"Earliest release with strong evidence: {n.releases[0]}",
    "release_unsaid": lambda n: "No item states which release did this; what is quoted is only the nearest passage.",
    "last_release": lambda n: (f"Last release with it: {n.releases[0]}"
                               + (f" (removed in {n.releases[1]})" if len(n.releases) > 1 else "")),
    "product_not_held": lambda n: (f"The corpus holds no {' or '.join(n.products)}; {_products_held(n.held)}. "
                                   f"Not answering from another product; to ask about {n.products[0]}, "
                                   f"give its release notes with --corpus PATH{_fetch(n.products[0])}."),
    "not_released": lambda n: (f"Not in a release yet: the notes{' of ' + n.products[0] if n.products else ''} list "
                               "it under changes to come, not under a release."),
    "products_not_covered": lambda n: (f"The corpus holds no {' or '.join(n.products)}; this answers about "
                                       f"{' and '.join(n.held)} only."),
    "release_not_held": lambda n: (f"The corpus holds no release {', '.join(n.releases)}{_of(n.products)} "
                                   f"({holding(n.held, n.releases)}); not answering from another release."),
    "range_empty": lambda n: (f"The corpus holds no release{_of(n.products)} {_range(n)} "
                              f"({holding(n.held, [n.range.since or n.range.until or ''])})."),
    "release_outside_range": lambda n: (f"No release {', '.join(n.releases)} is {_range(n)}; "
                                        "ask about the range or about the release, not both."),
    "range_off_topic": lambda n: f"No item {_range(n)} is about {n.topic!r}; the range's digest follows.",
    "upgrade_none": lambda n: f"No item of the {n.total} releases {_range(n)} is {' or '.join(n.kinds)}.",
    "upgrade_some": _upgrade_some,
    "dense_pending": _dense_pending,
    "dense_building": _dense_building,
    "range_more": lambda n: (f"{n.count} later releases ({n.releases[0]} to {n.releases[-1]}, {n.total} items) "
                             "are not shown; ask about a shorter range."),
    "from_pin": lambda n: (f"From the version the project is on: {' '.join([*n.products[:1], n.releases[0]])} "
                           "(its pin); name a release to ask from another."),
    "topic_none": lambda n: f"No item {_range(n) + ' ' if n.range else ''}is about {n.topic!r}.",
}
