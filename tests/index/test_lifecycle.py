"""Opening an index for a corpus: staleness for each cause, automatic and incremental rebuilds."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import index.encode.encoders
import index.lifecycle.freshness as freshness
import index.lifecycle.opening as service
from corpus import CorpusInput, load_documents
from index.errors import IndexStale
from index.store.layout import MANIFEST, cache_root
from tests.support.fakes import FakeEncoder

NOTES = {
    "a.md": "# Tool 1.0\n\n## Features\n\nAdded the frobnicator for fast widgets.\n\n## Fixes\n\nFixed a crash on start.\n",
    "b.md": "# Tool 1.1\n\n## Features\n\nThe widget cache is now persistent across runs.\n",
}


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, text in NOTES.items():
        (folder / name).write_text(text)
    return folder


@pytest.fixture
def encoders(monkeypatch: pytest.MonkeyPatch) -> list[FakeEncoder]:
    """Every Encoder the service creates is a FakeEncoder, recorded here."""
    made: list[FakeEncoder] = []

    def factory(model_path=None):
        encoder = FakeEncoder(name=Path(model_path).name if model_path else "fake-encoder")
        made.append(encoder)
        return encoder

    monkeypatch.setattr(index.encode.encoders, "Encoder", factory)
    return made


def open_(corpus_dir: Path, tmp_path: Path, notices: list[str] | None = None, **kwargs):
    return service.open_index(
        [corpus_dir], index_dir=tmp_path / "idx", notify=(notices.append if notices is not None else None), **kwargs
    )


def test_first_open_builds_second_open_embeds_nothing(corpus_dir, tmp_path, encoders) -> None:
    loaded, report = open_(corpus_dir, tmp_path)
    assert report is not None and report.embedded == len(loaded.chunks) > 0
    again, report2 = open_(corpus_dir, tmp_path)
    assert report2 is None and encoders[-1].embedded == 0
    assert again.chunks == loaded.chunks


def test_changed_document_re_embeds_only_its_changed_chunks(corpus_dir, tmp_path, encoders) -> None:
    loaded, _ = open_(corpus_dir, tmp_path)
    (corpus_dir / "b.md").write_text(NOTES["b.md"].replace("persistent", "shared"))
    notices: list[str] = []
    again, report = open_(corpus_dir, tmp_path, notices)
    assert report.embedded == 1 and report.reused == len(again.chunks) - 1
    assert notices == [f"Rebuilding index at {tmp_path / 'idx'}: corpus changed (0 added, 0 removed, 1 changed documents)"]


def test_removed_document_disappears(corpus_dir, tmp_path, encoders) -> None:
    open_(corpus_dir, tmp_path)
    (corpus_dir / "b.md").unlink()
    loaded, report = open_(corpus_dir, tmp_path)
    assert report.embedded == 0
    assert {c.version for c in loaded.chunks} == {"1.0"}
    assert loaded.dense().n == loaded.lexical.n_docs == len(loaded.chunks)


@pytest.mark.parametrize(
    ("cause", "needle"),
    [
        ("model", "built with model"),
        ("chunker", "chunker"),
        ("tokenizer", "tokenizer"),
        ("bm25", "BM25"),
        ("format", "index format"),
        ("corpus", "corpus changed"),
        ("sentences", "no sentence vectors"),
        ("sentence map", "no sentence map"),
    ],
)
def test_each_cause_of_staleness_is_detected(corpus_dir, tmp_path, encoders, monkeypatch, cause, needle) -> None:
    open_(corpus_dir, tmp_path)
    kwargs = {}
    if cause == "model":
        kwargs["model_path"] = tmp_path / "other-model"
    elif cause == "chunker":
        monkeypatch.setattr(freshness, "CHUNKER_VERSION", "999")
    elif cause == "tokenizer":
        monkeypatch.setattr(freshness, "TOKENIZER_VERSION", "999")
    elif cause == "bm25":
        from index.retrieve import bm25

        monkeypatch.setattr(bm25, "DEFAULT_PARAMS", bm25.BM25Params(variant="okapi", k1=1.5, b=0.75))
    elif cause == "format":
        path = tmp_path / "idx" / MANIFEST
        path.write_text(json.dumps({**json.loads(path.read_text()), "format_version": 0}))
    elif cause == "corpus":
        (corpus_dir / "c.md").write_text("# Tool 1.2\n\nNew notes.\n")
    elif cause == "sentences":  # an index from before sentence vectors were made at build time
        path = tmp_path / "idx" / MANIFEST
        manifest = json.loads(path.read_text())
        manifest["files"] = {k: v for k, v in manifest["files"].items() if not k.startswith("sentences.")}
        path.write_text(json.dumps(manifest))
    elif cause == "sentence map":  # an index from before the sentence list (its vectors are reused)
        path = tmp_path / "idx" / MANIFEST
        manifest = json.loads(path.read_text())
        del manifest["files"]["sentence_chunks.npy"]
        path.write_text(json.dumps(manifest))
    with pytest.raises(IndexStale, match=needle) as info:
        open_(corpus_dir, tmp_path, update=False, **kwargs)
    assert "relnotes index" in str(info.value)
    notices: list[str] = []
    _, report = open_(corpus_dir, tmp_path, notices, **kwargs)
    assert report is not None and needle in notices[0]
    if cause == "sentence map":
        assert report.embedded == 0  # every window and sentence vector is reused


def test_a_new_model_re_embeds_the_sentences_too(corpus_dir, tmp_path, encoders) -> None:
    """Sentence vectors are keyed by their text alone: under another model none may be reused."""
    first, _ = open_(corpus_dir, tmp_path)
    sentences = len(first.sentence_vectors())
    loaded, report = open_(corpus_dir, tmp_path, model_path=tmp_path / "other-model")
    assert report.embedded == len(loaded.chunks) and report.reused == 0
    assert encoders[-1].name == "other-model" and encoders[-1].embedded == len(loaded.chunks) + sentences


def test_corrupt_index_is_rebuilt_with_a_notice(corpus_dir, tmp_path, encoders) -> None:
    open_(corpus_dir, tmp_path)
    chunks = tmp_path / "idx" / "chunks.jsonl"
    chunks.write_bytes(chunks.read_bytes()[:-30])
    notices: list[str] = []
    loaded, report = open_(corpus_dir, tmp_path, notices)
    assert report is not None and "checksum" in notices[0]
    assert len(loaded.chunks) == report.chunks


def test_default_index_dir_differs_per_corpus_and_model(tmp_path) -> None:
    bundled = freshness.default_index_dir(None)
    assert bundled == freshness.default_index_dir(None)
    assert bundled != freshness.default_index_dir([tmp_path])
    assert freshness.default_index_dir([tmp_path]) != freshness.default_index_dir([tmp_path], tmp_path / "m")
    assert str(bundled).startswith(str(Path.home()))  # the user cache, which conftest points at tmp


def test_a_product_named_anew_rebuilds_without_embedding(tmp_path, encoders) -> None:
    """Every chunk carries its product: a project file that renames it makes the index stale."""
    folder = tmp_path / "gadget"
    folder.mkdir()
    (folder / "CHANGELOG.md").write_text("# Changelog\n\n## 1.1.0\n\n- Fixed a crash.\n")
    loaded, _ = open_(folder, tmp_path)
    assert {c.product for c in loaded.chunks} == {"gadget"}
    (folder / "pyproject.toml").write_text('[project]\nname = "gadgetry"\n')
    notices: list[str] = []
    loaded, report = open_(folder, tmp_path, notices)
    assert notices == [f"Rebuilding index at {tmp_path / 'idx'}: corpus changed (0 added, 0 removed, 1 changed documents)"]
    assert report.embedded == 0 and {c.product for c in loaded.chunks} == {"gadgetry"}


def test_a_named_product_is_its_own_corpus(tmp_path) -> None:
    """Two names for one path are two corpora; a plain path keeps the key it always had."""
    plain = freshness.default_index_dir([tmp_path])
    key = json.dumps({"inputs": [str(tmp_path.resolve())], "model": None})
    assert plain == cache_root() / hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    named = {freshness.default_index_dir([CorpusInput(tmp_path, name)]) for name in ("httpx", "HTTPX")}
    assert len(named) == 2 and plain not in named
    assert freshness.default_index_dir([CorpusInput(tmp_path)]) == plain


def test_a_renamed_product_rebuilds_without_embedding(corpus_dir, tmp_path, encoders) -> None:
    open_(corpus_dir, tmp_path)
    notices: list[str] = []
    loaded, report = open_(CorpusInput(corpus_dir, "frob"), tmp_path, notices)
    assert notices == [f"Rebuilding index at {tmp_path / 'idx'}: corpus changed (0 added, 0 removed, 2 changed documents)"]
    assert report.embedded == 0 and {c.product for c in loaded.chunks} == {"frob"}
    assert loaded.manifest.corpus["inputs"] == [f"frob={corpus_dir}"]


def test_another_copy_of_the_same_model_names_both_folders(corpus_dir, tmp_path, encoders) -> None:
    """Two installs of the bundled model share a name: the reason says which folders differ."""
    loaded, _ = open_(corpus_dir, tmp_path)
    moved = FakeEncoder(name=loaded.manifest.model["name"])
    moved.path = tmp_path / "another-install" / "model"
    corpus = freshness.describe_corpus(load_documents([corpus_dir]), [corpus_dir])
    reasons = freshness.stale_reasons(loaded.manifest, corpus, moved, loaded.manifest.bm25)
    assert reasons == [f"built with model 'fake-encoder' at {loaded.manifest.model['path']}, asked for {moved.path}"]
