"""The question-answering engine: a question in, an Answer with cited passages out (orchestration only).

No printing, no click, no textual here: every front end reaches it through ``qa.service``.
What it orchestrates lives beside it: the question's release and product cues
(``question``), retrieval (``index.Searcher``), the re-rank by sentence evidence (``rerank``,
``evidence``) and the quoted answer (``evidence.pick``). Follow-ups are resolved before the
engine is asked (``followup.resolve``, through ``qa.service.Conversation``)::

    answer = engine.ask("MPS native Metal kernels in 2.13", typed="and in 2.13?")

``answer.question`` is what the user typed, ``answer.asked_as`` the question as understood.
"""

from __future__ import annotations

import functools
import time
from dataclasses import replace
from typing import Sequence

from corpus.kinds import check_kinds
from corpus.sentences import split_sentences
from corpus.versions import version_key
from index import Hit, LoadedIndex, Searcher, check_mode, tokenize

from ..cite import citation_of
from ..errors import BadQuestion
from ..model import Answer, Passage
from .catalogue import Catalogue
from .evidence import CONFIDENT, best_sentences, coverage_scorer, pick, score_sentences
from .question import check_question, find_releases, foreign_product, release_name
from .rerank import DEFAULT_RERANK, RerankConfig, Statement, rerank, restated_first

