"""Sentence evidence: how well each sentence of a passage answers a question, and the quoted answer.

A sentence's score mixes how much of the question's idf-weighted terms it holds (the same
tokenizer and statistics as BM25) with its cosine to the question under the same embedding
model (``index.Similarity``, in every mode but bm25); the quoted answer is the 1 to 3 best
sentences of the top passages, with a small prior for higher-ranked passages.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Sequence

from corpus.regex import lazy_compile
from corpus.sentences import Span, split_sentences

from ..model import AnswerSentence
from ..question.called import called
from ..question.vocabulary import ASKING_TERMS, SYNONYMS

PASSAGES = 3  # sentences come from the top passages only
MAX_SENTENCES = 3
KEEP_RATIO = 0.85  # further sentences must score this close to the best
LEXICAL_WEIGHT = 0.5
RANK_PRIOR = 0.04  # per rank below the first
# Best sentence score below which no passage answers confidently, set between what on-topic and
# off-topic questions scored (docs/measurements.md).
CONFIDENT = {"hybrid": 0.275, "dense": 0.275, "bm25": 0.3}


Cosines = Callable[[list[str]], Sequence[float]]  # sentences -> their cosines with the question


@dataclass(frozen=True, slots=True)
class Candidate:
    """A sentence of passage ``passage`` (1-based) with its score."""

    passage: int
    span: Span
    score: float


Alternatives = Callable[[str], Sequence[tuple[str, ...]]]  # a question term -> the token runs that say it too
ALTERNATIVE_SHARE = 0.8  # what another word for a term counts: the term itself ("MPS" for "MPS") ranks first


def coverage_scorer(question_tokens: Sequence[str], idf: Callable,
                    alternatives: Alternatives | None = None) -> Callable[[Iterable[str]], float]:
    """The share of the question's idf mass a sentence holds (0..1), as a function of the
    sentence's tokens (any iterable; a set is used as is); the question's terms and their idf
    are looked up once. A term is held when a sentence holds it or one of its ``alternatives``
    (all tokens of it): "mac" is said by "mps", "metal" or "apple silicon".

    ``idf`` must give words the corpus never uses a high weight: a question about something
    the corpus does not mention is not answered by its other words.
    """
    terms = [t for t in dict.fromkeys(question_tokens) if t not in ASKING_TERMS]
    weights = idf(terms)
    total = sum(weights)
    pairs = tuple((t, w, tuple(alternatives(t)) if alternatives else ()) for t, w in zip(terms, weights))

    def cover(sentence_tokens: Iterable[str]) -> float:
        if total <= 0:
            return 0.0
        present = sentence_tokens if isinstance(sentence_tokens, (set, frozenset)) else set(sentence_tokens)
        held = 0.0
        for t, w, alt in pairs:
            if t in present:
                held += w
            elif any(all(a in present for a in run) for run in alt):
                held += ALTERNATIVE_SHARE * w
        return held / total

    return cover


def synonyms_of(term: str) -> tuple[tuple[str, ...], ...]:
    """The token runs that say a question's ``term`` too (``question.vocabulary.SYNONYMS``): "drop" and
    "no longer" say "stop" ("which Python version did it stop supporting?": "Dropped support of Python 3.7")."""
    return _synonym_runs().get(term, ())


@functools.lru_cache(maxsize=1)
def _synonym_runs() -> dict[str, tuple[tuple[str, ...], ...]]:
    from index import tokenize

    runs: dict[str, tuple[tuple[str, ...], ...]] = {}
    for group in [[tuple(t for t in tokenize(word) if len(t) > 2) for word in group] for group in SYNONYMS]:
        for run in group:
            for token in run:  # "appl" and "silicon" of "apple silicon" are each said by "mps"
                runs[token] = tuple(r for r in group if r != run and r)
    return runs


def score_sentences(
    question: str,
    passages: Sequence[str],
    *,
    tokenize: Callable[[str], list[str]],
    idf: Callable[[Sequence[str]], list[float]],
    cosines: Cosines | None = None,
    split: Callable[[str], Sequence[Span]] = split_sentences,
    terms: Callable[[str], Iterable[str]] | None = None,
    alternatives: Alternatives | None = None,
) -> list[Candidate]:
    """Every sentence of the first PASSAGES passages, scored against ``question``.

    With ``cosines`` (sentences -> their cosines with the question), sentences are also scored
    by cosine; without it, by term coverage alone. ``split`` and ``terms`` (a sentence's
    tokens, default ``tokenize``) let a caller cache both per passage and sentence; a term's
    ``alternatives`` count as the term (``coverage_scorer``).
    """
    scored = _candidates(question, passages[:PASSAGES], tokenize, idf, cosines, split, terms, alternatives)
    return [replace(c, score=c.score - RANK_PRIOR * (c.passage - 1)) for c in scored]


def unnamed(question: str, products: Sequence[str], releases: Sequence[str] = ()) -> str:
    """``question`` without the names of ``products`` (and their aliases: "dateutil") and the ``releases`` it is filtered to ("why was
    itsdangerous 1.0.0 yanked?" -> "why was yanked?"): over passages of those only, no sentence need
    name them to answer; the question stays whole when that would leave nothing."""
    out = question
    for name in sorted(called(tuple(products)) if products else (), key=len, reverse=True):  # its aliases too
        out = re.sub(r"(?<![\w.-])" + re.escape(name) + r"(?![\w-])", " ", out, flags=re.IGNORECASE)
    for release in releases:
        out = re.sub(r"(?<![\w.])v?" + re.escape(release) + r"(?![\w]|\.\d)", " ", out, flags=re.IGNORECASE)
    return " ".join(out.split()) if out.strip(" ?!.") else question


def best_sentences(question: str, passages: Sequence[str], **scoring) -> list[tuple[float, str | None]]:
    """Each passage's best sentence and its score (as ``score_sentences``, whose keyword
    arguments ``scoring`` takes, over every passage and without the rank prior);
    ``(0.0, None)`` for a passage with no sentence."""
    best: list[tuple[float, str | None]] = [(0.0, None)] * len(passages)
    for c in _candidates(question, passages, **scoring):
        if best[c.passage - 1][1] is None or c.score > best[c.passage - 1][0]:
            best[c.passage - 1] = (c.score, c.span.text)
    return best


def passage_evidence(scores: Sequence[float], coverage: Sequence[float], weight: float = 0.5) -> list[float]:
    """Each passage's evidence: ``weight`` of its retrieval score (relative to the best), the
    rest of the question's coverage by it (its best sentence's, or its item's score; relative
    to the best)."""
    top_score, top_cover = max(scores, default=0.0), max(coverage, default=0.0)
    return [weight * (s / top_score if top_score > 0 else 0.0) + (1 - weight) * (c / top_cover if top_cover > 0 else 0.0)
            for s, c in zip(scores, coverage)]


def _candidates(question, passages, tokenize, idf, cosines=None, split=split_sentences,
                terms=None, alternatives=None) -> list[Candidate]:
    """Every sentence of ``passages`` (numbered from 1) with its ``_sentence_scores`` score."""
    spans = [(i, span) for i, text in enumerate(passages, 1) for span in split(text)]
    if not spans:
        return []
    scores = _sentence_scores(question, [s.text for _, s in spans], tokenize, idf, cosines, terms, alternatives)
    return [Candidate(i, s, float(v)) for (i, s), v in zip(spans, scores)]


def _sentence_scores(question, sentences, tokenize, idf, cosines, terms, alternatives=None) -> list[float]:
    """Term coverage of each sentence, mixed with its cosine to the question (clipped to 0..1)."""
    cover = coverage_scorer(tokenize(question), idf, alternatives)
    sentence_terms = terms or tokenize
    lexical = [cover(sentence_terms(s)) for s in sentences]
    if cosines is None:
        return lexical
    dense = [min(max(float(c), 0.0), 1.0) for c in cosines(list(sentences))]
    return [LEXICAL_WEIGHT * w + (1 - LEXICAL_WEIGHT) * d for w, d in zip(lexical, dense)]


# A sentence that only introduces what follows ("The PyTorch 2.13 release features the following
# changes:", "See the details below:") or is only a link or a heading line says nothing itself.
_INTRODUCES = lazy_compile(
    r"\b(?:the\s+following|as\s+follows|below|these|includes?|including|changes|features|highlights|opportunities)\b[^.:]*:\s*$"
    r"|^\s*!?\[[^\]]*\]\([^)]*\)\s*$",
    re.IGNORECASE,
)


INTRO_WORDS = 14  # a longer sentence before its list still says something ("... not on PyPI, via ...:")


def says_something(text: str) -> bool:
    """Whether a sentence can be quoted as an answer: not a short introduction of a list ("The 2.13
    release features the following changes:"; "install it with:" still says how), a lone link, nor
    only a release's reST fields or directive (":version: 1.17.0 :released: October 11, 2025")."""
    if _FIELDS_ONLY.match(text):
        return False
    return not (_INTRODUCES.search(text) and (len(text.split()) <= INTRO_WORDS or text.lstrip().startswith(("[", "!["))))


# lines that are all reST fields with their values, or bare directives (".. changelog::"; not ".. note:: text")
_FIELDS_ONLY = lazy_compile(r"^(?:\s*(?::[\w-]+:(?=\s|$)[^\n]*|\.\.\s+[\w:-]+::[ \t]*)(?:\n|$))+\s*$")


def pick(candidates: Sequence[Candidate], threshold: float,
         bonus: Callable[[str], float] | None = None) -> tuple[tuple[AnswerSentence, ...], bool]:
    """The best 1 to MAX_SENTENCES sentences in passage then source order, and whether confident.

    A sentence that only introduces a list (or is a lone link or heading) is quoted only when no
    other sentence is left. ``bonus(sentence)`` raises or lowers a sentence in ranking only (the
    unit a question asks for: ``units.bonus``); confidence is judged on the scores alone."""
    if not candidates:
        return (), False
    ranked, seen = [], set()
    quotable = [c for c in candidates if says_something(c.span.text)] or list(candidates)
    if max(c.score for c in quotable) < threshold:
        return (), False
    if bonus is not None:
        quotable = [replace(c, score=c.score + bonus(c.span.text)) for c in quotable]
    for c in sorted(quotable, key=lambda c: -c.score):
        if c.span.text not in seen:  # overlapping chunks repeat sentences
            seen.add(c.span.text)
            ranked.append(c)
    best = ranked[0].score
    if best < threshold:
        return (), False
    chosen = [c for c in ranked[:MAX_SENTENCES] if c.score >= KEEP_RATIO * best]
    chosen.sort(key=lambda c: (c.passage, c.span.start))
    return tuple(AnswerSentence(c.span.text, c.passage, round(c.score, 4)) for c in chosen), True
