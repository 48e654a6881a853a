"""The real ``relnotes chat`` in tmux at 110x34, keys sent as a terminal sends them: tmux writes
Alt+1 (``send-keys M-1``) and ``Escape 1`` to the program as ESC 1, as xterm does. Skipped
without tmux (``.ci/run`` installs it)."""

from __future__ import annotations

import os
import shlex
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

    def __init__(self, socket: Path, env: dict[str, str] | None = None) -> None:
        self.socket = socket
        self.env = {**os.environ, **(env or {})}  # the server's, and so the program's

    def run(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-S", str(self.socket), *args], capture_output=True, text=True, timeout=30,
                              env=self.env)
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
        """The pane's text and what scrolled above it, wrapped lines joined."""
        return self.run("capture-pane", "-p", "-J", "-S", "-100", "-t", "chat")

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
    sessions: list[Tmux] = []

    def start(argv: list[str], env: dict[str, str] | None = None) -> Tmux:
        session = Tmux(tmp_path / f"tmux-{len(sessions)}.sock", env)
        sessions.append(session)
        session.start(argv)
        return session

    yield start
    for session in sessions:
        session.close()


PASSAGE_FOOTER = "esc Back"  # the passage screen's footer
CHAT_PLACEHOLDER = "Ask about the release notes…"


def test_alt_digits_from_tmux_open_passages(tmux, bundled_index: Path) -> None:
    tmux = tmux([*relnotes(), "chat", "--index", str(bundled_index)])
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

    tmux.send("M-1")
    tmux.wait_for(PASSAGE_FOOTER)
    tmux.type("which release added it?")  # typed over the open passage, in one burst: the next question
    screen = tmux.wait_for("▊  which release added it?")
    assert PASSAGE_FOOTER not in screen


def test_ctrl_q_while_the_index_builds_quits_at_once_and_says_so(tmux, tmp_path: Path) -> None:
    """The first build of a corpus with an empty cache: Ctrl+Q while the model is exported (a step
    that reports nothing) ends the program within seconds, with a line saying the build stopped,
    and leaves no index behind (the next start builds it)."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "CHANGELOG.md").write_text("# Changelog\n\n## 1.1.0\n\n- Added a frobnicator.\n\n"
                                        "## 1.0.0\n\n- First release.\n", encoding="utf-8")
    cache = tmp_path / "empty-cache"  # no encoder export: the build starts with one
    command = shlex.join([*relnotes(), "chat", "--corpus", str(notes)])
    tmux = tmux(["sh", "-c", f'{command}; echo "exit status $?"'], env={"XDG_CACHE_HOME": str(cache)})
    tmux.wait_for("Building the index at", timeout=120)
    asked = time.monotonic()
    tmux.send("C-q")
    while not tmux.ended():
        assert time.monotonic() - asked < 8, f"still running 8 s after Ctrl+Q:\n{tmux.screen()}"
        time.sleep(0.1)
    screen = tmux.screen()
    assert "quit before the index was ready; its build stopped, the index on disk is unchanged" in screen
    assert "Traceback" not in screen and "terminate called" not in screen
    assert "exit status 0" in screen, screen  # not aborted by a thread left in native code at interpreter exit
    assert not list(cache.glob("relnotes-qa/indexes/*/manifest.json"))
