"""The question-answering engine: a question in, an Answer with cited passages out (orchestration only).

No printing, no click, no textual here: every front end reaches it through ``qa.service``.
It takes a question as read once (``qa.question.Question``: its releases, range, products,
shape and topic) and orchestrates what lives beside it: retrieval (``index.Searcher``), the
re-rank by sentence evidence (``rerank``, ``evidence``), release scopes and digests
(``releases``) and the quoted answer (``evidence.pick``); what it says besides passages are
``Note`` values, worded by ``qa.present``::

    answer = engine.answer(read("what changed for MPS in 2.14?", engine.catalogue))

``answer.question`` is what the user typed, ``answer.asked_as`` the question as understood.
"""

from __future__ import annotations

import functools
import time
from dataclasses import replace
from typing import Sequence

from corpus.items import item_quoted
from corpus.kinds import check_kinds
from corpus.sentences import split_sentences
from index import Hit, LoadedIndex, Searcher, check_mode, tokenize

from ..errors import BadQuestion
from ..model import Answer, AnswerSentence, Note, Passage, ReleaseRange, citation_of
from ..question import ASKING_TERMS, QUESTION_ONLY_TERMS, Question, read
from ..staging import with_pending
from .catalogue import Catalogue
from .digest import Entry
from .evidence import (CONFIDENT, MAX_SENTENCES, PASSAGES, best_sentences, coverage_scorer, passage_evidence, pick,
                       says_something, score_sentences, synonyms_of, unnamed)
from .itemscore import item_scores
from . import quoting, units
from .releases import ReleaseAnswers
from .ranked import SCORE_STEP, _falling, _passages  # noqa: F401 (SCORE_STEP: tests read it here)
from .rerank import DEFAULT_RERANK, RerankConfig, Statement, rerank, restated_first

TERMS_CACHE = 20_000  # sentences whose terms are kept between questions
PASSAGE_CACHE = 4_096  # passages whose sentences are kept split between questions
NEARBY = 3  # passages shown, as not an answer, when the corpus does not hold what was asked
WHICH_RELEASE_POOL = 50  # "which release added X" looks this deep for the earliest release
WHOLE_ITEM_WORDS = 60  # an item stating a release's change is quoted whole up to this long


