"""The question-answering engine: a question in, an Answer with cited passages out.

No printing, no click, no textual here: the CLI, batch and the chat UI all call ``ask``.

Follow-ups (a chat, ``relnotes ask --follow-up``) are resolved by ``qa.followup.resolve``, a pure
function of the previous turn and the new question, then asked like any question::

    follow = resolve(turn, text, engine.releases, engine.products)   # qa.followup
    answer = engine.ask(follow.text, releases=follow.releases, typed=text)
    turn = Turn.from_answer(answer)                                  # for the next question

or in one call: ``follow, answer = engine.follow_up(turn, text)``. ``answer.question`` is what
the user typed (``typed``), ``answer.asked_as`` the question as understood ("MPS native Metal
kernels in 2.13"); ``follow.chip`` ("release: 2.13") says the release filter was inherited.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import replace
from typing import Sequence

import numpy as np

from corpus.sentences import Span, split_sentences
from corpus.versions import version_key, version_matches
from index.reader import LoadedIndex
from index.search import Hit, Searcher, check_mode
from index.tokenize import tokenize

from .errors import BadQuestion
from .extract import CONFIDENT, best_sentences, coverage_scorer, pick, score_sentences
from .followup import FollowUp, Turn, resolve
from .model import Answer, Citation, Passage
from .releases import find_releases
from .rerank import (
    RERANK_DEPTH,
    RERANK_MODES,
    RERANK_NORMALISE,
    RERANK_WEIGHT,
    RESTATED_DEPTH,
    Statement,
    rerank,
    restated_first,
)
from .text import CONTROL_CHARS

MAX_QUESTION_CHARS = 2000
NOT_CONFIDENT = "No passage answers this confidently; the nearest passages follow."
STRONG_EVIDENCE = 0.85  # a passage within this share of the strongest evidence counts as evidence
SENTENCE_CACHE = 20_000  # sentence vectors kept between questions (about 30 MB at dim 384)
PASSAGE_CACHE = 4_096  # passages whose sentences (and their terms) are kept split between questions
QUERY_CACHE = 256  # query vectors kept: a chat re-asks a topic (a cleared release chip, a follow-up)
# Sentences to embed are grouped by length: one run pads every text to its longest, and a
# run costs about as much as 10 word pieces (about 40 characters) of padding. Measured on the
# shipped questions: 30% less encoder time than one run of up to 64 sentences; the vectors
# are bit-identical however the sentences are grouped (the attention mask hides padding).
PAD_SLACK = 40
# At most this many sentences a run, so memory stays bounded whatever the passages hold: the
# top passages are whole sections, and ONNX Runtime keeps the memory of its largest run. 64
# sentences past the model's window cost +918 MiB in one run of 64, +538 at 32, +358 at 16,
# +168 at 8, +70 at 4; 8 was as fast as any (the 200-question batch: 238 MiB peak at every cap).
SENTENCE_BATCH = 8
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
        by_product: dict[str | None, set[str]] = {}  # product (None: unknown) -> its releases
        products: set[str] = set()
        for c in index.chunks:
            if c.product:
                products.add(c.product)
            if c.version:
                by_product.setdefault(c.product, set()).add(c.version)
        self._releases_of = {p: tuple(sorted(v, key=version_key)) for p, v in by_product.items()}
        self.releases: tuple[str, ...] = tuple(sorted(set().union(*by_product.values()), key=version_key))
        self.products: tuple[str, ...] = tuple(sorted(products))
        self._sentence_vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._splits: OrderedDict[str, tuple[Span, ...]] = OrderedDict()
        self._terms: OrderedDict[str, frozenset[str]] = OrderedDict()
        self._queries: OrderedDict[str, np.ndarray] = OrderedDict()

    def _idf(self, tokens):
        return self.index.lexical.idf(tokens, missing=None)

    def _split(self, passage: str) -> tuple[Span, ...]:
        """The sentences of a passage, split once and kept (bounded) between questions."""
        return _cached(self._splits, passage, lambda t: tuple(split_sentences(t)), PASSAGE_CACHE)

    def _sentence_terms(self, sentence: str) -> frozenset[str]:
        """The tokens of a sentence, as a set, kept (bounded) between questions."""
        return _cached(self._terms, sentence, lambda t: frozenset(tokenize(t)), SENTENCE_CACHE)

    def _query_vector(self, topic: str) -> np.ndarray:
        """The embedding of a question's topic, kept (bounded) for questions asked again."""
        return _cached(self._queries, topic, self.index.encoder().encode_query, QUERY_CACHE)

    def _embed(self, texts: list[str]) -> np.ndarray:
        """Sentence vectors: made at index time when the index has them (no model pass), else
        encoded here and kept in a bounded cache (a batch or a chat meets the same passages often)."""
        stored = self.index.sentence_vectors()
        found = {t: v for t in texts if stored is not None and (v := stored.get(t)) is not None}
        cache = self._sentence_vectors
        missing = list(dict.fromkeys(t for t in texts if t not in found and t not in cache))
        if missing:
            encoder = self.index.encoder()
            for group in _length_groups(missing):
                for text, vector in zip(group, encoder.encode(group, batch_size=len(group))):
                    cache[text] = vector
        for text in texts:
            if text not in found:
                cache.move_to_end(text)
        vectors = np.stack([found[t] if t in found else cache[t] for t in texts])
        while len(cache) > SENTENCE_CACHE:
            cache.popitem(last=False)
        return vectors

    def _reranked(self, topic: str, hits: list[Hit], vector: np.ndarray | None) -> list[Hit]:
        """The first RERANK_DEPTH hits re-ranked by their best sentence (``qa.rerank``), scored by
        the mix; then, with sentence vectors, a passage restating the first one's fact in
        another document of the release, with a better sentence for it, goes first."""
        head = [h.chunk.text for h in hits[:RERANK_DEPTH]]
        best = best_sentences(
            topic, head, tokenize=tokenize, idf=self._idf, embed=self._embed if vector is not None else None,
            query_vector=vector, split=self._split, terms=self._sentence_terms,
        )
        order, mixed = rerank([h.score for h in hits], [score for score, _ in best], RERANK_WEIGHT, RERANK_NORMALISE)
        ranked = [replace(hits[i], score=mixed[i]) for i in order]
        if vector is None:
            return ranked
        top = [(ranked[k], best[i]) for k, i in enumerate(order[:RESTATED_DEPTH])]  # the first 20 have evidence
        texts = [text for _, (_, text) in top if text is not None]
        vectors = dict(zip(texts, self._embed(texts))) if texts else {}
        statements = [
            Statement(h.chunk.document, h.chunk.version, score, vectors.get(text) if text is not None else None)
            for h, (score, text) in top
        ]
        first = restated_first(statements)
        if first is None:
            return ranked
        return [ranked[first]] + ranked[:first] + ranked[first + 1 :]

    def _earliest_first(self, topic: str, hits: list[Hit]) -> tuple[list[Hit], str | None]:
        """Put the best passage of the earliest release with strong evidence first.

        Evidence of a passage: half its retrieval score (relative to the best), half the
        question's term coverage by its best sentence (relative to the best passage's).
        "Strong" is within STRONG_EVIDENCE of the strongest.
        """
        cover = coverage_scorer(tokenize(topic), self._idf)
        coverage = [
            max((cover(self._sentence_terms(s.text)) for s in self._split(h.chunk.text)), default=0.0) for h in hits
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

    def held(self, wanted: str, products: Sequence[str] = ()) -> bool:
        """Whether the corpus holds release ``wanted`` (of one of ``products``, when given)."""
        return any(version_matches(v, wanted) for v in self.releases_of(products))

    def releases_of(self, products: Sequence[str] = ()) -> tuple[str, ...]:
        """The releases the corpus holds of ``products`` (and of documents of no known product);
        every release when ``products`` is empty."""
        if not products:
            return self.releases
        held = {v for p in (*products, None) for v in self._releases_of.get(p, ())}
        return tuple(sorted(held, key=version_key))

    def ask(
        self,
        question: str,
        top_k: int = 5,
        mode: str = "hybrid",
        releases: Sequence[str] | None = None,
        *,
        typed: str | None = None,
        products: Sequence[str] | None = None,
    ) -> Answer:
        """Answer ``question`` with ranked, cited passages and an extractive answer.

        Args:
            question: the question to answer; may name releases ("in 2.13", "release:2.14").
            top_k: how many passages to return.
            mode: "hybrid", "bm25" or "dense".
            releases: restrict to these releases (added to those the question names).
            typed: what the user typed when ``question`` is a resolved follow-up
                (``FollowUp.text``); it becomes ``Answer.question``. Default: ``question``.
            products: restrict to these products too (a follow-up's ``FollowUp.products``);
                only in a corpus of several, and only products it holds.

        Raises:
            BadQuestion: the question is empty, too long, holds control characters or a bad ``release:``.
            UnknownMode: ``mode`` is not one of bm25, dense, hybrid.
        """
        started = time.perf_counter()
        text = check_question(question)
        shown = text if typed is None else check_question(typed)
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
        # A product named restricts only in a corpus of several ("pydantic 1.10" among Rust's notes).
        named = [p for p in products or () if p in self.products]
        products = tuple(dict.fromkeys([*named, *parsed.products])) if len(self.products) > 1 else ()
        missing = [r for r in wanted if not self.held(r, products)]
        if missing:
            of = f" of {' or '.join(products)}" if products else ""
            note = (
                f"The corpus holds no release {', '.join(missing)}{of} ({_holding(self.releases_of(products), missing)}); "
                "not answering from another release."
            )
            return Answer(shown, asked_as, wanted, mode, (), (), False, note=note, products=products,
                          timings_ms={"retrieve": 0.0, "answer": _ms(started)})
        # The question is the query, a release it names included (overview passages name their
        # release: "how many commits went into 2.14"); the release filter does the restricting.
        topic = asked_as
        vector = self._query_vector(topic) if mode != "bm25" else None
        which = parsed.which_release and not wanted
        depth = max(top_k, WHICH_RELEASE_POOL) if which else top_k
        rerank_on = mode in RERANK_MODES and RERANK_WEIGHT > 0
        if rerank_on:
            depth = max(depth, RERANK_DEPTH)
        hits = self.searcher.search(
            topic, k=depth, mode=mode, versions=wanted or None, query_vector=vector, products=products or None
        )
        if rerank_on and hits:
            hits = self._reranked(topic, hits, vector)
        earliest = None
        if which and hits:
            hits, earliest = self._earliest_first(topic, hits)
        hits = _falling(hits[:top_k])
        retrieved = time.perf_counter()
        candidates = score_sentences(
            topic, [h.chunk.text for h in hits], tokenize=tokenize, idf=self._idf,
            embed=self._embed if vector is not None else None, query_vector=vector,
            split=self._split, terms=self._sentence_terms,
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
            question=shown,
            asked_as=asked_as,
            releases=wanted,
            products=products,
            mode=mode,
            passages=passages,
            sentences=sentences,
            confident=confident,
            note=note,
            earliest_release=earliest if confident else None,
            timings_ms={"retrieve": round((retrieved - started) * 1000, 2), "answer": round((done - retrieved) * 1000, 2)},
        )

    def follow_up(
        self,
        previous: Turn | None,
        question: str,
        top_k: int = 5,
        mode: str = "hybrid",
        releases: Sequence[str] | None = None,
    ) -> tuple[FollowUp, Answer]:
        """Resolve ``question`` against the previous turn (``qa.followup.resolve``) and answer it.

        Args:
            previous: the previous turn (``Turn.from_answer``), or None for a first question.
            question: what the user typed.
            top_k: how many passages to return.
            mode: "hybrid", "bm25" or "dense".
            releases: an explicit release filter; it replaces an inherited one.

        Returns:
            The follow-up as resolved, and the answer (``question`` as typed, ``asked_as`` as resolved).

        Raises:
            BadQuestion, UnknownMode: as ``ask``.
        """
        follow = resolve(previous, question, self.releases, self.products)
        if releases:
            follow = follow.cleared()
        wanted = [*(releases or ()), *follow.releases]
        return follow, self.ask(follow.text, top_k=top_k, mode=mode, releases=wanted, typed=question,
                                products=follow.products)


def _holding(held: Sequence[str], missing: Sequence[str], most: int = 12) -> str:
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
    near = held[max(0, min(at - 2, len(held) - 4)) :][:4]
    return f"it has {len(held)} releases, {held[0]} to {held[-1]}; nearest: {', '.join(near)}"


SCORE_STEP = 1e-4  # what a passage moved first scores above the one after it (shown to 4 places)


def _falling(hits: list[Hit]) -> list[Hit]:
    """The hits with scores that fall with rank: a passage moved first (the earliest release,
    a better restatement) scores just above the one after it, so a TREC run file, which
    trec_eval orders by score, says what the ranking says. Scores already falling stay."""
    out: list[Hit] = []
    floor = None
    for h in reversed(hits):
        score = h.score if floor is None or h.score > floor else floor + SCORE_STEP
        out.append(h if score == h.score else replace(h, score=score))
        floor = score
    return out[::-1]


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)


def _cached(cache: OrderedDict, key: str, make, limit: int):
    """``cache[key]``, made by ``make(key)`` when missing; least recently used entries beyond ``limit`` go."""
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    value = cache[key] = make(key)
    if len(cache) > limit:
        cache.popitem(last=False)
    return value


def _length_groups(texts: list[str]) -> list[list[str]]:
    """Texts in runs of similar length, longest first: a text joins a run when its padding to
    the run's longest text is at most PAD_SLACK characters (at most SENTENCE_BATCH texts a run)."""
    groups: list[list[str]] = []
    for text in sorted(texts, key=len, reverse=True):
        if groups and len(groups[-1][0]) - len(text) <= PAD_SLACK and len(groups[-1]) < SENTENCE_BATCH:
            groups[-1].append(text)
        else:
            groups.append([text])
    return groups
