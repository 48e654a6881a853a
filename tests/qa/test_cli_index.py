"""``relnotes index`` / ``status`` / ``search`` on the bundled corpus with the real bundled model."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from qa.cli import cli


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_second_index_run_is_a_no_op(bundled_index: Path) -> None:
    result = run("index", "--index", str(bundled_index))
    assert result.exit_code == 0
    assert result.output.startswith(f"Index at {bundled_index} is up to date: 4 documents")


def test_status_reports_model_and_freshness(bundled_index: Path) -> None:
    info = json.loads(run("status", "--index", str(bundled_index), "--json").output)
    assert info["exists"] and not info["stale"] and info["model"]["name"] == "all-MiniLM-L6-v2"
    assert info["model"]["dim"] == 384 and info["chunks"] >= 80
    text = run("status", "--index", str(bundled_index)).output
    assert "state:     up to date" in text and "search:    exact" in text


def test_status_of_a_missing_index(tmp_path: Path) -> None:
    result = run("status", "--index", str(tmp_path / "none"))
    assert result.exit_code == 0 and "stale: No index at" in result.output


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_search_finds_the_mps_linear_algebra_passage(bundled_index: Path, mode: str) -> None:
    result = run("search", "lu_factor and lu_solve speedup on MPS", "--index", str(bundled_index),
                 "--mode", mode, "--json", "-k", "5")
    assert result.exit_code == 0, result.output
    hits = [json.loads(line) for line in result.output.splitlines()]
    assert len(hits) == 5
    assert any("lu_factor" in h["text"] and h["version"] == "2.14" for h in hits[:3])
    # Each hit says where each list ranked it; the sentence list exists in hybrid only.
    listed = {"bm25": ["bm25_rank"], "dense": ["dense_rank"], "hybrid": ["bm25_rank", "dense_rank", "sentence_rank"]}[mode]
    assert all(isinstance(hits[0][name], int) for name in listed)
    assert all(h[name] is None for h in hits for name in {"bm25_rank", "dense_rank", "sentence_rank"} - set(listed))


def test_search_release_filter(bundled_index: Path) -> None:
    result = run("search", "FlexAttention", "--index", str(bundled_index), "--release", "2.9", "--json")
    hits = [json.loads(line) for line in result.output.splitlines()]
    assert hits and {h["version"] for h in hits} == {"2.9"}


def test_search_rejects_an_unknown_mode(bundled_index: Path) -> None:
    result = run("search", "x", "--index", str(bundled_index), "--mode", "fuzzy")
    assert result.exit_code == 2 and "'fuzzy' is not one of 'auto', 'hybrid', 'bm25', 'dense'" in result.output


def test_missing_model_fails_at_once(tmp_path: Path) -> None:
    started = time.perf_counter()
    result = run("index", "--index", str(tmp_path / "idx"), "--model", str(tmp_path / "no-model"))
    assert time.perf_counter() - started < 5
    assert result.exit_code == 1
    assert result.output.strip() == f"error: No embedding model at {tmp_path / 'no-model'}; pass --model with a local sentence-transformers folder"


def test_no_update_on_a_missing_index_fails_cleanly(tmp_path: Path) -> None:
    result = run("search", "x", "--index", str(tmp_path / "idx"), "--no-update")
    assert result.exit_code == 1 and "relnotes index" in result.output and "Traceback" not in result.output
