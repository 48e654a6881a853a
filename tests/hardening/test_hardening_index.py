"""Hardening catalogue, index states (docs/hardening.md): a missing, damaged, foreign, read-only
or unwritable index through the CLI. A damaged index is rebuilt with a one-line notice (or
refused under --no-update); a failed build never replaces the index that worked."""

from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from index.build import writer
from index.store.manifest import INDEX_FORMAT_VERSION, sha256_file
from index.retrieve.reader import LoadedIndex
from tests.support.hardening import (  # noqa: F401 (fixtures)
    RUNNER, assert_one_error, cli, fake_model, listing, open_dir, read_only, unprivileged, write_notes,
)


@pytest.fixture
def built(tmp_path: Path, fake_model) -> tuple[list[str], Path]:
    """(``--corpus``/``--index`` arguments, index directory) of a freshly built small index."""
    idx = tmp_path / "idx"
    args = ["--corpus", str(write_notes(tmp_path / "notes")), "--index", str(idx)]
    assert cli("index", *args).exit_code == 0
    return args, idx


def rebuilt_notice(idx: Path, reason: str) -> str:
    return f"Rebuilding index at {idx}: {reason}\n"


def edit_manifest(idx: Path, **changes) -> None:
    path = idx / "manifest.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))


def reseal(idx: Path, name: str) -> None:
    """Record a file's current checksum in the manifest (damage the checksum cannot see)."""
    manifest = json.loads((idx / "manifest.json").read_text())
    manifest["files"][name] = sha256_file(idx / name)
    (idx / "manifest.json").write_text(json.dumps(manifest))


def answers(result) -> bool:
    return result.exit_code == 0 and "Tool 1.0 › Features" in result.stdout


def test_missing_index(tmp_path: Path, fake_model) -> None:
    args = ["--corpus", str(write_notes(tmp_path / "notes")), "--index", str(tmp_path / "idx")]
    for command in (["ask", "frobnicator"], ["search", "frobnicator"]):
        assert assert_one_error(cli(*command, *args, "--no-update")) == (
            f"error: No index at {tmp_path / 'idx'}; build it with: relnotes index")
    result = cli("ask", "frobnicator", *args)  # without --no-update its BM25 part is built first, and said
    assert answers(result) and result.stderr == (
        f"Building the BM25 part of the index at {tmp_path / 'idx'} (the first use of this corpus) ...\n")
    assert listing(tmp_path) == [".idx.lock", "idx", "notes"]


def test_manifest_deleted(built) -> None:
    args, idx = built
    (idx / "manifest.json").unlink()
    assert assert_one_error(cli("ask", "frobnicator", *args, "--no-update")) == (
        f"error: Index at {idx} is stale (Index at {idx} has no manifest.json); update it with: relnotes index")
    result = cli("ask", "frobnicator", *args)
    assert answers(result) and result.stderr == rebuilt_notice(idx, f"Index at {idx} has no manifest.json")
    assert LoadedIndex(idx).manifest.counts["chunks"] == 3


def test_manifest_not_json(built) -> None:
    args, idx = built
    (idx / "manifest.json").write_text('{"format_version": 1, "created": ')
    result = cli("ask", "frobnicator", *args)
    assert answers(result) and result.stderr.startswith(f"Rebuilding index at {idx}: Unreadable {idx / 'manifest.json'} (")


def test_manifest_of_another_format_version(built) -> None:
    args, idx = built
    edit_manifest(idx, format_version=99)
    assert assert_one_error(cli("ask", "frobnicator", *args, "--no-update")) == (
        f"error: Index at {idx} is stale (index format 99, this relnotes writes {INDEX_FORMAT_VERSION}); update it with: relnotes index")
    result = cli("ask", "frobnicator", *args)
    assert answers(result) and result.stderr == rebuilt_notice(idx, f"index format 99, this relnotes writes {INDEX_FORMAT_VERSION}")


def test_vectors_file_truncated(built) -> None:
    args, idx = built
    vectors = idx / "vectors.faiss"
    vectors.write_bytes(vectors.read_bytes()[:100])
    reason = f"Index file {vectors} fails its checksum (truncated or edited)"
    status = cli("status", *args)
    assert status.exit_code == 0 and f"state:     stale: {reason}\n" in status.stdout
    bm25 = cli("ask", "frobnicator", *args, "--mode", "bm25")  # bm25 never reads the vectors
    assert answers(bm25) and bm25.stderr == ""
    assert assert_one_error(cli("ask", "frobnicator", *args, "--no-update")) == (
        f"error: Index at {idx} is stale ({reason}); update it with: relnotes index")
    hybrid = cli("ask", "frobnicator", *args)
    assert answers(hybrid) and hybrid.stderr == rebuilt_notice(idx, reason)
    assert LoadedIndex(idx).dense().n == 3


