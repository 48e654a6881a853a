"""Answer units that fit the question: what a sentence must hold to answer what is asked, and the
sentences a quote must carry with it.

- when (a date, a day, a time): the sentence with the date ("It will be on Thursday, September 17");
- how many / how much / how fast: the one with the figure ("1239, up from 585", "an 8.5x slowdown");
- does X work / is X fixed now: the one that states the change ("now reuses ...", "no longer
  ...", "will be raised instead"), not the one that states the problem ("Previously, ... would");
- what should I use: the replacement ("Use X instead");
- how to: the instruction ("opt in via ...", "Passing `x=True` to ...").

A quoted sentence that only points back ("It defaults to utf-8.", "This ...") carries the sentence
before it, a sentence cut after an abbreviation ("at 11 a.m." | "PT for a live Q&A") is one with
it, and the sentence right after a quote comes with it when it points back and answers what is
asked ("It will be on ..."), or holds the unit asked for where the quote does not ("... would be
silently truncated." | "Now, an OverflowError will be raised instead."). A how-to quote that gives
no instruction takes the best instruction of its own passage ("By default ... non-determinism." |
"Users can opt in via the existing torch.use_deterministic_algorithms(True) setting").
Every quote stays a verbatim slice of its passage.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from corpus.headings import find_date, release_heading, release_line
from corpus.regex import lazy_compile
from corpus.sentences import Span

from ..model import AnswerSentence

BONUS = 0.1  # what a sentence of the unit asked for gains over others, in ranking only
HOWTO_BONUS = 0.08  # what a sentence that says how gains for a how-to question
NAMED_BONUS = 0.05  # what a sentence holding a code name the question names gains

_MONTHS = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_DATE = lazy_compile(
    r"\b" + _MONTHS + r"\.?\s+\d{1,2}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+" + _MONTHS + r"\b|\b\d{4}-\d{2}-\d{2}\b"
    r"|\b(?:19|20)\d{2}\b|\b\d{1,2}(?::\d{2})?\s*(?:a\.m\.|p\.m\.|am\b|pm\b)"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:today|tomorrow|next\s+(?:week|month|year))\b",
    re.IGNORECASE,
)
_FIGURE = lazy_compile(
    r"\d[\d,.]*\s*(?:%|x\b|×|times\b|ms\b|µs\b|seconds?\b|minutes?\b|[kmgt]i?b\b)|\b\d{2,}[\d,]*\b(?!\.\d)"
    r"|\b(?:up\s+to|under|over|about|around|nearly|almost)\s+~?\d",
    re.IGNORECASE,
)
_CHANGE = lazy_compile(r"\bnow\b|\bno\s+longer\b|\binstead\b|\b(?:is|are|was|were|has\s+been)\s+fixed\b|\bfix(?:es|ed)\b"
                     r"|\bwill\s+(?:be\s+)?raise|\braises?\b|\breuses?\b|\bcan\s+now\b|\bsupports?\b|\badds?\b",
                     re.IGNORECASE)
_PROBLEM = lazy_compile(r"\bpreviously\b|\bused\s+to\b|\bwould\b|\bhad\s+to\b|\bcould\s*n[o']t\b|\bbefore\s+this\b"
                      r"|\bhad\s+gaps\b|\braised\s+(?:an?\s+)?[\w-]*\s*(?:error|exception)\b|\bwas\s+never\b|\bcrash(?:ed|es)?\b",
                      re.IGNORECASE)
_REPLACEMENT = lazy_compile(r"^\W*use\b|\binstead\b|\breplac|\bin\s+favou?r\s+of\b|\bprefer\b|\bswitch\s+to\b",
                          re.IGNORECASE)
# A sentence that says how: an instruction ("Enable it by adding `NVGEMM` to ...", "Set
# TORCH_X=1", "pip install ..."), a "by setting ..." clause, opting in, or a code name given a value.
_SAYS_HOW = lazy_compile(
    r"^(?:to\s+[^,]{1,60},\s*)?(?:set|enable|disable|add|use|pass|passing|call|install|run|configure|import|replace"
    r"|specify|turn|switch|opt|define|wrap|register|put|write|export|invoke|select|choose)\b"
    r"|\b(?:by|via|when)\s+(?:setting|adding|passing|using|calling|installing|running|enabling|specifying)\b"
    r"|\b(?:enable|set|add|pass|use|turn)\s+(?:it|this|them)?\s*(?:on\s+)?(?:by|with|to|in|via)\b"
    r"|\bopt(?:s|ed)?[-\s]in\b|\bbehind\s+`|\bvia\s+(?:the\s+)?(?:existing\s+)?`?[\w.]+\("
    r"|`[^`]+`\s*(?:=|to\b)|`[^`=]+=[^`]+`|\$ |\bpip install\b",
    re.IGNORECASE,
)
_POINTER = lazy_compile(r"^\W*(?:it|its|this|that|these|those|they|such|there)\b", re.IGNORECASE)
_ABBREVIATION = lazy_compile(r"(?:\b[ap]\.m\.|\be\.g\.|\bi\.e\.|\betc\.|\bvs\.|\bapprox\.|\bNo\.)$", re.IGNORECASE)
POINTER_WORDS = 60  # a pointing sentence longer than this stands on its own


def prose(sentences: Sequence[AnswerSentence]) -> tuple[AnswerSentence, ...]:
    """The sentences that are not code: an example's lines ("def test_x(subtests): ...") say
    nothing of which release did something."""
    return tuple(s for s in sentences if not is_code(s.text))


def is_code(text: str) -> bool:
    """Whether a sentence is code: a statement, a prompt or a shell command opens a line of it."""
    return bool(_CODE.search(text))


# a line that opens a statement, a prompt or a shell command
_CODE = lazy_compile(r"^\s*(?:(?:async\s+)?def\s+\w+\s*\(|class\s+\w+\s*[(:]|(?:for|with|while|if|elif|try|except)\b.*:\s*$"
                   r"|(?:import|assert|return|raise|yield)\s|from\s+[\w.]+\s+import\s|>>>|\$\s|[\w.\[\]]+\s*=\s*[\w\[({\"'])",
                   re.MULTILINE)


def says_how(text: str) -> bool:
    """Whether a sentence gives an instruction (``_SAYS_HOW``)."""
    return bool(_SAYS_HOW.search(text))


def bonus(asks: str | None, text: str) -> float:
    """What sentence ``text`` gains in ranking for a question asking ``asks`` (``Question.asks``)."""
    if asks == "when":
        return BONUS if _DATE.search(text) else 0.0
    if asks == "number":
        return BONUS if _FIGURE.search(text) else 0.0
    if asks == "change":
        changed, problem = bool(_CHANGE.search(text)), bool(_PROBLEM.search(text))
        return BONUS if changed and not problem else (-BONUS if problem and not changed else 0.0)
    if asks == "use":
        return BONUS if _REPLACEMENT.search(text) else 0.0
    if asks == "howto":
        return HOWTO_BONUS if says_how(text) else 0.0
    return 0.0


def ranking(asks: str | None, specifics: Sequence[str], question: str = "") -> Callable[[str], float]:
    """What a sentence gains in ranking for a question asking ``asks`` and naming ``specifics`` exactly."""
    named = named_pattern(specifics, question)
    return lambda text: bonus(asks, text) + named_bonus(named, text)


def named_pattern(specifics: Sequence[str], question: str = "") -> re.Pattern | None:
    """The code names a question names exactly ("get_peer_certificate", "--magic-placement", "proxy=", "yaml.load",
    "instance" the ``question`` wrote as "pendulum.instance()"), not its versions or words with a number ("3.8",
    "py3", "python 2.x"), as one pattern; None when it names none."""
    names = [s for s in specifics if (_CODE_NAME.search(s) or _as_code(s, question)) and not _NOT_CODE.fullmatch(s)]
    if not names:
        return None
    return re.compile("|".join(r"(?<![\w-])" + re.escape(n) + r"(?![\w])" for n in names), re.IGNORECASE)


def _as_code(name: str, question: str) -> bool:
    """Whether ``question`` writes ``name`` as code: called, qualified or quoted as code ("pendulum.instance()")."""
    return bool(question) and bool(re.search(r"[.`]" + re.escape(name) + r"\b|(?<![\w.])" + re.escape(name) + r"\(",
                                             question, re.IGNORECASE))


def named_bonus(pattern: re.Pattern | None, text: str) -> float:
    """What a sentence gains in ranking for holding a code name the question names (``named_pattern``): of
    several sentences on the topic, the one about that name."""
    return NAMED_BONUS if pattern is not None and pattern.search(text) else 0.0


CODE_NAME = r"[_.=(]|^--?[a-z]"  # a name written as code: "get_peer_certificate", "yaml.load", "proxy=", "--debug"
_CODE_NAME = lazy_compile(CODE_NAME)
_NOT_CODE = lazy_compile(r"[\d.]+|\S+ \d+\.x|[a-z]+\d+(?:\.\d+)*", re.IGNORECASE)


def carried(sentences: Sequence[AnswerSentence], passages: Sequence[str], split: Callable[[str], Sequence[Span]],
            asks: str | None, relevant: Callable[[str], bool]) -> tuple[AnswerSentence, ...]:
    """The quoted ``sentences`` with what they carry: the sentence before one that only points
    back or that an abbreviation cut off, and a pointing sentence right after one when it answers
    what is asked (``bonus``) or names the topic (``relevant``); each a verbatim slice of its passage."""
    out: list[AnswerSentence] = []
    for s in sentences:
        text = passages[s.passage - 1]
        spans = list(split(text))
        at = next((i for i, span in enumerate(spans) if span.text == s.text), None)
        if at is None:
            out.append(s)
            continue
        first = last = at
        while first > 0 and _joined(text, spans[first - 1], spans[first]) and (
                _POINTER.match(spans[first].text) or _ABBREVIATION.search(spans[first - 1].text)):
            first -= 1
        following = spans[last + 1] if last + 1 < len(spans) else None
        if following is not None and _joined(text, spans[last], following) and _carries(
                spans[last].text, following.text, asks, relevant):
            last += 1
        quote = text[spans[first].start: spans[last].end] if (first, last) != (at, at) else s.text
        if not any(quote == o.text or (o.passage == s.passage and o.text in quote) for o in out):
            out = [o for o in out if not (o.passage == s.passage and o.text in quote)] + [AnswerSentence(quote, s.passage, s.score)]
    return tuple(out)


def instructed(sentences: Sequence[AnswerSentence], candidates: Sequence, asks: str | None,
               most: int) -> tuple[AnswerSentence, ...]:
    """A how-to question's quote with an instruction: when no quoted sentence says how, the best
    scoring sentence that does from the first quoted sentence's passage (``candidates``: the
    scored sentences, ``evidence.Candidate``) joins it, after the sentences of that passage,
    in place of the weakest other sentence when the quote already holds ``most``."""
    if asks != "howto" or not sentences or any(says_how(s.text) for s in sentences):
        return tuple(sentences)
    own = sentences[0].passage
    how = [c for c in candidates if c.passage == own and says_how(c.span.text) and len(c.span.text.split()) > 3]
    if not how:
        return tuple(sentences)
    best = max(how, key=lambda c: c.score)
    kept = list(sentences)
    if len(kept) >= most:
        kept.remove(min(kept[1:], key=lambda s: s.score))
    at = max(i for i, s in enumerate(kept) if s.passage == own) + 1
    return tuple(kept[:at] + [AnswerSentence(best.span.text, own, round(best.score, 4))] + kept[at:])


def _carries(quote: str, following: str, asks: str | None, relevant: Callable[[str], bool]) -> bool:
    """Whether a quote takes the sentence after it: one that points back to it and answers what is
    asked or names the topic ("It defaults to utf-8."), or one holding the unit asked for when the
    quote does not ("... would be silently truncated." | "Now, an OverflowError will be raised instead.")."""
    if len(following.split()) > POINTER_WORDS:
        return False
    if _POINTER.match(following) and (bonus(asks, following) > 0 or relevant(following)):
        return True
    return asks is not None and asks != "howto" and bonus(asks, following) > 0 >= bonus(asks, quote)


def dated(hits_texts: Sequence[tuple[str | None, tuple[str, ...], str]]) -> AnswerSentence | None:
    """"When was 0.28.0 released?": the first line that dates a release, among passages given as
    (release, heading path, text) in rank order, a final release before a pre-release ("1.0" is
    1.0.0, not 1.0.0-alpha): a release heading with its date ("0.28.0 (28th November, 2024)",
    "pytest 9.1.0 (2026-06-13)"), else a line of the text ("Released 2024-11-13"); None when none does."""
    ranked = sorted(enumerate(hits_texts, 1), key=lambda r: not _final(r[1][0]))
    for rank, (_, section, text) in ranked:
        heading = next((h for h in section if release_heading(h) and find_date(h)), None)
        if heading is not None:
            return AnswerSentence(heading, rank)
        line = next((line.strip() for line in text.splitlines()[:3] if release_line(line.strip()) and find_date(line)), None)
        if line is not None:
            return AnswerSentence(line, rank)
    return None


def _final(version: str | None) -> bool:
    return bool(version) and bool(re.fullmatch(r"v?\d+(?:\.\d+)*", version))


def _joined(text: str, before: Span, after: Span) -> bool:
    """Whether two sentences are of one paragraph (no blank line between them)."""
    return "\n\n" not in text[before.end: after.start] and not text[before.end: after.start].strip().startswith(("-", "*"))
