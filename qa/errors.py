"""Errors a user can fix when asking questions; the CLI prints them as one line, exit 1."""


class QAError(Exception):
    """Base class: a question-answering problem the user can fix."""


class BadQuestion(QAError):
    """Raised for an empty, overlong or control-character question."""


class UnknownRelease(QAError):
    """Raised when a requested release is not in the corpus."""
