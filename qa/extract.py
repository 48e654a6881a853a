"""The extractive answer: the 1 to 3 sentences of the top passages that best answer a question.

A sentence's score mixes how much of the question's idf-weighted terms it holds (the same
tokenizer and statistics as BM25) with its cosine to the question under the same embedding
model (when the model is loaded), plus a small prior for higher-ranked passages.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Sequence

import numpy as np

from corpus.sentences import Span, split_sentences

from .model import AnswerSentence

PASSAGES = 3  # sentences come from the top passages only
MAX_SENTENCES = 3
KEEP_RATIO = 0.85  # further sentences must score this close to the best
LEXICAL_WEIGHT = 0.5
RANK_PRIOR = 0.04  # per rank below the first
# Best sentence score below which no passage answers confidently. Measured on the bundled
# question set and a dozen off-topic questions (benchmarks/questions): with the model, on-topic
# p5 0.23 and off-topic max 0.23; lexical only, on-topic p10 0.21, off-topic median 0.07.
CONFIDENT = {"hybrid": 0.25, "dense": 0.25, "bm25": 0.3}


@dataclass(frozen=True, slots=True)
class Candidate:
    """A sentence of passage ``passage`` (1-based) with its score."""

    passage: int
    span: Span
    score: float


# Words that say a question is being asked, not what it is about (stemmed as the tokenizer does).
QUESTION_WORDS = frozenset(
    "what which how when where who whom whose why doe do did done can could should would will "
    "i me my we our you your is are was were been be has have had get got ani there whi".split()
)


def coverage_scorer(question_tokens: Sequence[str], idf: Callable) -> Callable[[Iterable[str]], float]:
    """``lexical_coverage`` for one question: its terms and their idf are looked up once.

    Returns a function of a sentence's tokens (any iterable; a set is used as is).
    """
    terms = [t for t in dict.fromkeys(question_tokens) if t not in QUESTION_WORDS]
    weights = idf(terms)
    total = sum(weights)
    pairs = tuple(zip(terms, weights))

    def cover(sentence_tokens: Iterable[str]) -> float:
        if total <= 0:
            return 0.0
        present = sentence_tokens if isinstance(sentence_tokens, (set, frozenset)) else set(sentence_tokens)
        return sum(w for t, w in pairs if t in present) / total

    return cover


def lexical_coverage(question_tokens: Sequence[str], sentence_tokens: Sequence[str], idf: Callable) -> float:
    """Share of the question's idf mass found in the sentence (0..1).

    ``idf`` must give words the corpus never uses a high weight: a question about
    something the corpus does not mention is not answered by its other words.
    """
    return coverage_scorer(question_tokens, idf)(sentence_tokens)


def score_sentences(
    question: str,
    passages: Sequence[str],
    *,
    tokenize: Callable[[str], list[str]],
    idf: Callable[[Sequence[str]], list[float]],
    embed: Callable[[list[str]], np.ndarray] | None = None,
    query_vector: np.ndarray | None = None,
    split: Callable[[str], Sequence[Span]] = split_sentences,
    terms: Callable[[str], Iterable[str]] | None = None,
) -> list[Candidate]:
    """Every sentence of the first PASSAGES passages, scored against ``question``.

    With ``embed`` and ``query_vector`` (the question's embedding), sentences are also scored
    by cosine; without them, by term coverage alone. ``split`` and ``terms`` (a sentence's
    tokens, default ``tokenize``) let a caller cache both per passage and sentence.
    """
    scored = _candidates(question, passages[:PASSAGES], tokenize, idf, embed, query_vector, split, terms)
    return [replace(c, score=c.score - RANK_PRIOR * (c.passage - 1)) for c in scored]


def best_sentences(question: str, passages: Sequence[str], **scoring) -> list[tuple[float, str | None]]:
    """Each passage's best sentence and its score (as ``score_sentences``, whose keyword
    arguments ``scoring`` takes, over every passage and without the rank prior);
    ``(0.0, None)`` for a passage with no sentence."""
    best: list[tuple[float, str | None]] = [(0.0, None)] * len(passages)
    for c in _candidates(question, passages, **scoring):
        if best[c.passage - 1][1] is None or c.score > best[c.passage - 1][0]:
            best[c.passage - 1] = (c.score, c.span.text)
    return best


def _candidates(question, passages, tokenize, idf, embed=None, query_vector=None, split=split_sentences,
                terms=None) -> list[Candidate]:
    """Every sentence of ``passages`` (numbered from 1) with its ``_sentence_scores`` score."""
    spans = [(i, span) for i, text in enumerate(passages, 1) for span in split(text)]
    if not spans:
        return []
    scores = _sentence_scores(question, [s.text for _, s in spans], tokenize, idf, embed, query_vector, terms)
    return [Candidate(i, s, float(v)) for (i, s), v in zip(spans, scores)]


def _sentence_scores(question, sentences, tokenize, idf, embed, query_vector, terms) -> np.ndarray:
    """Term coverage of each sentence, mixed with its cosine to the question when there is a vector."""
    cover = coverage_scorer(tokenize(question), idf)
    sentence_terms = terms or tokenize
    lexical = np.array([cover(sentence_terms(s)) for s in sentences])
    if embed is not None and query_vector is not None:
        dense = np.clip(embed(list(sentences)) @ query_vector, 0.0, 1.0)
        return LEXICAL_WEIGHT * lexical + (1 - LEXICAL_WEIGHT) * dense
    return lexical


def pick(candidates: Sequence[Candidate], threshold: float) -> tuple[tuple[AnswerSentence, ...], bool]:
    """The best 1 to MAX_SENTENCES sentences in passage then source order, and whether confident."""
    if not candidates:
        return (), False
    ranked, seen = [], set()
    for c in sorted(candidates, key=lambda c: -c.score):
        if c.span.text not in seen:  # overlapping chunks repeat sentences
            seen.add(c.span.text)
            ranked.append(c)
    best = ranked[0].score
    if best < threshold:
        return (), False
    chosen = [c for c in ranked[:MAX_SENTENCES] if c.score >= KEEP_RATIO * best]
    chosen.sort(key=lambda c: (c.passage, c.span.start))
    return tuple(AnswerSentence(c.span.text, c.passage, round(c.score, 4)) for c in chosen), True
