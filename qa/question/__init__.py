"""A question read once: ``read`` turns what a person typed into a frozen ``Question`` (its releases,
range, products, shape, topic, kind of change, how-to, follow-up resolution) that the engine, the
service and every front end take; nothing outside this package matches a question's words."""

from .followup import FollowUp, Turn
from .parse import Question, read
from .ranges import BadBound, range_of
from .releases import MAX_QUESTION_CHARS, check_question, release_name
from .shapes import SHAPES, Shape
from .vocabulary import ASKING_TERMS, QUESTION_ONLY_TERMS

__all__ = [
    "ASKING_TERMS",
    "MAX_QUESTION_CHARS",
    "QUESTION_ONLY_TERMS",
    "SHAPES",
    "BadBound",
    "FollowUp",
    "Question",
    "Shape",
    "Turn",
    "check_question",
    "range_of",
    "read",
    "release_name",
]
