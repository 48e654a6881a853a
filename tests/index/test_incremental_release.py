"""Adding one release to a long changelog re-embeds only that release's windows and sentences; a
text repeated within one build is embedded once."""

from __future__ import annotations

from pathlib import Path

from corpus import load_chunks
from corpus.chunking import embedding_windows
from index.build.pipeline import build_index
from index.retrieve.reader import LoadedIndex
from index.retrieve.sentence_vectors import corpus_sentences, sentence_key
from tests.support.fakes import FakeEncoder

CORPUS = {"fingerprint": "f", "inputs": ["<test>"], "documents": {}}


def release(n: int) -> str:
    return (f"## [1.{n}.0] - 2025-01-01\n\n### Fixed\n\n- Fixed the parser case {n} for nested tables.\n"
            f"- Fixed release {n}'s cache. It no longer grows without bound.\n\n### Added\n\n"
            f"- Added option number {n} to the exporter.\n\n")


def test_one_new_release_of_300_embeds_only_its_own_texts(tmp_path: Path) -> None:
    notes = tmp_path / "notes" / "CHANGELOG.md"
    notes.parent.mkdir()
    notes.write_text("# Changelog\n\n" + "".join(release(n) for n in range(300, 0, -1)))
    first = FakeEncoder()
    chunks = load_chunks([notes.parent])
    build_index(tmp_path / "idx", chunks, encoder=first, corpus=CORPUS)
    windows = sum(len(embedding_windows(c)) for c in chunks)
    assert first.embedded == windows + len(corpus_sentences(c.text for c in chunks)[0])

    notes.write_text(notes.read_text().replace("# Changelog\n\n", "# Changelog\n\n" + release(301), 1))
    current = LoadedIndex(tmp_path / "idx")
    previous, previous_sentences = current.previous_vectors(), current.previous_sentence_vectors()
    again = FakeEncoder()
    updated = load_chunks([notes.parent])
    report = build_index(tmp_path / "idx", updated, encoder=again, corpus=CORPUS, previous=previous,
                         previous_sentences=previous_sentences)
    new = [c for c in updated if c.version == "1.301.0"]
    new_windows = sum(len(embedding_windows(c)) for c in new)
    own = corpus_sentences(c.text for c in new)[0]
    unseen = [t for t in own if sentence_key(t) not in previous_sentences]  # "It no longer grows ..." is shared
    assert new and report.embedded == new_windows  # the windows of 1.301.0 only
    assert again.embedded == new_windows + len(unseen)  # and its new sentences: nothing of the other 300
    assert len(unseen) == len(own) - 1
    assert report.reused == windows


def test_a_text_repeated_in_one_build_is_embedded_once_and_no_scratch_is_left(tmp_path: Path) -> None:
    import dataclasses

    from index.retrieve.sentence_vectors import SentenceVectors
    from tests.support.fakes import make_chunk

    same = "Fixed the parser for nested tables."  # the same item under two releases
    chunks = [make_chunk(0, same, version="1.0"), make_chunk(1, same, version="1.1"),
              make_chunk(2, same, version="1.1")]  # chunk 2: the same window text as chunk 1
    chunks[2] = dataclasses.replace(chunks[2], section=chunks[1].section)
    encoder = FakeEncoder()
    report = build_index(tmp_path / "idx", chunks, encoder=encoder, corpus=CORPUS)
    windows = [w for c in chunks for w in embedding_windows(c)]
    assert len(set(windows)) == 2 and report.embedded == 2 and report.reused == 0
    assert encoder.embedded == 2 + 1  # two distinct windows and the one sentence
    loaded = LoadedIndex(tmp_path / "idx")
    vectors = loaded.dense().vectors()
    assert (vectors[1] == vectors[2]).all() and not (vectors[0] == vectors[1]).all()
    assert len(SentenceVectors.load(tmp_path / "idx", n_chunks=3)) == 1
    assert sorted(p.name for p in (tmp_path / "idx").iterdir() if p.name.startswith(".")) == []  # no .windows.npy
