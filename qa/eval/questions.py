"""Question sets for evaluation: loading JSONL and deciding which passages are relevant.

Relevance is keyed to text, not chunk ids, so a question set survives re-chunking: a
passage is relevant when its release equals the question's ``version`` (if given) and its
text contains the ``answer`` (whitespace, case, backticks, asterisks and curly quotes
normalised), or, for a question without ``answer``, its heading path contains ``section``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from corpus.model import Chunk
from corpus.versions import version_matches

from ..errors import QuestionSetError


_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})


def normalise(text: str) -> str:
    """Lower-case, straight quotes, no backticks or asterisks, single spaces."""
    text = text.translate(_QUOTES).replace("`", "").replace("*", "").lower()
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Question:
    """One evaluation question with what makes a passage relevant to it."""

    id: str
    question: str
    version: str | None = None
    answer: str | None = None
    section: str | None = None
    kind: str | None = None

    def __post_init__(self) -> None:
        if not self.question.strip():
            raise ValueError("question must not be empty")
        if not (self.answer or self.section):
            raise ValueError("a question needs an 'answer' or a 'section' to judge passages by")

    def relevant(self, chunk: Chunk, normalised_text: str | None = None) -> bool:
        """Whether ``chunk`` answers this question (see the module docstring).

        ``normalised_text`` is ``normalise(chunk.text)`` when the caller has it already.
        """
        if self.version and not version_matches(chunk.version, self.version):
            return False
        if self.answer:
            text = normalised_text if normalised_text is not None else normalise(chunk.text)
            return normalise(self.answer) in text
        wanted = normalise(self.section or "")
        return any(wanted in normalise(h) for h in chunk.section)


def load_questions(path: Path) -> list[Question]:
    """Read a JSONL question set (``id``, ``question`` and any of version/answer/section/kind).

    Raises:
        QuestionSetError: the file is unreadable, or a line is invalid (the message names it).
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise QuestionSetError(f"Cannot read question set {path}: {exc}") from None
    questions: list[Question] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionSetError(f"{where}: invalid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("question"), str):
            raise QuestionSetError(f"{where}: expected an object with a 'question' string")
        qid = str(obj.get("id", number))
        if qid in seen:
            raise QuestionSetError(f"{where}: duplicate id {qid!r}; give each question its own id")
        seen.add(qid)
        wrong = [k for k in ("version", "answer", "section", "kind") if obj.get(k) is not None and not isinstance(obj[k], str)]
        if wrong:
            raise QuestionSetError(f'{where}: {wrong[0]!r} must be a string, e.g. "version": "2.10"')
        fields = {k: obj.get(k) for k in ("version", "answer", "section", "kind")}
        try:
            questions.append(Question(id=qid, question=obj["question"], **fields))
        except ValueError as exc:
            raise QuestionSetError(f"{where}: {exc}") from None
    if not questions:
        raise QuestionSetError(f"{path} holds no questions; write one JSON object per line")
    return questions


