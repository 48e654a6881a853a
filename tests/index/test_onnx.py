"""The torch-free query path: ONNX export at index time, OnnxQueryEncoder, and the fallback to torch."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from index import onnx_export
from index.encoders import Encoder, bundled_model_path
from index.onnx_query import ONNX_FILE, TOKENIZER_FILE, OnnxQueryEncoder, export_spec
from index.reader import LoadedIndex
from index.search import Searcher
from index.build import build_index
from tests.support.fakes import FakeEncoder, make_chunk
from tests.support.paths import QUESTION_SETS, REPO

QUESTIONS = [json.loads(line)["question"] for line in (QUESTION_SETS / "pytorch.jsonl").open()]
HEAVY = ("torch", "transformers", "sentence_transformers")
CORPUS = {"fingerprint": "f", "inputs": ["<test>"], "documents": {}}


@pytest.fixture(scope="module")
def st_encoder() -> Encoder:
    """The bundled model on sentence-transformers, loaded once for the module."""
    encoder = Encoder(None)
    encoder.dim  # noqa: B018 - reads the config; the model loads on first encode
    return encoder


@pytest.fixture(scope="module")
def st_vectors(st_encoder: Encoder) -> np.ndarray:
    """Every benchmark question embedded by sentence-transformers."""
    return st_encoder.encode(QUESTIONS)


@pytest.fixture()
def index_copy(bundled_index: Path, tmp_path: Path) -> Path:
    """A private copy of the bundled index that a test may damage."""
    return Path(shutil.copytree(bundled_index, tmp_path / "idx"))


def _ranking(index: LoadedIndex, question: str, mode: str) -> list[str]:
    return [hit.chunk.id for hit in Searcher(index).search(question, k=10, mode=mode)]


def test_the_build_exports_the_query_encoder_with_checksums(bundled_index: Path) -> None:
    manifest = json.loads((bundled_index / "manifest.json").read_text())
    assert {ONNX_FILE, TOKENIZER_FILE} <= set(manifest["files"])
    assert manifest["model"]["query_encoder"] == export_spec(bundled_model_path())
    assert manifest["model"]["query_encoder"]["pooling"] == "mean"
    assert manifest["model"]["query_encoder"]["max_seq_length"] == 256


def test_onnx_vectors_match_sentence_transformers_on_every_question(bundled_index, st_vectors) -> None:
    encoder = LoadedIndex(bundled_index).encoder()
    assert isinstance(encoder, OnnxQueryEncoder) and encoder.dim == 384
    one_by_one = np.stack([encoder.encode_query(q) for q in QUESTIONS])
    batched = encoder.encode(QUESTIONS, batch_size=64)
    for vectors in (one_by_one, batched):
        assert vectors.dtype == np.float32 and vectors.shape == st_vectors.shape
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
        assert float((vectors * st_vectors).sum(axis=1).min()) >= 0.9999


def test_onnx_truncates_long_texts_like_sentence_transformers(bundled_index, st_encoder) -> None:
    texts = ["torch.compile " * 300, "x", ""]
    onnx = LoadedIndex(bundled_index).encoder().encode(texts)
    assert float((onnx * st_encoder.encode(texts)).sum(axis=1).min()) >= 0.9999


@pytest.mark.parametrize("mode", ["dense", "hybrid"])
def test_rankings_are_identical_with_either_encoder(bundled_index, st_encoder, mode) -> None:
    onnx_index = LoadedIndex(bundled_index)
    st_index = LoadedIndex(bundled_index)
    st_index.set_encoder(st_encoder)
    assert isinstance(onnx_index.encoder(), OnnxQueryEncoder)
    for question in QUESTIONS:
        assert _ranking(onnx_index, question, mode) == _ranking(st_index, question, mode), question


@pytest.mark.parametrize("damage", ["delete", "corrupt", "delete tokenizer"])
def test_a_missing_or_corrupt_export_falls_back_with_a_notice(index_copy, bundled_index, st_encoder, damage) -> None:
    if damage == "delete":
        (index_copy / ONNX_FILE).unlink()
    elif damage == "delete tokenizer":
        (index_copy / TOKENIZER_FILE).unlink()
    else:
        with open(index_copy / ONNX_FILE, "r+b") as fh:
            fh.seek(1000)
            fh.write(b"\0" * 64)
    notices: list[str] = []
    damaged = LoadedIndex(index_copy, notify=notices.append)
    assert isinstance(damaged.encoder(), Encoder)
    assert len(notices) == 1 and "\n" not in notices[0]
    assert ("fails its checksum" if damage == "corrupt" else "is missing") in notices[0]
    assert notices[0].endswith("using sentence-transformers for queries")
    reference = LoadedIndex(bundled_index)
    reference.set_encoder(st_encoder)
    for question in QUESTIONS[:10]:
        assert _ranking(damaged, question, "hybrid") == _ranking(reference, question, "hybrid")


def test_relnotes_onnx_0_keeps_queries_on_sentence_transformers(bundled_index, monkeypatch) -> None:
    monkeypatch.setenv("RELNOTES_ONNX", "0")
    notices: list[str] = []
    assert isinstance(LoadedIndex(bundled_index, notify=notices.append).encoder(), Encoder)
    assert notices == []


_NO_TORCH_PROBE = """
import json, sys
from qa.cli import cli
cli.main(["ask", sys.argv[1], "--index", sys.argv[2], "--no-update"], standalone_mode=False)
print(json.dumps(sorted(m for m in sys.argv[3].split(",") if m in sys.modules)))
"""


def test_the_onnx_query_path_never_imports_torch(bundled_index) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _NO_TORCH_PROBE, "how do i turn on nvgemm in inductor", str(bundled_index),
         ",".join(HEAVY)],
        capture_output=True, text=True, cwd=REPO, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "[1]" in result.stdout  # a cited answer came back
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []
    assert result.stderr == ""


def test_models_the_onnx_path_cannot_reproduce_get_no_export(tmp_path: Path) -> None:
    model = Path(shutil.copytree(bundled_model_path(), tmp_path / "model"))
    assert export_spec(model) is not None
    pooling = model / "1_Pooling" / "config.json"
    config = json.loads(pooling.read_text())
    pooling.write_text(json.dumps({**config, "pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True}))
    assert export_spec(model) is None
    assert export_spec(tmp_path / "nothing-here") is None
    assert onnx_export.write_query_encoder(tmp_path, FakeEncoder()) is None


def test_a_failed_export_never_fails_the_build(tmp_path, st_encoder, monkeypatch) -> None:
    def broken(encoder, path):
        path.write_bytes(b"half a file")
        raise RuntimeError("exporter exploded")

    monkeypatch.setattr(onnx_export, "_export", broken)
    notices: list[str] = []
    chunks = [make_chunk(i, text) for i, text in enumerate(["MPS ops moved to Metal", "FlexAttention backward"])]
    report = build_index(tmp_path / "idx", chunks, encoder=st_encoder, corpus=CORPUS, notify=notices.append)
    assert report.chunks == 2
    assert notices and "exporter exploded" in notices[0]
    assert not (tmp_path / "idx" / ONNX_FILE).exists() and not (tmp_path / "idx" / TOKENIZER_FILE).exists()
    quiet: list[str] = []
    index = LoadedIndex(tmp_path / "idx", notify=quiet.append)
    assert "query_encoder" not in index.manifest.model and isinstance(index.encoder(), Encoder) and quiet == []


def test_a_rebuild_reuses_the_previous_export(tmp_path, st_encoder, monkeypatch) -> None:
    chunks = [make_chunk(i, text) for i, text in enumerate(["MPS ops moved to Metal", "FlexAttention backward"])]
    build_index(tmp_path / "idx", chunks, encoder=st_encoder, corpus=CORPUS)
    first = json.loads((tmp_path / "idx" / "manifest.json").read_text())["files"][ONNX_FILE]

    def unexpected(encoder, path):
        raise AssertionError("exported again")

    monkeypatch.setattr(onnx_export, "_export", unexpected)
    build_index(tmp_path / "idx", chunks[:1], encoder=st_encoder, corpus=CORPUS)
    index = LoadedIndex(tmp_path / "idx")
    assert index.manifest.files[ONNX_FILE] == first
    assert isinstance(index.encoder(), OnnxQueryEncoder)
