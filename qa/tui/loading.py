"""Opening the chat's answering service: in a worker thread, its facts on the status bar (refreshed
every REFRESH_SECONDS), the questions asked meanwhile answered once it is open, a failure in a dialog.

A mixin of ``ChatApp`` (``qa.tui.app``), which holds the state it sets, as ``ChatActions`` is.
"""

from __future__ import annotations

from typing import Callable

from textual import work

from ..errors import USER_ERRORS
from .backend import ChatBackend
from .screens import ErrorScreen
from .widgets import StatusBar

REFRESH_SECONDS = 60

BackendFactory = Callable[[Callable[[str], None]], ChatBackend]
"""Builds the backend; called in a worker thread with a ``notify(message)`` for progress notices."""


class ChatLoading:
    """Loading the backend; ``self`` is the ChatApp."""

    @work(thread=True, exclusive=True, group="load")
    def load_backend(self) -> None:
        def notify(message: str) -> None:
            self.call_from_thread(self.notify, message, markup=False)

        try:
            backend = self.backend_factory(notify)
        except USER_ERRORS as exc:
            self.call_from_thread(self._load_failed, str(exc))
            return
        self.call_from_thread(self._loaded, backend)

    def _loaded(self, backend: ChatBackend) -> None:
        self.backend = backend
        self.talk.service = backend
        self.load_failed = False
        self._show_info(backend.info)
        self.query_one(StatusBar).state = "ready"
        self.set_interval(REFRESH_SECONDS, self.refresh_info)
        self._check_filter(self.release_filter)
        waiting, self.waiting = self.waiting, []
        for seq, question, card in waiting:
            self._dispatch(seq, question, card)

    def _show_info(self, info) -> None:
        stale = " · STALE: restart the chat to rebuild" if info.stale else ""
        self.query_one(StatusBar).facts = f"{info.corpus} · {info.chunks} chunks · built {info.age()}{stale}"

    @work(thread=True, exclusive=True, group="refresh")
    def refresh_info(self) -> None:
        """Update the index age and whether the corpus changed since the build (every REFRESH_SECONDS)."""
        if self.backend is not None:
            self.call_from_thread(self._show_info, self.backend.refresh())

    def _check_filter(self, releases: tuple[str, ...]) -> None:
        """Drop releases the corpus does not hold from the filter, and say which and what it has."""
        missing = [r for r in releases if not self.backend.held(r)]
        if missing:
            self.set_filter(tuple(r for r in releases if r not in missing))
            self.notify(f"The corpus holds no release {', '.join(missing)} (it has: "
                        f"{', '.join(self.backend.releases) or 'none'}); F4 picks one.",
                        title="Unknown release", severity="warning", markup=False)

    def _load_failed(self, message: str) -> None:
        self.load_failed = True
        self.refresh_bindings()
        self.query_one(StatusBar).state = "failed"
        for _, _, card in self.waiting:
            card.fail(message)
        self.waiting = []
        self.push_screen(ErrorScreen("Could not open the index", message))
