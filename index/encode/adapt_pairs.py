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

MIN_WORDS = 3  # an anchor needs this many words of two letters or more left to teach anything

# Applied in order: markup and identifiers go, the words around them stay.
_REMOVE = [
    (re.compile(r"^\s*[-*+]\s+"), ""),  # the bullet
    (re.compile(r"\]\([^)]*\)"), "]"),  # Markdown link targets
    (re.compile(r"\]\[[^\]]*\]"), "]"),  # reference links [text][123]
    (re.compile(r"https?://\S+"), " "),
    (re.compile(r":\w+:`[^`]*`"), " "),  # reStructuredText roles (:pr:`123`)
    (re.compile(r"`[^`]*`"), " "),  # code spans
    (re.compile(r"\bby @[\w-]+(,? (and )?@[\w-]+)*"), " "),
    (re.compile(r"@[\w-]+"), " "),
    (re.compile(r"\bin \[?#\d+\]?"), " "),
    (re.compile(r"#\d+"), " "),
    (re.compile(r"\[\d+\]"), " "),
    (re.compile(r"[\[\]]"), " "),
    (re.compile(r"(?<!\w)--?[A-Za-z][\w-]*"), " "),  # command-line flags
    (re.compile(r"\b\w+(?:\.\w+)+(?:\(\))?"), " "),  # dotted names
    (re.compile(r"\b\w*_\w*\b"), " "),  # snake_case
    (re.compile(r"\b[a-z]+[A-Z]\w*\b"), " "),  # camelCase
    (re.compile(r"\b[A-Z][a-z0-9]+[A-Z]\w*\b"), " "),  # CamelCase
    (re.compile(r"\w+::\w+(::\w+)*"), " "),  # Rust paths
    (re.compile(r"\b\d+\b"), " "),
    (re.compile(r"[()<>{}\"*]"), " "),
]
_WORD = re.compile(r"[A-Za-z]{2,}")


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
