"""The chat's actions behind its keys and palette: filters, mode and top-k, passages, export, copy.

A mixin of ``ChatApp`` (``qa.tui.app``), which holds the state these act on; message handlers
stay on the App class itself, where Textual looks for them.
"""

from __future__ import annotations

from datetime import datetime

from textual.containers import VerticalScroll

from index import ASKED_MODES as MODES

from ..history import user_data_dir
from .passage import PassageItem
from .picker import Picked, ReleasePicker
from .screens import HelpScreen, PassageScreen
from .widgets import ChipBar, StatusBar

TOP_KS = (3, 5, 10)
TRANSCRIPTS = "transcripts"  # the folder of the user data folder Ctrl+S writes to (no --export-dir)


class ChatActions:
    """What the keys do; ``self`` is the ChatApp."""

    # --- filters, mode, top-k -----------------------------------------------------------
    def set_filter(self, releases: tuple[str, ...], product: str | None = None) -> None:
        """Put a release filter (of ``product``, in a corpus of several) in force and show it as
        the chip (() clears it)."""
        self.talk.set_releases(releases, (product,) if product else ())
        self.query_one(ChipBar).set_releases(self.release_filter, product if releases else None)

    def chip_product(self) -> str | None:
        """The product the chip names, in a corpus of several: the one the question was about
        that holds the filter's releases, else the only product holding them (None if several)."""
        if self.backend is None or len(self.backend.products) < 2 or not self.release_filter:
            return None
        named = self.turn.products if self.turn is not None else ()
        for candidates in (named, self.backend.products):
            holding = [p for p in candidates if all(self.backend.held(r, (p,)) for r in self.release_filter)]
            if len(holding) == 1:
                return holding[0]
        return None

    def action_clear_filter(self) -> None:
        """Forget the release filter: the next question searches every release."""
        if self.release_filter:
            self.set_filter(())
            self.notify("Release filter cleared", markup=False)

    def action_pick_release(self) -> None:
        if self.backend is None:
            self.notify("The index is still loading", severity="warning", markup=False)
            return

        def chosen(picked: Picked | None) -> None:
            if picked is not None:
                self.set_filter(picked.releases, picked.product)

        groups = self.backend.release_groups()
        self.push_screen(ReleasePicker(self.backend.releases, self.release_filter, groups), chosen)

    def action_cycle_mode(self) -> None:
        self.mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)] if self.mode in MODES else MODES[0]
        self.query_one(StatusBar).mode = self.mode
        self.notify(f"Mode: {self.mode}", markup=False)

    def action_cycle_top_k(self) -> None:
        bigger = [k for k in TOP_KS if k > self.top_k]
        self.top_k = bigger[0] if bigger else TOP_KS[0]
        self.query_one(StatusBar).top_k = self.top_k

    def action_retry_load(self) -> None:
        """Load the model and index again (after fixing what the error dialog said)."""
        if self.load_failed:
            self.load_failed = False
            self.query_one(StatusBar).state = "loading"
            self.refresh_bindings()
            self.load_backend()

    def newest_passage(self, number: int = 1) -> PassageItem | None:
        """Passage ``number`` of the newest answer, if it has one."""
        shown = [c for c in self.cards if c.answer is not None]
        items = shown[-1].passages() if shown else []
        return items[number - 1] if 1 <= number <= len(items) else None

    def action_open_passage(self, number: int) -> None:
        """Open passage ``number`` of the newest answer (in place of the passage open, if any)."""
        item = self.newest_passage(number)
        if item is not None:
            if isinstance(self.screen, PassageScreen):
                self.pop_screen()
            item.action_open()

    def action_scroll_transcript(self, direction: int) -> None:
        transcript = self.query_one("#transcript", VerticalScroll)
        (transcript.scroll_page_down if direction > 0 else transcript.scroll_page_up)(animate=False)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    # --- export -------------------------------------------------------------------------
    def transcript_markdown(self) -> str:
        """Every answered question of this session as the Markdown report of ``relnotes batch``."""
        from ..present.formats import markdown_report

        answered = [c.answer for c in self.cards if c.answer is not None]
        return markdown_report([(str(n), answer) for n, answer in enumerate(answered, 1)])

    def action_export(self) -> None:
        """Write the transcript to ``--export-dir``, else to TRANSCRIPTS in the user data folder
        (never the current folder, which may be a checkout), and say its full path."""
        folder = self.export_dir or user_data_dir() / TRANSCRIPTS
        path = folder / f"relnotes-chat-{datetime.now():%Y%m%d-%H%M%S}.md"
        try:
            if self.export_dir is None:
                folder.mkdir(parents=True, exist_ok=True)
            path.write_text(self.transcript_markdown(), encoding="utf-8")
        except OSError as exc:
            self.notify(f"Could not write {path}: {exc.strerror or exc}; choose a writable folder with "
                        "relnotes chat --export-dir DIR", title="Export failed", severity="error", markup=False)
            return
        self.notify(f"Transcript written to {path.resolve()}", markup=False)

    def _newest_passage(self) -> PassageItem | None:
        shown = [c for c in self.cards if c.answer is not None and c.passages()]
        return shown[-1].passages()[0] if shown else None

    def action_copy_top(self, what: str) -> None:
        """Copy the focused passage's (or else the newest answer's first passage's) citation or text."""
        item = self.focused if isinstance(self.focused, PassageItem) else self._newest_passage()
        if item is None:
            self.notify("No passage to copy yet", severity="warning", markup=False)
        elif what == "text":
            item.action_copy_text()
        else:
            item.action_copy_citation()
