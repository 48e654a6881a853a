"""Follow-up questions, as in a chat: a short question read in the context of the previous one.

A pure, deterministic function of the previous question (as the engine understood it) and the
new one; no model. ``qa.service.Conversation`` holds the previous turn and calls it, so the
chat and ``relnotes ask --follow-up`` read a follow-up the same way::

    follow = resolve(turn, text, engine.releases, engine.products)
    answer = engine.ask(follow.text, releases=follow.releases, typed=text)  # typed: optional

``follow.chip`` is ``"release 2.13, kept from the previous question"`` when the release filter
came from the previous question (the card and the CLI say so); ``follow.cleared()`` is the same follow-up without it. With
``typed``, ``answer.question`` is what the user typed and ``answer.asked_as`` the question as
understood: show "asked as: ..." when they differ.

Rules, in order (a "short" question has at most 8 words once its release mentions are removed):

1. Releases. A question naming a release (``in 2.13``, ``v2.13``, ``release:2.13``) keeps its
   own. A follow-up (rules 2 to 4: no topic of its own, a pronoun, a new subject) or a question
   that points back ("in that release", "this version") inherits the previous question's
   releases (``inherited``), those the corpus holds only, or its range of releases ("from 2.9
   to 2.13" then "and for MPS?": ``FollowUp.span``), except a which-release question
   ("when was that added?"), which asks across all releases. A question with a topic of its
   own searches every release: a filter outlives its topic only when the person set it (the
   chat's picker, ``--release``: ``resolve``'s ``releases``, or a previous turn that is only a
   filter).
2. Release only: a short question with no word of its own ("and in 2.13?", "what about 2.9?",
   "2.13?", "and?") asks the previous question again, with its new release:
   "MPS native Metal kernels" + "and in 2.13?" -> "MPS native Metal kernels in 2.13";
   likewise a new range: "what changed for MPS" + "and from 2.13 to 2.14?" -> "what changed
   for MPS from 2.13 to 2.14".
3. Pronoun: a short question with "it", "that", "this", "they", ... and at most 3 words of its
   own ("how fast is it?", "how do I enable it?", "when was that added?") has its first such
   word ("it", "its", "they", "them", "their" before "that", "this", "these", "those") replaced
   by the previous question's subject (its longest run of content words):
   "how do I enable MPS native Metal kernels".
4. New subject: "what about X?", "how about X", "and for X?", "and X?", with X at most 2 words
   of its own and no question word, asks the previous question about X instead: X replaces
   the previous question's trailing qualifier (its last for/on/in/with/under/using/via, 1 to 4
   words from the end), keeping that preposition; without one, and when the follow-up gives
   no preposition of its own, X replaces a subject of 1 or 2 words (as in rule 3); otherwise
   X is appended after the follow-up's preposition ("and on X?") or "for".
   "what changed for MPS" + "what about ROCm?" -> "what changed for ROCm";
   "how do I enable MPS" + "how about XPU" -> "how do I enable XPU";
   "MPS native Metal kernels" + "and for CUDA?" -> "MPS native Metal kernels for CUDA".
   (Without a model a subject cannot be told from other words, so it is replaced only where
   the question's shape says where it is; the card's "asked as" shows the result.) When X is
   another product of the corpus and the previous question named one, X replaces that product
   ("what breaks if I upgrade click" + "and for httpx?" -> "what breaks if I upgrade httpx"),
   and the previous product's releases or range are not kept (rule 1).
5. Anything else has a topic of its own and starts fresh (its text unchanged, except that
   "in that release" / "this version" is dropped: the inherited filter says it).

With no previous question (or one with no topic), only rule 1 applies, as it does when the
rewritten question would be longer than the engine accepts. A blank question or one with a
malformed ``release:`` filter is passed through unchanged for the engine to refuse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal, Sequence

from corpus.regex import lazy_compile
from corpus.versions import version_matches

from ..model import ReleaseRange
from .mentions import Scan, scan
from .releases import MAX_QUESTION_CHARS, RELEASE_NUMBER, find_releases
from .rewrite import CONNECTIVES, clean, strip_connectives, subject_of, swap, tidy, with_releases, words_of
from .vocabulary import ANAPHORA, FUNCTION_WORDS, QUESTION_WORDS
from .which import asks_which_release

How = Literal["new", "release", "pronoun", "subject"]
HOWS = ("new", "release", "pronoun", "subject")
SHORT = 8  # words (release mentions removed) a follow-up may have
PRONOUN_OWN = 3  # words of its own a pronoun follow-up may have
SUBJECT_OWN = 2  # words of its own the X of "what about X?" may have
MAX_TEXT = MAX_QUESTION_CHARS  # the engine's longest question

_LEAD = lazy_compile(
    r"^" + CONNECTIVES + r"(?:(?:what|how)(?:'s|\s+is|\s+are)?\s+about\b|what\s+of\b"
    r"|(?:is\s+|was\s+)?(?:the\s+)?same\s+(?:thing\s+|question\s+)?(?:for|with|on|in)\b"
    r"|(?:for|on|with|in|under|using|via)\b)?[\s,]*",
    re.IGNORECASE,
)
_LEAD_PREP = lazy_compile(r"\b(for|on|with|in|under|using|via)[\s,]*$", re.IGNORECASE)
_LEAD_PREP_X = lazy_compile(r"(for|on|with|in|under|using|via)\s+(?=\S)", re.IGNORECASE)

_BARE_RELEASE = lazy_compile(r"v?" + RELEASE_NUMBER, re.IGNORECASE)
_RELEASE_REF = lazy_compile(
    r"\s*\b(?:(?:in|for|from|of|on|since)\s+)?(?:that|this|the\s+same|the\s+previous|the\s+last)\s+"
    r"(?:release|version)s?\b",
    re.IGNORECASE,
)
# "and which one dropped 3.9?" after a which-release question: which release
_WHICH_ONE = lazy_compile(r"^(" + CONNECTIVES + r")(which|what)\s+one\b(?!\s+of\b)", re.IGNORECASE)
# Personal pronouns are replaced before demonstratives: in "the flag that enables it", "it" is the topic.
_ANAPHORS = tuple(
    lazy_compile(r"(?<![\w.'’-])(?:" + words + r")(?![\w.-]\w|\w)", re.IGNORECASE)
    for words in ("it|its|they|them|their", "that|this|these|those")
)


@dataclass(frozen=True, slots=True)
class Turn:
    """The previous question as the engine understood it: what was typed, asked and filtered on."""

    question: str
    asked_as: str
    releases: tuple[str, ...] = ()
    products: tuple[str, ...] = ()  # the products it was restricted to (a corpus of several)
    span: ReleaseRange | None = None  # the range of releases it was asked over ("from 2.9 to 2.13")

    def __post_init__(self) -> None:
        if self.span is not None and not isinstance(self.span, ReleaseRange):
            raise ValueError(f"span must be a ReleaseRange or None, got {self.span!r}")
        for name in ("releases", "products"):
            value = getattr(self, name)
            if not isinstance(value, tuple) or not all(isinstance(r, str) for r in value):
                raise ValueError(f"{name} must be a tuple of strings, got {value!r}")


@dataclass(frozen=True, slots=True)
class FollowUp:
    """A question resolved against the previous one: what to ask, and with which release filter."""

    question: str  # what the user typed
    text: str  # what to ask the engine: the question as understood
    releases: tuple[str, ...] = ()  # the release filter to ask with
    inherited: bool = False  # the releases came from the previous question (show a removable chip)
    carried: bool = False  # the previous question's topic carried over into ``text``
    how: How = "new"  # which rule applied: "new", "release", "pronoun" or "subject"
    products: tuple[str, ...] = ()  # the previous question's products, when this one names none
    span: ReleaseRange | None = None  # the previous question's range of releases, inherited

    def __post_init__(self) -> None:
        if self.how not in HOWS:
            raise ValueError(f"how must be one of {', '.join(HOWS)}, got {self.how!r}")
        if self.inherited and not self.releases and self.span is None:
            raise ValueError("an inherited release filter cannot be empty")
        if self.span is not None and not self.inherited:
            raise ValueError("a follow-up's range is always inherited (a question's own range is in its text)")
        if self.carried == (self.how == "new"):
            raise ValueError(f"carried={self.carried} does not fit how={self.how!r}")

    @property
    def chip(self) -> str | None:
        """``"release 2.13, kept from the previous question"`` (or ``"releases after 2.9 up to 2.13,
        kept ..."`` for a range) when the filter was inherited, else None."""
        if not self.inherited:
            return None
        if self.span is not None:
            return f"releases {self.span.describe()}, kept from the previous question"
        return f"release {', '.join(self.releases)}, kept from the previous question"

    def cleared(self) -> FollowUp:
        """The same follow-up without its inherited release filter or range (the chip removed)."""
        return replace(self, releases=(), inherited=False, span=None) if self.inherited else self


def resolve(
    previous: Turn | None,
    question: str,
    known: tuple[str, ...] = (),
    products: tuple[str, ...] = (),
    releases: Sequence[str] = (),
) -> FollowUp:
    """Read ``question`` in the context of ``previous`` (see the module docstring for the rules);
    ``qa.question.read`` does this for a conversation, with the question already scanned.

    Args:
        previous: the previous question as the engine understood it, or None.
        question: what the user typed.
        known: the releases the corpus holds (``Engine.releases``).
        products: the product names in the corpus (``Engine.products``).
        releases: an explicit release filter (``--release``): it replaces an inherited one and
            comes first in ``FollowUp.releases``, before those the question names.

    Returns:
        A FollowUp: the text to ask, the release filter and whether it was inherited.
    """
    seen = scan(" ".join(str(question).split()), _Held(tuple(known), tuple(products)))
    return follow_up(previous, seen, known, products, releases, typed=question)


def follow_up(previous: Turn | None, seen: Scan, known: tuple[str, ...], products: tuple[str, ...],
              releases: Sequence[str] = (), typed: str | None = None) -> FollowUp:
    """``resolve`` of a question already scanned (``seen``; ``typed``: as typed, default its text)."""
    follow = _resolve(previous, seen, typed if typed is not None else seen.text, known, products)
    if not releases:
        return follow
    return replace(follow.cleared(), releases=tuple(dict.fromkeys([*releases, *follow.cleared().releases])))


@dataclass(frozen=True, slots=True)
class _Held:
    releases: tuple[str, ...]
    products: tuple[str, ...]


def previous_topic_of(previous: Turn | None) -> str:
    """The previous turn's question ("" for none, or for a turn that is only a filter)."""
    return previous.asked_as.strip() if previous is not None else ""


def _resolve(previous: Turn | None, seen: Scan, question: str, known: tuple[str, ...],
             products: tuple[str, ...]) -> FollowUp:
    """``resolve`` without an explicit release filter."""
    q, mention = seen.text, seen.mention
    if mention is not None:  # "from 1.10 to 2.0": its own releases, asked as typed
        carried_products = () if seen.named or previous is None else previous.products
        rest = words_of(seen.rest)
        topic = _previous_topic(previous, known, products)
        if topic and not mention.inline and not [w for w in rest if w not in FUNCTION_WORDS]:
            # "and from 2.13 to 2.14?": the previous question again over the new range
            text = f"{topic} {q[mention.span[0] : mention.span[1]].strip()}"
            if len(text) <= MAX_TEXT:
                return FollowUp(question, text, (), False, True, "release", carried_products)
        return FollowUp(question, q, (), products=carried_products)
    parsed = seen.parsed
    if not q or parsed.bad_filters:
        return FollowUp(question, q, parsed.releases)
    named = parsed.releases
    body = tidy(_RELEASE_REF.sub("", q)) if _RELEASE_REF.search(q) else q
    if previous is not None and _WHICH_ONE.match(body) and asks_which_release(previous.asked_as, products):
        body = _WHICH_ONE.sub(lambda m: f"{m.group(1)}{m.group(2)} release", body, count=1)
    rest = clean(_RELEASE_REF.sub(" ", parsed.topic))
    how, text = "new", body
    topic = _previous_topic(previous, known, products)
    if topic and len(words_of(rest)) <= SHORT:
        lead = _LEAD.match(rest)
        x = rest[lead.end():].strip(" ,?!.;:")
        bare = _BARE_RELEASE.fullmatch(x)
        if bare and not named and bare.group(1).split(".")[0] in {k.split(".")[0] for k in known}:
            named, x = (bare.group(1).lower(),), ""  # "and 2.13?", "2.13?": a bare number in a follow-up
        words = words_of(x)
        own = [w for w in words if w not in FUNCTION_WORDS and w not in ANAPHORA]
        anaphoric = any(w in ANAPHORA for w in words)
        if not own and not anaphoric:
            how, text = "release", with_releases(topic, named, known)
        elif anaphoric and len(own) <= PRONOUN_OWN and any(a.search(body) for a in _ANAPHORS):
            anaphor = next(a for a in _ANAPHORS if a.search(body))
            how, text = "pronoun", anaphor.sub(lambda m: subject_of(topic), strip_connectives(body), count=1)
        elif lead.group(0).strip() and x and (swapped := _other_product(previous, topic, seen.named, x)):
            how, text = "subject", with_releases(swapped, named, known)  # "upgrade click" + "and for httpx?"
        elif lead.group(0).strip() and x and len(own) <= SUBJECT_OWN and not QUESTION_WORDS & set(words):
            prep = _LEAD_PREP.search(lead.group(0))
            if prep is None and (prep := _LEAD_PREP_X.match(x)):  # the preposition leads the new text
                x = x[prep.end():]
            how, text = "subject", with_releases(swap(topic, x, prep.group(1).lower() if prep else None), named, known)
        if len(text) > MAX_TEXT:  # a long previous question: ask this one as typed rather than be refused
            how, text = "new", body
    releases, inherited, span = named, False, None
    follows = how != "new" or bool(_RELEASE_REF.search(q)) or not previous_topic_of(previous)
    if previous is not None and seen.named and previous.products and not set(seen.named) & set(previous.products):
        follows = False  # another product's releases are not this one's: "and for httpx?" keeps no click 8.2
    if not releases and previous is not None and follows and not asks_which_release(text, products):
        releases = tuple(r for r in previous.releases if not known or any(version_matches(k, r) for k in known))
        # "what changed from 2.9 to 2.13?" then "and for MPS?": the range stays, as a release would.
        span = previous.span if not releases else None
        inherited = bool(releases) or span is not None
    # "pydantic 1.10 sort" then "is it stable now?": still pydantic's, unless this one names a product.
    carried_products = () if seen.named or previous is None else previous.products
    return FollowUp(question, text, releases, inherited, how != "new", how, carried_products, span)


def _other_product(previous: Turn | None, topic: str, named: tuple[str, ...], x: str) -> str | None:
    """The previous topic about the product ``x`` instead of the one it named ("what breaks if I
    upgrade click" + "and for httpx?" -> "what breaks if I upgrade httpx"), when ``x`` is just
    another product's name; else None."""
    if previous is None or len(named) != 1 or len(previous.products) != 1 or named == previous.products:
        return None
    if x.lower() != named[0].lower():
        return None
    old = re.compile(r"(?<![\w.-])" + re.escape(previous.products[0]) + r"(?![\w-])", re.IGNORECASE)
    return old.sub(lambda m: x, topic, count=1) if old.search(topic) else None


def _previous_topic(previous: Turn | None, known: tuple[str, ...], products: tuple[str, ...]) -> str:
    """The previous question as understood, without its release mentions, connectives and edge punctuation."""
    if previous is None or not previous.asked_as.strip():
        return ""
    topic = find_releases(" ".join(previous.asked_as.split()), known=known, products=products).topic
    return clean(strip_connectives(_RELEASE_REF.sub(" ", topic)))


