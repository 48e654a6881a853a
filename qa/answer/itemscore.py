"""How well each item answers a topic, and the earliest release whose item states it.

An item's score mixes, as a sentence's does (``evidence``), the share of the topic's
idf-weighted terms its words hold with the best cosine of its sentences to the topic (their
vectors are the index's sentence vectors: no model pass).
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from corpus.headings import release_heading
from corpus.items import item_words
from corpus.kinds import kind_of
from corpus.textform import index_form
from corpus.versions import version_key

from .digest import Entry
from .evidence import LEXICAL_WEIGHT, coverage_scorer

STRONG = 0.85  # an item within this share of the best one states the fact
KINDS_NAMED = frozenset({"added", "changed", "deprecated", "removed", "fixed", "security", "performance", "docs", "other"})
KIND_BONUS = 0.1  # "which release dropped X": an item under Removed (or worded "Drop ...") says it, a mention does not
def item_scores(
    topic: str,
    entries: Sequence[Entry],
    *,
    tokenize: Callable[[str], list[str]],
    idf: Callable,
    cosines: Callable[[list[str]], Sequence[float]] | None,
    split: Callable,
    terms: Callable[[str], Iterable[str]],
) -> list[float]:
    """Each entry's score against ``topic`` (0..1), keyword arguments as ``evidence.score_sentences``."""
    cover = coverage_scorer(tokenize(topic), idf)
    own = [terms(index_form(item_words(e.text))) for e in entries]  # link targets are no words of the item
    # the heading a subsection's items sit under counts half: it is the subject of all of them
    lexical = [0.5 * cover(t) + 0.5 * cover(t | terms(_subject(e))) for t, e in zip(own, entries)]
    if cosines is None or not entries:
        return lexical
    sentences = [[s.text for s in split(e.text)] for e in entries]
    unique = list(dict.fromkeys(t for group in sentences for t in group))
    cosine = dict(zip(unique, cosines(unique))) if unique else {}
    out = []
    for lex, group in zip(lexical, sentences):
        dense = max((min(max(float(cosine[t]), 0.0), 1.0) for t in group), default=None)
        out.append(lex if dense is None else LEXICAL_WEIGHT * lex + (1 - LEXICAL_WEIGHT) * dense)
    return out


def _subject(entry: Entry) -> str:
    """The heading an item sits under when it names a subject ("Deterministic Backward for
    FlexAttention"), not a kind of change ("Fixed") or a release."""
    section = entry.chunk.section
    if len(section) < 2:
        return ""
    heading = section[-1]
    return "" if kind_of(heading) in KINDS_NAMED or release_heading(heading) else heading


def stating(entries: Sequence[Entry], scores: Sequence[float], kind: str | None = None) -> list[int]:
    """The entries that state the fact: within STRONG of the best score, an item of the asked
    ``kind`` scoring KIND_BONUS more, and only those of that kind when there are some."""
    boosted = [s + (KIND_BONUS if kind and e.item.kind == kind else 0.0) for e, s in zip(entries, scores)]
    if not boosted or max(boosted) <= 0:
        return []
    best = max(boosted)
    strong = [i for i, s in enumerate(boosted) if s >= STRONG * best and entries[i].chunk.version]
    of_kind = [i for i in strong if kind and entries[i].item.kind == kind]
    return of_kind or strong  # "which release dropped X": the removal, not an earlier mention


def earliest(entries: Sequence[Entry], scores: Sequence[float], kind: str | None = None) -> int | None:
    """The entry of the earliest release among those ``stating`` the fact, else None."""
    strong = stating(entries, scores, kind)
    if not strong:
        return None
    return min(strong, key=lambda i: (_key(entries[i].chunk.version), -scores[i]))


def _key(version: str) -> tuple:
    try:
        return version_key(version)
    except ValueError:
        return ((float("inf"),), ())
