"""Embedding a build's texts into the new index's vector stores: a vector of an unchanged text
copied from the index being replaced, a text repeated within the build encoded once, the rest
encoded document by document in corpus order (small documents together until a block holds
``BLOCK`` texts, longest first within a block so a batch pads little), so the progress bar can
say which document is being embedded and how many remain."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Callable, Mapping, Sequence

import numpy as np

from ..store.stores import release

# (done, total, what): texts encoded so far, texts to encode in this build, the document(s) now.
Progress = Callable[[int, int, str], None]

BLOCK = 1024  # texts; grouping by length needs a few batches' worth, a changelog has thousands
# Texts encoded between two saves of what is embedded: at most this many are embedded again after
# an interruption. 256 is the slice sentence-transformers is given when progress is shown (8 batches).
PIECE = 256


@dataclass(frozen=True)
class Stream:
    """One kind of text a build embeds (windows, sentences): where its vectors go and which
    vectors of the previous index it may reuse, by key."""

    out: np.ndarray
    texts: Sequence[str]
    keys: Sequence[str]
    documents: Sequence[str]  # the document each text comes from (its first, for a shared text)
    previous: Mapping[str, np.ndarray]

    def to_encode(self) -> list[int]:
        """Rows to encode: the first row of each key the previous index does not hold."""
        first: dict[str, int] = {}
        for row, key in enumerate(self.keys):
            if key not in self.previous:
                first.setdefault(key, row)
        return list(first.values())

    def fill_copies(self) -> None:
        """Every other row from the previous index or from the row its text was encoded into."""
        first: dict[str, int] = {}
        for row, key in enumerate(self.keys):
            if key in self.previous:
                self.out[row] = self.previous[key]
            elif first.setdefault(key, row) != row:
                self.out[row] = self.out[first[key]]


@dataclass(frozen=True)
class Block:
    """Consecutive documents embedded together: their rows to encode in each stream."""

    label: str
    rows: tuple[tuple[int, ...], ...]  # one tuple of rows per stream

    @property
    def size(self) -> int:
        return sum(len(rows) for rows in self.rows)


def document_label(source: str) -> str:
    """A document as the bar names it: its file with the folder above ("httpx/CHANGELOG.md")."""
    parts = PurePath(source).parts
    label = "/".join(parts[-2:]) if len(parts) > 1 and parts[-2] not in ("/", "\\") else parts[-1] if parts else source
    return label if len(label) <= 48 else "…" + label[-47:]


def plan(streams: Sequence[Stream], order: Sequence[str], labels: Mapping[str, str], block: int | None = None) -> list[Block]:
    """Blocks in the documents' ``order``; only documents with something to encode count."""
    block = BLOCK if block is None else block
    per_doc: dict[str, list[list[int]]] = {doc: [[] for _ in streams] for doc in order}
    for s, stream in enumerate(streams):
        for row in stream.to_encode():
            per_doc.setdefault(stream.documents[row], [[] for _ in streams])[s].append(row)
    busy = [doc for doc, rows in per_doc.items() if any(rows)]
    blocks, pending = [], []

    def close(last: int) -> None:
        first = last - len(pending) + 1
        name = labels.get(pending[0], pending[0])
        span = f"{name} and {len(pending) - 1} more" if len(pending) > 1 else name
        where = f"document {last}" if len(pending) == 1 else f"documents {first}-{last}"
        rows = tuple(tuple(r for doc in pending for r in per_doc[doc][s]) for s in range(len(streams)))
        blocks.append(Block(f"{span} ({where} of {len(busy)})", rows))
        pending.clear()

    count = 0
    for n, doc in enumerate(busy, 1):
        size = sum(len(rows) for rows in per_doc[doc])
        if size >= block and pending:  # a document that fills a block alone gets its own
            close(n - 1)
            count = 0
        pending.append(doc)
        count += size
        if count >= block or n == len(busy):
            close(n)
            count = 0
    return blocks


def embed(streams: Sequence[Stream], blocks: Sequence[Block], encoder, progress: Progress | None,
          on_piece: Callable[[int, Sequence[int]], None] | None = None) -> list[int]:
    """Encode every block's rows with ``encoder`` (written in place where it can), then fill
    the copies; how many texts of each stream were encoded.

    A block's rows are encoded longest first (as the encoder would order them) in pieces of at
    most ``PIECE`` texts; ``on_piece(stream, rows)`` is called after each, so the build can keep
    what is embedded (``index.store.shards``) before going on.
    """
    total = sum(b.size for b in blocks)
    done = 0
    for block in blocks:
        if progress is not None:
            progress(done, total, block.label)  # named before its first slice is back
        for s, (stream, rows) in enumerate(zip(streams, block.rows)):
            ordered = sorted(rows, key=lambda i: -len(stream.texts[i]))  # pieces of similar length pad little
            for start in range(0, len(ordered), PIECE):
                piece = ordered[start : start + PIECE]
                texts = [stream.texts[i] for i in piece]
                tick = _offset(progress, done, total, block.label) if progress is not None else None
                if hasattr(encoder, "encode_into"):
                    encoder.encode_into(texts, stream.out, piece, progress=tick)
                else:
                    stream.out[list(piece)] = encoder.encode(texts, progress=tick)
                done += len(piece)
                if on_piece is not None:
                    on_piece(s, piece)
        for stream in streams:  # written vectors leave memory for the file: RSS stays flat
            release(stream.out)
    for stream in streams:
        stream.fill_copies()
        release(stream.out)
    return [sum(len(b.rows[s]) for b in blocks) for s in range(len(streams))]


def _offset(progress: Progress, base: int, total: int, label: str) -> Callable[[int, int], None]:
    """An encoder's (done, total) of one block's texts as the build's (done, total, what)."""
    return lambda done, _block_total: progress(base + done, total, label)
