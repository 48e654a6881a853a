"""The answering service, opened in a background thread so the server answers the handshake at once."""

from __future__ import annotations

import copy
import threading
from typing import Callable


class BackgroundService:
    """Opens an AnswerService on a daemon thread when started; ``get()`` waits for it.

    A failed open (a bad corpus, a damaged index) is kept and raised again by every ``get()``,
    so each tool call says why, instead of the server dying before the client can read it.
    """

    def __init__(self, opener: Callable[[], object]) -> None:
        self._opener = opener
        self._done = threading.Event()
        self._service = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="relnotes-open", daemon=True)

    def start(self) -> "BackgroundService":
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self._service = self._opener()
        except BaseException as exc:  # noqa: BLE001 - kept for get() to raise in the caller's thread
            self._error = exc
        finally:
            self._done.set()

    def get(self, timeout: float | None = None):
        """The service, once open; raises what opening it raised, or TimeoutError."""
        if not self._done.wait(timeout):
            raise TimeoutError("the index is still loading")
        if self._error is not None:  # a copy: one shared exception raised in many threads would grow its traceback
            raise copy.copy(self._error).with_traceback(None) from self._error
        return self._service

    def state(self) -> tuple[str, str | None]:
        """("loading" | "ok" | "failed", why it failed)."""
        if not self._done.is_set():
            return "loading", None
        return ("failed", str(self._error)) if self._error is not None else ("ok", None)
