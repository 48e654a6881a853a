"""A build and the shared vector store (``index.store.shared``): the vectors of the texts it holds
taken before embedding, and, once the new index has every vector, the texts it did not hold
given to it, so the next index holding them (another project with the same dependencies, another
corpus with the same files) embeds none of them."""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..store.shared import SharedVectors, text_hash

PIECE_ROWS = 16384  # rows a piece of the store holds at most (24 MB at 384 dimensions)


def take_shared(store: SharedVectors | None, windows: Sequence[str], window_keys: Sequence[str],
                sentence_keys: Sequence[str], previous: dict, previous_sentences: dict) -> set[str]:
    """Put into ``previous`` / ``previous_sentences`` the vectors the store holds for texts that
    neither has (windows by their key, sentences by theirs, a sentence's key being its text hash);
    the text hashes found in the store (all of them that this build needs, whether taken or not)."""
    if store is None:
        return set()
    window_hash = {key: text_hash(text) for text, key in zip(windows, window_keys)}
    found = store.lookup({*window_hash.values(), *sentence_keys})
    for key, digest in window_hash.items():
        if key not in previous and digest in found:
            previous[key] = found[digest]
    for key in sentence_keys:
        if key not in previous_sentences and key in found:
            previous_sentences[key] = found[key]
    return set(found)


def give_shared(store: SharedVectors | None, streams: Sequence, held: set[str],
                notify: Callable[[str], None] | None = None) -> int:
    """Add to the store every text of the build's ``streams`` (windows, then sentences; their
    vectors all written) whose hash is not in ``held``; how many. An unwritable store is said once
    and skipped: it only costs the next index the embedding."""
    if store is None:
        return 0
    rows: list[tuple[int, int]] = []  # (stream, row) of each text to give, once per hash
    hashes: list[str] = []
    seen = set(held)
    for s, stream in enumerate(streams):
        for row, (text, key) in enumerate(zip(stream.texts, stream.keys)):
            digest = text_hash(text) if s == 0 else key
            if digest not in seen:
                seen.add(digest)
                rows.append((s, row))
                hashes.append(digest)
    try:
        for start in range(0, len(rows), PIECE_ROWS):
            part = rows[start : start + PIECE_ROWS]
            vectors = np.empty((len(part), store.dim), dtype=np.float32)
            for s, stream in enumerate(streams):
                at = [i for i, (k, _) in enumerate(part) if k == s]
                if at:
                    vectors[at] = stream.out[[part[i][1] for i in at]]
            store.add(hashes[start : start + PIECE_ROWS], vectors)
    except OSError as exc:
        if notify is not None:
            notify(f"The shared vector store at {store.directory} could not be written ({exc.strerror or exc}); "
                   "the next index of these texts embeds them again")
        return 0
    return len(rows)
