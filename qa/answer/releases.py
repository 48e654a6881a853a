"""What a release question gets besides passages: its scope (the releases a range or release
names, or why the corpus cannot answer), its digest, and for "which release" the passage of the
earliest release whose item states the fact. The engine calls these; they call back for scores.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable, Sequence

from corpus.items import item_words
from corpus.regex import lazy_compile
from corpus.versions import version_matches
from index import Hit

from ..model import Digest, Note, ReleaseRange
from .catalogue import Catalogue
from .digest import Entry, entries_of, range_digest, release_digest, topic_digest, upgrade_digest
from .evidence import passage_evidence
from .holding import holding, holds, holds_named
from .itemscore import earliest_among, release_order, stating, titled_by
from .latest import latest_item
from .naming import naming_only, unheld_name, with_named
from .saying import referred, specifics_split, states, topic_words, worded, words_named
from ..question import Question
from ..question.vocabulary import content_words
from ..question.which import series_named
from ..question.shapes import Shape

# Which release: an item's evidence is 0.7 its own score, 0.3 its passage's retrieval score; items
# alone pick early mentions (docs/decisions/0150-which-release-item-weight.md).
ITEM_RETRIEVAL_WEIGHT = 0.3
RANGE_CHUNKS = 5_000  # chunks of a range whose items a topic question scores
# "which release added X": when items of DIFFUSE releases or more state it about as well as the best one,
# itself weak (its own score below WEAK), none stands out and no release is named (on the sets at hand every
# such answer named a wrong one); strong items alike in many releases ("Improve parser speed") name the first
DIFFUSE, WEAK = 4, 0.6
# and none when the stating item's own score is below this (lexical alone, or with its cosine), unless it holds
# what the question names exactly: off-topic questions' items ("which release added SAML single sign-on?" ->
# "Nargs of -1 ... forced to be a single item") scored at most 0.34 with the model, stated ones 0.38 and more
# (benchmarks/confidence.py)
ITEM_STATES = {False: 0.25, True: 0.36}

ItemScores = Callable[[str, Sequence[Entry], bool, str], list[float]]  # (topic, entries, dense, query)
Evidence = Callable[[str, list[Hit]], list[float]]  # (question, hits) -> each passage's evidence


class ReleaseAnswers:
    """Scopes, digests and which-release over one corpus's catalogue."""

    def __init__(self, catalogue: Catalogue, item_scores: ItemScores, evidence: Evidence,
                 written: Callable[[str], bool] = lambda word: True) -> None:
        """``written(word)``: whether some passage of the notes holds the word, stem for stem."""
        self.catalogue = catalogue
        self.item_scores = item_scores
        self.evidence = evidence
        self.written = written

    def scope(self, wanted: Sequence[str], span: ReleaseRange | None,
              products: Sequence[str]) -> tuple[tuple[str, ...], Note | None]:
        """The releases to search (() for all) and, when nothing can answer, why: a range that
        holds no release, or releases named outside the range ("--since 1.1 --until 2.0 --release 3.0")."""
        if span is None:
            return tuple(wanted), None
        held = self.catalogue.in_range(span, products)
        if not held:
            return (), self.catalogue.range_note(span, products)
        versions = tuple(v for v in held if not wanted or any(version_matches(v, w) for w in wanted))
        if not versions:
            return (), Note("release_outside_range", releases=tuple(wanted), range=span)
        return versions, None

    def item_first(self, question: Question, hits: list[Hit], dense: bool) -> tuple[list[Hit], Entry | None]:
        """The hits with the passage of the item that answers first, and that item: the earliest stating
        it (which release), the latest answering it (how things stand now: "does X still ...?")."""
        if hits and question.shape.name == "which":
            if unheld_name(question, self.catalogue, self.written):
                return hits, None
            said_last = self.said_last(question, hits, dense) if question.last else None
            return said_last or self.earliest_first(question, hits, dense)
        if hits and question.still and question.shape.name == "search":
            return self.latest_first(question, hits, dense)
        return hits, None

    def earliest_first(self, question: Question, hits: list[Hit], dense: bool) -> tuple[list[Hit], Entry | None]:
        """Put first the passage of the earliest release whose item states the fact
        (``itemscore.stating``, ``earliest_among``: judged on items, not on whichever passage ranked first), the one
        of that release with the best evidence, and return that item (the answer quotes it)."""
        query = question.asked_as
        hits = with_named(question, hits, self.catalogue)
        series = series_named(question.text, self.catalogue.products)  # "which pydantic 1.x release": releases of that series only
        since = max((release_order(v) for v in question.moved_to), default=None) if question.change == "fixed" else None
        entries = [e for e in entries_of((h.chunk for h in hits), upcoming=True)
                   if (not series or (e.chunk.version or "").split(".")[0] in series)
                   and (since is None or not e.chunk.version or _after(release_order(e.chunk.version), since, question))]
        scoped = series or question.releases  # "which flask 2.0 release added --debug?": in that series or none
        if scoped and question.exact and not any(holds_named(e, question.exact) for e in entries):
            return hits, None
        items, scores = self._scored(question, entries, hits, dense)
        strong = naming_only(entries, question) or stating(
            entries, scores, question.kind, change=question.change, exact=question.exact, topic=question.subject,
            pointed=question.pointed)
        at = earliest_among(entries, strong, scores)
        if at is None or _diffuse(entries, strong, items) or (items[at] < ITEM_STATES[dense] and not (
                holds_named(entries[at], question.specifics) or _names_pointed(entries[at], question))):
            return hits, None
        at = self._made_in(entries, at, scores, question)
        at = _last_of_major(entries, strong, at, question)
        version = entries[at].chunk.version
        evidence = self.evidence(query, hits)  # of that release, the passage with the best evidence goes first
        first = max((i for i, h in enumerate(hits) if h.chunk.version == version), key=lambda i: (evidence[i], -i))
        if hits[first].chunk.id != entries[at].chunk.id:  # the first passage is one the answer quotes:
            own = [i for i in strong if entries[i].chunk.id == hits[first].chunk.id]
            if own:  # an item of it stating the fact is quoted, else the stating item's passage goes first
                at = max(own, key=lambda i: scores[i])
            elif not titled_by(hits[first].chunk.section, question.subject):  # unless titled by the topic
                first = _at(hits, entries[at])
        return _first(hits, first), entries[at]

    def said_last(self, question: Question, hits: list[Hit], dense: bool) -> tuple[list[Hit], Entry] | None:
        """For "the last version that still supported Python 3.7": the item of the latest release saying it
        is the last to ("This version, Babel 2.14, is the last version of Babel to support Python 3.7"),
        holding what the question names exactly, its passage first; None when no item says so."""
        entries = entries_of(h.chunk for h in hits)
        about = topic_words(content_words(question.subject))  # what it had: the item must name most of it
        pool = [i for i, e in enumerate(entries) if e.chunk.version and _LAST_SAID.search(text := item_words(e.text))
                and 3 * words_named(text, about) >= 2 * len(about)]
        pool = holding(entries, pool, question.specifics) if pool else []
        if not pool:
            return None
        _, scores = self._scored(question, entries, hits, dense)
        at = max(pool, key=lambda i: (release_order(entries[i].chunk.version or "0"), scores[i]))
        return _first(hits, _at(hits, entries[at])), entries[at]

    def stated(self, question: Question, entry: Entry) -> tuple[str | None, Note | None]:
        """The release a which-release answer states and the note saying so: the stating item's ("Earliest
        release with strong evidence"), or for "the last version that still supported X" the last release
        before the one that removed it (none when that is the first release held)."""
        version = entry.chunk.version
        if question.last and version and _LAST_SAID.search(item_words(entry.text)):
            return version, Note("last_release", releases=(version,))
        if not question.last or version is None:
            return version, Note("earliest_release", releases=(version,)) if version else None
        before = self.catalogue.before(version, entry.chunk.product)
        return before, Note("last_release", releases=(before, version)) if before else None

    def latest_first(self, question: Question, hits: list[Hit], dense: bool) -> tuple[list[Hit], Entry | None]:
        """For a question of how things stand now ("does anyio still pull in sniffio?"): the item of the latest
        release answering it (``latest.latest_item``), its passage first; none when no item answers it well."""
        entries = entries_of(h.chunk for h in hits)
        items, scores = self._scored(question, entries, hits, dense)
        at = latest_item(question, entries, items, scores, dense)
        return (hits, None) if at is None else (_first(hits, _at(hits, entries[at])), entries[at])

    def _scored(self, question: Question, entries: Sequence[Entry], hits: list[Hit],
                dense: bool) -> tuple[list[float], list[float]]:
        """Each entry's own score against the question's topic, and its evidence: that score weighed
        with its passage's retrieval score (ITEM_RETRIEVAL_WEIGHT)."""
        query = question.asked_as
        items = self.item_scores(question.topic or query, entries, dense, query)
        retrieved = {h.chunk.id: h.score for h in hits}
        return items, passage_evidence([retrieved[e.chunk.id] for e in entries], items, ITEM_RETRIEVAL_WEIGHT)

    @staticmethod
    def _made_in(entries: Sequence[Entry], at: int, scores: Sequence[float], question: Question) -> int:
        """The stating item, or the best one of the earlier release it says the change was made in
        ("``zip_equal`` was removed in 11.0.0", written in 11.0.2's notes) that states it too, when
        retrieval found one."""
        said = referred(entries[at], question.change, question.subject)
        own = entries[at].chunk
        if said is None or release_order(said) >= release_order(own.version or "0"):
            return at
        things, _ = specifics_split(question.specifics)
        there = [i for i, e in enumerate(entries) if e.chunk.version and e.chunk.product == own.product
                 and version_matches(e.chunk.version, said) and states(e, question.change, question.subject, things)]
        return min(there, key=lambda i: (release_order(entries[i].chunk.version or "0"), -scores[i])) if there else at

    def digest(self, shape: Shape, hits: list[Hit], versions: Sequence[str], products: Sequence[str],
               kinds: Sequence[str], span: ReleaseRange | None, dense: bool, query: str) -> Digest | None:
        """The digest a release question gets: one release, an upgrade or range, a feature's history."""
        wanted_kinds = tuple(kinds) or shape.kinds
        if shape.name == "upgrade" and not kinds and set(shape.kinds) <= {"removed", "deprecated"}:
            wanted_kinds = ()  # "any breaking changes?": what an upgrade leads with anyway, and what changed
        if shape.name == "release":
            held = self.catalogue.matching(versions, products)
            entries = entries_of(self.catalogue.chunks_of(held, products))
            scores = self.item_scores(shape.topic, entries, dense, query) if shape.topic else ()
            return release_digest(entries, wanted_kinds, asked=versions[0] if versions else None, topic=shape.topic,
                                  scores=scores)
        whole, entries = None, []
        if shape.name in ("upgrade", "range"):
            chunks = self.catalogue.chunks_of(versions, products)
            in_range = entries_of(chunks)
            build = upgrade_digest if shape.name == "upgrade" else range_digest
            whole = build(in_range, span, wanted_kinds)
            if not shape.topic:
                return whole
            # a range's items are all scored (cheap: their sentence vectors are stored)
            entries = in_range if len(chunks) <= RANGE_CHUNKS else entries_of(chunks[:RANGE_CHUNKS])
        if shape.name not in ("upgrade", "range", "history"):
            return None
        # a history (or an empty range) looks at what retrieval found across the corpus
        entries = entries or entries_of(h.chunk for h in hits)
        found = topic_digest(shape.name, entries, self.item_scores(shape.topic, entries, dense, query),
                             shape.topic, span, tuple(kinds) if shape.name == "upgrade" else wanted_kinds)
        if whole is not None and not found.items:  # no item on the topic: say so, then the range's digest
            note = Note("range_off_topic", range=span, topic=shape.topic)
            return replace(whole, notes=(note, *whole.notes))
        return found


