"""How well each item answers a topic, and the earliest release whose item states it.

An item's score mixes, as a sentence's does (``evidence``), the share of the topic's
idf-weighted terms its words hold with the best cosine of its sentences to the topic (their
vectors are the index's sentence vectors: no model pass).
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Sequence

from corpus.headings import release_heading
from corpus.items import item_words
from corpus.kinds import kind_of
from corpus.regex import lazy_compile
from corpus.textform import index_form
from corpus.versions import version_key

from ..question.changes import CHANGES_REQUIRED, CHANGES_STATED
from ..question.vocabulary import content_words
from .digest import Entry, worth_showing
from .evidence import LEXICAL_WEIGHT, coverage_scorer
from .holding import holding, holds_named
from .saying import (DENIES, OWN, SAYS, announces, credited_words, qualifiers_of, says, specifics_split, topic_words,
                     worded, words_named)

STRONG = 0.85  # an item within this share of the best one states the fact
TIED = 0.95  # items of two releases within this share of each other, read loosely (``_worded_best``): unsure
KINDS_NAMED = frozenset({"added", "changed", "deprecated", "removed", "fixed", "security", "performance", "docs", "other"})
# a removal announced, not made: "will be removed in a future release", "to be dropped in 2.0"
_TO_COME = lazy_compile(r"\b(?:will|would|shall|is\s+going\s+to)\s+be\s+(?:removed|dropped|deleted)|\bto\s+be\s+"
                        r"(?:removed|dropped)|\bremoved\s+in\s+(?:a\s+)?(?:future|the\s+next|upcoming)", re.IGNORECASE)
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
    alternatives: Callable[[str], Sequence[tuple[str, ...]]] | None = None,
) -> list[float]:
    """Each entry's score against ``topic`` (0..1), keyword arguments as ``evidence.score_sentences``."""
    cover = coverage_scorer(tokenize(topic), idf, alternatives)
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


def stating(entries: Sequence[Entry], scores: Sequence[float], kind: str | None = None, *,
            change: str | None = None, exact: Sequence[str] = (), topic: str = "", pointed: str = "") -> list[int]:
    """The entries that state the fact asked about: among the entries holding what the question names
    exactly (``exact``: "3.8", "descending=True"; when one does) and saying the change it asks about
    (``change``: an item of that kind, or worded so: "Changed X to Y" renames; when one does), those
    within STRONG of the best score (none when a change that must be seen stated is stated by none:
    not sure), an item of the asked ``kind`` scoring KIND_BONUS more, only those of that kind when any.
    "Which flask version dropped python 3.8?" is not answered by the item that dropped 3.4, nor
    "which textual version renamed Select.BLANK?" by the one that added it; nor "which numpy release
    removed numpy.distutils?" by an item titled "/usr/include removed from default include paths"
    when an item of that kind titled by no other subject says it (``_titled_otherwise``)."""
    pool = [i for i, e in enumerate(entries) if e.chunk.version or unreleased(e)]
    pool = holding(entries, pool, exact, removal=change == "removed")
    if not pool:
        return []  # what the question names exactly ("Python 3.8") is in no item: say nothing of a release
    if change is not None:
        own = bool(OWN.search(topic))  # "built-in subtests": not the plugin that adds them
        about = content_words(OWN.sub(" ", topic))
        qualifiers = qualifiers_of(topic)
        things, versions = specifics_split(exact)
        named = dict(own=own, qualifiers=qualifiers, things=things, versions=versions)
        said = {i: says(entries[i], change, about, **named) for i in pool}
        if not any(s == SAYS for s, _ in said.values()):  # said across an item's sentences ("... .pth file")
            said = {i: says(entries[i], change, about, whole=True, **named) for i in pool}
        saying = [i for i in pool if said[i][0] == SAYS]
        # an item naming all of it ("double click to select") outdoes one naming part ("double/triple clicks"),
        # and one stating the change right at it ("Added a pytest plugin") one stating it of something beside it
        saying = [i for i in saying if said[i][1] == max(said[j][1] for j in saying)]
        # an item titled by that change of another subject yields to one of the asked kind titled by none
        plain = [i for i in saying if not _titled_otherwise(entries[i], CHANGES_STATED[change], about, qualifiers)]
        if kind is not None and any(entries[i].item.kind == kind for i in plain):
            saying = plain
        # a deprecation saying a removal is to come ("Deprecated Python 3.7 support ... will be removed in a
        # future release", cryptography 44.0.0) yields to the removal saying it (46.0.0's "has been removed")
        done = [i for i in saying if entries[i].item.kind != "deprecated" or not _TO_COME.search(entries[i].text)]
        if change == "removed" and any(entries[i].item.kind == "removed" for i in done):
            saying = done
        if not saying:  # the best items worded with the change, naming a third of it
            saying = _worded_best(entries, [i for i in pool if said[i][0] != DENIES], scores, change, about, exact, pointed)
        if not saying and change in CHANGES_REQUIRED:
            return []  # "which release stabilized X": no item says it was stabilized; say nothing of a release
        pool = saying or [i for i in pool if said[i][0] != DENIES]  # never one saying the thing is not there
    boosted = {i: scores[i] + (KIND_BONUS if kind and entries[i].item.kind == kind else 0.0) for i in pool}
    if not boosted or max(boosted.values()) <= 0:
        return []
    best = max(boosted.values())
    strong = [i for i, s in boosted.items() if s >= STRONG * best]
    if change in (None, "added"):  # what a later release will bring is not what this one made
        strong = [i for i in strong if not announces(entries[i], topic)] or strong
    of_kind = [i for i in strong if kind and entries[i].item.kind == kind]
    return of_kind or strong  # "which release dropped X": the removal, not an earlier mention


