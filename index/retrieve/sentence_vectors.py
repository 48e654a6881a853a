"""Sentence vectors made at index time, so an answer quotes sentences without running the model.

The extractive answer scores the sentences of the top passages against the question by cosine
similarity. Embedding those sentences per question was most of a hybrid question's cost; the
build embeds every sentence of every chunk once (the build loads the model anyway), keyed by
the sentence text, and reuses the vectors of unchanged sentences on a rebuild.

The same vectors make a third retriever: a chunk scored by its best sentence's cosine with the
question (``SentenceVectors.best_per_chunk``), fused with BM25 and the window vectors
(``index.retrieve.fusion``). A question worded unlike a section as a whole often matches one of its
sentences closely: paraphrased questions gain most.

On disk: ``sentences.npy`` (float32, one row a sentence, ``allow_pickle=False``),
``sentences.json`` (the key of each row) and ``sentence_chunks.npy`` (int32 pairs: chunk row,
sentence row, one per sentence of each chunk, in chunk order), all checksummed in the manifest.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from corpus.sentences import split_sentences

from ..errors import IndexCorrupt
from ..store.layout import SENTENCE_CHUNKS, SENTENCE_FILES, SENTENCE_KEYS, SENTENCE_VECTORS


def sentence_key(text: str) -> str:
    """The key of a sentence's vector: a hash of its exact text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def corpus_sentences(texts: Iterable[str]) -> tuple[list[str], np.ndarray]:
    """Every distinct sentence of the given chunk texts, in first-seen order, and the
    (chunk, sentence) pairs of the chunks' sentences (int32, shape (n, 2), in chunk order)."""
    rows: dict[str, int] = {}
    pairs = []
    for chunk, text in enumerate(texts):
        for span in split_sentences(text):
            pairs.append((chunk, rows.setdefault(span.text, len(rows))))
    return list(rows), np.array(pairs, dtype=np.int32).reshape(-1, 2)


def write_sentence_vectors(
    directory: Path, keys: Sequence[str], vectors: np.ndarray | None, chunks: np.ndarray
) -> tuple[str, ...]:
    """Write the three files into ``directory``; returns their names for the manifest.

    ``vectors`` None: the build already wrote them there (a memory map it embedded into).
    """
    if vectors is not None:
        with open(directory / SENTENCE_VECTORS, "wb") as fh:
            np.save(fh, np.ascontiguousarray(vectors, dtype=np.float32), allow_pickle=False)
    (directory / SENTENCE_KEYS).write_text(json.dumps(list(keys)), encoding="utf-8")
    with open(directory / SENTENCE_CHUNKS, "wb") as fh:
        np.save(fh, np.ascontiguousarray(chunks, dtype=np.int32).reshape(-1, 2), allow_pickle=False)
    return SENTENCE_FILES