def _diffuse(entries: Sequence[Entry], strong: Sequence[int], items: Sequence[float]) -> bool:
    """Whether the items stating a fact are of DIFFUSE releases or more and the best of them is weak."""
    return len({entries[i].chunk.version for i in strong}) >= DIFFUSE and max(items[i] for i in strong) < WEAK


def _names_pointed(entry: Entry, question: Question) -> bool:
    """Whether the item words the change asked about of what the asking sentence points back to by name ("Fix a
    ``requests`` object leak ..." for "... never freed. Which release fixed that leak?"): on its topic, however
    little of a long context it names."""
    return bool(question.pointed and question.change and worded(entry, question.change, frozenset({question.pointed})))


def _after(order: tuple, since: tuple, question: Question) -> bool:
    """Whether a release of ``order`` may hold the fix asked for after the person moved to one of ``since``: a later
    one ("it broke after going to 3.0.0"), or that one itself when the question says the trouble is gone there."""
    return order >= since if question.moved_works else order > since


def _last_of_major(entries: Sequence[Entry], strong: Sequence[int], at: int, question: Question) -> int:
    """For the removal of a whole major version ("the first release without Python 2 support"), the
    stating item of the latest release that removes one of its minor versions (2.7's, not 2.6's: Python 2
    was supported until the last of them went); ``at`` otherwise."""
    major = [t for t in question.specifics if t.endswith(".x") and " " in t] if question.change == "removed" else []
    product = entries[at].chunk.product
    of_it = [i for i in strong if major and entries[i].chunk.version and entries[i].chunk.product == product
             and all(holds(item_words(entries[i].text).lower(), t) for t in major)]
    return max(of_it, key=lambda i: release_order(entries[i].chunk.version or "0"), default=at)


# an item saying its release is the last with something: "is the last version of Babel to support Python 3.7"
# (of its own release: not "(3.2.0 was the last version to support it)")
_LAST_SAID = lazy_compile(r"\bthis\s+(?:\w+\s+)?(?:version|release)\b(?:(?!\.\s)[^;]){0,40}?\b(?:is|will\s+be)\s+the\s+last\s+"
                          r"(?:\w+\s+){0,3}?(?:version|release)\b", re.IGNORECASE)


def _at(hits: list[Hit], entry: Entry) -> int:
    """Where in ``hits`` the passage of ``entry`` is (it is one of them)."""
    return next(i for i, h in enumerate(hits) if h.chunk.id == entry.chunk.id)


def _first(hits: list[Hit], at: int) -> list[Hit]:
    """``hits`` with the one at ``at`` first, the others in their order."""
    return [hits[at]] + hits[:at] + hits[at + 1:]
