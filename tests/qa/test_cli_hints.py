"""The CLI says what it is doing or why nothing came: no silent waits, no silent empties."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from qa.cli import cli
from tests.support.hardening import fake_model  # noqa: F401 (a fixture)
from tests.support.paths import REPO

NOTES = REPO / "tests" / "data" / "releases" / "widgetlib" / "CHANGELOG.md"


def test_search_for_a_release_the_corpus_lacks_says_so(tmp_path: Path, fake_model) -> None:
    result = CliRunner().invoke(cli, ["search", "config parser", "--release", "9.9", "--corpus", str(NOTES),
                                      "--index", str(tmp_path / "idx"), "--mode", "bm25"])
    assert result.exit_code == 0 and result.stdout == ""
    assert "The corpus holds no release 9.9 (it has: 1.0.0, 1.2.0, 1.5.0, 2.0.0, 2.1.0)" in result.stderr
    nothing = CliRunner().invoke(cli, ["search", "zzzqqq", "--corpus", str(NOTES), "--index", str(tmp_path / "idx"),
                                       "--mode", "bm25"])
    assert nothing.exit_code == 0 and "No chunk matches this query." in nothing.stderr


def test_batch_reading_a_terminal_says_how_to_end(tmp_path: Path) -> None:
    """``relnotes batch`` with no FILE on a terminal: a hint on stderr before it waits."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", "from qa.cli import main; main()", "batch", "--mode", "bm25",
                             "--corpus", str(NOTES), "--index", str(tmp_path / "idx")],
                            stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    os.close(slave)
    try:
        os.write(master, b"\x04")  # Ctrl+D: end of input, at once
        _, err = proc.communicate(timeout=120)
    finally:
        os.close(master)
    assert "Reading questions from the terminal, one a line; end with Ctrl+D (or pass a FILE)." in err.decode()


def test_a_question_that_is_no_string_is_said_so(tmp_path: Path) -> None:
    from qa.cli.batchinput import read_questions
    from qa.errors import BatchInputError

    import pytest

    with pytest.raises(BatchInputError, match=r'stdin line 1: "question" must be a string, not int 5; quote it'):
        read_questions(['{"question": 5}'], "stdin", skip_bad=False, report=print)


def test_a_tilde_in_corpus_is_expanded(tmp_path: Path, monkeypatch) -> None:
    from qa.cli.common import CorpusArgument

    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "notes.md").write_text("# Notes 1.0\n\nText.\n")
    assert CorpusArgument().convert("~/notes.md", None, None) == tmp_path / "notes.md"
    named = CorpusArgument().convert("tool=~/notes.md", None, None)
    assert named.path == tmp_path / "notes.md" and named.product == "tool"
