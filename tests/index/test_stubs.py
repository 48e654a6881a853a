"""Chunks with no words of their own (an HTML anchor, a lone link line) are indexed but never returned."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from index.build import pipeline as store
from index.retrieve.reader import LoadedIndex
from index.retrieve.filters import stub_mask
from index.retrieve.search import Searcher
from tests.support.fakes import FakeEncoder, make_chunk

CORPUS = {"fingerprint": "f0", "inputs": ["<test>"], "documents": {"d": {"source": "x", "sha256": "0"}}}


@pytest.mark.parametrize(
    ("text", "stub"),
    [
        ('<a id="1.85.0-Language"></a>', True),
        ("[GitHub release](https://github.com/pydantic/pydantic/releases/tag/v2.13.4)", True),
        ("<!-- markdownlint-disable no-bare-urls -->\n\n<a id=\"x\"></a>\n", True),
        ("  ![badge](https://img.example/badge.svg)  ", True),
        ("* Fix typo", False),  # one short item is still words of its own
        ("- [`Vec::pop_if`](https://doc.rust-lang.org/std/vec/struct.Vec.html#method.pop_if)", False),  # a list item
        ("See [the release](https://example.org) for details.", False),  # a link inside a sentence
        ("Misc\n----", False),  # a lone heading keeps its words
        ("[94214]: https://github.com/rust-lang/rust/pull/94214/\n[94530]: https://x.org/94530", True),
        ("- [Prepare Rust for opaque pointers.][94214]\n\n[94214]: https://x.org/94214", False),
    ],
)
def test_what_counts_as_a_stub(text: str, stub: bool) -> None:
    assert stub_mask([make_chunk(0, text)]).tolist() == [stub]


def test_a_stub_is_never_returned_even_when_its_heading_matches(tmp_path: Path) -> None:
    chunks = [
        replace(make_chunk(0, "[GitHub release](https://github.com/example/tool/releases/tag/v2.13.4)", "2.13.4"),
                section=("Tool history", "v2.13.4 (2026-05-06)")),
        replace(make_chunk(1, "* Preserve root model metadata when copying models.", "2.13.4"),
                section=("Tool history", "v2.13.4 (2026-05-06)", "Fixes")),
        replace(make_chunk(2, "* Add support for ellipsis types in models.", "2.14.0"),
                section=("Tool history", "v2.14.0 (2026-08-06)", "New Features")),
    ]
    encoder = FakeEncoder()
    store.build_index(tmp_path / "idx", chunks, encoder=encoder, corpus=CORPUS)
    loaded = LoadedIndex(tmp_path / "idx")
    loaded.set_encoder(encoder)
    assert len(loaded.chunks) == 3  # indexed: no text is lost
    searcher = Searcher(loaded)
    for mode in ("bm25", "dense", "hybrid"):
        for versions in (None, ["2.13.4"]):
            ids = [h.chunk.id for h in searcher.search("github release v2.13.4", k=5, mode=mode, versions=versions)]
            assert ids and chunks[0].id not in ids
    assert searcher.mask(None) is not None and searcher.mask(["2.14.0"]).tolist() == [False, False, True]
