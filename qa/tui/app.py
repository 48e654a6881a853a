"""``ChatApp``: questions in, answer cards out, over a backend loaded in a worker thread.

The app holds no retrieval logic: follow-ups are read by ``qa.service.Conversation`` (as
``relnotes ask --follow-up`` reads them), answers come from the backend (the answering
service, opened by ``loading.ChatLoading``), and every slow call runs in a thread worker so the
UI never freezes; the keys' actions are ``actions.ChatActions``. Our own
errors (bad corpus, missing model, corrupt index, bad question) are shown in a dialog or on
the card; the app keeps running.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Iterable

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from ..errors import USER_ERRORS
from ..history import History
from ..present import notes
from ..question import Question, Turn
from ..conversation import Conversation
from .actions import ChatActions
from .backend import ChatBackend
from .commands import PALETTE
from .loading import BackendFactory, ChatLoading, LoadNotice
from .passage import PassageItem
from .screens import PassageScreen
from .widgets import ESCAPED_DIGITS, AnswerCard, ChipBar, FilterChip, QuestionBubble, QuestionInput, StatusBar


STOPPED_BUILD = ("relnotes chat: quit before the index was ready; its build stopped, the index on disk is "
                 "unchanged, and the next start builds it again.")


class ChatApp(ChatLoading, ChatActions, App):
    """Ask release notes questions one after another and read cited answers."""

    CSS_PATH = "chat.tcss"
    TITLE = "relnotes chat"

    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f2", "cycle_mode", "Mode"),
        Binding("f3", "cycle_top_k", "Top-k"),
        Binding("f4", "pick_release", "Release"),
        Binding("ctrl+l", "clear_filter", "Clear"),
        Binding("ctrl+s", "export", "Export"),
        Binding("ctrl+r", "retry_load", "Retry load"),
        Binding("ctrl+q", "quit", "Quit", priority=True),  # shown: a new user looks for it
        Binding("pageup", "scroll_transcript(-1)", "Scroll up", show=False),
        Binding("pagedown", "scroll_transcript(1)", "Scroll down", show=False),
        # alt+digit, never a printable key: typing a question anywhere never fires an action
        *(Binding(f"alt+{n}", f"open_passage({n})", f"Open passage {n}", show=False) for n in range(1, 10)),
        # Alt+digit as Escape-prefixed terminals send it (tmux, xterm: ESC 1), which Textual reads
        # as the character macOS's Option+digit types (¡ ™ £ ...): before the question box types it
        # (priority; the box lets it through), and only when that passage is there (check_action)
        *(Binding(key, f"open_passage({n})", f"Open passage {n}", show=False, priority=True)
          for n, key in enumerate(ESCAPED_DIGITS, 1)),
    ]

    def __init__(
        self,
        backend_factory: BackendFactory,
        *,
        mode: str = "auto",
        top_k: int = 5,
        releases: tuple[str, ...] = (),
        history: History | None = None,
        export_dir: Path | None = None,
        kinds: tuple[str, ...] = (),
    ) -> None:
        super().__init__()
        self.backend_factory = backend_factory
        self.backend: ChatBackend | None = None
        self.mode = mode
        self.top_k = top_k
        self.history = history if history is not None else History()
        self.export_dir = export_dir
        self.kinds = tuple(kinds)  # every question is restricted to these kinds of change (--kind)
        self.talk = Conversation(None, releases=tuple(releases))  # its service is set once loaded
        self.waiting: list[tuple[int, str, AnswerCard]] = []
        self.cards: list[AnswerCard] = []
        self.latest = 0
        self._seq = itertools.count(1)
        self.load_failed = False

    @property
    def turn(self) -> Turn | None:
        """The previous question, as follow-ups read it."""
        return self.talk.turn

    @property
    def release_filter(self) -> tuple[str, ...]:
        """The release filter in force (the chip)."""
        return self.talk.releases

    # --- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        transcript = VerticalScroll(
            Static(Content.styled("Ask about the release notes. F1 for help, Ctrl+Q to quit.", "$text-muted"),
                   id="welcome"),
            id="transcript",
        )
        transcript.can_focus = False  # Tab goes from the input to the passages, not to the scroller
        yield transcript
        yield ChipBar(id="chips")
        yield QuestionInput(self.history.questions(), id="question")
        yield StatusBar(id="status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        status = self.query_one(StatusBar)
        status.mode, status.top_k = self.mode, self.top_k
        self.query_one(ChipBar).set_releases(self.release_filter)
        self.query_one(QuestionInput).focus()
        for warning in self.history.warnings:
            self.notify(warning, severity="warning", markup=False)
        self.load_backend()

    # --- asking -------------------------------------------------------------------------
    @on(Input.Submitted, "#question")
    def _submitted(self, event: Input.Submitted) -> None:
        question = event.value.strip()
        if not question:
            return
        box = self.query_one(QuestionInput)
        box.remember(question)
        box.value = ""
        self.ask(question)

    def ask(self, question: str) -> AnswerCard:
        """Put the question and its (pending) card in the transcript and answer it when possible."""
        seq = next(self._seq)
        self.latest = seq
        card = AnswerCard(question)
        self.cards.append(card)
        transcript = self.query_one("#transcript", VerticalScroll)
        card.bubble = QuestionBubble(question)
        transcript.mount(card.bubble, card)
        transcript.scroll_end(animate=False)
        if self.backend is not None:
            self._dispatch(seq, question, card)
        elif self.load_failed:
            card.fail("No index is loaded; fix the error shown, then Ctrl+R to load it again.")
        else:
            self.waiting.append((seq, question, card))
        return card

    def _dispatch(self, seq: int, question: str, card: AnswerCard) -> None:
        """Read the question once, against the previous turn and the chip, and answer it in a worker.

        The turn and the chip change only when the answer arrives (a refused question leaves
        them as they were), and a question that names no release and inherits none (a
        which-release question) searches all releases without clearing the chip.
        """
        try:
            asked = self.talk.read(question)
        except USER_ERRORS as exc:
            self._failed(seq, card, str(exc))
            return
        card.kept = asked.follow.chip if asked.follow else None
        card.asking(asked.text, asked.releases)
        self._answer(seq, question, asked, self.top_k, self.mode, card)

    @work(thread=True, group="answer")
    def _answer(self, seq: int, question: str, asked: Question, top_k: int, mode: str, card: AnswerCard) -> None:
        if seq != self.latest:  # a newer question came in while this one waited
            self.call_from_thread(card.superseded)
            return
        started = time.perf_counter()
        try:
            answer = self.backend.ask(asked, top_k, mode, kinds=self.kinds)
        except USER_ERRORS as exc:
            self.call_from_thread(self._failed, seq, card, str(exc))
            return
        self.call_from_thread(self._answered, seq, question, card, answer, started)

    async def _answered(self, seq: int, question: str, card: AnswerCard, answer, started: float) -> None:
        if seq != self.latest:
            card.superseded()
            return
        for older in self.cards[:-1]:
            for item in older.query("PassageItem, DigestRow"):
                item.can_focus = False  # Tab and Alt+1-9 reach the newest answer; older ones still open on click
        await card.show(answer)
        held = self.talk.answered(answer)
        if answer.releases and held != tuple(answer.releases):
            self.notify(notes.joined(answer.notes) or "The corpus does not hold that release.", title="Unknown release",
                        severity="warning", markup=False)
        self.query_one(ChipBar).set_releases(self.release_filter, self.chip_product())
        for warning in self.history.record(self.talk.turn):
            self.notify(warning, severity="warning", markup=False)
        self.call_after_refresh(self._bring_into_view, card)
        self.log(f"answered in {(time.perf_counter() - started) * 1000:.0f} ms")

    def _bring_into_view(self, card: AnswerCard) -> None:
        """The newest question at the top of the transcript, its answer below it."""
        transcript = self.query_one("#transcript", VerticalScroll)
        transcript.scroll_to_widget(card.bubble or card, top=True, animate=False)

    def _failed(self, seq: int, card: AnswerCard, message: str) -> None:
        card.fail(message)
        if seq == self.latest:
            self.notify(message, title="Could not answer", severity="error", markup=False)

    def on_key(self, event: events.Key) -> None:
        """A printable key no binding took (focus on a passage, the transcript) goes to the input:
        typing a question never triggers an action, wherever the focus is (over an open passage:
        ``on_event``)."""
        if self.screen is not self.screen_stack[0] or not event.is_printable or not event.character:
            return
        box = self.query_one(QuestionInput)
        if self.focused is box:
            return
        box.focus()
        box.insert_text_at_cursor(event.character)
        event.stop()
        event.prevent_default()

    async def on_event(self, event: events.Event) -> None:
        """A printable key over an open passage is the start of the next question: the passage
        closes and the key goes into the question box. Taken here, before Textual hands it to the
        passage screen, where the keys typed after it in the same burst would be lost with the
        closing screen. Esc 1 ... Esc 9 still open a passage in its place (``ESCAPED_DIGITS``)."""
        if (isinstance(event, events.Key) and not event.is_forwarded and isinstance(self.screen, PassageScreen)
                and event.is_printable and event.character and not self._opens_passage(event.key)):
            self.pop_screen()
            box = self.query_one(QuestionInput)
            box.focus()
            box.insert_text_at_cursor(event.character)
            return
        await super().on_event(event)

    def _opens_passage(self, key: str) -> bool:
        return key in ESCAPED_DIGITS and self.newest_passage(ESCAPED_DIGITS.index(key) + 1) is not None

    async def action_quit(self) -> None:
        """Quit at once, also while the index is being built: the build is told to stop (as by
        Ctrl+C in the CLI) and the terminal gets a line saying so."""
        if self.stop_loading():
            self.exit(message=Text(STOPPED_BUILD))
        else:
            self.exit()

    # --- messages (handlers must be declared on the App class itself) --------------------
    @on(LoadNotice)
    def _load_notice(self, event: LoadNotice) -> None:
        self.notify(event.text, markup=False)

    @on(FilterChip.Cleared)
    def _chip_cleared(self) -> None:
        self.action_clear_filter()

    @on(PassageItem.Opened)
    def _open(self, event: PassageItem.Opened) -> None:
        if self.backend is None:
            return
        view = self.backend.section(event.passage)
        self.push_screen(PassageScreen(view, event.question, event.sentences, event.passage))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """The pickers work on the chat screen only; the open-passage keys there and over an open
        passage (which they replace), when the newest answer has that passage."""
        if action == "open_passage":
            over = self.screen is self.screen_stack[0] or isinstance(self.screen, PassageScreen)
            return over and self.newest_passage(*parameters) is not None
        if action in ("pick_release", "export") and self.screen is not self.screen_stack[0]:
            return False
        if action == "retry_load":
            return self.load_failed  # only after a failed load (the footer shows it then)
        return True

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for title, help_text, action in PALETTE:
            yield SystemCommand(title, help_text, lambda action=action: self.run_action(action))


def make_app(backend_factory: BackendFactory, **options) -> ChatApp:
    """The chat app for the CLI and the tests alike."""
    return ChatApp(backend_factory, **options)
