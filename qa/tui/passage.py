"""A ranked passage on the chat's answer card, and the pieces a digest row shares with it (a
one-line preview, the citation line).

Its own module so that the answer card (``widgets``) and the digest rows (``digest``) both use it
without importing each other.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from ..present import cite
from ..model import Passage
from ..text import safe

BAR_CELLS = 8
PREVIEW_CHARS = 160


def score_bar(score: float, best: float) -> str:
    """A bar of BAR_CELLS cells, full for the best score of the answer."""
    filled = round(BAR_CELLS * score / best) if best > 0 else 0
    filled = min(BAR_CELLS, max(1 if score > 0 else 0, filled))
    return "█" * filled + "░" * (BAR_CELLS - filled)


def preview(text: str) -> str:
    """The start of a passage on one line, for the card."""
    flat = " ".join(safe(text).split())
    return flat if len(flat) <= PREVIEW_CHARS else flat[: PREVIEW_CHARS - 1].rstrip() + "…"


def citation_line(passage: Passage) -> Content:
    """release badge · heading path · file:lines, styled from the theme."""
    c = passage.citation
    return Content.assemble(
        (f" {cite.release(c)} ", "bold $text on $accent"),
        " ",
        *(((c.kind, "$accent"), " ") if c.kind else ()),
        (safe(cite.heading(c) or c.title), "bold"),
        "  ",
        (safe(cite.location(c)), "$success"),
    )


def copy(widget, text: str, what: str) -> None:
    """Put ``text`` where Textual's ``App.copy_to_clipboard`` puts it, and say only that: an OSC 52
    sequence to the terminal, which copies it if it allows (many do not say when they refuse: tmux
    without set-clipboard on, macOS Terminal), and the chat's own clipboard, which Ctrl+V pastes."""
    widget.app.copy_to_clipboard(text)
    widget.notify(f"Sent {what} to the terminal's clipboard by OSC 52 (a terminal or tmux may ignore it); "
                  "Ctrl+V pastes it into the question", markup=False)


class PassageItem(Static, can_focus=True):
    """One ranked passage of an answer card: rank, score bar, release badge, heading path, file:lines."""

    BINDINGS = [
        Binding("enter", "open", "Open passage"),
        Binding("ctrl+k", "copy_citation", "Copy citation"),  # no printable key: typing goes to the input
        Binding("ctrl+t", "copy_text", "Copy text"),
    ]

    class Opened(Message):
        """The person asked to read the passage in its section."""

        def __init__(self, passage: Passage, question: str, sentences: tuple[str, ...]) -> None:
            super().__init__()
            self.passage = passage
            self.question = question
            self.sentences = sentences

    def __init__(self, passage: Passage, best: float, question: str, sentences: tuple[str, ...],
                 confident: bool = True) -> None:
        self.passage = passage
        self.question = question
        self.sentences = sentences
        head = Content.assemble(
            (f"[{passage.rank}] ", "bold $accent"),
            (score_bar(passage.score, best), "$primary" if confident else "$text-muted"),  # muted: no answer
            (f" {passage.score:.3f} ", "$text-muted"),
            citation_line(passage),
        )
        super().__init__(Content.assemble(head, "\n", (preview(passage.text), "$text-muted")))

    def action_open(self) -> None:
        self.post_message(self.Opened(self.passage, self.question, self.sentences))

    def on_click(self) -> None:
        self.action_open()

    def action_copy_citation(self) -> None:
        copy(self, cite.plain(self.passage.citation), f"the citation of passage [{self.passage.rank}]")

    def action_copy_text(self) -> None:
        copy(self, self.passage.text, f"the text of passage [{self.passage.rank}]")
