"""Questions embedded in numpy (index.encode.numpy_query): the vectors of the ONNX export and of
sentence-transformers, which indexes ask with it, and what asks when it cannot."""

from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from index.encode import encoder_cache
from index.encode import numpy_query
from index.encode.encoder_cache import open_entry
from index.encode.encoders import Encoder, bundled_model_path
from index.encode.numpy_query import WEIGHTS_FILE, Bert, NumpyQueryEncoder, read_safetensors
from index.encode.onnx_query import OnnxQueryEncoder
from index.encode.wordpiece import WordPieceTokenizer
from index.errors import QueryEncoderUnavailable
from index.retrieve.reader import LoadedIndex
from index.retrieve.search import Searcher
from tests.support.paths import QUESTION_SETS

QUESTIONS = [json.loads(line)["question"] for line in (QUESTION_SETS / "pytorch.jsonl").open()]
TEXTS = {
    "empty": "",
    "blank": "  \t\n ",
    "one letter": "x",
    "acronym": "MPS",
    "question": "when is the live Q&A webinar for 2.14?",
    "unicode": "Ünïcödé – 日本語のリリースノート 🚀 naïve café, ÉCOLE Straße",
    "code": "torch.compile(model, mode='max-autotune')  # sm_107; all_gather_single(x) -> y != z",
    "long": " ".join(f"release {n} fixed item {n}" for n in range(120)),  # past max_seq_length: truncated
    "repeated": "torch.compile " * 300,
}


@pytest.fixture(scope="module")
def st_encoder() -> Encoder:
    """The bundled model on sentence-transformers, loaded once for the module."""
    return Encoder(None)


def _onnx(index_dir: Path) -> OnnxQueryEncoder:
    """The index's float ONNX export, from the cache."""
    model = json.loads((index_dir / "manifest.json").read_text())["model"]
    return OnnxQueryEncoder(open_entry(model["query_encoder"]), model["query_encoder"], name=model["name"],
                            path=model["path"])


def _with_model(index_copy: Path, model: Path) -> Path:
    """``index_copy`` with its manifest's model folder set to ``model``."""
    path = index_copy / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["model"]["path"] = str(model)
    path.write_text(json.dumps(manifest))
    return index_copy


@pytest.fixture()
def index_copy(bundled_index: Path, tmp_path: Path) -> Path:
    """A private copy of the bundled index that a test may point at another model folder."""
    return Path(shutil.copytree(bundled_index, tmp_path / "idx"))


@pytest.fixture()
def model_copy(tmp_path: Path) -> Path:
    """A copy of the bundled model folder (file times kept), at a path no build stamped."""
    return Path(shutil.copytree(bundled_model_path(), tmp_path / "model"))


def test_numpy_vectors_match_the_export_and_sentence_transformers(bundled_index, st_encoder) -> None:
    encoder = LoadedIndex(bundled_index).encoder()
    assert isinstance(encoder, NumpyQueryEncoder) and encoder.dim == 384
    assert encoder.path == str(bundled_model_path())
    texts = [*TEXTS.values(), *QUESTIONS]
    one_by_one = np.stack([encoder.encode_query(text) for text in texts])
    batched = encoder.encode(texts, batch_size=8)  # mixed lengths: padded passes
    assert one_by_one.dtype == batched.dtype == np.float32 and batched.shape == (len(texts), 384)
    np.testing.assert_allclose(np.linalg.norm(batched, axis=1), 1.0, atol=1e-5)
    assert float((one_by_one * batched).sum(axis=1).min()) >= 0.99999  # padding changes nothing
    for reference in (_onnx(bundled_index).encode(texts), st_encoder.encode(texts)):
        cosines = (batched * reference).sum(axis=1)
        assert float(cosines.min()) >= 0.9999, texts[int(cosines.argmin())]


def test_the_long_texts_are_truncated_at_max_seq_length(bundled_index) -> None:
    import tokenizers

    whole = tokenizers.Tokenizer.from_file(str(bundled_model_path() / "tokenizer.json"))
    whole.no_truncation()
    encoder = LoadedIndex(bundled_index).encoder()
    for name in ("long", "repeated"):
        assert len(whole.encode(TEXTS[name]).ids) > 256 == len(encoder._tokenizer.encode(TEXTS[name]).ids)