def test_relnotes_index_repairs_a_truncated_vectors_file(built, monkeypatch) -> None:
    args, idx = built
    (idx / "vectors.faiss").write_bytes(b"")
    result = cli("index", *args)  # the shared vector store holds this corpus's vectors: none embedded again
    assert result.exit_code == 0 and result.stdout.startswith("Indexed 2 documents, 3 chunks (0 windows embedded, 0 reused)")
    assert "vectors from the shared vector store" in result.stdout
    assert "vectors.faiss fails its checksum" in result.stderr
    (idx / "vectors.faiss").write_bytes(b"")
    monkeypatch.setenv("RELNOTES_VECTOR_STORE", "0")  # without the store: embedded again
    result = cli("index", *args)
    assert result.exit_code == 0 and result.stdout.startswith("Indexed 2 documents, 3 chunks (3 windows embedded, 0 reused)")
    assert "vectors.faiss fails its checksum" in result.stderr


def test_chunk_file_truncated_mid_line(built) -> None:
    args, idx = built
    chunks = idx / "chunks.jsonl"
    chunks.write_text(chunks.read_text()[:-40])
    result = cli("ask", "frobnicator", *args, "--mode", "bm25")
    assert answers(result)
    assert result.stderr == rebuilt_notice(idx, f"Index file {chunks} fails its checksum (truncated or edited)")
    chunks.write_text(chunks.read_text()[:-40])
    reseal(idx, "chunks.jsonl")  # the checksum agrees: the damaged line itself is found
    result = cli("ask", "frobnicator", *args, "--mode", "bm25")
    assert answers(result) and result.stderr == rebuilt_notice(idx, f"{chunks} line 3 is damaged")


def test_vectors_and_chunks_out_of_step(built, tmp_path: Path) -> None:
    args, idx = built
    other = tmp_path / "other"
    assert cli("index", "--corpus", write_notes(tmp_path / "n2", {"a.md": "# Tool 2.0\n\nOne chunk.\n"}),
               "--index", other).exit_code == 0
    shutil.copy(other / "vectors.faiss", idx / "vectors.faiss")
    reseal(idx, "vectors.faiss")
    reason = f"{idx / 'vectors.faiss'} holds 1 vectors, out of step with the 3 windows of its chunks"
    assert assert_one_error(cli("search", "frobnicator", *args, "--no-update")) == (
        f"error: Index at {idx} is stale ({reason}); update it with: relnotes index")
    result = cli("ask", "frobnicator", *args)
    assert answers(result) and result.stderr == rebuilt_notice(idx, reason)


def test_index_built_by_another_model(built, tmp_path: Path) -> None:
    args, idx = built
    other = ["--model", str(tmp_path / "other-model")]
    reason = "built with model 'fake-encoder', asked for 'other-model'"
    assert assert_one_error(cli("ask", "frobnicator", *args, *other, "--no-update")) == (
        f"error: Index at {idx} is stale ({reason}); update it with: relnotes index")
    result = cli("ask", "frobnicator", *args, *other)
    assert answers(result) and result.stderr == rebuilt_notice(idx, reason)
    assert LoadedIndex(idx).manifest.model["name"] == "other-model"


def test_read_only_index_directory(open_dir: Path, fake_model) -> None:
    notes = write_notes(open_dir / "notes")
    idx = open_dir / "ro" / "idx"
    args = ["--corpus", str(notes), "--index", str(idx)]
    assert cli("index", *args).exit_code == 0
    before = (idx / "manifest.json").read_text()
    read_only(open_dir / "ro")
    with unprivileged():
        fresh = [cli("ask", "frobnicator", *args, "--mode", mode, "--no-history") for mode in ("bm25", "hybrid")]
        rebuild = cli("index", *args, "--rebuild")
    assert all(answers(r) and r.stderr == "" for r in fresh)  # a fresh index is only read
    assert assert_one_error(rebuild) == (
        f"error: Cannot write in {open_dir / 'ro'} (Permission denied); choose a writable place with --index DIR")
    assert (idx / "manifest.json").read_text() == before
    assert listing(open_dir / "ro") == [".idx.lock", "idx"]


