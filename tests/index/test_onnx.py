"""The ONNX path: the export cached once per model, OnnxQueryEncoder (builds embed with it; questions
when the numpy path cannot serve: tests/index/test_numpy_query.py), and the fallback to torch."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from index.encode import encoder_cache

from index.encode import onnx_export
from index.build.pipeline import build_index
from index.encode.encoder_cache import entry_present, model_key, open_entry
from index.encode.encoders import Encoder, bundled_model_path
from index.store.layout import ENCODER_RECORD
from index.lifecycle.opening import open_index
from index.store.manifest import sha256_file
from index.encode.onnx_export import OPSET
from index.encode.numpy_query import NumpyQueryEncoder
from index.encode.onnx_query import ONNX_FILE, TOKENIZER_FILE, OnnxQueryEncoder, export_spec
from index.retrieve.reader import LoadedIndex
from index.retrieve.search import Searcher
from qa.cli import cli
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


def onnx_encoder(index_dir: Path) -> OnnxQueryEncoder:
    """The index's ONNX query encoder from the cache (what asks when the numpy path cannot)."""
    model = json.loads((index_dir / "manifest.json").read_text())["model"]
    info = model["query_encoder"]
    return OnnxQueryEncoder(open_entry(info), info, name=model["name"], path=model["path"])


@pytest.fixture()
def onnx_only_index(index_copy: Path, tmp_path: Path) -> Path:
    """A copy of the bundled index whose model folder changed since the build (a README line): the
    folder no longer hashes to the export's key, so questions go through the export, as built."""
    model = Path(shutil.copytree(bundled_model_path(), tmp_path / "model"))
    with open(model / "README.md", "a", encoding="utf-8") as fh:
        fh.write("A line added after the build.\n")
    path = index_copy / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["model"]["path"] = str(model)
    path.write_text(json.dumps(manifest))
    return index_copy


def _ranking(index: LoadedIndex, question: str, mode: str) -> list[str]:
    return [hit.chunk.id for hit in Searcher(index).search(question, k=10, mode=mode)]


def _key(index_dir: Path) -> str:
    """The export key an index's manifest records."""
    return json.loads((index_dir / "manifest.json").read_text())["model"]["query_encoder"]["key"]


def _entries(root: Path) -> list[str]:
    """The entries of an encoder cache (the lock files beside them left out)."""
    return sorted(p.name for p in root.iterdir() if not p.name.startswith(".")) if root.exists() else []


@pytest.fixture()
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty user cache of the test's own (the session's shared encoders are not in it); its encoders/."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "relnotes-qa" / "encoders"


@pytest.fixture()
def bundled_entry(bundled_index: Path, shared_encoders: Path) -> Path:
    """The bundled model's export in the session's shared cache (copy it before damaging it)."""
    return shared_encoders / _key(bundled_index)


def _copy_export(source: Path):
    """A stand-in for ``onnx_export._export`` that copies a graph exported before, and its calls."""
    calls: list[Path] = []

    def export(encoder, path: Path) -> None:
        calls.append(path)
        shutil.copyfile(source / ONNX_FILE, path)

    return export, calls


def test_the_build_records_the_key_and_leaves_the_export_in_the_cache(bundled_index, bundled_entry) -> None:
    manifest = json.loads((bundled_index / "manifest.json").read_text())
    spec = export_spec(bundled_model_path())
    key = model_key(bundled_model_path(), {"spec": spec, "opset": OPSET})
    assert manifest["model"]["query_encoder"] == {**spec, "key": key}
    assert spec["pooling"] == "mean" and spec["max_seq_length"] == 256
    assert not {ONNX_FILE, TOKENIZER_FILE} & set(manifest["files"])
    assert not list(bundled_index.rglob("*.onnx"))
    assert sum(p.stat().st_size for p in bundled_index.iterdir()) < 5_000_000  # 92 MB with the export inside
    assert bundled_entry.name == key
    assert sorted(p.name for p in bundled_entry.iterdir()) == sorted([ENCODER_RECORD, ONNX_FILE, TOKENIZER_FILE])
    record = json.loads((bundled_entry / ENCODER_RECORD).read_text())
    assert (record["key"], record["spec"]) == (key, spec)
    for name in (ONNX_FILE, TOKENIZER_FILE):
        path = bundled_entry / name
        assert record["files"][name] == {"sha256": sha256_file(path), "size": path.stat().st_size}
    assert (bundled_entry / TOKENIZER_FILE).read_bytes() == (bundled_model_path() / "tokenizer.json").read_bytes()


