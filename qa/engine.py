"""The question-answering engine: a question in, an Answer with cited passages out.

No printing, no click, no textual here: the CLI, batch and the chat UI all call ``ask``.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Sequence

import numpy as np

from corpus.versions import version_key, version_matches
from index.reader import LoadedIndex
from index.search import Hit, Searcher, check_mode
from index.tokenize import tokenize

from .errors import BadQuestion
from .extract import CONFIDENT, lexical_coverage, pick, score_sentences
from .model import Answer, Citation, Passage
from .releases import find_releases
from .sentences import split_sentences
from .text import CONTROL_CHARS

MAX_QUESTION_CHARS = 2000
NOT_CONFIDENT = "No passage answers this confidently; the nearest passages follow."
STRONG_EVIDENCE = 0.85  # a passage within this share of the strongest evidence counts as evidence
SENTENCE_CACHE = 20_000  # sentence vectors kept between questions (about 30 MB at dim 384)
WHICH_RELEASE_POOL = 50  # "which release added X" looks this deep for the earliest release


def check_question(question: str) -> str:
    """The question with surrounding whitespace removed, or BadQuestion saying what is wrong."""
    if not isinstance(question, str) or not question.strip():
        raise BadQuestion("The question is empty; type what you want to know, e.g. 'what changed for MPS?'")
    if len(question) > MAX_QUESTION_CHARS:
        raise BadQuestion(
            f"The question is {len(question):,} characters long; keep it under {MAX_QUESTION_CHARS:,}"
        )
    if CONTROL_CHARS.search(question):
        raise BadQuestion("The question holds control characters (such as terminal escapes); remove them")
    return " ".join(question.split())


def citation(hit: Hit) -> Citation:
    """The citation of a retrieved chunk; the URL gets a #heading anchor where the source has one."""
    c = hit.chunk
    url = c.url
    if url and c.anchor and "#" not in url:
        url = f"{url}#{c.anchor}"
    return Citation(
        document=c.document,
        title=c.title,
        product=c.product,
        version=c.version,
        section=c.section,
        source=c.source,
        lines=c.lines,
        url=url,
        body_field=c.body_field,
    )


