"""Dense side: model path checks, the bundled encoder, and the flat index with its row filter."""

import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

from index.retrieve.dense import DenseIndex
from index.encode.encoders import Encoder, bundled_model_path
from index.errors import DenseIndexFileError, ModelNotFound, RelnotesIndexError
from tests.support.paths import REPO

_NO_NETWORK_PROBE = """
import socket, sys, time
def deny(*args, **kwargs):
    raise AssertionError("network touched")
socket.socket.connect = deny
socket.create_connection = deny
socket.getaddrinfo = deny
start = time.perf_counter()
from index.encode.encoders import Encoder
from index.errors import ModelNotFound
try:
    Encoder(sys.argv[1])
except ModelNotFound as err:
    print("error:", err)
print("seconds:", time.perf_counter() - start)
print("heavy:", sorted(m for m in ("torch", "sentence_transformers", "transformers", "faiss") if m in sys.modules))
"""


@pytest.fixture(scope="session")
def encoder() -> Encoder:
    """The bundled model, loaded once for the session."""
    enc = Encoder()
    enc.encode(["warm up"])
    return enc


def unit_rows(n: int, dim: int, seed: int = 0) -> np.ndarray:
    """n random float32 unit vectors."""
    vecs = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return vecs / np.linalg.norm(vecs, axis=1, keepdims=True)


def test_missing_model_fails_at_once(tmp_path):
    missing = tmp_path / "no-such-model"
    start = time.perf_counter()
    with pytest.raises(ModelNotFound, match="No embedding model at .*no-such-model; pass --model"):
        Encoder(missing)
    assert time.perf_counter() - start < 1.0
    assert issubclass(ModelNotFound, RelnotesIndexError)


def test_folder_without_config_is_not_a_model(tmp_path):
    (tmp_path / "weights.bin").write_bytes(b"\0")
    with pytest.raises(ModelNotFound):
        Encoder(tmp_path)


def test_missing_model_imports_nothing_heavy_and_never_touches_network(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _NO_NETWORK_PROBE, str(tmp_path / "absent")],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=60, check=True,
    ).stdout
    assert time.perf_counter() - start < 5.0  # whole interpreter, start to exit
    assert "error: No embedding model at" in out
    assert float(out.split("seconds:")[1].split()[0]) < 1.0
    assert "heavy: []" in out


def test_bundled_model_name_path_and_dim_without_loading():
    enc = Encoder()
    assert enc.name == "all-MiniLM-L6-v2"
    assert enc.path == bundled_model_path().resolve()
    assert enc.dim == 384
    assert Encoder(str(bundled_model_path())).name == "all-MiniLM-L6-v2"


def test_local_model_is_named_by_its_folder(tmp_path):
    local = tmp_path / "my-model"
    shutil.copytree(bundled_model_path(), local, ignore=shutil.ignore_patterns("*.safetensors"))
    enc = Encoder(local)
    assert enc.name == "my-model"
    assert enc.dim == 384  # from the config files; the weights are not needed for that
    link = tmp_path / "link"
    link.symlink_to(bundled_model_path(), target_is_directory=True)
    assert Encoder(link).name == "all-MiniLM-L6-v2"


def test_dim_read_from_a_dense_module(tmp_path):
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "2_Dense").mkdir()
    (tmp_path / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"},
    ]))
    (tmp_path / "1_Pooling" / "config.json").write_text(
        json.dumps({"word_embedding_dimension": 768, "pooling_mode_mean_tokens": True}))
    (tmp_path / "2_Dense" / "config.json").write_text(json.dumps({"in_features": 768, "out_features": 256}))
    assert Encoder(tmp_path).dim == 256


def test_encode_gives_unit_float32_rows(encoder):
    vecs = encoder.encode(["PyTorch 2.1 adds torch.compile", "faster CUDA graphs", "bug fixes"])
    assert vecs.shape == (3, 384)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)


def test_semantically_closer_text_scores_higher(encoder):
    query, near, far = encoder.encode([
        "How do I install PyTorch with GPU support?",
        "Installing PyTorch on a machine with an NVIDIA CUDA graphics card",
        "Whisk two eggs with sugar and bake the cake for forty minutes",
    ])
    assert float(query @ near) > float(query @ far) + 0.2