def test_two_indexes_of_one_model_share_one_export(tmp_path, private_cache, st_encoder, monkeypatch) -> None:
    real, calls = onnx_export._export, []

    def counted(encoder, path):
        calls.append(path)
        real(encoder, path)

    monkeypatch.setattr(onnx_export, "_export", counted)
    notes_a = [make_chunk(i, text) for i, text in enumerate(["MPS ops moved to Metal", "FlexAttention backward"])]
    notes_b = [make_chunk(i, text, "2.9")
               for i, text in enumerate(["CUDA 13 wheels", "nccl2 reconfiguration", "graph breaks"])]
    build_index(tmp_path / "a", notes_a, encoder=st_encoder, corpus={**CORPUS, "fingerprint": "a"})
    assert len(calls) == 1 and _entries(private_cache) == [_key(tmp_path / "a")]
    build_index(tmp_path / "b", notes_b, encoder=st_encoder, corpus={**CORPUS, "fingerprint": "b"})
    assert len(calls) == 1  # the second corpus reused the export
    assert _key(tmp_path / "a") == _key(tmp_path / "b") and _entries(private_cache) == [_key(tmp_path / "a")]
    assert [p.relative_to(tmp_path) for p in tmp_path.rglob("*.onnx")] == [
        (private_cache / _key(tmp_path / "a") / ONNX_FILE).relative_to(tmp_path)]  # one file for both indexes
    entries = [open_entry(LoadedIndex(tmp_path / name).manifest.model["query_encoder"]) for name in "ab"]
    assert entries[0] == entries[1] == private_cache / _key(tmp_path / "a")
    assert all(isinstance(LoadedIndex(tmp_path / name).encoder(), NumpyQueryEncoder) for name in "ab")


def test_a_question_never_hashes_the_model(bundled_index, monkeypatch) -> None:
    """The build stamped the model folder as hashing to the export's key: the numpy path's check is
    a few stats (tests/index/test_numpy_query.py has the unstamped and changed folders)."""
    def refuse(*args, **kwargs):
        raise AssertionError("the model was hashed on the question path")

    monkeypatch.setattr(encoder_cache, "model_key", refuse)
    monkeypatch.setattr(onnx_export, "model_key", refuse)
    loaded, report = open_index(None, index_dir=bundled_index, dense=True)
    assert report is None and isinstance(loaded.encoder(), NumpyQueryEncoder)


def test_onnx_vectors_match_sentence_transformers_on_every_question(bundled_index, st_vectors) -> None:
    encoder = onnx_encoder(bundled_index)
    assert encoder.dim == 384
    one_by_one = np.stack([encoder.encode_query(q) for q in QUESTIONS])
    batched = encoder.encode(QUESTIONS, batch_size=64)
    for vectors in (one_by_one, batched):
        assert vectors.dtype == np.float32 and vectors.shape == st_vectors.shape
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
        assert float((vectors * st_vectors).sum(axis=1).min()) >= 0.9999


def test_onnx_truncates_long_texts_like_sentence_transformers(bundled_index, st_encoder) -> None:
    texts = ["torch.compile " * 300, "x", ""]
    onnx = onnx_encoder(bundled_index).encode(texts)
    assert float((onnx * st_encoder.encode(texts)).sum(axis=1).min()) >= 0.9999


@pytest.mark.parametrize("mode", ["dense", "hybrid"])
@pytest.mark.parametrize("kind", ["onnx", "numpy"])
def test_rankings_are_identical_with_any_encoder(bundled_index, st_encoder, mode, kind) -> None:
    index = LoadedIndex(bundled_index)
    if kind == "onnx":
        index.set_encoder(onnx_encoder(bundled_index))
    assert isinstance(index.encoder(), OnnxQueryEncoder if kind == "onnx" else NumpyQueryEncoder)
    st_index = LoadedIndex(bundled_index)
    st_index.set_encoder(st_encoder)
    for question in QUESTIONS:
        assert _ranking(index, question, mode) == _ranking(st_index, question, mode), question


