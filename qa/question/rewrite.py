"""The text work of a follow-up: words and edges of a question, its subject, a new subject swapped
in and releases put back (``followup`` decides which rule applies; this module only rewrites)."""

from __future__ import annotations

import re

from corpus.regex import lazy_compile

from .vocabulary import FRAME_WORDS, JOINERS

_WORD = lazy_compile(r"\w[\w.+#/-]*")
CONNECTIVES = r"(?:(?:and|but|also|so|ok(?:ay)?|now|then|well)\b[\s,]*)*"
_QUALIFIER_PREPS = frozenset("for on in with under using via".split())
_TRAILING = lazy_compile(r"(?:[\s?!.,;:]|\b(?:in|for|on|of|from|since|with|to|and)\b)+$", re.IGNORECASE)


def words_of(text: str) -> list[str]:
    """Lower-case words, code names whole (``torch.compile``), contractions split (``what's``)."""
    return [w.rstrip(".-/").lower() for w in _WORD.findall(text.replace("’", "'"))]


def clean(text: str) -> str:
    """Text without edge punctuation, or a trailing preposition a removed release left behind."""
    text = re.sub(r"\s+([?!.,;:])", r"\1", " ".join(text.split()))
    return _TRAILING.sub("", text).strip(" ?!.,;:")


def tidy(text: str) -> str:
    return re.sub(r"\s+([?!.,;:])", r"\1", " ".join(text.split()))


def strip_connectives(text: str) -> str:
    """``and how fast is it?`` -> ``how fast is it?``."""
    return re.sub(r"^" + CONNECTIVES, "", text, flags=re.IGNORECASE) or text


def subject_of(topic: str) -> str:
    """What a question is about: its longest run of content words (the later of equals), joined by
    prepositions or articles.

    "how do i turn on nvgemm in inductor" -> "nvgemm in inductor"; "what changed for MPS" -> "MPS".
    """
    tokens = topic.split()
    best: tuple[int, int, int] = (0, 0, 0)  # (content words, start, end)
    start = None
    content = 0
    for i, token in enumerate([*tokens, ""]):
        parts = words_of(token)
        is_content = bool(parts) and not all(p in FRAME_WORDS for p in parts)
        if is_content:
            start = i if start is None else start
            content += 1
            end = i + 1
            if content >= best[0]:  # ties go to the later run: "how fast is X" is about X
                best = (content, start, end)
        elif start is None or not parts or parts[0] not in JOINERS:
            start, content = None, 0
    return " ".join(tokens[best[1] : best[2]]).strip(" ?!.,;:") if best[0] else topic


def swap(topic: str, x: str, prep: str | None) -> str:
    """The previous topic asked about ``x`` instead (rule 4 of the module docstring).

    Its trailing qualifier ("... for MPS") is replaced, keeping its preposition; else, when the
    follow-up gave no preposition, a subject of 1-2 words ("how do I enable MPS"); else
    ``prep x`` ("for x") is appended.
    """
    tokens = topic.split()
    for i in range(len(tokens) - 2, max(0, len(tokens) - 6), -1):  # the last preposition, 1-4 words from the end
        if tokens[i].lower() in _QUALIFIER_PREPS:
            return " ".join([*tokens[: i + 1], x])
    subject = subject_of(topic)
    at = f" {topic} ".rfind(f" {subject} ")
    if prep is None and len(subject.split()) <= 2 and at >= 0:
        return topic[:at] + x + topic[at + len(subject) :]
    return f"{topic} {prep or 'for'} {x}"


def with_releases(topic: str, releases: tuple[str, ...], known: tuple[str, ...]) -> str:
    """``topic in 2.13`` (``in release 3.0`` for a major the corpus lacks, so the engine reads it)."""
    if not releases:
        return topic
    majors = {k.split(".")[0] for k in known}
    if all(r.split(".")[0] in majors for r in releases):
        return f"{topic} in {' and '.join(releases)}"
    return f"{topic} in {' and '.join('release ' + r for r in releases)}"