def test_encode_query_equals_encode_of_one(encoder):
    text = "Which release deprecated torch.jit.script?"
    vec = encoder.encode_query(text)
    assert vec.shape == (384,)
    np.testing.assert_allclose(vec, encoder.encode([text])[0], atol=1e-6)


def test_encode_reports_progress_and_keeps_order(encoder):
    texts = [f"note {i}: " + "word " * (i % 7) for i in range(70)]
    calls = []
    vecs = encoder.encode(texts, batch_size=4, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (70, 70)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    np.testing.assert_allclose(vecs[13], encoder.encode_query(texts[13]), atol=1e-5)


def test_encode_edge_cases(encoder):
    assert encoder.encode([]).shape == (0, 384)
    with pytest.raises(TypeError):
        encoder.encode("one string")


def test_search_sorted_desc_and_exact():
    vecs = unit_rows(500, 16)
    index = DenseIndex.build(vecs)
    assert (index.n, index.dim) == (500, 16)
    hits = index.search(vecs[7], 5)
    assert hits[0][0] == 7
    assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
    expected = np.argsort(-(vecs @ vecs[7]), kind="stable")[:5]
    assert [r for r, _ in hits] == expected.tolist()
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)


def test_search_allowed_filters_inside_the_search():
    vecs = unit_rows(2000, 32, seed=1)
    index = DenseIndex.build(vecs)
    query = vecs[0]
    scores = vecs @ query
    order = np.argsort(-scores, kind="stable")
    allowed = np.ones(2000, dtype=bool)
    allowed[order[:300]] = False  # every one of the 300 best rows is disallowed
    hits = index.search(query, 10, allowed=allowed)
    assert len(hits) == 10
    assert all(allowed[r] for r, _ in hits)
    assert [r for r, _ in hits] == order[300:310].tolist()


def test_search_allowed_few_rows_and_none():
    vecs = unit_rows(100, 8, seed=2)
    index = DenseIndex.build(vecs)
    allowed = np.zeros(100, dtype=bool)
    allowed[[3, 50, 99]] = True
    assert sorted(r for r, _ in index.search(vecs[0], 10, allowed=allowed)) == [3, 50, 99]
    assert index.search(vecs[0], 10, allowed=np.zeros(100, dtype=bool)) == []
    assert index.search(vecs[0], 0) == []


@pytest.mark.parametrize(
    "mask", [np.ones(99, dtype=bool), np.ones(100, dtype=np.int8)], ids=["wrong-length", "not-bool"]
)
def test_search_rejects_bad_masks(mask):
    index = DenseIndex.build(unit_rows(100, 8))
    with pytest.raises(ValueError):
        index.search(unit_rows(1, 8)[0], 3, allowed=mask)


def test_search_rejects_wrong_query_dim():
    with pytest.raises(ValueError):
        DenseIndex.build(unit_rows(10, 8)).search(np.ones(9, dtype=np.float32), 3)


def test_build_rejects_bad_shapes():
    with pytest.raises(ValueError):
        DenseIndex.build(np.ones(8, dtype=np.float32))


def test_k_larger_than_index():
    index = DenseIndex.build(unit_rows(4, 8))
    assert len(index.search(unit_rows(1, 8)[0], 10)) == 4


def test_save_load_round_trip(tmp_path):
    vecs = unit_rows(300, 24, seed=3)
    index = DenseIndex.build(vecs)
    index.save(tmp_path / "vectors.faiss")
    loaded = DenseIndex.load(tmp_path / "vectors.faiss")
    assert (loaded.n, loaded.dim) == (300, 24)
    np.testing.assert_array_equal(loaded.vectors(), vecs)
    assert loaded.search(vecs[5], 7) == index.search(vecs[5], 7)


def test_empty_index_round_trip(tmp_path):
    index = DenseIndex.build(np.empty((0, 8), dtype=np.float32))
    assert index.vectors().shape == (0, 8)
    assert index.search(np.ones(8, dtype=np.float32), 5) == []
    index.save(tmp_path / "empty.faiss")
    assert DenseIndex.load(tmp_path / "empty.faiss").n == 0


