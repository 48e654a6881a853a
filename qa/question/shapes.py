"""The shape of a question about releases: one release's changes, an upgrade across a range, a
topic inside a range, a feature's history, which release did something, or a plain search.

The shape is read from the question's words once its releases, range and products are found
(``question``, ``ranges``): what is left after the words every release question shares ("what
changed in", "release notes", "upgrade", "what breaks") is its topic. A release named with no
topic is an overview ("what changed in textual 8.2.7?"); with a topic it is a search inside that
release ("what changed for MPS in 2.14?").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

from corpus.regex import lazy_compile

from .called import product_words
from .changes import uncoded
from .vocabulary import KIND_WORDS, QUESTION_WORDS, SHARED_STEMS, SHARED_WORDS, overview

ShapeName = Literal["search", "release", "upgrade", "range", "history", "which"]
SHAPES: tuple[str, ...] = get_args(ShapeName)

_UPGRADE = lazy_compile(
    r"\bbr(?:eak(?:s|ing|ages?)?|oke|oken)\b|\bincompatib|\bsafe\s+(?:bump|upgrade|update|move|jump)\b|\bwhat\s+(?:do|should|must|would)\s+i\s+(?:need\s+to\s+|have\s+to\s+)?"
    r"(?:change|update|fix|do|watch)|\bneed\s+to\s+change\b|\bsafe\s+to\s+(?:upgrade|update|move)\b|\bmigrat"
    r"|\bupgrad|\bwatch\s+out\b|\bgotchas?\b|\bneed\s+to\s+(?:change|update|fix|do|know|watch)\b|\bhave\s+to\s+change\b"
    r"|\b(?:going|moving|jump(?:ing)?|switch(?:ing)?|bump(?:ing)?)\s+(?:\w+\s+)?(?:from|to)\b|\bremov|\bdeprecat",
    re.IGNORECASE,
)
_HISTORY = lazy_compile(
    r"\bhistory\s+of\b|\bhistory\b\s*\??$|\bevolution\s+of\b|\btimeline\s+(?:of|for)\b|\bover\s+time\b"
    r"|\bacross\s+(?:the\s+)?releases\b|\bover\s+the\s+(?:releases|versions|years)\b"
    # "when did the fetcher change?" (its changes), not "when did the default format change?" (one release)
    r"|\bhow\s+(?:has|have|did)\b.+\b(?:chang|evolv)\w*|\bwhen\s+did\b(?!.*\bdefaults?\b).+\bchange\b",
    re.IGNORECASE,
)
_FIRST_RELEASE = lazy_compile(r"\b(?:first|earliest)\s+(?:release|version)\s+(?:with|that|to|where|which|of|having)\b",
                            re.IGNORECASE)
_WORD = lazy_compile(r"[\w'’.+-]+")


@dataclass(frozen=True, slots=True)
class Shape:
    """What a question asks of the release notes.

    ``name`` is one of SHAPES; ``topic`` the words left once the shared ones are gone (empty
    for an overview); ``kinds`` the kinds of change it names ("what was removed in 2.0")."""

    name: ShapeName
    topic: str = ""
    kinds: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.name not in SHAPES:
            raise ValueError(f"shape must be one of {', '.join(SHAPES)}, not {self.name!r}")


# "in my test suite", "to our code": where the change lands, not what it is about.
_WHERE = lazy_compile(r"\b(?:in|to|for|of|on|with)\s+(?:my|our|the|your)\s+(?:own\s+)?(?:test\s+suite|tests?|code(?:base)?"
                    r"|apps?|application|project|repo|build|ci|setup|stack|service)\b", re.IGNORECASE)


# "the last release line / version series that ...": the releases themselves, not a "line" of the topic
_LINE = lazy_compile(r"\b((?:release|version)s?)\s+(?:lines?|series|branch(?:es)?)\b", re.IGNORECASE)

_WHAT_IT_IS = r"(?:python\s+|js\s+)?(?:package|module|library|lib|project|crate|distribution)(?![\w-])"


def topic_of(text: str, products: tuple[str, ...], typed: frozenset[str] = frozenset()) -> str:
    """The words of ``text`` that say what it is about: not release numbers, product names (and
    the words ``typed`` that named one in this question: "python-build" for build) or the words
    every release question shares."""
    names = product_words(products) | typed
    words = []
    text = _LINE.sub(r"\1", _WHERE.sub(" ", text))
    if names:  # "the decorator module", "the attrs package": the product, not a module of it ("webpack module federation")
        named = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        text = re.sub(rf"\b(the|a|an|this|that)\s+({named})\s+{_WHAT_IT_IS}", r"\1 \2", text, flags=re.IGNORECASE)
    for word in _WORD.findall(text):
        bare = word.strip(".'’-+").lower()
        if not bare or bare in names or bare in SHARED_WORDS or bare in QUESTION_WORDS or SHARED_STEMS.match(bare):
            continue
        if bare.endswith(("'s", "’s")) and bare[:-2] in names:
            continue
        words.append(word.strip(".'’"))
    return " ".join(words)


_VERBS = frozenset({"remove", "drop", "deprecate", "fix", "add"})  # kinds only in "what did 2.1 add and deprecate?"
_ASKS_WHAT_IT_DID = lazy_compile(r"\b(?:did|does|do)\b(?!\s+(?:i|we|you)\b)", re.IGNORECASE)


def kinds_named(text: str) -> tuple[str, ...]:
    """The kinds of change the words of ``text`` name, in order ("what was removed", "which bugs
    were fixed"); a verb names one only when the question asks what a release did ("what did
    2.1.0 add"), not what the person must do ("anything I need to fix")."""
    verbs = bool(_ASKS_WHAT_IT_DID.search(text)) and not re.search(r"\b(?:need|have|want)\s+to\b", text, re.IGNORECASE)
    words = (m.lower() for m in _WORD.findall(uncoded(text)))  # not "the @deprecated decorator"
    return tuple(dict.fromkeys(KIND_WORDS[w] for w in words if w in KIND_WORDS and (verbs or w not in _VERBS)))


def shape_of(text: str, *, topic_text: str | None = None, releases: tuple[str, ...], ranged: bool, which: bool,
             products: tuple[str, ...], typed: frozenset[str] = frozenset()) -> Shape:
    """The shape of question ``text``.

    Args:
        text: the question (its ``release:`` filters removed).
        topic_text: the question without its release and range mentions (``ReleaseQuery.topic``),
            whose remaining words make the topic; default ``text``.
        releases: the releases it names (outside a range).
        ranged: whether it names a range of releases.
        which: whether it asks which release did something (``question.find_releases``).
        products: the corpus's products.
        typed: the words by which the question named one of them (``mentions.Scan.typed``).
    """
    topic = topic_of(text if topic_text is None else topic_text, products, typed)
    kinds = kinds_named(text)
    if ranged:
        upgrade = bool(_UPGRADE.search(text)) or bool(set(kinds) & {"removed", "deprecated"})
        return Shape("upgrade" if upgrade else "range", topic, kinds)
    if _HISTORY.search(text) and topic and not releases:
        return Shape("history", topic, kinds)
    if which or _FIRST_RELEASE.search(text):
        return Shape("which", topic, kinds)
    if len(releases) == 1 and (not topic or _overview(text, releases[0])):
        return Shape("release", topic, kinds)
    return Shape("search", topic, kinds)


def _overview(text: str, release: str) -> bool:
    """Whether ``text`` asks about release ``release`` as a whole (``vocabulary.OVERVIEW_WORDINGS``)."""
    mention = r"(?:[\w.+-]+\s+)?v?" + re.escape(release) + r"(?:\.0)*(?![\w.]|\.\d)"
    return any(p.search(text) for p in overview(mention))
