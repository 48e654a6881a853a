"""Embedding a build document by document: blocks in corpus order (small documents together),
progress naming the documents, vectors the same as embedding everything at once."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from corpus import load_chunks
from index.build import embedding
from index.build.pipeline import build_index
from index.build.embedding import Stream, document_label, embed, plan
from index.retrieve.reader import LoadedIndex
from tests.support.fakes import FakeEncoder

CORPUS = {"fingerprint": "f", "inputs": ["<test>"], "documents": {}}


def stream(texts, docs, previous=None, dim=32):
    keys = list(texts)  # the text is its own key here
    return Stream(np.zeros((len(texts), dim), dtype=np.float32), list(texts), keys, list(docs), previous or {})


def test_blocks_follow_corpus_order_and_join_small_documents() -> None:
    windows = stream([f"w{i}" for i in range(8)], ["a"] * 4 + ["b"] * 1 + ["c"] * 3)
    sentences = stream(["s0", "s1", "s2"], ["a", "b", "c"])
    labels = {"a": "x/a.md", "b": "x/b.md", "c": "x/c.md"}
    blocks = plan((windows, sentences), ["a", "b", "c"], labels, block=5)
    assert [b.label for b in blocks] == ["x/a.md (document 1 of 3)", "x/b.md and 1 more (documents 2-3 of 3)"]
    assert blocks[0].rows == ((0, 1, 2, 3), (0,))
    assert blocks[1].rows == ((4, 5, 6, 7), (1, 2))


def test_a_large_document_is_not_named_after_the_small_one_before_it() -> None:
    windows = stream([f"w{i}" for i in range(14)], ["news"] * 2 + ["big"] * 10 + ["tail"] * 2)
    labels = {"news": "a/NEWS.md", "big": "httpx/CHANGELOG.md", "tail": "b/tail.md"}
    blocks = plan((windows,), ["news", "big", "tail"], labels, block=5)
    assert [b.label for b in blocks] == ["a/NEWS.md (document 1 of 3)", "httpx/CHANGELOG.md (document 2 of 3)",
                                         "b/tail.md (document 3 of 3)"]
    assert [len(b.rows[0]) for b in blocks] == [2, 10, 2]


def test_documents_with_nothing_to_encode_are_not_counted() -> None:
    vec = np.ones(32, dtype=np.float32)
    windows = stream(["old", "new", "new"], ["a", "b", "b"], previous={"old": vec})
    blocks = plan((windows,), ["a", "b"], {"b": "b.md"}, block=1)
    assert [(b.label, b.rows) for b in blocks] == [("b.md (document 1 of 1)", ((1,),))]  # "new" once
    counts = embed((windows,), blocks, FakeEncoder(), None)
    assert counts == [1]
    assert np.array_equal(windows.out[0], vec) and np.array_equal(windows.out[2], windows.out[1])


def test_vectors_equal_one_pass_and_progress_counts_every_text_once() -> None:
    texts = [f"fixed item {i} " + "word " * (i % 7) for i in range(40)]
    windows = stream(texts, [f"d{i // 10}" for i in range(40)])
    calls = []
    blocks = plan((windows,), [f"d{i}" for i in range(4)], {}, block=10)
    embed((windows,), blocks, FakeEncoder(), lambda done, total, what: calls.append((done, total, what)))
    assert np.allclose(windows.out, FakeEncoder().encode(texts))
    assert [c[0] for c in calls] == sorted(c[0] for c in calls) and calls[-1][:2] == (40, 40)
    assert {c[2] for c in calls} == {f"d{i} (document {i + 1} of 4)" for i in range(4)}


def test_document_label_keeps_the_folder_and_shortens_long_paths() -> None:
    assert document_label("/work/zoo/httpx/CHANGELOG.md") == "httpx/CHANGELOG.md"
    assert document_label("CHANGES.rst") == "CHANGES.rst"
    long = "/x/" + "a" * 60 + "/notes.md"
    assert len(document_label(long)) == 48 and document_label(long).endswith("/notes.md")


def test_a_build_reports_progress_per_document(tmp_path: Path, monkeypatch) -> None:
    for name in ("alpha", "beta"):
        folder = tmp_path / "notes" / name
        folder.mkdir(parents=True)
        (folder / "CHANGELOG.md").write_text(
            "# Changelog\n\n" + "".join(f"## [1.{n}.0]\n\n- Fixed {name} case {n}. Then more.\n\n" for n in range(6)))
    chunks = load_chunks([tmp_path / "notes"])
    monkeypatch.setattr(embedding, "BLOCK", 1)  # every document a block of its own
    calls = []
    encoder = FakeEncoder()
    build_index(tmp_path / "idx", chunks, encoder=encoder, corpus=CORPUS,
                progress=lambda done, total, what: calls.append((done, total, what)))
    whats = list(dict.fromkeys(c[2] for c in calls))
    assert whats == ["alpha/CHANGELOG.md (document 1 of 2)", "beta/CHANGELOG.md (document 2 of 2)"]
    assert calls[-1][0] == calls[-1][1] == encoder.embedded  # windows and sentences in one count
    loaded = LoadedIndex(tmp_path / "idx")
    one_pass = FakeEncoder().encode([w for c in loaded.chunks for w in _windows(c)])
    assert np.allclose(loaded.dense().vectors(), one_pass)


def _windows(chunk):
    from corpus.chunking import embedding_windows

    return embedding_windows(chunk)


class IntoEncoder(FakeEncoder):
    """Writes in place, a slice at a time, as the product's encoders do (``encode_into``)."""

    def encode_into(self, texts, out, rows, *, batch_size: int = 32, progress=None) -> None:
        for start in range(0, len(texts), 3):
            part = list(range(start, min(start + 3, len(texts))))
            out[[rows[i] for i in part]] = self.encode([texts[i] for i in part])
            if progress:
                progress(part[-1] + 1, len(texts))


