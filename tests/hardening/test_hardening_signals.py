"""Hardening catalogue, interruptions and concurrency (docs/hardening.md): real child processes
of ``relnotes index`` stopped at each point of a build by SIGINT or SIGTERM, two builds at
once, and questions while a build runs. The child pauses at a named point (see
tests/support/hardening_run.py) and the test signals it there."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from index.retrieve.reader import LoadedIndex
from tests.support.hardening import cli, fake_model, listing, spawn, wait_for_line, write_notes  # noqa: F401 (fixture)

FAKE = {"RELNOTES_TEST_FAKE_ENCODER": "1"}
CHANGED = {"c.md": "# Tool 1.2\n\n## Features\n\nA brand new gadget.\n"}  # 3 documents, 4 chunks


@pytest.fixture
def previous(tmp_path: Path, fake_model) -> tuple[list[str], Path, str]:
    """A built index for the small corpus: (CLI arguments, index directory, its manifest text)."""
    idx = tmp_path / "idx"
    args = ["--corpus", str(write_notes(tmp_path / "notes")), "--index", str(idx)]
    assert cli("index", *args).exit_code == 0
    return args, idx, (idx / "manifest.json").read_text()


def usable(idx: Path) -> LoadedIndex:
    loaded = LoadedIndex(idx)
    assert loaded.dense().n == len(loaded.chunks) == loaded.manifest.counts["chunks"]
    return loaded


POINTS = ["load", "embed", "write", "manifest", "swap"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("point", POINTS)
def test_a_signal_during_indexing_keeps_a_working_index_and_no_litter(previous, tmp_path: Path, point: str, sig) -> None:
    args, idx, before = previous
    write_notes(tmp_path / "notes", CHANGED)  # the build has real work to do
    proc = spawn(["index", *args], env={**FAKE, "RELNOTES_TEST_PAUSE": point, "RELNOTES_TEST_PAUSE_S": "2"})
    wait_for_line(proc, f"PAUSE {point}")
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    if point == "load" and sig == signal.SIGTERM:
        assert proc.returncode == -signal.SIGTERM  # before the build starts: the default action, nothing written
    else:
        assert proc.returncode == 130 and err.splitlines()[-1] == "interrupted", (proc.returncode, err)
    loaded = usable(idx)
    if point == "swap":  # signals wait for the swap: the new index is complete and in place
        assert (idx / "manifest.json").read_text() != before and len(loaded.chunks) == 4
    else:
        assert (idx / "manifest.json").read_text() == before and len(loaded.chunks) == 3
    assert out == ""
    assert listing(tmp_path) == [".idx.lock", "idx", "notes"]
    again = cli("index", *args)  # and the next run finishes the job
    assert again.exit_code == 0 and len(usable(idx).chunks) == 4


def test_two_index_runs_at_once(previous, tmp_path: Path) -> None:
    args, idx, _ = previous
    write_notes(tmp_path / "notes", CHANGED)
    first = spawn(["index", *args], env={**FAKE, "RELNOTES_TEST_PAUSE": "embed", "RELNOTES_TEST_PAUSE_S": "2"})
    wait_for_line(first, "PAUSE embed")  # the first holds the build lock
    second = spawn(["index", *args], env=FAKE)
    out1, err1 = first.communicate(timeout=60)
    out2, err2 = second.communicate(timeout=60)
    assert first.returncode == 0 and out1.startswith("Indexed 3 documents, 4 chunks")
    assert second.returncode == 0 and out2 == f"Index at {idx} is up to date: 3 documents, 4 chunks\n"
    assert "Traceback" not in err1 + err2
    assert len(usable(idx).chunks) == 4
    assert listing(tmp_path) == [".idx.lock", "idx", "notes"]


def test_ask_while_the_index_is_rebuilt_answers_from_the_previous_one(previous, tmp_path: Path) -> None:
    args, idx, before = previous
    inode = idx.stat().st_ino
    builder = spawn(["index", "--rebuild", *args], env={**FAKE, "RELNOTES_TEST_PAUSE": "manifest", "RELNOTES_TEST_PAUSE_S": "2"})
    wait_for_line(builder, "PAUSE manifest")  # the new index is written, not yet swapped in
    during = cli("ask", "frobnicator", *args, "--json")
    assert during.exit_code == 0 and during.stderr == ""
    assert json.loads(during.stdout)["passages"][0]["citation"]["section"] == ["Tool 1.0", "Features"]
    assert (idx / "manifest.json").read_text() == before and idx.stat().st_ino == inode
    builder.communicate(timeout=60)
    assert builder.returncode == 0
    after = cli("ask", "frobnicator", *args, "--json")
    assert after.exit_code == 0 and idx.stat().st_ino != inode  # the rebuilt index is in place
    assert listing(tmp_path) == [".idx.lock", "idx", "notes"]


def test_ask_while_the_first_index_is_built_answers_from_its_bm25_part(tmp_path: Path, fake_model) -> None:
    idx = tmp_path / "idx"
    args = ["--corpus", str(write_notes(tmp_path / "notes")), "--index", str(idx)]
    builder = spawn(["index", *args], env={**FAKE, "RELNOTES_TEST_PAUSE": "embed", "RELNOTES_TEST_PAUSE_S": "5"})
    wait_for_line(builder, "PAUSE embed")  # the chunks and BM25 are in place, the vectors are being embedded
    result = cli("ask", "frobnicator", *args, "--mode", "bm25")  # no wait on the build lock
    assert result.exit_code == 0 and "Tool 1.0 › Features" in result.stdout and result.stderr == ""
    builder.communicate(timeout=60)
    assert builder.returncode == 0
    assert listing(tmp_path) == [".idx.lock", "idx", "notes"]
