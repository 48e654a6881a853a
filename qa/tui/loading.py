"""Opening the chat's answering service: on a thread of its own, its facts on the status bar
(refreshed every REFRESH_SECONDS), the questions asked meanwhile answered once it is open, a
failure in a dialog, and quitting while it opens (``Opening``).

A mixin of ``ChatApp`` (``qa.tui.app``), which holds the state it sets, as ``ChatActions`` is.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from textual import work
from textual.message import Message

from ..errors import USER_ERRORS
from .backend import ChatBackend
from .screens import ErrorScreen
from .widgets import StatusBar

REFRESH_SECONDS = 60
POLL_SECONDS = 0.1  # how often the worker looks whether the chat has quit while the index opens
STOP_GRACE_SECONDS = 2.0  # how long ``relnotes chat`` waits, after a quit, for a stepping build to stop cleanly


class LoadStopped(KeyboardInterrupt):
    """Raised in the opening thread at its next notice or progress step once the chat has quit: a
    build stops as on Ctrl+C in the CLI (its temporary folder removed, the index on disk unchanged)."""


class LoadNotice(Message):
    """A progress notice of the opening thread, for the app to show."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class Opening:
    """One run of the backend factory on a daemon thread of its own, so that quitting never waits
    for it: Ctrl+Q sets ``stop``, the factory raises LoadStopped at its next notice or progress
    step (``check``), and a step that reports nothing (loading the model, exporting it) is left
    to end with the process, which the index's atomic writes allow (``index.atomic``).

    The factory gets this object as its ``notify``: call it with a notice; ``check()`` between steps.
    """

    def __init__(self, app, factory: BackendFactory) -> None:
        self.app = app
        self.stop = threading.Event()
        self.done = threading.Event()
        self.reported = False  # a notice or a progress step came: a build (or an export) was under way
        self.last_step = 0.0  # time.monotonic() of the last notice or progress step
        self.backend: ChatBackend | None = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(factory,), name="relnotes-chat-open", daemon=True)

    def __call__(self, message: str) -> None:
        """Show ``message`` in the chat (it does not wait for the app to show it)."""
        self.check()
        try:
            self.app.post_message(LoadNotice(message))
        except RuntimeError:  # the app's loop closed between the check and the post: it has quit
            raise LoadStopped from None

    def check(self) -> None:
        """Raise LoadStopped once the chat has quit (called at every step of a build)."""
        if self.stop.is_set():
            raise LoadStopped
        self.reported, self.last_step = True, time.monotonic()

    def _run(self, factory: BackendFactory) -> None:
        try:
            self.backend = factory(self)
        except BaseException as exc:  # noqa: BLE001 - handed to the worker, which re-raises what is not ours
            self.error = exc
        finally:
            self.done.set()

    def wait(self) -> bool:
        """Run the factory; True when it returned or failed, False when the chat quit first."""
        self._thread.start()
        while not self.done.wait(POLL_SECONDS):
            if self.stop.is_set():
                return False
        return not self.stop.is_set()


BackendFactory = Callable[[Opening], ChatBackend]
"""Builds the backend; called on the opening thread with the ``Opening`` as its ``notify``."""


class ChatLoading:
    """Loading the backend; ``self`` is the ChatApp."""

    opening: Opening | None = None

    @work(thread=True, exclusive=True, group="load")
    def load_backend(self) -> None:
        self.opening = opening = Opening(self, self.backend_factory)
        if not opening.wait():
            return  # the chat quit: the build stops at its next step, or with the process
        if isinstance(opening.error, USER_ERRORS):
            self.call_from_thread(self._load_failed, str(opening.error))
        elif opening.error is not None:
            raise opening.error  # a bug, not a failure a person can fix: Textual shows it
        else:
            self.call_from_thread(self._loaded, opening.backend)

    def stop_loading(self) -> bool:
        """Tell an opening under way to stop (the chat is quitting); True if one was building."""
        opening = self.opening
        if opening is None or opening.done.is_set():
            return False
        opening.stop.set()
        return opening.reported

    def wait_for_loading(self, timeout: float = STOP_GRACE_SECONDS) -> bool:
        """After a quit during a build that is stepping (its last step less than ``timeout`` ago),
        give it up to ``timeout`` seconds to stop cleanly at its next step; one inside a step that
        reports nothing is not waited for. True if nothing is left running."""
        opening = self.opening
        if opening is None:
            return True
        stepping = opening.stop.is_set() and time.monotonic() - opening.last_step < timeout
        return opening.done.wait(timeout) if stepping else opening.done.is_set()

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
