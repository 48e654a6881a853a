"""What an item says of a change a which-release question asks about: whether a sentence of it
states that change of the topic (``says``), how many of the topic's words it names, and the
release it says the change was made in when that is another (``referred``). ``itemscore.stating``
reads items with these.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from corpus.items import item_words
from corpus.regex import lazy_compile
from corpus.textform import index_form
from index import tokenize

from ..question.products import canonical, known
from ..question.changes import CHANGES_STATED
from ..question.vocabulary import NEGATED, content_words
from .digest import Entry
from .direct import direct
from .holding import ALNUM, holds

WHOLE_ITEM = 80  # words: an item's opening may state a change in one sentence and name its subject in the next


SAYS, DENIES, SILENT = "says", "denies", "silent"


def says(entry: Entry, change: str, about: frozenset[str], *, own: bool = False,
          qualifiers: dict[str, frozenset[str]] | None = None, whole: bool = False,
          things: Sequence[str] = (), versions: Sequence[str] = ()) -> tuple[str, int]:
    """Whether an entry says ``change`` of what the question is ``about``: a sentence of it naming
    two thirds of the topic's words or more, worded so (or the item is of that kind, or under a heading so
    worded: "Stabilized APIs"), and not outdone by a sentence saying the thing is not there
    ("There are no Windows or macOS 3.15 wheels" names more of "Python 3.15 wheels for Windows and
    macOS" than "wheels now support Python 3.15"): SAYS; DENIES when such a sentence outdoes every
    one stating it; else SILENT; with how many of its words the stating sentence names. A long
    old-style summary with "stabilization" in one sentence and the feature in another says nothing
    of it; ``whole``: an item whose first sentence states the change of part of the topic has its
    first WHOLE_ITEM words read as one sentence. Asked of the product's ``own`` ("built-in
    subtests"), a sentence about a plugin doing it says nothing ("... the pytest-subtests plugin
    possible, which adds unittest sub-test support"). The product qualifying a name asked about
    ("np" of "np.alen") is named by that product's notes (``credited_words``): "The ``alen`` and
    ``asscalar`` functions have been removed" says it (a sentence naming "alen": not one naming
    ``np.dtype``). A sentence holding an identifier the question names (``things``: "validate" of
    "validate()") and worded with the change says it whatever else of the topic it names; one stating
    the change right at what it changes (``direct``) counts one word more than the topic has. An
    item naming a version asked about ("Python 2.7") only as supported removes none of it: "Alembic
    1.5.0 now supports Python 2.7 ... Support is removed for Python 3 versions prior to 3.6"."""
    pattern = CHANGES_STATED[change]
    credited = credited_words(entry, about, qualifiers or {})
    kind_says = entry.item.kind == change or bool(pattern.search(" ".join(entry.chunk.section[-1:]))) or (
        change == "fixed" and entry.item.kind == "security")  # a vulnerability addressed is fixed
    stated = negated = 0
    about = topic_words(about)
    rest = frozenset(w for w in about if w not in credited)
    text = _joined(item_words(entry.text), things)
    sentences = SENTENCE_END.split(text)
    if whole:  # the change and part of its subject in the first sentence, the rest of it after
        if not pattern.search(sentences[0]) or not words_named(sentences[0], rest):
            return SILENT, 0
        sentences = [" ".join(text.split()[:WHOLE_ITEM])]
    covers = lambda window: words_named(window, about) == len(about)  # noqa: E731
    if change == "removed" and versions and _only_supported(sentences, versions, pattern):
        return SILENT, 0
    for sentence in sentences:
        own_words = words_named(sentence, rest)
        named = own_words + sum(1 for w in about if w in credited and words_named(sentence, credited[w]))
        worded = _worded_now(sentence, pattern, change)
        # stated right at what the question names: "``ParserElement.validate()`` is deprecated" for
        # "my grammar check with validate() started warning", whatever else of the topic it names
        right_at = worded and direct(sentence, change, things, covers, span=len(about) + 1)
        if not right_at and about and (not own_words or 3 * named < 2 * len(about)):
            continue
        if own and _PLUGIN.search(sentence):
            continue
        if right_at:
            named = len(about) + 1
        # "Alembic 1.5.0 now supports Python 2.7 ..." under a removal says no removal of Python 2.7
        if change == "removed" and not worded and _SUPPORTS.search(sentence):
            continue
        # "no longer supported" says a removal; "There are no macOS wheels" under Added denies (not the
        # error the question quotes: "ValueError: patterns cannot be empty" under Bug fixes)
        if change != "removed" and not worded and any(not _quoted(m.group(0), about) for m in NEGATED.finditer(sentence)):
            negated = max(negated, named)
        elif worded or kind_says:
            stated = max(stated, named if about else 1)
    if stated > 0 and stated >= negated:
        return SAYS, stated
    return (DENIES if negated > stated else SILENT), 0


