"""Training pairs for adapting the embedding model to a corpus (``relnotes index --adapt``).

A changelog is thousands of one-line items in the project's terms; a question is in a user's
words, without the identifiers. Each pair teaches the model that an item with its identifiers
removed (what is left reads like a user's description: "Respect and stop drawing bars when
stderr is not a TTY") belongs with the whole item, against the other items of the batch. The
pairs come from the corpus alone: no question, label or hand-made synonym.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence

from corpus.model import Chunk
from corpus.regex import lazy_compile

MIN_WORDS = 3  # an anchor needs this many words of two letters or more left to teach anything

# Applied in order: markup and identifiers go, the words around them stay.
_REMOVE = [
    (lazy_compile(r"^\s*[-*+]\s+"), ""),  # the bullet
    (lazy_compile(r"\]\([^)]*\)"), "]"),  # Markdown link targets
    (lazy_compile(r"\]\[[^\]]*\]"), "]"),  # reference links [text][123]
    (lazy_compile(r"https?://\S+"), " "),
    (lazy_compile(r":\w+:`[^`]*`"), " "),  # reStructuredText roles (:pr:`123`)
    (lazy_compile(r"`[^`]*`"), " "),  # code spans
    (lazy_compile(r"\bby @[\w-]+(,? (and )?@[\w-]+)*"), " "),
    (lazy_compile(r"@[\w-]+"), " "),
    (lazy_compile(r"\bin \[?#\d+\]?"), " "),
    (lazy_compile(r"#\d+"), " "),
    (lazy_compile(r"\[\d+\]"), " "),
    (lazy_compile(r"[\[\]]"), " "),
    (lazy_compile(r"(?<!\w)--?[A-Za-z][\w-]*"), " "),  # command-line flags
    (lazy_compile(r"\b\w+(?:\.\w+)+(?:\(\))?"), " "),  # dotted names
    (lazy_compile(r"\b\w*_\w*\b"), " "),  # snake_case
    (lazy_compile(r"\b[a-z]+[A-Z]\w*\b"), " "),  # camelCase
    (lazy_compile(r"\b[A-Z][a-z0-9]+[A-Z]\w*\b"), " "),  # CamelCase
    (lazy_compile(r"\w+::\w+(::\w+)*"), " "),  # Rust paths
    (lazy_compile(r"\b\d+\b"), " "),
    (lazy_compile(r"[()<>{}\"*]"), " "),
]
_WORD = lazy_compile(r"[A-Za-z]{2,}")


def anchor(item: str) -> str:
    """The item's words without its identifiers, links, numbers and markup."""
    text = item
    for pattern, replacement in _REMOVE:
        text = pattern.sub(replacement, text)
    return re.sub(r"\s+", " ", text).strip(" ,.;:")


def item_texts(chunks: Iterable[Chunk]) -> list[str]:
    """Every list item of the corpus, as its text in its chunk."""
    return [chunk.text[item.start : item.end] for chunk in chunks for item in chunk.items]


def training_pairs(chunks: Iterable[Chunk]) -> list[tuple[str, str]]:
    """(anchor, item) for every distinct item whose anchor keeps MIN_WORDS words and differs from it."""
    pairs, seen = [], set()
    for text in item_texts(chunks):
        if text in seen:
            continue
        seen.add(text)
        words = anchor(text)
        if len(_WORD.findall(words)) >= MIN_WORDS:
            pairs.append((words, text))
    return pairs


def batches(pairs: Sequence[tuple[str, str]], size: int, limit: int, seed: int) -> list[list[tuple[str, str]]]:
    """Up to ``limit`` shuffled batches of ``size`` pairs with no text twice in a batch (a repeated
    text would be its own negative)."""
    pool = list(pairs)
    random.Random(seed).shuffle(pool)
    out: list[list[tuple[str, str]]] = []
    while pool and len(out) < limit:
        batch, seen, rest = [], set(), []
        for pair in pool:
            if len(batch) < size and pair[0] not in seen and pair[1] not in seen:
                batch.append(pair)
                seen.update(pair)
            else:
                rest.append(pair)
        if len(batch) < size:
            break
        out.append(batch)
        pool = rest
    return out