def _worded_best(entries: Sequence[Entry], pool: Sequence[int], scores: Sequence[float], change: str,
                 about: frozenset[str], exact: Sequence[str] = (), pointed: str = "") -> list[int]:
    """Of the items within STRONG of the best score with a sentence worded with ``change`` that names a third
    of the topic's words or more (two at least), the best scoring: "Remove DayOfWeek alias 7 to DayOfWeek 0"
    for "croniter stopped treating 7 as sunday in the day of week field ... which release dropped that
    alias?", which no item says in two thirds; read so loosely, only the best (not the earliest:
    cryptography 0.5's "Deprecated ``create_dsa_signature_ctx``" names DSA too, for "which release
    deprecated DSA altogether?"). An item holding what the question names exactly needs to name no more
    ("Removed `--old-finders` and `--magic-placement` flags" for "isort now fails with 'unrecognized
    arguments: --magic-placement' ... which version dropped that flag?"), and one naming what the asking sentence
    points back to (``pointed``: "... requests objects are never freed. Which release fixed that leak?") one word
    of the context more. Items of two releases scoring alike (within TIED) leave it unsure: none."""
    best = max((scores[i] for i in pool), default=0.0)
    size = len(topic_words(about))
    need = min(size, max(2, -(-size // 3)))  # two words at least: "matrix" alone is not "the matrix class"
    back = frozenset({pointed}) if pointed else frozenset()

    def needs(entry: Entry) -> int:  # what else of the topic it must name
        if holds_named(entry, exact):
            return 1
        return min(need, 2) if back and worded(entry, change, back) else max(need, 1)

    worded_so = [i for i in pool if best > 0 and scores[i] >= STRONG * best
                 and worded(entries[i], change, about) >= needs(entries[i])]
    if not worded_so:
        return []
    top = max(worded_so, key=lambda i: scores[i])  # ... and only when no item of another release is as good
    rivals = [i for i in worded_so
              if entries[i].chunk.version != entries[top].chunk.version and scores[i] >= TIED * scores[top]]
    return [] if rivals else [top]


def _titled_otherwise(entry: Entry, pattern, about: frozenset[str], qualifiers: dict[str, frozenset[str]]) -> bool:
    """Whether the item is the one item under a heading that states the change of another subject:
    numpy's "/usr/include removed from default include paths", whose text mentions
    ``numpy.distutils`` in passing, is less sure to say numpy.distutils was removed than 2.5.0's
    "``numpy.distutils`` has been removed". A heading naming a word of the topic, one that still
    names a kind without its change word ("Removed", "Deprecations (removal in next major
    release)", "Removal of deprecated functions"), or one over several items is no such title."""
    section = entry.chunk.section
    if len(section) < 2 or not about or not pattern.search(section[-1]):
        return False
    if sum(worth_showing(entry.chunk, item) for item in entry.chunk.items) != 1:
        return False
    rest = " ".join(w for w in section[-1].split() if not pattern.search(w))
    if kind_of(rest) is not None or not content_words(rest):
        return False
    return not words_named(section[-1], about - set(credited_words(entry, about, qualifiers)))


def titled_by(section: Sequence[str], topic: str) -> bool:
    """Whether a passage's own heading (the last of ``section``) names every word of the topic: a
    section given over to it ("Deterministic Backward for FlexAttention Flash Backend" for
    "deterministic FlexAttention backward"), the topic's own passage even where no sentence of it
    words the change asked about."""
    about = topic_words(content_words(topic))
    return bool(about) and len(section) > 1 and words_named(section[-1], about) == len(about)


def unreleased(entry: Entry) -> bool:
    """Whether an entry sits in a section of changes not released yet ("[UNRELEASED]")."""
    return not entry.chunk.version and any(_UNRELEASED.search(h) for h in entry.chunk.section)


_UNRELEASED = lazy_compile(r"\bunreleased\b|\bnot\s+(?:yet\s+)?released\b|\bupcoming\b|\bin\s+development\b", re.IGNORECASE)


def earliest_among(entries: Sequence[Entry], strong: Sequence[int], scores: Sequence[float]) -> int | None:
    """Of the entries ``strong`` (those ``stating`` the fact), the one of the earliest release
    (one not released yet only when none is released), the best scoring on a tie; None when none."""
    released = [i for i in strong if entries[i].chunk.version]
    if not strong:
        return None
    return min(released or strong, key=lambda i: (release_order(entries[i].chunk.version or "0"), -scores[i]))


def release_order(version: str) -> tuple:
    """A release's place in order, an unreadable one last."""
    try:
        return version_key(version)
    except ValueError:
        return ((float("inf"),), ())