def _quoted(negation: str, about: frozenset[str]) -> bool:
    """Whether a negation is one the question itself words, quoting the symptom ("cannot" of "ValueError:
    patterns cannot be empty", "doesn't" as "doesn"); never "no" or "not", which any question may hold."""
    word = re.sub(r"['\u2019]t$", "", negation.lower())
    return word not in ("no", "not") and word in about


def _joined(text: str, things: Sequence[str]) -> str:
    """``text`` with a name the question writes with its number joined ("qt5") joined so where it is written
    apart: "Removed support for Qt 5" reads "Removed support for Qt5"."""
    for thing in things:
        if spaced := ALNUM.fullmatch(thing):
            text = re.sub(r"(?<![\w])(" + spaced.group(1) + r")[ -](" + spaced.group(2) + r")(?![\w])", r"\1\2", text,
                          flags=re.IGNORECASE)
    return text


def worded(entry: Entry, change: str, about: frozenset[str]) -> int:
    """How many words of ``about`` the item's most naming sentence worded with ``change`` as made names
    ("Switch to `tomli` for pyproject.toml configuration loader": 3 of "old toml package tomli reading
    pyproject.toml settings"), 0 when no sentence words it; looser than ``says``, which wants two thirds. An
    item of that kind words it in every sentence ("PathSpec.match_file() returns None since 0.12.0" under "Bug
    fixes")."""
    pattern, about = CHANGES_STATED[change], topic_words(about)
    of_kind = entry.item.kind == change
    return max((words_named(s, about, camel=True) for s in SENTENCE_END.split(item_words(entry.text))
                if of_kind or _worded_now(s, pattern, change)), default=0)


def _only_supported(sentences: Sequence[str], versions: Sequence[str], pattern) -> bool:
    """Whether every sentence naming one of ``versions`` says it is supported, none that it is removed."""
    naming = [s for s in sentences if any(holds(index_form(s).lower(), v) for v in versions)]
    return bool(naming) and all(_SUPPORTS.search(s) and not pattern.search(s) for s in naming)


def _worded_now(sentence: str, pattern, change: str) -> bool:
    """Whether ``sentence`` words the change (``pattern``, ``change``'s) as made, not as to come ("The
    ``numpy.fix`` function will be deprecated in a future release", "pending deprecation"), nor, of a
    default, as meant (``_INTENDED``)."""
    if change == "defaulted" and _INTENDED.search(sentence):
        return False
    return any(not _FUTURE.search(sentence, max(0, m.start() - 40), m.start())
               and not (_ACTIVE.match(m.group(0)) and _WILL.search(sentence, max(0, m.start() - 20), m.start()))
               and not _NOT_DONE.search(sentence, m.end(), m.end() + 80) for m in pattern.finditer(sentence))


# a default meant, not made: "We intend to make `--import-mode=importlib` the default in future versions"
_INTENDED = lazy_compile(r"\b(?:intend|plan(?:s|ned)?\s+to|in\s+(?:a\s+)?future|eventually|will\s+(?:become|be|make))\b"
                         r"|\bnext\s+(?:major\s+)?(?:release|version)\b", re.IGNORECASE)
