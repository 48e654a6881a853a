"""``relnotes index --quantize``: int8 embedding only after a quality check on the corpus passes;
refused (full precision, with the reason) when it fails or cannot be made."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import index.quantize as quantize_module
from index import open_index
from index.reader import LoadedIndex
from qa.cli import cli
from tests.index.test_adapt import changelog


@pytest.fixture
def small_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check over 400 sentences and 80 questions: the same code, a quarter of the time."""
    monkeypatch.setattr(quantize_module, "POOL", 400)
    monkeypatch.setattr(quantize_module, "QUERIES", 80)


def test_quantize_after_a_passing_check_embeds_and_asks_through_int8(tmp_path: Path, small_check,
                                                                     bundled_index: Path, capfd) -> None:
    messages: list[str] = []
    loaded, report = open_index(None, index_dir=tmp_path / "idx", quantize=True, notify=messages.append)
    quantized = loaded.manifest.model["quantized"]
    check = quantized["check"]
    assert report is not None and check["passed"] and check["queries"] == 80
    assert check["float"] - check["int8"] <= quantize_module.MAX_DROP
    assert any(m.startswith("Quantized to int8: MRR@10 ") for m in messages)
    assert "Please consider" not in capfd.readouterr().err  # onnxruntime's advice on the root logger is kept quiet
    assert loaded.manifest.model["name"] == "all-MiniLM-L6-v2 int8"
    assert loaded.manifest.model["query_encoder"]["quantized"] == quantize_module.RECIPE

    query = LoadedIndex(tmp_path / "idx").encoder()  # questions go through the int8 export too
    assert type(query).__name__ == "OnnxQueryEncoder" and query.directory.name == loaded.manifest.model[
        "query_encoder"]["key"]
    probe = ["How do I turn on the new memory allocator?"]
    cosine = float((query.encode(probe) * LoadedIndex(bundled_index).encoder().encode(probe)).sum())
    assert 0.95 < cosine < 0.99999  # int8: close to full precision, not equal to it

    again, report = open_index(None, index_dir=tmp_path / "idx")  # kept without a second check
    assert report is None and again.manifest.model == loaded.manifest.model
    back, report = open_index(None, index_dir=tmp_path / "idx", quantize=False)
    assert report is not None and "quantized" not in back.manifest.model
    assert back.manifest.model["name"] == "all-MiniLM-L6-v2"


def test_quantize_is_refused_when_the_check_fails(tmp_path: Path, small_check, monkeypatch) -> None:
    monkeypatch.setattr(quantize_module, "MAX_DROP", -1.0)  # no int8 export can pass this
    messages: list[str] = []
    loaded, report = open_index(None, index_dir=tmp_path / "idx", quantize=True, notify=messages.append)
    assert report is not None and "quantized" not in loaded.manifest.model
    refused = [m for m in messages if m.startswith("--quantize refused")]
    assert len(refused) == 1 and refused[0].endswith("(more than -1.0 lost); built at full precision")
    assert "quantized" not in loaded.manifest.model["query_encoder"]


def test_quantize_is_refused_without_enough_to_check(tmp_path: Path) -> None:
    notes = tmp_path / "proj"
    notes.mkdir()
    (notes / "CHANGELOG.md").write_text(changelog(2, per_release=5))
    result = CliRunner().invoke(cli, ["index", "--corpus", str(notes), "--index", str(tmp_path / "idx"),
                                      "--quantize"])
    assert result.exit_code == 0, result.output
    assert ("--quantize refused: the corpus has 10 sentences to check int8 against float (at least 50 are "
            "needed); built at full precision") in result.output
    assert "Vectors: int8" not in result.output and "WARNING" not in result.output
    assert "quantized" not in LoadedIndex(tmp_path / "idx").manifest.model
