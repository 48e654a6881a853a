"""The real ``relnotes chat`` in tmux at 110x34, keys sent as a terminal sends them: tmux writes
Alt+1 (``send-keys M-1``) and ``Escape 1`` to the program as ESC 1, as xterm does. Skipped
without tmux (``.ci/run`` installs it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

WIDTH, HEIGHT = 110, 34


def relnotes() -> list[str]:
    """The ``relnotes`` command of this environment (the one ``make`` installs beside python)."""
    script = Path(sys.executable).with_name("relnotes")
    return [str(script)] if script.exists() else [sys.executable, "-m", "qa"]


class Tmux:
    """One program in a tmux server of its own (its socket in ``tmp_path``), read with capture-pane."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket

    def run(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-S", str(self.socket), *args], capture_output=True, text=True, timeout=30,
                              env=os.environ.copy())
        return done.stdout

    def start(self, argv: list[str]) -> None:
        """Start ``argv`` in a 110x34 window; the pane stays after it exits, so its last words can be read."""
        self.run("new-session", "-d", "-s", "chat", "-x", str(WIDTH), "-y", str(HEIGHT), *argv,
                 ";", "set-option", "-t", "chat", "remain-on-exit", "on")

    def send(self, *keys: str) -> None:
        self.run("send-keys", "-t", "chat", *keys)

    def type(self, text: str) -> None:
        self.run("send-keys", "-t", "chat", "-l", text)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "chat")

    def ended(self) -> bool:
        return self.run("display-message", "-p", "-t", "chat", "#{pane_dead}").strip() == "1"

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} did not appear within {timeout:.0f} s; the screen:\n{screen}")
            time.sleep(0.2)

    def close(self) -> None:
        self.run("kill-server")


@pytest.fixture
def tmux(tmp_path: Path):
    session = Tmux(tmp_path / "tmux.sock")
    yield session
    session.close()


PASSAGE_FOOTER = "esc Back"  # the passage screen's footer
CHAT_PLACEHOLDER = "Ask about the release notes…"


def test_alt_digits_from_tmux_open_passages(tmux: Tmux, bundled_index: Path) -> None:
    tmux.start([*relnotes(), "chat", "--index", str(bundled_index)])
    tmux.wait_for("chunks · built", timeout=180)
    tmux.type("how do I enable the nccl2 backend?")
    tmux.send("Enter")
    tmux.wait_for("Answer:", timeout=120)

    tmux.send("M-1")  # what tmux sends the program: ESC 1
    screen = tmux.wait_for(PASSAGE_FOOTER)
    assert "nccl2 Backend" in screen and "#nccl2-backend" in screen
    tmux.send("M-2")  # over an open passage: passage 2 in its place
    screen = tmux.wait_for("One-Sided (RMA) Window APIs")
    assert "#nccl2-backend" not in screen
    tmux.send("Escape")
    tmux.wait_for(CHAT_PLACEHOLDER)

    tmux.send("Escape", "1")  # a raw ESC then 1, as a terminal without an Alt key sends it
    screen = tmux.wait_for(PASSAGE_FOOTER)
    assert "#nccl2-backend" in screen
    tmux.send("Escape")
    screen = tmux.wait_for(CHAT_PLACEHOLDER)
    assert "¡" not in screen and "™" not in screen  # nothing was typed into the question