# what follows a change that was not made after all: "The removal of the ``--result-log`` option ... has been postponed"
_NOT_DONE = lazy_compile(r"\b(?:has|have|was|were|is|are|been)\s+(?:\w+\s+)?(?:postponed|deferred|delayed|reverted|cancell?ed)\b"
                         r"|\band\s+(?:then\s+)?revert(?:ed)?\b", re.IGNORECASE)  # "Drop Python 3.8 by @x in #1004 and revert in #1060"
_FUTURE = lazy_compile(r"\b(?:(?:will|would|shall|may|might|going\s+to)(?:\s+\w+)?\s+be|to\s+be|pending)\s+$", re.IGNORECASE)
# ... and in the active voice right before the change's verb: "the next release will introduce ..." (not
# "will now add", nor "will no longer accept": a change made)
_WILL = lazy_compile(r"\b(?:will|shall|going\s+to)\s+$", re.IGNORECASE)
_ACTIVE = lazy_compile(r"(?:introduc|add|remov|drop|delet|deprecat|allow|enabl|accept|support)", re.IGNORECASE)
def announces(entry: Entry, topic: str) -> bool:
    """Whether an item tells what a later release will bring: its first sentence does ("a heads up:
    the next release of `attrs` will introduce an `attrs` namespace"), or one naming a word of the
    topic ("... the **next** release of `attrs` will allow you to actually `import attrs`"); not an
    item adding a thing whose other sentence says it "will become the default in a future release"."""
    about = topic_words(content_words(OWN.sub(" ", topic)))
    sentences = SENTENCE_END.split(item_words(entry.text))
    return any(_ANNOUNCES.search(s) and (k == 0 or words_named(s, about)) for k, s in enumerate(sentences))


_ANNOUNCES = lazy_compile(r"\bnext\W*\s+(?:\w+\s+)?(?:release|version)\b[^.!?]{0,60}?\bwill\b|\bheads[\s-]+up\b"
                         r"|\b(?:in|with)\s+(?:a|the)\s+(?:future|upcoming|later)\s+(?:\w+\s+)?(?:release|version)\b",
                         re.IGNORECASE)


def referred(entry: Entry, change: str | None, topic: str) -> str | None:
    """The release an item says the change asked about was made in, when that is another
    ("``zip_equal`` was removed in 11.0.0", in 11.0.2's notes): a sentence naming two thirds of the
    topic's words or more, with the change worded just before "in 11.0.0"."""
    if change is None:
        return None
    about = topic_words(content_words(OWN.sub(" ", topic)))
    for sentence in SENTENCE_END.split(item_words(entry.text)):
        if about and 3 * words_named(sentence, about) < 2 * len(about):
            continue
        for m in _REFERRED.finditer(sentence):
            if CHANGES_STATED[change].search(m.group(1)) and m.group(2) != entry.chunk.version:
                return m.group(2)
    return None


# a change's verb (not "a regression in 2.0.0"), then the release: "was removed in 11.0.0"
_REFERRED = lazy_compile(r"\b(\w+ed)\s+(?:in|since|as\s+of)\s+(?:version\s+|release\s+)?v?(\d+(?:\.\d+)+)\b(?!\.\d)",
                         re.IGNORECASE)


def specifics_split(exact: Sequence[str]) -> tuple[list[str], list[str]]:
    """What a question names exactly, as identifiers and options ("validate", "--lf") and versions ("3.8"); a keyword
    argument named bare ("proxies=") is neither: notes drop a use of it ("Drop `proxies=<transport instance>`") long
    before they remove it ("The deprecated `proxies` argument has now been removed")."""
    things = [t for t in exact if not VERSION_ONLY.fullmatch(t) and not t.endswith("=")]
    return things, [t for t in exact if t not in things and not t.endswith("=")]


def topic_words(words) -> frozenset[str]:
    """``words`` one a stem: "let" and "lets" are one word of the topic."""
    return frozenset({stem(w): w for w in words}.values())