DAMAGES = {
    "entry pruned": "is missing (pruned from the cache?); re-export it with: relnotes index",
    "graph deleted": "is missing or truncated; re-export it with: relnotes index",
    "graph truncated": "is missing or truncated; re-export it with: relnotes index",
    "graph edited": "fails its checksum (edited); re-export it with: relnotes index --rebuild",
    "tokenizer deleted": "is missing or truncated; re-export it with: relnotes index",
    "record damaged": "is damaged; re-export it with: relnotes index",
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_or_pruned_export_falls_back_with_a_notice(
    onnx_only_index, bundled_index, bundled_entry, private_cache, st_encoder, damage
) -> None:
    entry = private_cache / bundled_entry.name
    if damage != "entry pruned":
        shutil.copytree(bundled_entry, entry)
    if damage == "graph deleted":
        (entry / ONNX_FILE).unlink()
    elif damage == "graph truncated":
        os.truncate(entry / ONNX_FILE, 1000)
    elif damage == "graph edited":
        with open(entry / ONNX_FILE, "r+b") as fh:
            fh.seek(1000)
            fh.write(b"\1" * 64)
    elif damage == "tokenizer deleted":
        (entry / TOKENIZER_FILE).unlink()
    elif damage == "record damaged":
        (entry / ENCODER_RECORD).write_text("{")
    notices: list[str] = []
    damaged = LoadedIndex(onnx_only_index, notify=notices.append)
    assert isinstance(damaged.encoder(), Encoder)
    assert len(notices) == 1 and "\n" not in notices[0]
    assert DAMAGES[damage] in notices[0]
    assert notices[0].endswith("using sentence-transformers for queries")
    reference = LoadedIndex(bundled_index)
    reference.set_encoder(st_encoder)
    for question in QUESTIONS[:10]:
        assert _ranking(damaged, question, "hybrid") == _ranking(reference, question, "hybrid")


def test_a_pruned_export_is_exported_again_without_a_rebuild(
    index_copy, bundled_entry, private_cache, monkeypatch
) -> None:
    before = (index_copy / "manifest.json").read_bytes()
    question = ["ask", "how do i turn on nvgemm in inductor", "--index", str(index_copy)]
    offline = CliRunner().invoke(cli, [*question, "--no-update"])
    assert offline.exit_code == 0, offline.output
    assert "[1]" in offline.stdout and offline.stderr == ""  # answered in numpy: the export is not needed
    assert _entries(private_cache) == []  # --no-update exports nothing
    result = CliRunner().invoke(cli, ["index", "--index", str(index_copy)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Index at {index_copy} is up to date")
    assert result.stderr == "Exporting the ONNX query encoder of all-MiniLM-L6-v2 again (missing from the cache)\n"
    assert (index_copy / "manifest.json").read_bytes() == before  # the index was not rebuilt
    assert _entries(private_cache) == [_key(index_copy)]
    shutil.rmtree(private_cache / _key(index_copy))  # pruned again: a question with updates on restores it
    monkeypatch.setattr(onnx_export, "_export", _copy_export(bundled_entry)[0])  # one real export is enough
    loaded, report = open_index(None, index_dir=index_copy, notify=(notices := []).append)
    assert report is None and notices == [result.stderr.strip()]
    assert entry_present(LoadedIndex(index_copy).manifest.model["query_encoder"])
    assert isinstance(onnx_encoder(index_copy), OnnxQueryEncoder)


def test_a_question_after_a_prune_is_answered_in_numpy_without_an_export(
    index_copy, bundled_entry, private_cache, monkeypatch
) -> None:
    """The export serves builds (and int8 indexes); a float index's questions are embedded in
    numpy, so a question with updates on does not wait ~8 s for torch and the export."""
    calls = []
    monkeypatch.setattr(onnx_export, "_export", lambda *a, **k: calls.append(a))
    assert _entries(private_cache) == []  # as after relnotes cache prune
    result = CliRunner().invoke(cli, ["ask", "how do i turn on nvgemm in inductor", "--index", str(index_copy),
                                      "--no-history"])
    assert result.exit_code == 0, result.output
    assert "[1]" in result.stdout and result.stderr == ""
    loaded, report = open_index(None, index_dir=index_copy, staged=True, notify=(notices := []).append)
    assert report is None and notices == [] and isinstance(loaded.encoder(), NumpyQueryEncoder)
    assert calls == [] and _entries(private_cache) == []


def test_a_question_after_a_prune_exports_again_when_numpy_cannot_embed_it(
    index_copy, bundled_entry, private_cache, monkeypatch
) -> None:
    """A model the numpy path refuses (here its weights, as an fp16 safetensors would be) gets its
    export back on the first question, not sentence-transformers for every question after."""
    from index.encode import numpy_query
    from index.errors import QueryEncoderUnavailable

    def refuse(cls, path):
        raise QueryEncoderUnavailable(f"Cannot embed in numpy with the model at {path} (not float32)")

    monkeypatch.setattr(numpy_query.Bert, "load", classmethod(refuse))
    export, calls = _copy_export(bundled_entry)
    monkeypatch.setattr(onnx_export, "_export", export)
    loaded, report = open_index(None, index_dir=index_copy, staged=True, notify=(notices := []).append)
    assert report is None and len(calls) == 1
    assert notices == ["Exporting the ONNX query encoder of all-MiniLM-L6-v2 again (missing from the cache)"]
    assert isinstance(loaded.encoder(), OnnxQueryEncoder)


def test_a_changed_model_folder_asks_through_the_export(onnx_only_index, bundled_index, st_encoder) -> None:
    """The export is the model as it was built; a folder edited since cannot serve the numpy path."""
    quiet: list[str] = []
    index = LoadedIndex(onnx_only_index, notify=quiet.append)
    assert isinstance(index.encoder(), OnnxQueryEncoder) and quiet == []
    reference = LoadedIndex(bundled_index)
    reference.set_encoder(st_encoder)
    for question in QUESTIONS[:10]:
        assert _ranking(index, question, "hybrid") == _ranking(reference, question, "hybrid")


def test_an_export_of_a_changed_model_is_not_filed_under_the_old_key(index_copy, private_cache) -> None:
    path = index_copy / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["model"]["query_encoder"]["key"] = "0" * 16  # built from model files that hash otherwise
    path.write_text(json.dumps(manifest))
    notices: list[str] = []
    loaded, report = open_index(None, index_dir=index_copy, notify=notices.append)
    assert report is None and len(notices) == 2 and notices[0].startswith("Exporting the ONNX query encoder")
    assert notices[1].startswith("The model at ") and notices[1].endswith("rebuilt with: relnotes index --rebuild")
    assert not private_cache.exists()  # nothing exported


def test_relnotes_onnx_0_keeps_queries_on_sentence_transformers(bundled_index, private_cache, monkeypatch) -> None:
    monkeypatch.setenv("RELNOTES_ONNX", "0")
    notices: list[str] = []
    assert isinstance(LoadedIndex(bundled_index, notify=notices.append).encoder(), Encoder)
    loaded, report = open_index(None, index_dir=bundled_index, notify=notices.append)  # the export is not
    assert report is None and isinstance(loaded.encoder(), Encoder)  # in this cache, and is not made again
    assert notices == [] and not private_cache.exists()


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


def test_models_the_onnx_path_cannot_reproduce_get_no_export(tmp_path: Path, private_cache) -> None:
    model = Path(shutil.copytree(bundled_model_path(), tmp_path / "model"))
    assert export_spec(model) is not None
    pooling = model / "1_Pooling" / "config.json"
    config = json.loads(pooling.read_text())
    pooling.write_text(json.dumps({**config, "pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True}))
    assert export_spec(model) is None
    assert export_spec(tmp_path / "nothing-here") is None
    assert onnx_export.cached_query_encoder(FakeEncoder()) is None
    assert onnx_export.cached_query_encoder(Encoder(model)) is None
    assert not private_cache.exists()


def test_another_model_gets_another_key_and_entry(tmp_path, bundled_entry, private_cache, monkeypatch) -> None:
    recipe = {"spec": export_spec(bundled_model_path()), "opset": OPSET}
    copy = Path(shutil.copytree(bundled_model_path(), tmp_path / "model"))
    assert model_key(copy, recipe) == bundled_entry.name  # the key names the files, not the folder
    assert model_key(copy, {**recipe, "opset": OPSET + 1}) != bundled_entry.name
    (copy / "README.md").write_text("A fine-tuned copy.\n")
    assert model_key(copy, recipe) != bundled_entry.name
    settings = copy / "sentence_bert_config.json"  # the same weights, truncating at 128 word pieces
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "max_seq_length": 128}))
    export, calls = _copy_export(bundled_entry)
    monkeypatch.setattr(onnx_export, "_export", export)
    record = onnx_export.cached_query_encoder(Encoder(copy))
    assert record is not None and len(calls) == 1 and record["max_seq_length"] == 128
    assert record["key"] != bundled_entry.name and _entries(private_cache) == [record["key"]]
    assert open_entry(record) == private_cache / record["key"]


def test_racing_builders_export_once_and_share_the_entry(bundled_entry, private_cache, st_encoder, monkeypatch) -> None:
    export, calls = _copy_export(bundled_entry)

    def slow(encoder, path):
        time.sleep(0.5)  # the other builder arrives while this one exports
        export(encoder, path)

    monkeypatch.setattr(onnx_export, "_export", slow)
    records: list[dict | None] = []
    threads = [threading.Thread(target=lambda: records.append(onnx_export.cached_query_encoder(st_encoder)))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and len(records) == 2 and records[0] == records[1] is not None
    key = records[0]["key"]
    assert sorted(p.name for p in private_cache.iterdir()) == [f".{key}.lock", key]  # no temporary litter
    assert open_entry(records[0]) == private_cache / key


def test_a_build_replaces_a_damaged_entry(bundled_entry, private_cache, st_encoder, monkeypatch) -> None:
    entry = Path(shutil.copytree(bundled_entry, private_cache / bundled_entry.name))
    with open(entry / ONNX_FILE, "r+b") as fh:
        fh.seek(1000)
        fh.write(b"\1" * 64)
    assert entry_present(json.loads((entry / ENCODER_RECORD).read_text())["spec"] | {"key": entry.name})
    export, calls = _copy_export(bundled_entry)
    monkeypatch.setattr(onnx_export, "_export", export)
    record = onnx_export.cached_query_encoder(st_encoder)
    assert len(calls) == 1 and open_entry(record) == entry  # verified again, checksums and all
    assert sorted(p.name for p in private_cache.iterdir()) == [f".{entry.name}.lock", entry.name]


def test_a_failed_export_never_fails_the_build(tmp_path, private_cache, st_encoder, monkeypatch) -> None:
    def broken(encoder, path):
        path.write_bytes(b"half a file")
        raise RuntimeError("exporter exploded")

    monkeypatch.setattr(onnx_export, "_export", broken)
    notices: list[str] = []
    chunks = [make_chunk(i, text) for i, text in enumerate(["MPS ops moved to Metal", "FlexAttention backward"])]
    report = build_index(tmp_path / "idx", chunks, encoder=st_encoder, corpus=CORPUS, notify=notices.append)
    assert report.chunks == 2
    assert notices and "exporter exploded" in notices[0]
    assert [p.name for p in private_cache.iterdir()] == [f".{model_key(st_encoder.path, _recipe())}.lock"]
    assert not list(tmp_path.rglob("*.onnx")) and not list(tmp_path.rglob(TOKENIZER_FILE))
    quiet: list[str] = []
    index = LoadedIndex(tmp_path / "idx", notify=quiet.append)
    assert "query_encoder" not in index.manifest.model and isinstance(index.encoder(), Encoder) and quiet == []


def test_an_unwritable_cache_costs_only_the_export(tmp_path, st_encoder, monkeypatch) -> None:
    (tmp_path / "cache").write_text("a file where the cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    notices: list[str] = []
    assert onnx_export.cached_query_encoder(st_encoder, notify=notices.append) is None
    assert len(notices) == 1 and notices[0].startswith("Skipped the ONNX query encoder (IndexWriteError: Cannot write")


def test_an_index_built_before_the_cache_still_uses_its_own_export(index_copy, bundled_entry) -> None:
    """Indexes of the same format that hold the export inside (no key) keep their torch-free queries."""
    path = index_copy / "manifest.json"
    manifest = json.loads(path.read_text())
    for name in (ONNX_FILE, TOKENIZER_FILE):
        shutil.copyfile(bundled_entry / name, index_copy / name)
        manifest["files"][name] = sha256_file(index_copy / name)
    del manifest["model"]["query_encoder"]["key"]
    path.write_text(json.dumps(manifest))
    quiet: list[str] = []
    encoder = LoadedIndex(index_copy, notify=quiet.append).encoder()
    assert isinstance(encoder, OnnxQueryEncoder) and encoder.directory == index_copy and quiet == []
    loaded, report = open_index(None, index_dir=index_copy)  # fresh: neither rebuilt nor exported
    assert report is None and path.read_text() == json.dumps(manifest)


def _recipe() -> dict:
    """What the build hashes with the bundled model's files."""
    return {"spec": export_spec(bundled_model_path()), "opset": OPSET}


def test_the_build_embeds_documents_through_the_export(bundled_index, bundled_entry, st_encoder, monkeypatch) -> None:
    """Windows and sentences go through the model's ONNX export (no torch pass) and agree with
    sentence-transformers; RELNOTES_ONNX=0 keeps sentence-transformers."""
    from index.encode.choice import document_encoder
    from index.encode.onnx_export import cached_query_encoder

    record = cached_query_encoder(st_encoder)
    embedder = document_encoder(st_encoder, record)
    assert isinstance(embedder, OnnxQueryEncoder) and embedder.dim == st_encoder.dim
    texts = [c.text for c in LoadedIndex(bundled_index).chunks[:40]]
    cosines = (embedder.encode(texts) * st_encoder.encode(texts)).sum(axis=1)
    assert float(cosines.min()) >= 0.9999
    assert document_encoder(st_encoder, None) is st_encoder  # no export: sentence-transformers
    monkeypatch.setenv("RELNOTES_ONNX", "0")
    assert document_encoder(st_encoder, record) is st_encoder


def test_a_build_uses_the_export_for_what_it_embeds(tmp_path, st_encoder, bundled_entry, monkeypatch) -> None:
    import index.build.writer as build_module

    used = []
    real = build_module.embed

    def spy(streams, blocks, encoder, progress, *keep):
        used.append(type(encoder).__name__)
        return real(streams, blocks, encoder, progress, *keep)

    monkeypatch.setattr(build_module, "embed", spy)
    chunks = [make_chunk(i, f"Release note {i} about the widget cache.") for i in range(3)]
    report = build_index(tmp_path / "idx", chunks, encoder=st_encoder, corpus=CORPUS)
    assert report.embedded == 3 and used == ["OnnxQueryEncoder"]  # windows and sentences


@pytest.mark.parametrize("kind", ["onnx", "numpy"])
def test_long_texts_go_in_smaller_passes_with_the_same_vectors(bundled_index, st_encoder, monkeypatch, kind) -> None:
    """A pass holds at most TOKEN_BUDGET padded tokens (onnxruntime keeps the memory of its largest
    pass; numpy's attention scores grow with its square), each padded to its own longest text; the
    vectors are those of one pass per batch."""
    from index.encode import numpy_query, onnx_query

    encoder = onnx_encoder(bundled_index) if kind == "onnx" else LoadedIndex(bundled_index).encoder()
    assert isinstance(encoder, OnnxQueryEncoder if kind == "onnx" else NumpyQueryEncoder)
    module = onnx_query if kind == "onnx" else numpy_query
    texts = sorted((c.text for c in LoadedIndex(bundled_index).chunks[:48]), key=len, reverse=True)
    texts += ["torch.compile " * 300, "MPS", ""]
    monkeypatch.setattr(module, "TOKEN_BUDGET", 10**9)
    whole = encoder.encode(texts, batch_size=64)
    passes: list[tuple[int, int]] = []
    run = encoder._run
    monkeypatch.setattr(encoder, "_run", lambda batch: passes.append((len(batch), max(len(e.ids) for e in batch)))
                        or run(batch))
    monkeypatch.setattr(module, "TOKEN_BUDGET", 512)
    split = encoder.encode(texts, batch_size=64)
    assert sum(n for n, _ in passes) == len(texts) and len(passes) > 2
    assert all(n * width <= 512 or n == 1 for n, width in passes)
    assert float((whole * split).sum(axis=1).min()) >= 0.99999
    assert float((split * st_encoder.encode(texts)).sum(axis=1).min()) >= 0.9999
