"""``relnotes index --quantize --check QUESTIONS``: int8 vectors only after the user's question sets
are answered within 0.005 MRR@10 of full precision; refused without a check, or when one fails."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import qa.eval.quantcheck as quantcheck
from index.retrieve.reader import LoadedIndex
from index.encode.quantize import RECIPE
from qa.cli import cli

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def setup(tmp_path: Path, bundled_index: Path) -> tuple[Path, Path]:
    """A copy of the bundled index (full precision, fresh) and 12 of the shipped questions."""
    idx = tmp_path / "idx"
    shutil.copytree(bundled_index, idx)
    lines = (REPO / "benchmarks" / "questions" / "pytorch.jsonl").read_text().splitlines()[:12]
    questions = tmp_path / "mine.jsonl"
    questions.write_text("\n".join(lines) + "\n")
    return idx, questions


def test_quantize_without_a_check_is_refused(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["index", "--index", str(tmp_path / "idx"), "--quantize"])
    assert result.exit_code == 2 and not (tmp_path / "idx").exists()
    assert ("--quantize needs --check QUESTIONS.jsonl: int8 vectors are kept only when they answer your question "
            "sets within 0.005 MRR@10 of full precision") in result.output
    alone = runner.invoke(cli, ["index", "--index", str(tmp_path / "idx"), "--check", str(tmp_path / "q.jsonl")])
    assert alone.exit_code == 2 and "--check goes with --quantize" in alone.output
    mixed = runner.invoke(cli, ["index", "--index", str(tmp_path / "idx"), "--quantize", "--check", "q.jsonl",
                                "--adapt"])
    assert mixed.exit_code == 2 and "--quantize goes alone: run relnotes index with --adapt" in mixed.output


def test_a_bad_question_file_fails_before_anything_is_built(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    result = CliRunner().invoke(cli, ["index", "--index", str(tmp_path / "idx"), "--quantize", "--check", str(bad)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1].startswith(f"error: {bad} line 1: invalid JSON")
    assert not (tmp_path / "idx").exists()


def test_int8_is_kept_when_every_set_holds(setup, monkeypatch: pytest.MonkeyPatch) -> None:
    idx, questions = setup
    monkeypatch.setattr(quantcheck, "MAX_DROP", 1.0)  # whatever int8 scores, it holds here
    asked_with, real = [], quantcheck.hybrid_mrr

    def spy(service, questions):
        encoder = service.engine.index.encoder()
        asked_with.append((type(encoder).__name__, getattr(encoder, "directory", None)))
        return real(service, questions)

    monkeypatch.setattr(quantcheck, "hybrid_mrr", spy)
    runner = CliRunner()
    result = runner.invoke(cli, ["index", "--index", str(idx), "--quantize", "--check", str(questions), "--quiet"],
                           catch_exceptions=False)
    assert result.exit_code == 0, result.output
    line, verdict = result.output.strip().splitlines()
    assert line.startswith("mine.jsonl: 12 questions, hybrid MRR@10 full precision 0.") and line.count(".") == 4
    assert verdict == f"Index at {idx} is int8 now (relnotes index --no-quantize goes back)"
    model = LoadedIndex(idx).manifest.model
    assert model["name"] == "all-MiniLM-L6-v2 int8" and model["quantized"] == {"recipe": RECIPE}
    assert model["query_encoder"]["quantized"] == RECIPE  # questions go through the int8 export too
    (full_type, _), (int8_type, int8_dir) = asked_with  # and the check asked the trial as they will be:
    assert full_type == "NumpyQueryEncoder"  # full precision in numpy, int8 through its own int8 export
    assert int8_type == "OnnxQueryEncoder" and int8_dir.name == model["query_encoder"]["key"]
    assert type(LoadedIndex(idx).encoder()).__name__ == "OnnxQueryEncoder"  # and so do its questions
    assert not idx.with_name("idx-int8-trial").exists() and not idx.with_name(".idx-int8-trial.lock").exists()

    plain = runner.invoke(cli, ["index", "--index", str(idx), "--quiet"], catch_exceptions=False)
    assert "Vectors: int8" in plain.output and "up to date" in plain.output  # kept as built
    again = runner.invoke(cli, ["index", "--index", str(idx), "--quantize", "--check", str(questions), "--quiet"])
    assert again.output == f"Index at {idx} is int8 already (relnotes index --no-quantize goes back)\n"
    back = runner.invoke(cli, ["index", "--index", str(idx), "--no-quantize", "--quiet"], catch_exceptions=False)
    assert back.output.startswith("Indexed 4 documents") and "quantized" not in LoadedIndex(idx).manifest.model


def test_full_precision_is_kept_when_a_set_loses(setup, monkeypatch: pytest.MonkeyPatch) -> None:
    idx, questions = setup
    before = (idx / "manifest.json").read_text()
    monkeypatch.setattr(quantcheck, "MAX_DROP", -1.0)  # no int8 index can hold this
    result = CliRunner().invoke(cli, ["index", "--index", str(idx), "--quantize", "--check", str(questions),
                                      "--check", str(questions), "--quiet"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 3 and lines[0].endswith("more than -1.0 lost")
    assert lines[-1] == f"Kept full precision at {idx}: int8 lost more than -1.0 MRR@10 on 2 of 2 question sets"
    assert (idx / "manifest.json").read_text() == before  # untouched
    assert sorted(p.name for p in idx.parent.iterdir() if "int8" in p.name) == []
