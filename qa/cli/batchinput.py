"""Reading batch questions: one per line, or JSONL objects with ``question`` and optional ``id``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterable

from ..question import check_question
from ..errors import BatchInputError, QAError


@dataclass(frozen=True, slots=True)
class BatchQuestion:
    """A question read from line ``line`` of the input."""

    id: str
    question: str
    line: int


def parse_line(text: str, number: int, source: str) -> BatchQuestion | None:
    """One input line as a question (None for a blank line).

    Raises:
        BatchInputError: invalid JSON, no question, an overlong question or control characters.
    """
    if not text.strip():
        return None
    where = f"{source} line {number}"
    qid = str(number)
    question = text.rstrip("\r\n")
    if text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BatchInputError(f"{where}: invalid JSON ({exc.msg} at column {exc.colno}); fix or remove the line") from None
        if isinstance(obj, dict) and "question" in obj and not isinstance(obj["question"], str):
            raise BatchInputError(f"{where}: \"question\" must be a string, not {type(obj['question']).__name__} "
                                  f"{json.dumps(obj['question'])[:40]}; quote it")
        if not isinstance(obj, dict) or not isinstance(obj.get("question"), str) or not obj["question"].strip():
            raise BatchInputError(f"{where}: no question; write {{\"question\": \"...\", \"id\": \"...\"}}")
        question = obj["question"]
        if obj.get("id") is not None:
            qid = str(obj["id"])
    try:
        check_question(question)
    except QAError as exc:
        raise BatchInputError(f"{where}: {exc}") from None
    return BatchQuestion(qid, question, number)


def read_questions(lines: Iterable[str], source: str, *, skip_bad: bool, report) -> list[BatchQuestion]:
    """Every question of the input; without ``skip_bad`` the first bad line raises before any answering."""
    questions: list[BatchQuestion] = []
    for number, text in enumerate(lines, 1):
        try:
            q = parse_line(text, number, source)
        except BatchInputError as exc:
            if not skip_bad:
                raise
            report(f"skipped: {exc}")
            continue
        if q is not None:
            questions.append(q)
    return questions
