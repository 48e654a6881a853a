"""What the chat needs from the answering service: answers, the section around a passage, index facts.

The app talks to a ``ChatBackend``; ``qa.service.AnswerService`` is the real one and the tests
pass deterministic fakes with the same shape. No Textual here.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from ..answer.section import SectionView
from ..model import Answer, Passage, ReleaseRange
from ..question import Question
from ..question.mentions import Catalogue
from ..service import IndexInfo
from ..staging import Retrieval


class ChatBackend(Protocol):
    """The answering service as the chat sees it (``qa.service.AnswerService``)."""

    releases: tuple[str, ...]
    products: tuple[str, ...]
    catalogue: Catalogue  # the releases and products questions are read against (``qa.question.read``)
    info: IndexInfo

    def ask(self, question: Question, top_k: int = 5, mode: str = "auto", releases: Sequence[str] = (), *,
            products: Sequence[str] = (), kinds: Sequence[str] = (), span: ReleaseRange | None = None) -> Answer:
        """Answer ``question`` as read (``read``)."""

    def section(self, passage: Passage) -> SectionView:
        """The whole section ``passage`` comes from."""

    def release_groups(self) -> tuple[tuple[str | None, tuple[str, ...]], ...]:
        """Each product with its releases, oldest first (the release picker groups by them)."""

    def held(self, release: str, products: Sequence[str] = ()) -> bool:
        """Whether the corpus holds ``release`` (2.13 covers 2.13.1), of one of ``products`` when given."""

    def refresh(self) -> IndexInfo:
        """The index facts again (age, and whether the corpus changed since the build)."""

    def retrieval(self) -> Retrieval:
        """What answers now: hybrid, or BM25 while the index's vectors are built (and how far they are)."""
