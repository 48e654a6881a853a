"""A build that waits for another process's lock says so, once, instead of waiting silently."""

from __future__ import annotations

import threading
import time
from pathlib import Path


from index.store.atomic import build_lock
from index.errors import IndexBusy


def test_waiting_for_the_lock_is_said_once(tmp_path: Path) -> None:
    directory = tmp_path / "idx"
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with build_lock(directory):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(10)
    said: list[float] = []
    threading.Timer(0.5, release.set).start()
    started = time.monotonic()
    with build_lock(directory, on_wait=lambda: said.append(time.monotonic() - started)):
        pass
    thread.join(10)
    assert len(said) == 1 and said[0] < 0.3  # at once, not after the wait
    with build_lock(directory, on_wait=lambda: said.append(-1.0)):  # a free lock: nothing said
        pass
    assert len(said) == 1


def test_a_lock_held_too_long_is_index_busy(tmp_path: Path) -> None:
    directory = tmp_path / "idx"
    with build_lock(directory):
        done = []

        def other() -> None:
            try:
                with build_lock(directory, timeout=0.3):
                    pass
            except IndexBusy as exc:  # flock is per open file: a second fd in this process waits too
                done.append(str(exc))

        t = threading.Thread(target=other)
        t.start()
        t.join(5)
    assert done and "Another relnotes process has been building" in done[0]