def test_disk_full_while_writing_chunks(built, monkeypatch) -> None:
    args, idx = built
    before = (idx / "manifest.json").read_text()

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer, "write_chunks", full)
    assert assert_one_error(cli("index", *args, "--rebuild")) == (
        f"error: Could not write the index at {idx} (disk full); the previous index is unchanged. "
        "Free space or choose another place with --index DIR")
    assert (idx / "manifest.json").read_text() == before and answers(cli("ask", "frobnicator", *args))
    assert listing(idx.parent) == [".idx.lock", "idx", "notes"]


def test_a_vectors_file_written_short_is_refused(built, monkeypatch) -> None:
    """A write that left the vectors file short without an error (as faiss's, which reports a
    failed close on stderr only): the build reads the file back and refuses it."""
    args, idx = built
    before = (idx / "manifest.json").read_text()
    from index.retrieve import dense

    real_write = dense.write_flat

    def short_write(path, rows):
        real_write(path, rows)
        with open(path, "r+b") as fh:
            fh.truncate(os.path.getsize(path) // 2)

    monkeypatch.setattr(dense, "write_flat", short_write)
    assert assert_one_error(cli("index", *args, "--rebuild")) == (
        f"error: Could not write the index at {idx} (vectors.faiss came back unreadable); the previous index is "
        "unchanged. Free space or choose another place with --index DIR")
    assert (idx / "manifest.json").read_text() == before
    assert listing(idx.parent) == [".idx.lock", "idx", "notes"]


def _file_size_limit(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


@pytest.mark.parametrize(
    ("limit", "reason"), [(300, "File too large"), (20_000, "vectors.faiss: File too large")],
    ids=["chunks-write-fails", "vectors-write-fails"],
)
def test_real_write_failure_in_a_child_process(built, limit: int, reason: str) -> None:
    """A kernel-level write failure (file size limit, EFBIG) in each writer, as a full disk would fail it."""
    _, idx = built
    before = (idx / "manifest.json").read_text()
    env = {**os.environ, "RELNOTES_TEST_FAKE_ENCODER": "1", "RELNOTES_TEST_FAKE_DIM": "1024",
           "PYTHONDONTWRITEBYTECODE": "1"}
    wide = ["--corpus", str(write_notes(idx.parent / "notes", {f"n{i}.md": f"# Tool 1.{i}\n\nWidget {i}.\n" for i in range(8)}))]
    out = subprocess.run([sys.executable, str(RUNNER), "index", "--rebuild", "--index", str(idx), *wide],
                         capture_output=True, text=True, env=env, timeout=120, preexec_fn=_file_size_limit(limit))
    assert out.returncode == 1 and out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.splitlines()[-1] == (
        f"error: Could not write the index at {idx} ({reason}); the previous index is unchanged. "
        "Free space or choose another place with --index DIR")
    assert (idx / "manifest.json").read_text() == before
    assert listing(idx.parent) == [".idx.lock", "idx", "notes"]


def test_index_directory_with_spaces_and_unicode(tmp_path: Path, fake_model) -> None:
    notes = write_notes(tmp_path / "release notes ✓" / "ünïcode dir")
    idx = tmp_path / "my índex — dir ✓" / "idx"
    args = ["--corpus", str(notes), "--index", str(idx)]
    built = cli("index", *args)
    assert built.exit_code == 0 and built.stdout.endswith(f"at {idx}\n")
    record = json.loads(cli("ask", "frobnicator", *args, "--json").stdout)
    assert record["passages"][0]["citation"]["source"] == str(notes / "a.md")
    assert "state:     up to date" in cli("status", *args).stdout


def test_index_path_under_a_file(tmp_path: Path, fake_model) -> None:
    (tmp_path / "afile").write_text("x")
    result = cli("index", "--corpus", write_notes(tmp_path / "notes"), "--index", tmp_path / "afile" / "idx")
    assert assert_one_error(result) == (
        f"error: Cannot write in {tmp_path / 'afile'} (a file is in the way); choose a writable place with --index DIR")


def test_a_build_killed_between_the_two_renames_loses_nothing(built, tmp_path: Path) -> None:
    """SIGKILL mid-swap leaves the index in .idx.old-*: the next run puts it back and re-embeds nothing."""
    args, idx = built
    before = (idx / "manifest.json").read_text()
    os.rename(idx, tmp_path / ".idx.old-abc123")
    (tmp_path / ".idx.tmp-def456").mkdir()
    (tmp_path / ".idx.tmp-def456" / "chunks.jsonl").write_text("{")
    result = cli("ask", "frobnicator", *args)
    assert answers(result) and result.stderr == ""  # restored as it was: nothing to rebuild
    assert (idx / "manifest.json").read_text() == before
    assert listing(tmp_path) == [".idx.lock", "idx", "notes"]