def test_written_in_place_and_each_block_named_before_its_first_slice() -> None:
    texts = [f"item {i} of the notes" for i in range(10)]
    windows = stream(texts, ["a"] * 4 + ["b"] * 6)
    calls = []
    blocks = plan((windows,), ["a", "b"], {"a": "a.md", "b": "b.md"}, block=4)
    embed((windows,), blocks, IntoEncoder(), lambda *call: calls.append(call))
    assert np.allclose(windows.out, FakeEncoder().encode(texts))
    assert calls[0] == (0, 10, "a.md (document 1 of 2)") and (4, 10, "b.md (document 2 of 2)") in calls
    assert calls[-1] == (10, 10, "b.md (document 2 of 2)")


def test_an_update_counts_and_names_only_what_changed(tmp_path: Path) -> None:
    folders = {}
    for name in ("alpha", "beta"):
        folders[name] = tmp_path / "notes" / name
        folders[name].mkdir(parents=True)
        (folders[name] / "CHANGELOG.md").write_text(
            "# Changelog\n\n" + "".join(f"## [1.{n}.0]\n\n- Fixed {name} case {n}.\n\n" for n in range(4)))
    build_index(tmp_path / "idx", load_chunks([tmp_path / "notes"]), encoder=FakeEncoder(), corpus=CORPUS)
    notes = folders["beta"] / "CHANGELOG.md"
    notes.write_text(notes.read_text().replace("# Changelog\n\n", "# Changelog\n\n## [1.9.0]\n\n- Fixed a new beta case.\n\n"))
    current = LoadedIndex(tmp_path / "idx")
    calls, encoder = [], FakeEncoder()
    build_index(tmp_path / "idx", load_chunks([tmp_path / "notes"]), encoder=encoder, corpus=CORPUS,
                previous=current.previous_vectors(), previous_sentences=current.previous_sentence_vectors(),
                progress=lambda *call: calls.append(call))
    assert encoder.embedded == 2  # the new release's window and its one sentence
    assert {c[2] for c in calls} == {"beta/CHANGELOG.md (document 1 of 1)"} and calls[-1][:2] == (2, 2)
