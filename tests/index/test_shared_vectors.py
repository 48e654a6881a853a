"""The shared vector store: a text embedded for one index is not embedded again for another index
holding it (another corpus, another project), pieces written atomically, damage never trusted,
two writers at once, pruning by last use and never under a build."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import numpy as np

from corpus import load_chunks
from index.build.pipeline import build_index
from index.retrieve.reader import LoadedIndex
from index.store.shared import SharedVectors, list_stores, remove_store, text_hash
from tests.support.fakes import FakeEncoder

MODEL = {"name": "fake-encoder", "path": "fake", "dim": 32, "quantized": False}


def _notes(folder: Path, name: str, releases: int) -> Path:
    (folder / name).mkdir(parents=True, exist_ok=True)
    (folder / name / "CHANGELOG.md").write_text("# Changelog\n\n" + "".join(
        f"## [1.{n}.0]\n\n- Fixed {name} parser case {n}. The cache is kept.\n- Added option {n} to {name}.\n\n"
        for n in range(releases)), encoding="utf-8")
    return folder / name


def _corpus(inputs) -> dict:
    return {"fingerprint": "-".join(map(str, inputs)), "inputs": [str(i) for i in inputs], "documents": {}}


def test_a_second_corpus_holding_the_same_notes_embeds_nothing(tmp_path: Path) -> None:
    alpha, beta = _notes(tmp_path / "a", "alpha", 5), _notes(tmp_path / "b", "beta", 4)
    first = FakeEncoder()
    report = build_index(tmp_path / "one", load_chunks([alpha, beta]), encoder=first, corpus=_corpus([alpha, beta]))
    assert first.embedded > 0 and report.shared == 0 and report.given == first.embedded
    again = FakeEncoder()  # a new corpus: alpha alone, in another index directory
    report = build_index(tmp_path / "two", load_chunks([alpha]), encoder=again, corpus=_corpus([alpha]))
    assert again.embedded == 0 and report.shared > 0 and report.given == 0
    one, two = LoadedIndex(tmp_path / "one"), LoadedIndex(tmp_path / "two")
    by_key = one.previous_vectors()
    for key, vector in two.previous_vectors().items():  # the very vectors the first build made
        assert np.array_equal(vector, by_key[key])
    fresh = FakeEncoder()  # a third corpus with a new document: only its texts are embedded
    gamma = _notes(tmp_path / "c", "gamma", 2)
    report = build_index(tmp_path / "three", load_chunks([alpha, gamma]), encoder=fresh, corpus=_corpus([alpha, gamma]))
    assert 0 < fresh.embedded == report.given < first.embedded


def test_another_model_has_its_own_store(tmp_path: Path) -> None:
    alpha = _notes(tmp_path / "a", "alpha", 3)
    build_index(tmp_path / "one", load_chunks([alpha]), encoder=FakeEncoder(), corpus=_corpus([alpha]))
    other = FakeEncoder("another-model")
    build_index(tmp_path / "two", load_chunks([alpha]), encoder=other, corpus=_corpus([alpha]))
    assert other.embedded > 0
    assert len(list_stores()) == 2


def test_a_damaged_piece_is_embedded_again_never_trusted(tmp_path: Path) -> None:
    store = SharedVectors.for_model(MODEL, tmp_path)
    store.add(["a", "b"], np.ones((2, 32), dtype=np.float32))
    store.add(["c"], np.full((1, 32), 2, dtype=np.float32))
    pieces = sorted(tmp_path.glob("*/piece-*.json"))
    assert len(pieces) == 2
    np_file = next(p.with_suffix(".npy") for p in pieces if json.loads(p.read_text())["keys"] == ["a", "b"])
    np_file.write_bytes(np_file.read_bytes()[:100])  # truncated
    found = store.lookup(["a", "b", "c"])
    assert set(found) == {"c"} and np.all(found["c"] == 2)
    other = next(p for p in pieces if json.loads(p.read_text())["keys"] == ["c"])
    other.write_text("{not json")
    assert store.lookup(["c"]) == {}


def test_a_piece_without_its_manifest_does_not_exist(tmp_path: Path) -> None:
    store = SharedVectors.for_model(MODEL, tmp_path)
    store.add(["a"], np.ones((1, 32), dtype=np.float32))
    next(tmp_path.glob("*/piece-*.json")).unlink()  # killed between the two renames
    assert store.lookup(["a"]) == {}
    assert store.info().texts == 0


def _writer(root: str, n: int) -> None:
    store = SharedVectors.for_model(MODEL, Path(root))
    for i in range(20):
        store.add([f"{n}-{i}", "common"], np.full((2, 32), n, dtype=np.float32))


def test_two_processes_adding_at_once_lose_nothing(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(str(tmp_path), n)) for n in (1, 2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    store = SharedVectors.for_model(MODEL, tmp_path)
    found = store.lookup([f"{n}-{i}" for n in (1, 2) for i in range(20)] + ["common"])
    assert len(found) == 41
    assert all(np.all(found[f"{n}-{i}"] == n) for n in (1, 2) for i in range(20))
    assert store.info().texts == 41 and store.info().pieces == 40


def test_prune_by_last_use_and_never_under_a_build(tmp_path: Path) -> None:
    import os
    import time

    store = SharedVectors.for_model(MODEL, tmp_path)
    store.add(["old"], np.ones((1, 32), dtype=np.float32))
    store.add(["new"], np.ones((1, 32), dtype=np.float32))
    old = next(p for p in tmp_path.glob("*/piece-*.json") if json.loads(p.read_text())["keys"] == ["old"])
    month_ago = time.time() - 30 * 86400
    os.utime(old, (month_ago, month_ago))
    assert store.prune(7, dry_run=True) == (1, old.stat().st_size + old.with_suffix(".npy").stat().st_size)
    assert set(store.lookup(["old", "new"])) == {"old", "new"}  # the look-up marked it used again
    os.utime(old, (month_ago, month_ago))
    removed, _ = store.prune(7)
    assert removed == 1 and set(store.lookup(["old", "new"])) == {"new"}
    with store._held():  # a build reading it: neither a prune nor a removal touches it
        assert store.prune(None) is None
        assert remove_store(store.info()) is False
    assert remove_store(store.info()) is True and list_stores(tmp_path) == []


def test_the_key_of_a_text_is_a_sentence_key() -> None:
    from index.retrieve.sentence_vectors import sentence_key

    assert text_hash("Fixed a crash.") == sentence_key("Fixed a crash.")