class Engine:
    """Answers questions from one loaded index."""

    def __init__(self, index: LoadedIndex, rerank_config: RerankConfig = DEFAULT_RERANK) -> None:
        """Args:
            index: the opened index (``index.open_index``).
            rerank_config: how passages are re-ranked by sentence evidence.
        """
        self.index = index
        self.searcher = Searcher(index)
        self.rerank = rerank_config
        self.catalogue = Catalogue(index.chunks, self._mentions)
        written = lambda word: all(map(self.searcher.knows, tokenize(word)))  # noqa: E731 (stem for stem)
        self.release_answers = ReleaseAnswers(self.catalogue, self._item_scores, self._evidence, written)
        self.releases: tuple[str, ...] = self.catalogue.releases
        self.products: tuple[str, ...] = self.catalogue.products
        self._split = functools.lru_cache(maxsize=PASSAGE_CACHE)(lambda text: tuple(split_sentences(text)))
        self._sentence_terms = functools.lru_cache(maxsize=TERMS_CACHE)(lambda text: frozenset(tokenize(text)))

    def _mentions(self, word: str) -> bool:
        """Whether ``word``'s token has a positive idf, a word the notes never use included (it gets
        the highest: ``Searcher.idf``), so true of all but the commonest words. Meant as "the notes
        use it" (``Catalogue.uses``); the scope reading of product names was tuned on this and left as is."""
        tokens = tokenize(word)
        return bool(tokens) and self.searcher.idf(tokens[:1])[0] > 0

    def warm_up(self) -> None:
        """Load the query encoder now, so the first question does not wait for it."""
        self.searcher.similarity.warm_up()

    def held(self, wanted: str, products: Sequence[str] = ()) -> bool:
        """Whether the corpus holds release ``wanted`` (of one of ``products``, when given)."""
        return self.catalogue.held(wanted, products)

    def _refusal(self, question: Question, refusal: Note | None) -> Note | None:
        """Why the corpus cannot answer: "what is new in Django 5?" over PyTorch's notes, or a
        release it does not hold (of the products asked for), else ``refusal`` (the range's); None when it can."""
        if question.foreign and not question.named:
            return self.catalogue.foreign_note(question.foreign)
        missing = [r for r in question.releases if not self.held(r, question.products)]
        return self.catalogue.missing_note(missing, question.products) if missing else refusal

    def _scoring(self, topic: str, dense: bool, synonyms: bool = True) -> dict:
        """The keyword arguments of ``evidence.score_sentences`` for one question (a person's
        words reach the notes' words with ``synonyms``: in quotes and items, not in the re-rank)."""
        cosines = functools.partial(self.searcher.similarity.cosines, topic) if dense else None
        return {"tokenize": tokenize, "idf": self.searcher.idf, "cosines": cosines, "split": self._split,
                "terms": self._sentence_terms, "alternatives": synonyms_of if synonyms else None}

    def _reranked(self, topic: str, hits: list[Hit], dense: bool) -> list[Hit]:
        """The first ``rerank.depth`` hits re-ranked by their best sentence (``rerank.rerank``),
        scored by the mix; then, in a dense mode, a passage restating the first one's fact in
        another document of the release, with a better sentence for it, goes first."""
        config = self.rerank
        best = best_sentences(topic, [h.chunk.text for h in hits[: config.depth]], **self._scoring(topic, dense, False))
        order, mixed = rerank([h.score for h in hits], [score for score, _ in best], config.weight, config.normalise)
        ranked = [replace(hits[i], score=mixed[i]) for i in order]
        if not dense:
            return ranked
        statements = [Statement(ranked[k].chunk.document, ranked[k].chunk.version, *best[i])
                      for k, i in enumerate(order[: config.restated_depth])]  # the first ones have evidence
        first = restated_first(statements, self.searcher.similarity.pairwise, config.restated)
        if first is None:
            return ranked
        return [ranked[first]] + ranked[:first] + ranked[first + 1 :]

    def ask(self, question: str | Question, top_k: int = 5, mode: str = "hybrid", releases: Sequence[str] | None = None, *,
            typed: str | None = None, products: Sequence[str] | None = None, kinds: Sequence[str] = (),
            span: ReleaseRange | None = None) -> Answer:
        """Read ``question`` (``qa.question.read``) and answer it (``answer``): for scripts and tests;
        the service reads a question once and calls ``answer``.

        Args:
            question: the question to answer (or as read already); may name releases ("in 2.13", "release:2.14") or a
                range ("from 1.10 to 2.0", "since 1.70", "release:2.10..2.14").
            top_k, mode, kinds: as ``answer``.
            releases: restrict to these releases (added to those the question names).
            typed: what the user typed when ``question`` is a resolved follow-up; it becomes
                ``Answer.question``. Default: ``question``.
            products: restrict to these products too (only in a corpus of several, and only products it holds).
            span: restrict to a range of releases (``--since``/``--until``); else the range the
                question names, if any.

        Raises:
            BadQuestion, UnknownMode: as ``read`` and ``answer``.
        """
        if not isinstance(question, Question):
            question = read(question if typed is None else typed, self.catalogue, releases=releases or (),
                            products=products or (), span=span, text=None if typed is None else question)
        return self.answer(question, top_k, mode, kinds)

    def answer(self, question: Question, top_k: int = 5, mode: str = "hybrid", kinds: Sequence[str] = ()) -> Answer:
        """Answer a question as read with ranked, cited passages, an extractive answer and, for a
        release question, a digest of items (``Answer.digest``).

        Args:
            question: the question as read (``qa.question.read``).
            top_k: how many passages to return (the quoted answer does not depend on it).
            mode: "hybrid", "bm25" or "dense".
            kinds: restrict to sections of these kinds of change ("fixed", "breaking"; ``corpus.kinds``).

        Raises:
            BadQuestion: ``top_k`` below 1, or an unknown kind.
            UnknownMode: ``mode`` is not one of bm25, dense, hybrid.
        """
        started = time.perf_counter()
        mode = check_mode(mode)
        pending = self.index.pending() if mode != "bm25" else None  # no vectors yet: BM25 answers, said so
        mode = self.searcher.usable(mode)
        kinds = _kinds(kinds)
        if top_k < 1:
            raise BadQuestion(f"top_k must be at least 1, got {top_k}")
        base = dict(question=question.typed, asked_as=question.asked_as, releases=question.releases, mode=mode,
                    products=question.products, kinds=kinds, shape=question.shape.name, range=question.range)
        versions, refusal = self.release_answers.scope(question.releases, question.range, question.products)
        refusal = self._refusal(question, refusal)
        if refusal is not None:  # a product or release the corpus does not hold: say so, answer nothing
            near = self.searcher.search(question.asked_as, k=min(top_k, NEARBY), mode=mode,
                                        products=question.products or None, ignore=QUESTION_ONLY_TERMS)
            return Answer(**base, passages=(), sentences=(), confident=False,  # nothing answered: no word of BM25
                          notes=(*self._pinned(question), refusal),
                          nearby=_passages(near),
                          timings_ms={"retrieve": 0.0, "answer": _ms(started)})
        # The question is the query, a release it names included (overview passages name their
        # release: "how many commits went into 2.14"); the release filter does the restricting.
        topic, shape, dense = question.asked_as, question.shape, mode != "bm25"
        hits, stated = self.release_answers.item_first(question, self._hits(question, top_k, mode, versions, kinds), dense)
        digest = self.release_answers.digest(shape, hits, versions, question.products, kinds, question.range, dense,
                                             topic)
        retrieved = time.perf_counter()
        sentences, confident = self._quoted(question, hits, topic, dense, mode)
        earliest_release, said = None, None
        # the item that states it is the answer, quoted from its passage (how things stand now: when
        # the sentences answer it confidently)
        if stated is not None and (shape.name == "which" or confident):
            at = next(i for i, h in enumerate(hits, 1) if h.chunk.id == stated.chunk.id)
            sentences, confident = self._quote(topic, stated, dense, at), True
            earliest_release, said = self.release_answers.stated(question, stated) if shape.name == "which" else (None, None)
        sentences = quoting.from_first(sentences, hits[0].chunk.text) if hits else sentences
        cited = max((s.passage for s in sentences), default=0)
        passages = _passages(_falling(hits[: max(top_k, cited)]))  # a passage the answer quotes is always shown
        notes = () if confident else (Note("not_confident") if passages else Note("no_match"),)
        if earliest_release and confident:
            notes = (said,)
        elif stated is not None and shape.name == "which" and not stated.chunk.version:  # only under Unreleased
            notes = (Note("not_released", products=tuple(filter(None, [stated.chunk.product]))),)
        elif stated is None and shape.name == "which" and confident and sentences:
            # what is quoted is the nearest, not an item stating it ("which release removed parse_obj_as?" quotes
            # the item adding it): said so, never as a release
            notes = (Note("release_unsaid"),)
        if shape.name == "release" and question.asks == "when":  # "when was 0.28.0 released?": the line dating it
            date = units.dated([(h.chunk.version, h.chunk.section, h.chunk.text) for h in hits[:top_k]])
            sentences, confident = ((date,), True) if date is not None else (sentences, confident)
        elif digest is not None and digest.items and not shape.topic:
            sentences = ()  # "what changed in 8.2.7": the digest is the answer, not one quoted item
        if digest is not None and (digest.items or digest.notes):
            confident = confident or bool(digest.items)
            kept = notes if confident and notes and notes[0].kind != "not_confident" else ()
            notes = digest.notes or kept
        if question.foreign:  # "does torch 2.14 work with numpy 2.0?": answered from the held one, said so
            notes = (Note("products_not_covered", products=question.foreign, held=question.named), *notes)
        notes = (*self._pinned(question), *notes)
        sentences = quoting.item_cited(sentences, [h.chunk for h in hits])  # each quote cites its own item
        done = time.perf_counter()
        return Answer(**base, passages=passages, sentences=sentences, confident=confident,
                      notes=with_pending(*notes, pending=pending),
                      earliest_release=earliest_release if confident else None, digest=digest,
                      timings_ms={"retrieve": round((retrieved - started) * 1000, 2),
                                  "answer": round((done - retrieved) * 1000, 2)})

    def _quoted(self, question: Question, hits: list[Hit], topic: str, dense: bool,
                mode: str) -> tuple[tuple[AnswerSentence, ...], bool]:
        """The sentences quoted from the first passages, whole items, and whether confidently."""
        # the product asked about is what every passage (of it alone) is of: no sentence need name it
        said = unnamed(topic, question.products or question.named, question.releases[:1] if len(question.releases) == 1 else ())
        texts = [h.chunk.text for h in hits[:PASSAGES]]
        candidates = score_sentences(said, texts, **self._scoring(topic, dense))
        ranking = units.ranking(question.asks, question.specifics, question.text)
        sentences, confident = pick(candidates, CONFIDENT[mode], ranking)
        sentences = units.carried(sentences, texts, self._split, question.asks, self._relevant(question))
        sentences = units.instructed(sentences, candidates, question.asks, MAX_SENTENCES)
        chunks = [h.chunk for h in hits[:PASSAGES]]
        return quoting.with_lead(quoting.whole_paragraphs(sentences, chunks, self._split), chunks, self._split,
                                 says_something), confident

    def _pinned(self, question: Question) -> tuple[Note, ...]:
        """The note that an upgrade question was read from the project's pin (``question.pins``)."""
        if question.pin is None:
            return ()
        return (Note("from_pin", releases=(question.pin,), products=question.products or question.named or self.products[:1]),)

    def _hits(self, question: Question, top_k: int, mode: str, versions: Sequence[str], kinds: Sequence[str]) -> list[Hit]:
        """The hits of a question, deep enough for its shape, re-ranked by sentence evidence where that applies."""
        shape = question.shape
        pool = shape.name in ("which", "history") or (shape.topic and shape.name in ("upgrade", "range"))
        depth = max(top_k, WHICH_RELEASE_POOL if pool else 0, PASSAGES)
        rerank_on = self.rerank.applies(mode)
        if rerank_on:
            depth = max(depth, self.rerank.depth)
        # a question's own words ("when did ...", "my") match any passage using them: BM25 leaves them out
        hits = self.searcher.search(question.asked_as, k=depth, mode=mode, versions=versions or None,
                                    products=question.products or None, kinds=kinds or None, ignore=QUESTION_ONLY_TERMS)
        if rerank_on and hits:
            hits = self._reranked(question.asked_as, hits, mode != "bm25")
        return hits

    def _evidence(self, question: str, hits: list[Hit]) -> list[float]:
        """Each passage's evidence (``evidence.passage_evidence``) for ``question``."""
        cover = coverage_scorer(tokenize(question), self.searcher.idf)
        coverage = [max((cover(self._sentence_terms(s.text)) for s in self._split(h.chunk.text)), default=0.0)
                    for h in hits]
        return passage_evidence([h.score for h in hits], coverage)

    def _relevant(self, question: Question):
        """Whether a sentence names a word of the question's topic (its tokens, asking words aside)."""
        terms = set(tokenize(question.topic or question.asked_as)) - ASKING_TERMS
        return lambda text: bool(terms & self._sentence_terms(text))

    def _quote(self, topic: str, entry: Entry, dense: bool, passage: int) -> tuple[AnswerSentence, ...]:
        """An item (of passage ``passage``) that states what a which-release question asks: whole
        when it is short, else its sentences that answer ``topic`` best, however they score."""
        words, cited = item_quoted(entry.text), replace(entry.shown().citation)  # the item's own lines
        if len(words.split()) <= WHOLE_ITEM_WORDS:
            return (AnswerSentence(words, passage, citation=cited),)
        said = units.prose(pick(score_sentences(topic, [entry.text], **self._scoring(topic, dense)), 0.0)[0])
        said = quoting.item_lead(said, entry.text, self._split, lambda t: says_something(t) and not units.is_code(t))
        return tuple(replace(s, passage=passage, citation=cited) for s in said) or (AnswerSentence(words, passage, citation=cited),)

    def _item_scores(self, topic: str, entries: Sequence[Entry], dense: bool, query: str) -> list[float]:
        """Items scored by their terms of ``topic`` and (dense modes) their cosine with the
        question ``query`` (already encoded for retrieval: no other text meets the model)."""
        return item_scores(topic, entries, **self._scoring(query, dense))


def _kinds(kinds: Sequence[str]) -> tuple[str, ...]:
    """The kinds asked for, as the vocabulary spells them; BadQuestion names an unknown one."""
    try:
        return check_kinds(kinds)
    except ValueError as exc:
        raise BadQuestion(str(exc)) from None


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)