class SentenceVectors:
    """Sentence text -> vector, as the build made them, and which sentences each chunk holds."""

    def __init__(self, keys: Sequence[str], vectors: np.ndarray, chunks: np.ndarray | None = None) -> None:
        if len(keys) != len(vectors):
            raise ValueError(f"{len(keys)} keys for {len(vectors)} vectors")
        self.rows = {key: row for row, key in enumerate(keys)}
        self.vectors = vectors
        self.chunks = chunks  # (chunk, sentence row) pairs in chunk order; None from an older index
        self._offsets: np.ndarray | None = None  # chunk c's pairs are chunks[offsets[c]:offsets[c + 1]]

    @classmethod
    def load(cls, directory: Path, n_chunks: int | None = None) -> SentenceVectors:
        """Read the files (their checksums are the caller's to verify); the chunk map too when
        ``n_chunks`` (the index's chunk count) is given: an index from before it has none.

        Raises:
            IndexCorrupt: a file is unreadable, malformed, or the files are out of step.
        """
        fix = "rebuild it with: relnotes index --rebuild"
        directory = Path(directory)
        chunks = None
        try:
            keys = json.loads((directory / SENTENCE_KEYS).read_text(encoding="utf-8"))
            # Memory-mapped, like the window vectors (index.retrieve.dense): shared between processes, paged in on use.
            try:
                vectors = np.load(directory / SENTENCE_VECTORS, mmap_mode="r", allow_pickle=False)
            except OSError:  # a file system that cannot map it: read it whole
                with open(directory / SENTENCE_VECTORS, "rb") as fh:
                    vectors = np.load(fh, allow_pickle=False)
            if n_chunks is not None:
                with open(directory / SENTENCE_CHUNKS, "rb") as fh:
                    chunks = np.load(fh, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise IndexCorrupt(f"Sentence vectors in {directory} are unreadable ({exc}); {fix}") from None
        if not isinstance(keys, list) or vectors.ndim != 2 or len(keys) != len(vectors):
            raise IndexCorrupt(f"Sentence vectors in {directory} are out of step with their keys; {fix}")
        if chunks is not None and not _valid_chunk_map(chunks, len(keys), n_chunks):
            raise IndexCorrupt(f"The sentence map {directory / SENTENCE_CHUNKS} is out of step with the index; {fix}")
        return cls(keys, vectors, chunks)

    def __len__(self) -> int:
        return len(self.rows)

    def get(self, sentence: str) -> np.ndarray | None:
        """The vector of ``sentence``, or None when the build did not embed it."""
        row = self.rows.get(sentence_key(sentence))
        return None if row is None else self.vectors[row]

    def by_key(self) -> dict[str, np.ndarray]:
        """Key -> vector, for reuse by the next build."""
        return {key: self.vectors[row] for key, row in self.rows.items()}

    def best_per_chunk(self, query: np.ndarray, n_chunks: int, only: np.ndarray | None = None) -> np.ndarray | None:
        """Each chunk's best sentence cosine with ``query`` (a unit vector), NaN for a chunk with
        no sentence (a list of names, say) and for chunks not in ``only`` (chunk rows, when
        given: only their sentences are scored); None when the index has no sentence map."""
        if self.chunks is None:
            return None
        best = np.full(n_chunks, np.nan, dtype=np.float32)
        if self._offsets is None or len(self._offsets) != n_chunks + 1:
            self._offsets = np.searchsorted(self.chunks[:, 0], np.arange(n_chunks + 1))
        if only is None:
            chunks = np.arange(n_chunks)
        else:  # sorted and distinct (np.unique would import numpy.ma: ~10 ms of a cold question)
            wanted = np.zeros(n_chunks, dtype=bool)
            wanted[np.asarray(only, dtype=np.int64)] = True
            chunks = np.flatnonzero(wanted)
        lo, counts = self._offsets[chunks], self._offsets[chunks + 1] - self._offsets[chunks]
        chunks, lo, counts = chunks[counts > 0], lo[counts > 0], counts[counts > 0]
        if not len(chunks):
            return best
        starts = np.r_[0, np.cumsum(counts[:-1])]
        pairs = np.repeat(lo - starts, counts) + np.arange(int(counts.sum()))
        rows = self.chunks[pairs, 1]
        q = np.asarray(query, dtype=self.vectors.dtype).reshape(-1)
        # why: few of many sentences are cheaper copied and multiplied alone, many in one product
        # over all (docs/decisions/0105-sentence-scores-of-few-chunks.md).
        sims = self.vectors[rows] @ q if 16 * len(rows) < len(self.vectors) else (self.vectors @ q)[rows]
        best[chunks] = np.maximum.reduceat(sims, starts)
        return best


def _valid_chunk_map(chunks: np.ndarray, n_sentences: int, n_chunks: int) -> bool:
    """(chunk, row) int pairs, chunks non-decreasing, every row a stored sentence."""
    if chunks.ndim != 2 or chunks.shape[1] != 2 or not np.issubdtype(chunks.dtype, np.integer):
        return False
    if not len(chunks):
        return True
    owner, rows = chunks[:, 0], chunks[:, 1]
    return bool(
        owner.min() >= 0 and owner.max() < n_chunks and np.all(np.diff(owner) >= 0)
        and rows.min() >= 0 and rows.max() < n_sentences
    )
