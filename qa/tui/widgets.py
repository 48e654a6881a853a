"""The chat's widgets: the question input with history, answer cards (their passages: ``passage``), chips, status bar.

Document and question text reaches the screen only as ``Content`` built from plain strings (or
``Static(..., markup=False)``), so ``[bold]`` or ``[link=...]`` in release notes stays literal.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input, LoadingIndicator, Static

from ..model import Answer, ReleaseRange
from ..present import notes
from ..text import safe
from .passage import PassageItem

ESCAPED_DIGITS = ("inverted_exclamation_mark", "trade_mark_sign", "pound_sign", "cent_sign", "infinity",
                  "section_sign", "pilcrow_sign", "bullet", "ª")
"""The keys Textual reports for ESC 1 ... ESC 9, what tmux and xterm send for Alt+1 ... Alt+9
(``textual/_ansi_sequences.py`` maps "\\x1b1" to "¡", the character macOS's Option+1 types)."""


class QuestionInput(Input):
    """The question box: Enter asks; Up and Down walk through earlier questions."""

    BINDINGS = [
        Binding("up", "history_back", "Earlier question", show=False),
        Binding("down", "history_forward", "Later question", show=False),
    ]

    def __init__(self, history: list[str] | None = None, **kwargs) -> None:
        # select_on_focus off: a key typed elsewhere moves focus here and must not be selected away
        super().__init__(placeholder="Ask about the release notes…  (F1 help)", select_on_focus=False, **kwargs)
        self.history: list[str] = list(history or [])
        self._position: int | None = None
        self._draft = ""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """ESC 1 ... ESC 9 reach the app's open-passage bindings first (Textual hides a binding
        on a key the focused input would type); with no such passage they come back and are typed."""
        return key not in ESCAPED_DIGITS and super().check_consume_key(key, character)

    def remember(self, question: str) -> None:
        """Add a question to the in-memory history (the app persists it)."""
        if not self.history or self.history[-1] != question:
            self.history.append(question)
        self._position = None

    def _show(self, text: str) -> None:
        self.value = text
        self.cursor_position = len(text)

    def action_history_back(self) -> None:
        if not self.history:
            return
        if self._position is None:
            self._draft = self.value
            self._position = len(self.history) - 1
        else:
            self._position = max(0, self._position - 1)
        self._show(self.history[self._position])

    def action_history_forward(self) -> None:
        if self._position is None:
            return
        self._position += 1
        if self._position >= len(self.history):
            self._position = None
            self._show(self._draft)
        else:
            self._show(self.history[self._position])


class QuestionBubble(Static):
    """A question in the transcript, as the person typed it."""

    def __init__(self, question: str) -> None:
        super().__init__(Content.assemble(("› ", "bold $accent"), (safe(question), "bold")))


class AnswerCard(Vertical):
    """The answer to one question: pending while the engine works, then the answer and its passages."""

    def __init__(self, question: str) -> None:
        super().__init__(classes="pending")
        self.question = question
        self.answer: Answer | None = None
        self.bubble: QuestionBubble | None = None  # the question above the card, set by the app
        self.kept: str | None = None  # "release 2.13, kept from the previous question" when the filter was carried
        self._state = Content.styled("Waiting for the index to load…", "$text-muted")

    def compose(self):
        yield Static(self._state, classes="state")
        yield LoadingIndicator()

    def asking(self, asked_as: str | None, releases: tuple[str, ...]) -> None:
        """The engine is on it; show the question as understood when it differs from what was typed."""
        understood = _understood(self.question, asked_as, releases)
        self._state = Content.assemble(*understood, "\n" if understood else "", ("Answering…", "$text-muted"))
        for state in self.query(".state").results(Static):
            state.update(self._state)

    async def show(self, answer: Answer) -> None:
        """Replace the pending state by the answer, its note and its passages."""
        self.answer = answer
        self.remove_class("pending")
        await self.remove_children()
        shown: list = []
        parts = _understood(self.question, answer.asked_as, answer.releases, answer.products, answer.kinds, self.kept,
                            answer.range)
        if parts:
            shown.append(Static(Content.assemble(*parts), classes="asked-as"))
        if answer.sentences:
            body: list = [("Answer: ", "bold $success")]
            for i, s in enumerate(answer.sentences):
                body += [" " if i else "", safe(s.text), (f" [{s.passage}]", "bold $accent")]
            shown.append(Static(Content.assemble(*body), classes="answer"))
        if answer.notes:
            shown.append(Static(Content.styled(safe(notes.joined(answer.notes)), "$warning"), classes="note"))
        if answer.digest is not None and answer.digest.releases:
            from .digest import digest_widgets

            shown += digest_widgets(answer.digest, answer.question)
        if answer.nearby:
            shown.append(Static(Content.styled("Nearest passages, not an answer:", "$text-muted"), classes="note"))
            best_near = max(p.score for p in answer.nearby)
            shown += [PassageItem(p, best_near, answer.question, (), False) for p in answer.nearby]
        best = max((p.score for p in answer.passages), default=0.0)
        sentences = tuple(s.text for s in answer.sentences)
        confident = answer.confident
        shown += [PassageItem(p, best, answer.question, sentences, confident) for p in answer.passages]
        await self.mount_all(shown)

    def fail(self, message: str) -> None:
        """The question could not be answered; say why on the card."""
        self.remove_class("pending")
        self.add_class("failed")
        self.remove_children()
        self.mount(Static(Content.styled(safe(message), "$error"), classes="note"))

    def superseded(self) -> None:
        """A newer question was asked before this one finished."""
        self.remove_class("pending")
        self.add_class("superseded")
        self.remove_children()
        self.mount(Static(Content.styled("Skipped: a newer question was asked.", "$text-muted"), classes="note"))

    def passages(self) -> list[PassageItem]:
        return list(self.query(PassageItem))


def _understood(question: str, asked_as: str | None, releases: tuple[str, ...], products: tuple[str, ...] = (),
                kinds: tuple[str, ...] = (), kept: str | None = None, span: ReleaseRange | None = None) -> list:
    """The question as understood: its rewording, release filter or range (and whether it was kept
    from the previous question), (in a corpus of several) products, kinds."""
    parts: list = []
    if asked_as and asked_as != question:
        parts += [("asked as: ", "$text-muted"), (safe(asked_as), "italic")]
    if (releases or span is not None) and kept:
        parts += ["  " if parts else "", (safe(kept), "bold $warning")]
    elif releases:
        parts += ["  " if parts else "", ("release: ", "$text-muted"), (", ".join(releases), "bold $accent")]
    elif span is not None:
        parts += ["  " if parts else "", ("releases: ", "$text-muted"), (span.describe(), "bold $accent")]
    if products:
        parts += ["  " if parts else "", ("products: ", "$text-muted"), (safe(", ".join(products)), "bold $accent")]
    if kinds:
        parts += ["  " if parts else "", ("kinds: ", "$text-muted"), (", ".join(kinds), "bold $accent")]
    return parts


def releases_text(releases: tuple[str, ...]) -> str:
    """``2.9, 2.13``; a picked range of more than three as ``2.0 … 2.4 (6 releases)``."""
    if len(releases) > 3:
        return f"{releases[0]} … {releases[-1]} ({len(releases)} releases)"
    return ", ".join(releases)


class FilterChip(Static):
    """The release filter in force, e.g. ``release: 2.13 ✕``; clicking it clears the filter."""

    class Cleared(Message):
        """The person removed the release filter."""

    releases: reactive[tuple[str, ...]] = reactive((), layout=True)
    product: reactive[str | None] = reactive(None, layout=True)

    def render(self) -> Content:
        if not self.releases:
            return Content("")
        shown = releases_text(self.releases)
        return Content.assemble(("release: ", ""), ((f"{self.product} " if self.product else "") + shown, "bold"),
                                ("  ✕ ", ""))

    def watch_releases(self, releases: tuple[str, ...]) -> None:
        self.display = bool(releases)

    def on_click(self) -> None:
        self.post_message(self.Cleared())


class ChipBar(Horizontal):
    """Filter chips above the input, and a hint of how to clear them."""

    def compose(self):
        yield FilterChip(id="release-chip")
        yield Static(Content.styled("Ctrl+L clears · F4 picks a release", "$text-muted"), id="chip-hint")

    def set_releases(self, releases: tuple[str, ...], product: str | None = None) -> None:
        chip = self.query_one(FilterChip)
        chip.product = product
        chip.releases = tuple(releases)
        self.display = bool(releases)


class StatusBar(Static):
    """Mode (bm25 -> hybrid while the vectors are built), top-k, corpus, chunk count, index age and
    whether the index is stale or still loading."""

    mode: reactive[str] = reactive("auto")
    top_k: reactive[int] = reactive(5)
    state: reactive[str] = reactive("loading")  # loading | ready | failed
    facts: reactive[str] = reactive("")
    pending: reactive[str] = reactive("")  # while the vectors are built: "1,204/9,000 texts" (or "started")

    def render(self) -> Content:
        where = {"loading": ("loading model and index…", "$warning"), "failed": ("no index loaded", "$error")}
        mode = (self.mode, "bold")
        if self.pending and self.mode != "bm25":  # BM25 answers until the vectors are in, then the mode asked
            coming = "hybrid" if self.mode == "auto" else self.mode
            mode = Content.assemble(("bm25", "bold"), (f" → {coming} (vectors {self.pending})", "$warning"))
        return Content.assemble(
            ("mode ", "$text-muted"), mode,
            ("  top ", "$text-muted"), (str(self.top_k), "bold"),
            "  ",
            where.get(self.state, (safe(self.facts), "")),
        )
