"""Errors a user can fix when asking, batching or evaluating; front ends show them as one line."""

from __future__ import annotations

from corpus.errors import CorpusError
from index import RelnotesIndexError


class QAError(Exception):
    """Base class: a question-answering problem the user can fix."""


class BadQuestion(QAError):
    """Raised for an empty, overlong or control-character question, or a malformed ``release:``."""


class BatchInputError(QAError):
    """Raised for a batch line that is not a usable question; the message names the line."""


class QuestionSetError(QAError):
    """Raised when a question-set file is unreadable or a line is not a valid question."""


class BEIRError(QAError):
    """Raised when a BEIR folder lacks a file or holds a malformed one."""


# Every error a front end turns into a message (CLI: one line, exit 1; chat: a dialog or the card).
class CitationNotFound(QAError):
    """Raised when ``relnotes show`` finds no document or chunk for a citation, or lines past its end."""


class VectorsNotBuilt(QAError):
    """Hybrid or dense was asked by name and the vectors could not be built (never answered by BM25 instead)."""


USER_ERRORS = (CorpusError, RelnotesIndexError, QAError)
