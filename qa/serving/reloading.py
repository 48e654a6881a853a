"""The service an HTTP server answers with, replaced when another process rebuilds the index.

Requests take the current service (``get``) and keep it until they finish, so a swap never
fails a request in flight: the old index's files stay readable (their inodes live on) while it
finishes. At most every ``check_every`` seconds a request looks at the index's manifest; when
another ``relnotes index`` has swapped in a new one, the new service opens on a background
thread and replaces the old once it has answered a warm-up question.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Callable

from index import generation

from .background import BackgroundService

CHECK_EVERY = 1.0  # seconds between looks at the manifest
RETRY_AFTER = 10.0  # seconds before a failed reload is tried again
WARM_UP = "release notes"  # asked once so the vectors are loaded before the service is used


def warmed(service):
    """``service`` with everything a question needs loaded (encoder, windows, sentences)."""
    service.ask(WARM_UP, top_k=1)
    return service


class ReloadingService(BackgroundService):
    """The current AnswerService: the first opened on a thread at ``start`` (``get`` waits, as
    ``BackgroundService``), then swapped for a rebuilt one."""

    def __init__(self, opener: Callable[[bool], object], check_every: float = CHECK_EVERY) -> None:
        """``opener(update)`` opens an AnswerService (``update`` False for a reload: never rebuild)."""
        super().__init__(self._open_first)
        self._reopen = opener
        self._check_every = check_every
        self._lock = threading.Lock()
        self._marker: tuple[int, int] | None = None
        self._checked = 0.0
        self._reloading = False
        self._retry_at = 0.0
        self.reloads = 0  # how many times a rebuilt index was swapped in

    def _open_first(self):
        service = self._reopen(True)
        self._marker = generation(service.info.directory)  # before the warm-up: a rebuild meanwhile is seen
        self._checked = time.monotonic()
        return warmed(service)

    def get(self, timeout: float | None = None):
        """The current service (waiting for the first); may start a reload of a rebuilt index."""
        super().get(timeout)
        now = time.monotonic()
        if now - self._checked >= self._check_every:
            self._checked = now
            self._maybe_reload()
        return self._service

    def _maybe_reload(self) -> None:
        marker = generation(self._service.info.directory)
        with self._lock:
            if marker is None or marker == self._marker or self._reloading or time.monotonic() < self._retry_at:
                return
            self._reloading = True
        threading.Thread(target=self._reload, args=(marker,), name="relnotes-reload", daemon=True).start()

    def _reload(self, marker: tuple[int, int]) -> None:
        """Open the index whose manifest is ``marker`` (read before opening: a rebuild finishing
        meanwhile changes the manifest again, and the next look reloads once more)."""
        try:
            service = warmed(self._reopen(False))
            with self._lock:
                self._service, self._marker = service, marker
                self.reloads += 1
        except BaseException as exc:  # noqa: BLE001 - keep answering with the old index; try again later
            print(f"relnotes serve: the rebuilt index did not open ({exc}); still answering from the previous one, "
                  f"trying again in {RETRY_AFTER:.0f} s", file=sys.stderr, flush=True)
            with self._lock:
                self._retry_at = time.monotonic() + RETRY_AFTER
        finally:
            with self._lock:
                self._reloading = False
