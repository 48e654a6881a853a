"""The bf16 document embedder (index.encode.bf16): when a build takes it, and that its vectors are
the fp32 export's, on the real bundled model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from index.build.pipeline import build_index
from index.encode import bf16
from index.encode.bf16 import Bf16Encoder, bf16_encoder, cpu_has_bf16, wanted
from index.encode.encoders import Encoder
from index.encode.onnx_query import OnnxQueryEncoder
from index.retrieve.reader import LoadedIndex
from tests.support.fakes import make_chunk

CORPUS = {"fingerprint": "f", "inputs": ["<test>"], "documents": {}}
TEXTS = ["Added support for Python 3.13.", "Dropped support for Python 3.8; requires 3.9 or later.",
         "The ``int`` URL converter returns a 404 instead of 500 error for values it cannot convert.",
         "torch.compile " * 300, "MPS", "", "Fix a crash when the cache folder is read-only " * 6]


@pytest.fixture(scope="module")
def st_encoder() -> Encoder:
    return Encoder(None)


@pytest.fixture()
def record(st_encoder, bundled_index) -> dict:
    """The bundled model's export record (exported once a session by ``bundled_index``)."""
    from index.encode.onnx_export import cached_query_encoder

    found = cached_query_encoder(st_encoder)
    assert found is not None
    return found


def _cpuinfo(tmp_path: Path, flags: str) -> str:
    path = tmp_path / "cpuinfo"
    path.write_text(f"processor\t: 0\nmodel name\t: A CPU\nflags\t\t: fpu sse2 avx2 {flags}\n\n")
    return str(path)


def test_the_cpu_flags_decide(tmp_path) -> None:
    for name in "abc":
        (tmp_path / name).mkdir()
    assert cpu_has_bf16(_cpuinfo(tmp_path / "a", "avx512f avx512_bf16"))
    assert not cpu_has_bf16(_cpuinfo(tmp_path / "b", "avx512f avx512bw"))  # AVX-512 alone emulates bf16: slower
    assert cpu_has_bf16(_cpuinfo(tmp_path / "c", "amx_tile amx_bf16"))
    assert not cpu_has_bf16(str(tmp_path / "no-such-file"))


def test_only_large_builds_of_a_float_export_on_a_bf16_cpu(monkeypatch) -> None:
    spec = {"dim": 384, "max_seq_length": 256, "key": "k"}
    monkeypatch.setattr(bf16, "cpu_has_bf16", lambda: True)
    monkeypatch.delenv(bf16.BF16_ENV, raising=False)
    assert wanted(spec, bf16.MIN_TEXTS)
    assert not wanted(spec, bf16.MIN_TEXTS - 1)  # the torch import would cost more than it saves
    assert not wanted(None, 10**6)  # no export: the model is not one the export reproduces
    assert not wanted({**spec, "quantized": {"x": 1}}, 10**6)  # int8 asked: its own export embeds
    monkeypatch.setenv(bf16.BF16_ENV, "0")
    assert not wanted(spec, 10**6)
    monkeypatch.delenv(bf16.BF16_ENV)
    monkeypatch.setattr(bf16, "cpu_has_bf16", lambda: False)
    assert not wanted(spec, 10**6)


def test_bf16_vectors_are_the_fp32_exports(st_encoder, record, bundled_index) -> None:
    """Real bundled model: the bf16 embedder's unit vectors agree with the fp32 export and with
    sentence-transformers (cosine >= 0.9999), long texts truncated as they are, the empty text too."""
    texts = TEXTS + [c.text for c in LoadedIndex(bundled_index).chunks[:60]]
    embedder = Bf16Encoder(st_encoder, record)
    ours = embedder.encode(texts)
    assert ours.shape == (len(texts), 384) and ours.dtype == np.float32
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    fp32 = OnnxQueryEncoder(bundled_entry_dir(record), record, name=st_encoder.name, path=str(st_encoder.path))
    assert float((ours * fp32.encode(texts)).sum(axis=1).min()) >= 0.9999
    assert float((ours * st_encoder.encode(texts)).sum(axis=1).min()) >= 0.9999
    # the same texts in another order and slicing give the same vectors (passes are cut by width only)
    again = np.empty_like(ours)
    embedder.encode_into(texts[::-1], again, list(range(len(texts)))[::-1], batch_size=4)
    assert float((ours * again).sum(axis=1).min()) >= 0.99999


def test_the_callers_torch_threads_are_kept_and_the_workers_end(st_encoder, record) -> None:
    """The workers run one torch thread each (which sets MKL's process-wide count too): the caller's
    count is back after every slice, and ``close`` ends the worker threads."""
    import threading

    import torch

    before = torch.get_num_threads()
    embedder = Bf16Encoder(st_encoder, record)
    embedder.encode(TEXTS * 20)  # several passes: the worker threads run
    assert torch.get_num_threads() == before
    assert any(t.name.startswith("relnotes-bf16") for t in threading.enumerate()) == (embedder._workers > 1)
    embedder.close()
    assert not any(t.name.startswith("relnotes-bf16") for t in threading.enumerate())


def bundled_entry_dir(record: dict) -> Path:
    from index.encode.encoder_cache import open_entry

    return open_entry(record)


def test_a_disagreeing_bf16_is_refused_and_said(st_encoder, record, monkeypatch) -> None:
    fp32 = OnnxQueryEncoder(bundled_entry_dir(record), record, name=st_encoder.name, path=str(st_encoder.path))
    said: list[str] = []
    assert bf16_encoder(st_encoder, record, fp32, TEXTS, said.append) is not None and not said
    monkeypatch.setattr(bf16, "MIN_COSINE", 1.000001)  # no real vector agrees this well
    assert bf16_encoder(st_encoder, record, fp32, TEXTS, said.append) is None
    assert said and "disagree with fp32" in said[0] and "fp32 export serves" in said[0]


def test_a_large_build_embeds_in_bf16_and_says_so(tmp_path, st_encoder, record, monkeypatch) -> None:
    """Where bf16 is wanted (here: the CPU said to have it, the threshold lowered to this build)
    the build embeds through it, says so once, and its index answers like an fp32 one; with
    RELNOTES_BF16=0 the fp32 export embeds."""
    import index.build.writer as writer

    used: list[str] = []
    real = writer.embed

    def spy(streams, blocks, encoder, progress, *keep):
        used.append(type(encoder).__name__)
        return real(streams, blocks, encoder, progress, *keep)

    monkeypatch.setattr(writer, "embed", spy)
    monkeypatch.setattr(bf16, "cpu_has_bf16", lambda: True)
    monkeypatch.setattr(bf16, "MIN_TEXTS", 4)
    monkeypatch.setenv("RELNOTES_VECTOR_STORE", "0")
    chunks = [make_chunk(i, f"Release note {i}: the widget cache now expires entries after {i} hours.")
              for i in range(6)]
    said: list[str] = []
    build_index(tmp_path / "bf16", chunks, encoder=st_encoder, corpus=CORPUS, notify=said.append)
    assert used == ["Bf16Encoder"] and sum("in bf16 arithmetic" in line for line in said) == 1
    used.clear()
    monkeypatch.setenv(bf16.BF16_ENV, "0")
    build_index(tmp_path / "fp32", chunks, encoder=st_encoder, corpus=CORPUS)
    assert used == ["OnnxQueryEncoder"]
    a = LoadedIndex(tmp_path / "bf16").dense().vectors()
    b = LoadedIndex(tmp_path / "fp32").dense().vectors()
    assert a.shape == b.shape and float((a * b).sum(axis=1).min()) >= 0.9999