def test_the_python_word_pieces_give_the_vectors_of_the_library_s(bundled_index) -> None:
    """The question's tokens come from index.encode.wordpiece, not `tokenizers`; the vectors are
    the same to the bit (tests/index/test_wordpiece.py compares the ids themselves)."""
    record = json.loads((bundled_index / "manifest.json").read_text())["model"]["query_encoder"]
    ours = NumpyQueryEncoder(bundled_model_path(), record, name="bundled")
    theirs = NumpyQueryEncoder(bundled_model_path(), record, name="bundled")
    assert isinstance(ours._tokenizer, WordPieceTokenizer)
    theirs._tokenizer = ours._tokenizer.library()
    texts = [*TEXTS.values(), *QUESTIONS]
    assert np.array_equal(ours.encode(texts, batch_size=8), theirs.encode(texts, batch_size=8))


def test_gelu_is_the_exact_erf_gelu() -> None:
    x = np.linspace(-12, 12, 240_001, dtype=np.float32)
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.astype(np.float64)])
    error = np.abs(numpy_query._gelu(x).astype(np.float64) - exact)
    assert float((error / np.maximum(1, np.abs(x))).max()) < 1e-6  # float32 rounding of x is ~6e-8 |x|


def test_the_weights_reader_agrees_with_the_safetensors_library() -> None:
    from safetensors.numpy import load_file

    reference = load_file(str(bundled_model_path() / WEIGHTS_FILE))
    ours = read_safetensors(bundled_model_path() / WEIGHTS_FILE)
    assert set(ours) == {name for name, array in reference.items() if array.dtype == np.float32}
    assert len(ours) == 6 * 16 + 7  # per layer 16, embeddings 5, pooler 2; the int64 position_ids left out
    for name, array in ours.items():
        assert array.shape == reference[name].shape and np.array_equal(array, reference[name]), name


def _damage_weights(model: Path, how: str) -> None:
    """Break a model copy's weights or config the way ``how`` says."""
    weights = model / WEIGHTS_FILE
    if how == "truncated":
        os.truncate(weights, weights.stat().st_size - 1000)
    elif how == "tensor missing":
        from safetensors.numpy import load_file, save_file

        tensors = load_file(str(weights))
        del tensors["encoder.layer.3.intermediate.dense.weight"]
        save_file(tensors, str(weights))
    elif how == "not safetensors":
        weights.write_bytes(b"\xff" * 64)
    elif how == "approximate gelu":
        config = json.loads((model / "config.json").read_text())
        (model / "config.json").write_text(json.dumps({**config, "hidden_act": "gelu_new"}))


@pytest.mark.parametrize("how", ["truncated", "tensor missing", "not safetensors", "approximate gelu"])
def test_weights_it_cannot_reproduce_are_refused(model_copy, how) -> None:
    _damage_weights(model_copy, how)
    with pytest.raises(QueryEncoderUnavailable, match=f"model at {model_copy}"):
        Bert.load(model_copy)
    with pytest.raises(QueryEncoderUnavailable):
        NumpyQueryEncoder(model_copy, {"dim": 384, "max_seq_length": 256}, name="copy")


def _ranks_like_sentence_transformers(index: LoadedIndex, bundled_index: Path, st_encoder: Encoder) -> None:
    reference = LoadedIndex(bundled_index)
    reference.set_encoder(st_encoder)
    for question in QUESTIONS[:8]:
        assert ([h.chunk.id for h in Searcher(index).search(question, k=10, mode="hybrid")]
                == [h.chunk.id for h in Searcher(reference).search(question, k=10, mode="hybrid")]), question


def test_a_model_folder_without_safetensors_asks_through_the_export(index_copy, model_copy, bundled_index,
                                                                      st_encoder) -> None:
    (model_copy / WEIGHTS_FILE).unlink()
    quiet: list[str] = []
    index = LoadedIndex(_with_model(index_copy, model_copy), notify=quiet.append)
    assert isinstance(index.encoder(), OnnxQueryEncoder) and quiet == []  # not a fault: nothing said
    _ranks_like_sentence_transformers(index, bundled_index, st_encoder)


