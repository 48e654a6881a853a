"""The chat's screens: a passage in its section, help and errors (the release picker is in picker.py)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Static

from corpus.regex import lazy_compile

from ..present import cite
from ..answer.section import SectionView
from ..text import safe
from .passage import copy

_WORD = lazy_compile(r"[^\W_]+(?:[._-][^\W_]+)*")


def emphasise(text: str, question: str, sentences: tuple[str, ...] = (), passage: bool = False) -> Content:
    """``text`` with the answer sentences highlighted and the question's terms in bold.

    Terms match by the index's own tokenizer (stemmed, code-aware), so "enabling" in the text
    lights up for "enable" in the question. The text itself is never parsed as markup.
    """
    from index import tokenize  # PyStemmer: not needed to put the chat on screen

    from ..question import ASKING_TERMS

    shown = safe(text)
    content = Content(shown)
    if passage:
        content = content.stylize("on $boost")
    for sentence in map(safe, sentences):
        at = shown.find(sentence)
        if at >= 0:
            content = content.stylize("$text on $warning-muted", at, at + len(sentence))
    terms = set(tokenize(question)) - ASKING_TERMS
    if terms:
        for match in _WORD.finditer(shown):
            if terms.intersection(tokenize(match.group())):
                content = content.stylize("bold underline", match.start(), match.end())
    return content


class PassageScreen(Screen):
    """A passage in its whole section, scrolled to the passage, with the full citation.

    Its keys are the card's (Ctrl+K, Ctrl+T) and Ctrl+E, never a letter: text typed here is the
    next question, which the app takes to the question box (``ChatApp.on_key``).
    """

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+k", "copy_citation", "Copy citation"),
        Binding("ctrl+t", "copy_text", "Copy text"),
        Binding("ctrl+e", "edit", "Open in $EDITOR"),
    ]

    def __init__(self, view: SectionView, question: str, sentences: tuple[str, ...], passage) -> None:
        super().__init__()
        self.view = view
        self.question = question
        self.sentences = sentences
        self.passage = passage

    def compose(self) -> ComposeResult:
        c = self.view.citation
        head = [(safe(c.title), "bold"), "  ", (f" {cite.release(c)} ", "bold $text on $accent"), "\n",
                (safe(cite.heading(c)), "bold $primary"), "\n", (safe(cite.location(c)), "$success")]
        if c.url:
            head += ["\n", (safe(c.url), "underline $secondary")]
        yield Static(Content.assemble(*head), id="citation")
        with VerticalScroll(id="section"):
            if self.view.before:
                yield Static(emphasise(self.view.before, self.question), classes="context")
            yield Static(emphasise(self.view.passage, self.question, self.sentences, passage=True), id="passage")
            if self.view.after:
                yield Static(emphasise(self.view.after, self.question), classes="context")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.call_after_refresh(self._scroll_to_passage)

    def _scroll_to_passage(self) -> None:
        self.query_one("#section").scroll_to_widget(self.query_one("#passage"), top=True, animate=False)
        self.query_one("#section").focus()

    def action_copy_citation(self) -> None:
        copy(self, cite.plain(self.passage.citation), "this passage's citation")

    def action_copy_text(self) -> None:
        copy(self, self.passage.text, "this passage's text")

    def action_edit(self) -> None:
        """Open the cited file at the passage's first line in $VISUAL or $EDITOR, the chat suspended."""
        import os
        import subprocess

        from ..show import editor_command, source_file

        c = self.passage.citation
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        path = source_file(c.source)
        if c.body_field:
            self.notify(f"Its lines count in the decoded {c.body_field} of a JSON record, which no editor shows; "
                        f"print them with: relnotes show {c.source}:{c.lines[0]}-{c.lines[1]}", markup=False)
        elif path is None:
            self.notify(f"{c.source} is not on disk here; relnotes show prints the cited lines", markup=False)
        elif not editor:
            self.notify("Set $EDITOR (or $VISUAL) to open passages in your editor", markup=False)
        else:
            try:
                with self.app.suspend():
                    subprocess.call(editor_command(editor, path, c.lines[0]))
            except Exception as exc:  # noqa: BLE001 (SuspendNotSupported, a missing editor: say it, keep the chat)
                self.notify(f"Could not open {editor}: {exc}", severity="error", markup=False)


HELP = """\
Ask a question and press Enter. The answer quotes the best
sentences [n]; below it, the ranked passages with release,
heading path and file:lines.

Keys
  Enter      ask / open the focused passage or item
  Up, Down   earlier and later questions (kept between runs)
  Tab        from the input to the newest answer's passages
             and back; Enter opens the focused one
  Alt+1-9    open passage n of the newest answer, also over
             an open passage. Where Alt+1 arrives as Esc 1
             (tmux, xterm) or Option+1 types ¡, that key
             opens it: while the answer has that passage,
             ¡ ™ £ ¢ ∞ § ¶ • ª are pasted, not typed
  Click      on a passage or digest item opens it; Ctrl+P
             "Open the first passage" opens passage 1
  Ctrl+K     copy the focused (or open) passage's citation
  Ctrl+T     copy the focused (or open) passage's text
  Ctrl+E     in an open passage: the file in $EDITOR
  Typing     always goes to the question, wherever the
             focus is (an open passage closes): no letter
             or digit fires an action
  Escape     back from a passage or a dialog
  F1         this help
  F2         mode: auto, hybrid, bm25, dense
  F3         top-k: 3, 5, 10
  F4         filter on a release or a range (Shift+Up/Down)
  Ctrl+L     clear the release filter (or click the chip)
  Ctrl+S     export the transcript to Markdown, in the user
             data folder (or --export-dir): the notice
             gives the file's path
  Ctrl+R     load the index again after a failed load
  Ctrl+P     all commands
  Ctrl+Q     quit, at once also while the index is built
             (the build stops; the next start does it)

Follow-ups
  A release a question names applies to it and to its
  follow-ups ("and in 2.13?", "how do I enable it?"),
  asked in the context of the previous question; the card
  shows "asked as: ..." and "kept from the previous
  question". A question with a topic of its own searches
  every release, unless you set the filter (F4). Name a
  release with "in 2.14", "PyTorch 2.13" or "release:2.9".
"""


class HelpScreen(ModalScreen[None]):
    """What the keys do and how follow-ups and filters work."""

    BINDINGS = [Binding("escape,f1,question_mark,q", "app.pop_screen", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Content.styled("relnotes chat: help", "bold $accent"))
            yield Static(HELP, markup=False)


class ErrorScreen(ModalScreen[None]):
    """A failure the person can fix, with the fix; the app keeps running after it closes."""

    BINDINGS = [Binding("escape,enter", "app.pop_screen", "Close")]

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="error"):
            yield Static(Content.styled(self.title_text, "bold $error"))
            yield Static(Content(safe(self.message)), id="error-message")
            yield Button("OK", variant="error", id="error-ok")

    def on_button_pressed(self) -> None:
        self.app.pop_screen()
