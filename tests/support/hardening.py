"""Shared helpers of the hardening catalogue tests (docs/hardening.md): a small corpus, the
fake model, CLI runs in and out of process, and the one-line error check."""

from __future__ import annotations

import contextlib
import os
import signal
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner, Result

from tests.support.fakes import FakeEncoder

REPO = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).resolve().parent / "hardening_run.py"
NOTES = {
    "a.md": "# Tool 1.0\n\n## Features\n\nAdded the frobnicator for fast widgets.\n\n## Fixes\n\nFixed a crash on start.\n",
    "b.md": "# Tool 1.1\n\n## Features\n\nThe widget cache is now persistent across runs.\n",
}


def write_notes(folder: Path, notes: dict[str, str] = NOTES) -> Path:
    """The small two-release corpus in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in notes.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def fake_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Encoder the CLI creates is a FakeEncoder (as tests/support/hardening_run.py does out of process)."""
    import index.encode.encoders

    monkeypatch.setattr(
        index.encode.encoders, "Encoder",
        lambda model_path=None: FakeEncoder(name=Path(model_path).name if model_path else "fake-encoder"),
    )


def cli(*args: str, stdin: str | None = None) -> Result:
    """``relnotes ARGS`` in process; exceptions other than exits are re-raised (never hidden)."""
    from qa.cli import cli as group

    result = CliRunner().invoke(group, [str(a) for a in args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def assert_one_error(result: Result, *needles: str) -> str:
    """Exit 1, nothing on stdout, exactly one ``error: ...`` line on stderr holding every needle."""
    assert result.exit_code == 1, (result.exit_code, result.output)
    assert result.stdout == "", result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def spawn(args: list[str], *, env: dict[str, str] | None = None, cwd: Path = REPO) -> subprocess.Popen:
    """``relnotes ARGS`` in a child process through tests/support/hardening_run.py (stdout/stderr piped)."""
    full = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1", **(env or {})}
    return subprocess.Popen(
        [sys.executable, str(RUNNER), *[str(a) for a in args]],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=full, cwd=cwd,
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:
    """In the child before exec: SIGINT back to its default, as a terminal's foreground job has it.

    A shell starts a background job (``pytest ... &``) with SIGINT ignored, and an ignored SIGINT
    stays ignored across exec: Python then installs no KeyboardInterrupt handler and the signal
    tests would test nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_child(args: list[str], *, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run :func:`spawn` to the end."""
    proc = spawn(args, env=env)
    out, err = proc.communicate(timeout=timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def wait_for_line(proc: subprocess.Popen, prefix: str, timeout: float = 60) -> list[str]:
    """Read the child's stderr until a line starts with ``prefix``; the lines read so far."""
    import selectors

    seen: list[str] = []
    sel = selectors.DefaultSelector()
    sel.register(proc.stderr, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not sel.select(timeout=0.5):
            if proc.poll() is not None:
                break
            continue
        line = proc.stderr.readline()
        if not line:
            break
        seen.append(line)
        if line.startswith(prefix):
            return seen
    proc.kill()
    raise AssertionError(f"no {prefix!r} line from the child: {''.join(seen)}")


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A temporary directory anyone may enter (tmp_path is private to the test user)."""
    path = Path(tempfile.mkdtemp(prefix="relnotes-hardening-"))
    os.chmod(path, 0o755)
    yield path
    for p in [path, *path.rglob("*")]:
        with contextlib.suppress(OSError):
            os.chmod(p, 0o755 if p.is_dir() and not p.is_symlink() else 0o644, follow_symlinks=False)
    shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def unprivileged() -> Iterator[None]:
    """Permission bits apply inside: as root, run as ``nobody`` (effective uid) until the block ends."""
    if os.geteuid() != 0:
        yield
        return
    # Modules imported lazily under /root would be unreadable as nobody: import them first.
    import index.retrieve.fusion, index.retrieve.lexical, index.retrieve.search, index.lifecycle.opening, qa.answer.engine, qa.present.terminal  # noqa: E401,F401

    os.setegid(65534)
    os.seteuid(65534)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


def read_only(*paths: Path) -> None:
    """Take write permission off every path (directories stay enterable)."""
    for top in paths:
        for p in [top, *top.rglob("*")] if top.is_dir() else [top]:
            os.chmod(p, 0o555 if p.is_dir() else 0o444)


def listing(folder: Path) -> list[str]:
    """Names in ``folder``, sorted (temporary litter shows up here); an index's last-use stamp
    ``.NAME.used`` (``index.housekeeping.usage``) and the vectors an unfinished build keeps for the
    next one, ``.NAME.shards`` (``index.store.shards``), are no litter and left out."""
    return sorted(p.name for p in folder.iterdir()
                  if not (p.name.startswith(".") and p.name.endswith((".used", ".shards"))))