def states(entry: Entry, change: str | None, topic: str, things: Sequence[str] = ()) -> bool:
    """Whether ``entry`` says ``change`` of ``topic`` (``says``), read as a which-release question reads it."""
    if change is None:
        return False
    about = content_words(OWN.sub(" ", topic))
    return says(entry, change, about, own=bool(OWN.search(topic)), qualifiers=qualifiers_of(topic), things=things)[0] == SAYS


def qualifiers_of(topic: str) -> dict[str, frozenset[str]]:
    """The words qualifying a dotted name of the topic, each with the name's last part: "np" ->
    "alen" of "np.alen", "flask" -> "safe_join" of "flask.helpers.safe_join"."""
    found: dict[str, set[str]] = {}
    for qualifier, last in _QUALIFIER.findall(topic.lower()):
        found.setdefault(qualifier, set()).add(last)
    return {q: frozenset(lasts) for q, lasts in found.items()}


_QUALIFIER = lazy_compile(r"(?<![\w.])([a-z][\w-]*)\.(?:[a-z_][\w-]*\.)*([a-z_][\w-]*)")


def credited_words(entry: Entry, about: frozenset[str], qualifiers: dict[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """The words of ``about`` the entry may name by being its product's notes, with the word each
    qualifies: a qualifier that is the product's name or alias ("np" of "np.alen" in numpy's notes,
    which need not say "np"; not "rust-lang" for "clippy"), unless that is all of the topic."""
    product = canonical((entry.chunk.product or "").lower())
    credited = {w: qualifiers[w] for w in about if w in qualifiers and product and canonical(w) == product}
    return credited if set(credited) != set(about) else {}


VERSION_ONLY = lazy_compile(r"\d+(?:\.\d+)+")
# "now supports Python 2.7", "is supported": support kept or given, not the noun ("Support for Python 3.7." under Removed)
_SUPPORTS = lazy_compile(r"\bnow\s+supports?\b|\bsupports\b|\b(?:is|are)\s+(?:now\s+|still\s+)?supported\b"
                         r"|\bworks?\s+with\b", re.IGNORECASE)
OWN = lazy_compile(r"\bbuilt[- ]?in\b|\bnative(?:ly)?\b|\bout\s+of\s+the\s+box\b", re.IGNORECASE)
_PLUGIN = lazy_compile(r"\bplug-?ins?\b|\bthird[- ]party\b", re.IGNORECASE)
SENTENCE_END = lazy_compile(r"(?<=[.!?])\s+|\n\s*\n")


def words_named(sentence: str, about: frozenset[str], camel: bool = False) -> int:
    """How many words of ``about`` ``sentence`` names, stem for stem ("selection" is "select"); a
    compound asked ("let-else") is named by its parts ("`let else`"), and a compound of the
    sentence names its parts ("C-string" names "string") unless it is a product's name
    ("pytest-subtests" does not name "subtests"), and a name with a version against it names the
    name ("Python3.8" names "python"); ``camel``: a CamelCase name its words too ("DayOfWeek" names
    "day" and "week"; read so only loosely: "TypeError" would name the "types" of "custom types")."""
    said = content_words(sentence)
    words = {stem(w) for w in said}
    words |= {stem(p) for w in said if "-" in w and not known(w) for p in w.split("-") if len(p) > 1}
    words |= {stem(m.group(1)) for m in _VERSIONED.finditer(sentence.lower())}
    if camel:
        words |= {stem(p.lower()) for m in _CAMEL.finditer(sentence) for p in _HUMP.findall(m.group(0)) if len(p) > 2}
    return sum(1 for w in about if stem(w) in words or ("-" in w and all(stem(p) in words for p in w.split("-"))))


_VERSIONED = lazy_compile(r"\b([a-z]{2,})\d+(?:\.\d+)*\b")
_CAMEL = lazy_compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")  # "DayOfWeek" names "day" and "week"
_HUMP = lazy_compile(r"[A-Z][a-z]+")


@functools.lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A word as the index stems it, compounds whole ("double-click" stays itself)."""
    if "-" in word:
        return word
    stems = tokenize(word)
    return stems[0] if stems else word