class Engine:
    """Answers questions from one loaded index."""

    def __init__(self, index: LoadedIndex) -> None:
        self.index = index
        self.searcher = Searcher(index)
        self.releases: tuple[str, ...] = tuple(
            sorted({c.version for c in index.chunks if c.version}, key=version_key)
        )
        self.products: tuple[str, ...] = tuple(sorted({c.product for c in index.chunks if c.product}))
        self._sentence_vectors: OrderedDict[str, np.ndarray] = OrderedDict()

    def _idf(self, tokens):
        return self.index.lexical.idf(tokens, missing=None)

    def _embed(self, texts: list[str]) -> np.ndarray:
        """Sentence vectors, from a bounded cache: a batch or a chat meets the same passages often."""
        cache = self._sentence_vectors
        missing = list(dict.fromkeys(t for t in texts if t not in cache))
        if missing:
            for text, vector in zip(missing, self.index.encoder().encode(missing, batch_size=64)):
                cache[text] = vector
        for text in texts:
            cache.move_to_end(text)
        vectors = np.stack([cache[t] for t in texts])
        while len(cache) > SENTENCE_CACHE:
            cache.popitem(last=False)
        return vectors

    def _earliest_first(self, topic: str, hits: list[Hit]) -> tuple[list[Hit], str | None]:
        """Put the best passage of the earliest release with strong evidence first.

        Evidence of a passage: half its retrieval score (relative to the best), half the
        question's term coverage by its best sentence (relative to the best passage's).
        "Strong" is within STRONG_EVIDENCE of the strongest.
        """
        terms = tokenize(topic)
        coverage = [
            max((lexical_coverage(terms, tokenize(s.text), self._idf) for s in split_sentences(h.chunk.text)), default=0.0)
            for h in hits
        ]
        top_score, top_cover = max(h.score for h in hits), max(coverage)
        evidence = [
            0.5 * (h.score / top_score if top_score > 0 else 0.0) + 0.5 * (c / top_cover if top_cover > 0 else 0.0)
            for h, c in zip(hits, coverage)
        ]
        best = max(evidence)
        strong = [i for i, e in enumerate(evidence) if e >= STRONG_EVIDENCE * best and hits[i].chunk.version]
        if not strong:
            return hits, None
        first = min(strong, key=lambda i: (version_key(hits[i].chunk.version), -evidence[i]))
        return [hits[first]] + hits[:first] + hits[first + 1 :], hits[first].chunk.version

    def held(self, wanted: str) -> bool:
        """Whether the corpus holds release ``wanted``."""
        return any(version_matches(v, wanted) for v in self.releases)

    def ask(
        self, question: str, top_k: int = 5, mode: str = "hybrid", releases: Sequence[str] | None = None
    ) -> Answer:
        """Answer ``question`` with ranked, cited passages and an extractive answer.

        Args:
            question: what the user typed; may name releases ("in 2.13", "release:2.14").
            top_k: how many passages to return.
            mode: "hybrid", "bm25" or "dense".
            releases: restrict to these releases (added to those the question names).

        Raises:
            BadQuestion: the question is empty, too long, holds control characters or a bad ``release:``.
            UnknownMode: ``mode`` is not one of bm25, dense, hybrid.
        """
        started = time.perf_counter()
        text = check_question(question)
        mode = check_mode(mode)
        if top_k < 1:
            raise BadQuestion(f"top_k must be at least 1, got {top_k}")
        parsed = find_releases(text, known=self.releases, products=self.products)
        if parsed.bad_filters:
            raise BadQuestion(
                f"'release:{parsed.bad_filters[0]}' is not a release; write it like release:2.14"
            )
        wanted = tuple(dict.fromkeys([*(r.lstrip("vV") for r in releases or ()), *parsed.releases]))
        asked_as = parsed.text or text
        missing = [r for r in wanted if not self.held(r)]
        if missing:
            have = ", ".join(self.releases) or "none"
            note = (
                f"The corpus holds no release {', '.join(missing)} (it has: {have}); "
                "not answering from another release."
            )
            return Answer(text, asked_as, wanted, mode, (), (), False, note=note,
                          timings_ms={"retrieve": 0.0, "answer": _ms(started)})
        topic = parsed.topic or asked_as
        vector = self.index.encoder().encode_query(topic) if mode != "bm25" else None
        which = parsed.which_release and not wanted
        depth = max(top_k, WHICH_RELEASE_POOL) if which else top_k
        hits = self.searcher.search(topic, k=depth, mode=mode, versions=wanted or None, query_vector=vector)
        earliest = None
        if which and hits:
            hits, earliest = self._earliest_first(topic, hits)
        hits = hits[:top_k]
        retrieved = time.perf_counter()
        candidates = score_sentences(
            topic, [h.chunk.text for h in hits], tokenize=tokenize, idf=self._idf,
            embed=self._embed if vector is not None else None, query_vector=vector,
        )
        sentences, confident = pick(candidates, CONFIDENT[mode])
        passages = tuple(
            Passage(rank, h.chunk.id, h.chunk.text, round(h.score, 6), citation(h)) for rank, h in enumerate(hits, 1)
        )
        note = None if confident else (NOT_CONFIDENT if passages else "No passage matches this question.")
        if earliest and confident:
            note = f"Earliest release with strong evidence: {earliest}"
        done = time.perf_counter()
        return Answer(
            question=text,
            asked_as=asked_as,
            releases=wanted,
            mode=mode,
            passages=passages,
            sentences=sentences,
            confident=confident,
            note=note,
            earliest_release=earliest if confident else None,
            timings_ms={"retrieve": round((retrieved - started) * 1000, 2), "answer": round((done - retrieved) * 1000, 2)},
        )


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)
