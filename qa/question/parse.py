"""One reading of a question: what a person typed (and, in a conversation, the previous question)
in, a frozen ``Question`` out, which the engine, the service and every front end take.

    question = read("what changed for MPS in 2.14?", catalogue)
    question.releases, question.shape.name, question.shape.topic   # ("2.14",), "search", "MPS"
    question = read("and in 2.13?", catalogue, conversation)      # a follow-up, resolved

Nothing else matches the words of a question: the releases, range and products it names
(``releases``, ``ranges``), its shape and topic (``shapes``), the kind of change and the how-to it
asks (``vocabulary``), and a follow-up's rewriting (``followup``) are all read here, each text
scanned once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Mapping, Protocol, Sequence

from corpus.versions import version_matches

from ..errors import BadQuestion
from ..model import ReleaseRange
from .followup import FollowUp, Turn, follow_up
from .mentions import Catalogue, Scan, scan
from .pins import from_pin
from .platforms import platform_spans
from .called import called
from .products import SWAP
from .asking import asking_part, asking_sentence, pointed
from .releases import check_question, release_name
from .shapes import Shape, shape_of, topic_of
from .typos import mended
from .changes import asked_kind, asks_last, change_asked
from .imports import import_removed
from .contrast import without_contrast
from .vocabulary import RELEASE_EVENTS, asks, asks_still, content_words, is_howto, majors, specifics


class Conversation(Protocol):
    """What reading needs of a conversation (``qa.service.Conversation``): the previous turn and the
    release filter in force, and whether the person set it."""

    turn: Turn | None
    releases: tuple[str, ...]
    pinned: bool


@dataclass(frozen=True, slots=True)
class Question:
    """A question as read once: everything the engine and the front ends need of its words."""

    typed: str  # what the person typed (the answer's "question")
    text: str  # what is asked: checked, a follow-up resolved against the previous question
    asked_as: str  # as understood: without its release: filters (a range's words stay: they help retrieval)
    releases: tuple[str, ...] = ()  # releases to answer from: those given, then those named
    range: ReleaseRange | None = None  # the range given (--since/--until), else named, else inherited
    products: tuple[str, ...] = ()  # products it is restricted to (only in a corpus of several)
    shape: Shape = Shape("search")
    kind: str | None = None  # the kind of change a which-release question asks about ("dropped": removed)
    change: str | None = None  # the change it asks about, more finely ("renamed", "stabilized", "added"...)
    specifics: tuple[str, ...] = ()  # what it names exactly: numbers, identifiers, options ("3.8", "np.sort")
    howto: bool = False  # it asks how to do something
    asks: str | None = None  # the unit it asks for: "howto", "when", "number", "use", "change" (qa.answer.units)
    named: tuple[str, ...] = ()  # the products of the corpus it names (by name, alias or part)
    foreign: tuple[str, ...] = ()  # the products it names that the corpus does not hold, as typed
    follow: FollowUp | None = None  # how it was read against the previous question, in a conversation
    pin: str | None = None  # the project's pin an upgrade question's range starts from (``pins``)
    still: bool = False  # it asks how things stand now ("does X still ...?"): the latest change answers
    last: bool = False  # it asks for the last release that still had something: the one before its removal
    # the topic of the sentence asking which release, when another sentence tells its context first
    # ("pip install now compiles psutil from source. which release stopped shipping 32-bit wheels?")
    focus: str = ""
    focus_names: tuple[str, ...] = ()  # what that sentence names exactly, as typed ("?" of "with a '?'?")
    # releases it says the person moved to: a fix it asks for came after them ("broke after going to 3.0.0")
    moved_to: tuple[str, ...] = ()
    moved_works: bool = False  # ... and says the trouble is gone there: the fix may be of that release
    # what the asking sentence points back to by name ("... never freed. Which release fixed that leak?")
    pointed: str = ""

    @property
    def topic(self) -> str:
        """What it is about, its release and framing words left out ("" for an overview)."""
        return self.shape.topic

    @property
    def exact(self) -> tuple[str, ...]:
        """What an item stating it must hold: the things it names exactly, those of the asking sentence when
        another tells its context first ("filetype.guess() returns None for .docx uploads. which filetype
        release can detect office documents?" asks of no ``guess``)."""
        focus = self.focus.lower()
        held = lambda t: t in focus or t in self.focus_names or (t.endswith(".x") and t[:-2] in focus)  # noqa: E731
        return tuple(t for t in self.specifics if held(t)) if focus else self.specifics  # "python 2.x" of "... python 2?"

    @property
    def subject(self) -> str:
        """What an item must say to answer it: the asking sentence's topic when another tells its
        context first (``focus``), else the topic."""
        return self.focus or self.shape.topic


def read(typed: str, catalogue: Catalogue, conversation: Conversation | None = None, *,
         releases: Sequence[str] = (), products: Sequence[str] = (), span: ReleaseRange | None = None,
         text: str | None = None, pins: Mapping[str, str] | None = None) -> Question:
    """Read a question once.

    Args:
        typed: what the person typed.
        catalogue: the corpus's releases and products (``answer.Catalogue``, an ``AnswerService``).
        conversation: the previous turn and the filter in force (a chat, ``ask --follow-up``): a
            follow-up is resolved against it (``followup``); None for a question on its own.
        releases: an explicit release filter (``--release``), before those the question names.
        products: restrict to these products too (only those the corpus holds count).
        span: an explicit range of releases (``--since``/``--until``); else the question's own.
        text: what to ask when it is not what was typed (``relnotes changes`` asks its topic);
            no follow-up is resolved then.
        pins: the version a project is on, by product (``--project``): an upgrade question about
            one of them that names no from-release asks about the releases after it (``pins``).

    Raises:
        BadQuestion: the question is empty, too long, holds control characters, a bad
            ``release:`` filter or an inline range that runs backwards.
    """
    shown = check_question(typed)
    # "whcih" read as "which", "pyhton" as the notes' "python" (``typos``)
    asked = mended(shown, getattr(catalogue, "uses", None)) if text is None else check_question(text)
    seen = scan(asked, catalogue)
    follow = None
    if conversation is not None and text is None:
        follow = _follow(seen, catalogue, conversation, [release_name(r) for r in releases])
        releases, products = follow.releases, [*products, *follow.products]
        span = span or follow.span
        if follow.text != asked:
            asked = check_question(follow.text)
            seen = scan(asked, catalogue)
    if seen.parsed.which_release and (removal := import_removed(seen.text, seen.named)):
        seen = scan(removal, catalogue)  # "`from natsort import versorted` raises ImportError ... which release ..."
    return _understood(shown, seen, catalogue, releases, products, span, follow, pins or {})


def _follow(seen: Scan, catalogue: Catalogue, conversation: Conversation, releases: list[str]) -> FollowUp:
    """``seen`` read against the conversation's previous turn and filter in force."""
    turn = conversation.turn
    pinned = conversation.releases
    if turn is None:
        turn = Turn("", "", pinned)
    elif turn.releases != pinned:
        turn = Turn(turn.question, turn.asked_as, pinned, turn.products, turn.span)
    own = bool(seen.parsed.releases) or seen.mention is not None
    if not releases and conversation.pinned and not own:
        releases = list(pinned)  # the person's filter applies to every question naming no release of its own
    return follow_up(turn, seen, catalogue.releases, catalogue.products, releases)


def _understood(shown: str, seen: Scan, catalogue: Catalogue, given: Sequence[str], products: Sequence[str],
                span: ReleaseRange | None, follow: FollowUp | None, pins: Mapping[str, str]) -> Question:
    """The Question of the scanned text ``seen`` with what was given beside it."""
    parsed, mention = seen.parsed, seen.mention
    if parsed.bad_filters:
        raise BadQuestion(
            f"'release:{parsed.bad_filters[0]}' is not a release; write it like release:2.14 or release:2.10..2.14"
        )
    span = span or (mention.range if mention else None)
    wanted = tuple(dict.fromkeys([*(release_name(r) for r in given), *parsed.releases]))
    asked_as = (parsed.text if mention is None or mention.inline else seen.text) or seen.text
    held = catalogue.products
    if len(held) > 1:  # a product named restricts only in a corpus of several ("pydantic 1.10" among Rust's notes)
        products = tuple(dict.fromkeys([*(p for p in products if p in held), *seen.named]))
    else:
        products = ()
    about = products or (seen.named[:1] if len(seen.named) == 1 else held if len(held) == 1 else ())
    pinned = from_pin(seen.text, span, wanted, about, pins) if pins and not parsed.which_release else None
    span, pin = pinned or (span, None)
    shape = shape_of(seen.text, topic_text=without_contrast(parsed.topic), releases=wanted, ranged=span is not None,
                     which=parsed.which_release and not _one_release(wanted, catalogue.releases), products=held,
                     typed=frozenset(seen.typed))
    if len(wanted) == 1 and shape.name in ("search", "which") and set(shape.topic.lower().split()) <= RELEASE_EVENTS:
        shape = Shape("release", "", shape.kinds)  # "when did textual 8.0.0 come out?": the release itself
    rest = without_contrast(seen.rest)  # what the question sets its change against is not what it asks
    last = shape.name == "which" and asks_last(rest)  # "the last version that still supported 3.7"
    # the sentence asking which release, even when it points back ("Flask 2.2.0 deprecated FLASK_ENV. Which release
    # removed it?"): the change it names is the one asked about, not the context's
    asked = asking_sentence(seen.text, held) if shape.name == "which" else ""
    platform = _platform_of(seen.text, held, asked or seen.text) if last else ""
    if platform:  # "We still deploy on Python 3.9. What's the last sh that works there?": about Python 3.9 alone
        shape = replace(shape, topic=platform)
    part = asking_part(asked)
    focus = (platform or topic_of(without_contrast(part), held, frozenset(seen.typed))) if part else ""
    back = pointed(asked) if not part else ""
    # "ruamel.yaml", "typing_extensions" name the product, not a thing its items must hold
    own_names = {n for p in held for n in (p.lower(), p.lower().translate(SWAP))}
    return Question(typed=shown, text=seen.text, asked_as=asked_as, releases=wanted, range=span, products=products,
                    shape=shape, kind="removed" if last else asked_kind(without_contrast(asked)) or asked_kind(rest),
                    change="removed" if last else change_asked(rest, part or asked),
                    specifics=(*_unqualified(specifics(parsed.topic), own_names),
                               *majors(parsed.topic, frozenset(own_names))),
                    howto=is_howto(seen.text), asks=asks(seen.text),
                    named=seen.named, foreign=seen.foreign if held else (), follow=follow, pin=pin,
                    still=asks_still(seen.text) and not last, focus=focus, focus_names=specifics(part) if part else (),
                    last=last, moved_to=parsed.moved_to,
                    moved_works=parsed.moved_works, pointed=back)


def _platform_of(text: str, products: Sequence[str], asking: str) -> str:
    """The platform versions a question of the last release that still ran somewhere names ("Python 3.10" of
    "We're pinned to Python 3.10 for a while. What's the newest WTForms we can still run?"), when that is all it
    asks about: its ``asking`` sentence names nothing else ("still installs there", "the last release of the sh
    library that works there"; not "the last sh version that still has the cd builtin override"); "" otherwise."""
    names = called(tuple(products))
    spans = platform_spans(text, names)
    own = platform_spans(asking, names)
    rest = "".join(asking[b:a] for a, b in zip([*(a for a, _ in own), len(asking)], [0, *(b for _, b in own)]))
    if not spans or content_words(rest) - _ASKING_LAST - names - content_words(" ".join(names)):  # "dogpile.cache"
        return ""
    return " ".join(text[a:b] for a, b in dict.fromkeys(spans))


# the words a question of the last release that still ran somewhere is made of, besides the platform's name
_ASKING_LAST = frozenset("run runs running install installs installed installing package library module project newest "
                         "latest last final deploy deployed there we us our you your me my use stay pin keep".split())


def _one_release(wanted: Sequence[str], held: Sequence[str]) -> bool:
    """Whether ``wanted`` names a release, not only series of several held ones that a which-release question
    asks within ("which 2.0 release added it?", "since which Express 4 release")."""
    return any(sum(version_matches(v, w) for v in held) < 2 for w in wanted)


def _unqualified(found: Sequence[str], own_names: set[str]) -> tuple[str, ...]:
    """The exact things a question names, the product's own name left out ("ruamel.yaml") and taken
    off a name it qualifies ("blinker.__version__" -> "__version__": notes write the attribute bare)."""
    out = []
    for name in found:
        if re.sub(r"\.(?:py|js)$", "", name) in own_names:  # "jmespath.py": the product by its repository's name
            continue
        owner = next((p for p in own_names if name.startswith(p + ".") and len(name) > len(p) + 1), None)
        name = name[len(owner) + 1:] if owner else name
        if name not in own_names and name not in out:
            out.append(name)
    return tuple(out)
