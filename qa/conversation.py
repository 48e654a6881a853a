"""The follow-up state of one person's questions, shared by the chat and ``relnotes ask --follow-up``.

    talk = Conversation(service)                     # an AnswerService (or an Engine)
    follow, answer = talk.ask("what changed for MPS in 2.14?")
    follow, answer = talk.ask("and in 2.13?")       # read against the previous question
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from .model import Answer, ReleaseRange
from .question import FollowUp, Question, Turn, read


class Conversation:
    """The follow-up state of one person's questions: the previous turn and the release filter in force.

    The chat and ``relnotes ask --follow-up`` read a follow-up the same way: the filter (the
    chat's chip) is the previous question's releases, which a follow-up naming none inherits
    (``qa.question.followup``), or one the person set (``pinned``: the chat's picker or
    ``--release``), which every question naming no release of its own is asked under until
    cleared; an explicit ``releases`` replaces it.
    """

    def __init__(self, service, turn: Turn | None = None, releases: Sequence[str] | None = None) -> None:
        """Args:
            service: an AnswerService, or anything with its ``catalogue``, ``held`` and ``ask`` (an Engine).
            turn: the previous question (``Entry.turn()`` from the history), or None.
            releases: the release filter in force; default the previous question's.
        """
        self.service = service
        self.turn = turn
        self.releases: tuple[str, ...] = tuple(releases if releases is not None else (turn.releases if turn else ()))
        self.pinned = releases is not None and bool(self.releases)  # set by the person, not by a question

    def read(self, question: str, releases: Sequence[str] = (), span: ReleaseRange | None = None,
             products: Sequence[str] = ()) -> Question:
        """``question`` read against the previous turn and the filter in force (nothing is asked
        yet); ``Question.follow`` says how it was resolved. ``products``: restrict to these too
        (the web page's product filter)."""
        return read(question, self.service.catalogue, self, releases=releases, products=products, span=span,
                    pins=getattr(self.service, "pins", None))

    def ask(self, question: str, top_k: int = 5, mode: str = "hybrid",
            releases: Sequence[str] = (), kinds: Sequence[str] = (),
            span: ReleaseRange | None = None, products: Sequence[str] = ()) -> tuple[FollowUp, Answer]:
        """Read ``question`` as a follow-up, answer it and make it the previous turn.

        Raises:
            BadQuestion, UnknownMode: as ``Engine.answer``; the state is left as it was.
        """
        asked = self.read(question, releases, span, products)
        answer = self.service.ask(asked, top_k, mode, kinds=kinds)
        self.answered(answer)
        return asked.follow, answer

    def answered(self, answer: Answer) -> tuple[str, ...]:
        """Make ``answer`` the previous turn: the releases it was asked about that the corpus holds
        become the filter, unless the person set one (it stays until cleared); a which-release
        question keeps the filter; a question with a topic of its own and no release ends it.

        Returns:
            The releases of the answer the corpus holds (fewer than asked: say which are not).
        """
        held = tuple(r for r in answer.releases if self.service.held(r, answer.products))
        self.turn = Turn(answer.question, answer.asked_as, held, tuple(answer.products), answer.range)
        if self.pinned:
            self.turn = replace(self.turn, releases=self.releases)
        elif held or answer.releases or answer.range is not None:  # a range names its own releases: no filter
            self.releases = held
        elif self.releases and answer.shape == "which":
            self.turn = replace(self.turn, releases=self.releases)
        else:
            self.releases = ()
        return held

    def set_releases(self, releases: Sequence[str], products: Sequence[str] = ()) -> None:
        """Put a release filter in force (the chat's F4 picker; () clears it): it applies to
        every question naming no release of its own until cleared. ``products``: the product the
        releases are of (a corpus of several), which the next question naming none is asked about."""
        self.releases = tuple(releases)
        self.pinned = bool(self.releases)
        products = tuple(products) if self.releases else ()
        if self.turn is not None:
            self.turn = replace(self.turn, releases=self.releases, span=None,
                                products=products or self.turn.products)
        elif products:
            self.turn = Turn("", "", self.releases, products)
