"""Cosines for answers, as plain floats: the question against sentences, and sentence against sentence.

The answer scores the sentences of the top passages by their cosine with the question. Their
vectors were made when the index was built (``index.retrieve.sentence_vectors``), so no model pass is
needed; a sentence the build did not embed (an index without sentence vectors) is encoded here
once and kept in a bounded cache, as are the question vectors a chat asks again.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from typing import Sequence

import numpy as np

SENTENCE_CACHE = 20_000  # sentence vectors kept between questions (about 30 MB at dim 384)
QUERY_CACHE = 256  # query vectors kept: a chat re-asks a topic (a cleared release chip, a follow-up)
# Sentences to embed are grouped by length: one run pads every text to its longest, and a run
# costs about as much as 10 word pieces (about 40 characters) of padding (docs/measurements.md,
# ``index.similarity.PAD_SLACK``). The vectors are the same however the sentences are grouped
# (the attention mask hides padding).
PAD_SLACK = 40
# At most this many sentences a run, so memory stays bounded whatever the passages hold
# (ONNX Runtime keeps the memory of its largest run; docs/measurements.md).
SENTENCE_BATCH = 8


class Similarity:
    """Query and sentence vectors of one index, and the cosines the answer needs.

    Not thread-safe (its caches change on every question): one question at a time, as
    ``qa.service.AnswerService`` asks.
    """

    def __init__(self, index) -> None:
        """Args:
            index: the ``LoadedIndex`` whose encoder and stored sentence vectors are used.
        """
        self.index = index
        self._sentence_vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._query = functools.lru_cache(maxsize=QUERY_CACHE)(self._encode_query)

    def _encode_query(self, text: str) -> np.ndarray:
        return self.index.encoder().encode_query(text)

    def query_vector(self, text: str) -> np.ndarray:
        """The embedding of a question, kept (bounded) for questions asked again (for ``index``
        itself: arrays never leave the package; answers use ``cosines`` and ``pairwise``)."""
        return self._query(text)

    def warm_up(self) -> None:
        """Load the query encoder now, so the first question does not wait for it."""
        self.index.encoder().encode_query("warm up")

    def _vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Sentence vectors: made at index time when the index has them (no model pass), else
        encoded here and kept in a bounded cache (a batch or a chat meets the same passages often)."""
        stored = self.index.sentence_vectors()
        found = {t: v for t in texts if stored is not None and (v := stored.get(t)) is not None}
        cache = self._sentence_vectors
        missing = list(dict.fromkeys(t for t in texts if t not in found and t not in cache))
        if missing:
            encoder = self.index.encoder()
            for group in length_groups(missing):
                for text, vector in zip(group, encoder.encode(group, batch_size=len(group))):
                    cache[text] = vector
        for text in texts:
            if text not in found:
                cache.move_to_end(text)
        vectors = np.stack([found[t] if t in found else cache[t] for t in texts])
        while len(cache) > SENTENCE_CACHE:
            cache.popitem(last=False)
        return vectors

    def cosines(self, query: str, sentences: Sequence[str]) -> list[float]:
        """The cosine of each sentence with the question ``query`` (unit vectors: the inner product)."""
        if not sentences:
            return []
        return (self._vectors(list(sentences)) @ self.query_vector(query)).tolist()

    def pairwise(self, first: str, others: Sequence[str]) -> list[float]:
        """The cosine of sentence ``first`` with each of ``others``."""
        vectors = dict(zip([first, *others], self._vectors([first, *others])))
        return [float(np.dot(vectors[first], vectors[other])) for other in others]


def length_groups(texts: list[str]) -> list[list[str]]:
    """Texts in runs of similar length, longest first: a text joins a run when its padding to
    the run's longest text is at most PAD_SLACK characters (at most SENTENCE_BATCH texts a run)."""
    groups: list[list[str]] = []
    for text in sorted(texts, key=len, reverse=True):
        if groups and len(groups[-1][0]) - len(text) <= PAD_SLACK and len(groups[-1]) < SENTENCE_BATCH:
            groups[-1].append(text)
        else:
            groups.append([text])
    return groups