NOT_CONFIDENT = "No passage answers this confidently; the nearest passages follow."
STRONG_EVIDENCE = 0.85  # a passage within this share of the strongest evidence counts as evidence
TERMS_CACHE = 20_000  # sentences whose terms are kept between questions
PASSAGE_CACHE = 4_096  # passages whose sentences are kept split between questions
WHICH_RELEASE_POOL = 50  # "which release added X" looks this deep for the earliest release
SCORE_STEP = 1e-4  # what a passage moved first scores above the one after it (shown to 4 places)


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
        self.catalogue = Catalogue(index.chunks)
        self.releases: tuple[str, ...] = self.catalogue.releases
        self.products: tuple[str, ...] = self.catalogue.products
        self._split = functools.lru_cache(maxsize=PASSAGE_CACHE)(lambda text: tuple(split_sentences(text)))
        self._sentence_terms = functools.lru_cache(maxsize=TERMS_CACHE)(lambda text: frozenset(tokenize(text)))

    def warm_up(self) -> None:
        """Load the query encoder now, so the first question does not wait for it."""
        self.searcher.similarity.warm_up()

    def held(self, wanted: str, products: Sequence[str] = ()) -> bool:
        """Whether the corpus holds release ``wanted`` (of one of ``products``, when given)."""
        return self.catalogue.held(wanted, products)

    def _refusal(self, text: str, wanted: Sequence[str], products: Sequence[str]) -> str | None:
        """Why the corpus cannot answer: "what is new in Django 5?" over PyTorch's notes, or a
        release it does not hold (of the products asked for); None when it can."""
        other = foreign_product(text, self.products)
        if other is not None:
            return self.catalogue.foreign_note(other)
        missing = [r for r in wanted if not self.held(r, products)]
        return self.catalogue.missing_note(missing, products) if missing else None

    def _scoring(self, topic: str, dense: bool) -> dict:
        """The keyword arguments of ``evidence.score_sentences`` for one question."""
        cosines = functools.partial(self.searcher.similarity.cosines, topic) if dense else None
        return {"tokenize": tokenize, "idf": self.searcher.idf, "cosines": cosines, "split": self._split,
                "terms": self._sentence_terms}

    def _reranked(self, topic: str, hits: list[Hit], dense: bool) -> list[Hit]:
        """The first ``rerank.depth`` hits re-ranked by their best sentence (``rerank.rerank``),
        scored by the mix; then, in a dense mode, a passage restating the first one's fact in
        another document of the release, with a better sentence for it, goes first."""
        config = self.rerank
        best = best_sentences(topic, [h.chunk.text for h in hits[: config.depth]], **self._scoring(topic, dense))
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

    def _earliest_first(self, topic: str, hits: list[Hit]) -> tuple[list[Hit], str | None]:
        """Put the best passage of the earliest release with strong evidence first.

        Evidence of a passage: half its retrieval score (relative to the best), half the
        question's term coverage by its best sentence (relative to the best passage's).
        "Strong" is within STRONG_EVIDENCE of the strongest.
        """
        cover = coverage_scorer(tokenize(topic), self.searcher.idf)
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

    def ask(
        self,
        question: str,
        top_k: int = 5,
        mode: str = "hybrid",
        releases: Sequence[str] | None = None,
        *,
        typed: str | None = None,
        products: Sequence[str] | None = None,
        kinds: Sequence[str] = (),
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
            kinds: restrict to sections of these kinds of change ("fixed", "breaking"; ``corpus.kinds``).

        Raises:
            BadQuestion: the question is empty, too long, holds control characters or a bad ``release:``.
            UnknownMode: ``mode`` is not one of bm25, dense, hybrid.
        """
        started = time.perf_counter()
        text = check_question(question)
        shown = text if typed is None else check_question(typed)
        mode = check_mode(mode)
        kinds = _kinds(kinds)
        if top_k < 1:
            raise BadQuestion(f"top_k must be at least 1, got {top_k}")
        parsed = find_releases(text, known=self.releases, products=self.products)
        if parsed.bad_filters:
            raise BadQuestion(
                f"'release:{parsed.bad_filters[0]}' is not a release; write it like release:2.14"
            )
        wanted = tuple(dict.fromkeys([*(release_name(r) for r in releases or ()), *parsed.releases]))
        asked_as = parsed.text or text
        # A product named restricts only in a corpus of several ("pydantic 1.10" among Rust's notes).
        named = [p for p in products or () if p in self.products]
        products = tuple(dict.fromkeys([*named, *parsed.products])) if len(self.products) > 1 else ()
        refusal = self._refusal(text, wanted, products)
        if refusal is not None:  # a product or release the corpus does not hold: say so, answer nothing
            return Answer(shown, asked_as, wanted, mode, (), (), False, note=refusal, products=products, kinds=kinds,
                          timings_ms={"retrieve": 0.0, "answer": _ms(started)})
        # The question is the query, a release it names included (overview passages name their
        # release: "how many commits went into 2.14"); the release filter does the restricting.
        topic = asked_as
        dense = mode != "bm25"
        which = parsed.which_release and not wanted
        depth = max(top_k, WHICH_RELEASE_POOL) if which else top_k
        rerank_on = self.rerank.applies(mode)
        if rerank_on:
            depth = max(depth, self.rerank.depth)
        hits = self.searcher.search(topic, k=depth, mode=mode, versions=wanted or None, products=products or None,
                                    kinds=kinds or None)
        if rerank_on and hits:
            hits = self._reranked(topic, hits, dense)
        earliest = None
        if which and hits:
            hits, earliest = self._earliest_first(topic, hits)
        hits = _falling(hits[:top_k])
        retrieved = time.perf_counter()
        candidates = score_sentences(topic, [h.chunk.text for h in hits], **self._scoring(topic, dense))
        sentences, confident = pick(candidates, CONFIDENT[mode])
        passages = tuple(
            Passage(rank, h.chunk.id, h.chunk.text, round(h.score, 6), citation_of(h.chunk))
            for rank, h in enumerate(hits, 1)
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
            kinds=kinds,
            mode=mode,
            passages=passages,
            sentences=sentences,
            confident=confident,
            note=note,
            earliest_release=earliest if confident else None,
            timings_ms={"retrieve": round((retrieved - started) * 1000, 2), "answer": round((done - retrieved) * 1000, 2)},
        )


def _kinds(kinds: Sequence[str]) -> tuple[str, ...]:
    """The kinds asked for, as the vocabulary spells them; BadQuestion names an unknown one."""
    try:
        return check_kinds(kinds)
    except ValueError as exc:
        raise BadQuestion(str(exc)) from None


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