def test_weights_damaged_behind_the_stamp_ask_through_the_export(index_copy, model_copy, bundled_index,
                                                                 st_encoder) -> None:
    """Weights that fail to load though the folder's stamp holds (bytes overwritten, the file's
    time put back) fall back to the export without a notice."""
    index = _with_model(index_copy, model_copy)
    assert isinstance(LoadedIndex(index).encoder(), NumpyQueryEncoder)  # hashed once, stamped
    weights = model_copy / WEIGHTS_FILE
    times = (weights.stat().st_atime_ns, weights.stat().st_mtime_ns)
    with open(weights, "r+b") as fh:
        fh.write(b"\xff" * 8)  # a header length no safetensors file has
    os.utime(weights, ns=times)
    quiet: list[str] = []
    asked = LoadedIndex(index, notify=quiet.append)
    assert isinstance(asked.encoder(), OnnxQueryEncoder) and quiet == []
    _ranks_like_sentence_transformers(asked, bundled_index, st_encoder)


def test_an_unstamped_folder_is_hashed_once_and_a_changed_one_again(index_copy, model_copy,
                                                                    monkeypatch) -> None:
    calls: list[Path] = []
    real = encoder_cache.model_key
    monkeypatch.setattr(encoder_cache, "model_key", lambda path, recipe: calls.append(path) or real(path, recipe))
    index = _with_model(index_copy, model_copy)
    assert isinstance(LoadedIndex(index).encoder(), NumpyQueryEncoder) and len(calls) == 1
    assert isinstance(LoadedIndex(index).encoder(), NumpyQueryEncoder) and len(calls) == 1  # the stamp
    readme = model_copy / "README.md"
    os.utime(readme, ns=(readme.stat().st_atime_ns, readme.stat().st_mtime_ns + 10**9))  # touched only
    assert isinstance(LoadedIndex(index).encoder(), NumpyQueryEncoder) and len(calls) == 2
    readme.write_text(readme.read_text() + "Fine-tuned since.\n")  # changed: no longer the built model
    assert isinstance(LoadedIndex(index).encoder(), OnnxQueryEncoder) and len(calls) == 3
    assert isinstance(LoadedIndex(index, verify=False).encoder(), OnnxQueryEncoder) and len(calls) == 3


def test_without_checksums_only_a_stamp_lets_numpy_ask(index_copy, model_copy) -> None:
    index = _with_model(index_copy, model_copy)
    assert isinstance(LoadedIndex(index, verify=False).encoder(), OnnxQueryEncoder)  # unstamped: not hashed
    assert isinstance(LoadedIndex(index).encoder(), NumpyQueryEncoder)  # hashed and stamped
    assert isinstance(LoadedIndex(index, verify=False).encoder(), NumpyQueryEncoder)


def test_the_build_stamps_the_model_folder(bundled_index, shared_encoders) -> None:
    key = json.loads((bundled_index / "manifest.json").read_text())["model"]["query_encoder"]["key"]
    stamps = [json.loads(p.read_text()) for p in (shared_encoders / ".checked").glob(f"{key}-*.json")]
    ours = [s for s in stamps if s["path"] == str(bundled_model_path())]  # other tests stamp copies of it
    assert len(ours) == 1 and ours[0]["key"] == key
    assert ours[0]["files"] == encoder_cache.folder_state(bundled_model_path())


def test_relnotes_onnx_0_asks_on_sentence_transformers(bundled_index, monkeypatch) -> None:
    monkeypatch.setenv("RELNOTES_ONNX", "0")  # the reference path: neither the export nor numpy
    assert isinstance(LoadedIndex(bundled_index).encoder(), Encoder)


def test_a_pass_runs_blas_on_one_thread_and_restores_it(bundled_index, monkeypatch) -> None:
    from threadpoolctl import threadpool_info

    def blas_threads() -> list[int]:  # numpy's BLAS (faiss, loaded by other tests, brings its own)
        blas = [lib for lib in threadpool_info() if lib["user_api"] == "blas"]
        return [lib["num_threads"] for lib in [b for b in blas if "numpy" in b["filepath"]] or blas]

    during: list[list[int]] = []
    real = Bert.token_embeddings
    monkeypatch.setattr(Bert, "token_embeddings", lambda self, *a: during.append(blas_threads()) or real(self, *a))
    before = blas_threads()
    LoadedIndex(bundled_index).encoder().encode_query("nccl2 backend")
    assert during and set(during[0]) == {1} and blas_threads() == before