def test_load_missing_or_garbage_file(tmp_path):
    with pytest.raises(DenseIndexFileError, match="No dense index file"):
        DenseIndex.load(tmp_path / "absent.faiss")
    garbage = tmp_path / "garbage.faiss"
    garbage.write_bytes(b"not a faiss index at all")
    with pytest.raises(DenseIndexFileError, match="Cannot read"):
        DenseIndex.load(garbage)


def test_load_rejects_other_index_types(tmp_path):
    import faiss

    other = faiss.IndexFlatL2(8)
    faiss.write_index(other, str(tmp_path / "l2.faiss"))
    with pytest.raises(DenseIndexFileError, match="not an inner-product index"):
        DenseIndex.load(tmp_path / "l2.faiss")


def test_configure_runtime_forces_offline_flags(monkeypatch):
    from index.runtime import configure_runtime

    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")  # a user's own thread setting wins
    configure_runtime()
    configure_runtime()
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    assert os.environ["TRANSFORMERS_OFFLINE"] == "1"
    assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"


def test_faiss_is_tuned_for_single_queries():
    from index.runtime import BLAS_THRESHOLD, import_faiss

    faiss = import_faiss()
    assert faiss.cvar.distance_compute_blas_threshold == BLAS_THRESHOLD


def test_a_folder_that_only_looks_like_a_model_is_a_clear_error(tmp_path):
    """A config.json without weights passes the quick check but must not load into a traceback."""
    (tmp_path / "config.json").write_text("{}")
    encoder = Encoder(tmp_path)
    with pytest.raises(ModelNotFound, match="Cannot load an embedding model"):
        encoder.encode(["x"])


def test_items_score_by_their_best_window():
    vecs = unit_rows(6, 8, seed=4)
    owners = np.array([0, 0, 0, 1, 2, 2])  # item 0 has three windows, item 2 two
    index = DenseIndex.build(vecs, owners)
    assert (index.n, index.n_vectors) == (3, 6)
    scores = vecs @ vecs[4]
    best = [scores[:3].max(), scores[3], scores[4:].max()]
    expected = sorted(range(3), key=lambda i: (-best[i], i))
    hits = index.search(vecs[4], 3)
    assert [i for i, _ in hits] == expected
    assert [s for _, s in hits] == pytest.approx(sorted(best, reverse=True), abs=1e-5)
    assert index.search(vecs[1], 1)[0][0] == 0  # any window of an item finds it


def test_k_items_come_back_when_one_item_holds_the_best_windows():
    vecs = unit_rows(40, 8, seed=5)
    query = vecs[0]
    order = np.argsort(-(vecs @ query), kind="stable")
    vecs = vecs[order]  # rows now best first: item 0 owns the 10 best windows
    owners = np.array([0] * 10 + [1 + i // 2 for i in range(30)])
    index = DenseIndex.build(vecs, owners)
    hits = index.search(query, 5)
    assert [i for i, _ in hits] == [0, 1, 2, 3, 4]


def test_window_filter_follows_its_item():
    vecs = unit_rows(6, 8, seed=6)
    index = DenseIndex.build(vecs, np.array([0, 0, 1, 1, 2, 2]))
    allowed = np.array([False, True, False])
    assert [i for i, _ in index.search(vecs[0], 3, allowed=allowed)] == [1]
    with pytest.raises(ValueError):
        index.search(vecs[0], 3, allowed=np.ones(6, dtype=bool))  # the mask is over items, not windows


@pytest.mark.parametrize(
    "owners", [np.array([0, 0, 2]), np.array([1, 1, 2]), np.array([0, 1, 0]), np.array([0, 1])],
    ids=["gap", "not-from-zero", "not-in-order", "wrong-length"],
)
def test_build_rejects_bad_owners(owners):
    with pytest.raises(ValueError):
        DenseIndex.build(unit_rows(3, 8), owners)


def test_load_checks_the_window_count(tmp_path):
    DenseIndex.build(unit_rows(4, 8), np.array([0, 0, 1, 1])).save(tmp_path / "v.faiss")
    assert DenseIndex.load(tmp_path / "v.faiss", np.array([0, 0, 1, 1])).n == 2
    with pytest.raises(DenseIndexFileError, match="out of step"):
        DenseIndex.load(tmp_path / "v.faiss", np.array([0, 1, 2]))
