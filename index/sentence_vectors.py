"""Sentence vectors made at index time, so an answer quotes sentences without running the model.

The extractive answer scores the sentences of the top passages against the question by cosine
similarity. Embedding those sentences per question was most of a hybrid question's cost; the
build embeds every sentence of every chunk once (the build loads the model anyway), keyed by
the sentence text, and reuses the vectors of unchanged sentences on a rebuild.

On disk: ``sentences.npy`` (float32, one row a sentence, ``allow_pickle=False``) and
``sentences.json`` (the key of each row), both checksummed in the manifest.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from corpus.sentences import split_sentences

from .errors import IndexCorrupt

SENTENCE_VECTORS = "sentences.npy"
SENTENCE_KEYS = "sentences.json"
FILES = (SENTENCE_VECTORS, SENTENCE_KEYS)


def sentence_key(text: str) -> str:
    """The key of a sentence's vector: a hash of its exact text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def corpus_sentences(texts: Iterable[str]) -> list[str]:
    """Every distinct sentence of the given chunk texts, in first-seen order."""
    return list(dict.fromkeys(s.text for text in texts for s in split_sentences(text)))


def write_sentence_vectors(directory: Path, keys: Sequence[str], vectors: np.ndarray) -> tuple[str, ...]:
    """Write the two files into ``directory``; returns their names for the manifest."""
    with open(directory / SENTENCE_VECTORS, "wb") as fh:
        np.save(fh, np.ascontiguousarray(vectors, dtype=np.float32), allow_pickle=False)
    (directory / SENTENCE_KEYS).write_text(json.dumps(list(keys)), encoding="utf-8")
    return FILES


class SentenceVectors:
    """Sentence text -> vector, as the build made them."""

    def __init__(self, keys: Sequence[str], vectors: np.ndarray) -> None:
        if len(keys) != len(vectors):
            raise ValueError(f"{len(keys)} keys for {len(vectors)} vectors")
        self.rows = {key: row for row, key in enumerate(keys)}
        self.vectors = vectors

    @classmethod
    def load(cls, directory: Path) -> SentenceVectors:
        """Read the two files (their checksums are the caller's to verify).

        Raises:
            IndexCorrupt: a file is unreadable, malformed, or the two are out of step.
        """
        fix = "rebuild it with: relnotes index --rebuild"
        try:
            keys = json.loads((Path(directory) / SENTENCE_KEYS).read_text(encoding="utf-8"))
            with open(Path(directory) / SENTENCE_VECTORS, "rb") as fh:
                vectors = np.load(fh, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise IndexCorrupt(f"Sentence vectors in {directory} are unreadable ({exc}); {fix}") from None
        if not isinstance(keys, list) or vectors.ndim != 2 or len(keys) != len(vectors):
            raise IndexCorrupt(f"Sentence vectors in {directory} are out of step with their keys; {fix}")
        return cls(keys, vectors)

    def __len__(self) -> int:
        return len(self.rows)

    def get(self, sentence: str) -> np.ndarray | None:
        """The vector of ``sentence``, or None when the build did not embed it."""
        row = self.rows.get(sentence_key(sentence))
        return None if row is None else self.vectors[row]

    def by_key(self) -> dict[str, np.ndarray]:
        """Key -> vector, for reuse by the next build."""
        return {key: self.vectors[row] for key, row in self.rows.items()}
