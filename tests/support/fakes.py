"""Test doubles: a deterministic encoder that counts what it embeds, and chunk factories."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from corpus.model import Chunk


class FakeEncoder:
    """Hash-seeded unit vectors; texts sharing words get similar vectors. Counts every embed."""

    def __init__(self, name: str = "fake-encoder", dim: int = 32) -> None:
        self.name = name
        self.path = Path("/nonexistent/fake-encoder") / name
        self.dim = dim
        self.embedded = 0
        self.fail_after: int | None = None

    def _word(self, word: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(word.lower().encode()).digest()[:8], "little")
        return np.random.default_rng(seed).standard_normal(self.dim)

    def encode(self, texts, *, batch_size: int = 32, progress=None) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            if self.fail_after is not None and self.embedded >= self.fail_after:
                raise KeyboardInterrupt
            vec = sum((self._word(w) for w in text.split()), np.zeros(self.dim))
            norm = np.linalg.norm(vec)
            out[i] = vec / norm if norm else vec
            self.embedded += 1
            if progress:
                progress(i + 1, len(texts))
        return out

    def encode_query(self, text: str) -> np.ndarray:
        return self.encode([text])[0]


def make_chunk(n: int, text: str, version: str = "2.14", title: str = "PyTorch 2.14 Release Blog") -> Chunk:
    """A chunk with a unique id and plausible citation fields."""
    return Chunk(
        id=f"c{n:04d}",
        document=f"doc-{version}",
        title=title,
        product="PyTorch",
        version=version,
        section=(title, f"Section {n}"),
        text=text,
        source=f"notes/{version}.md",
        lines=(n * 3 + 1, n * 3 + 2),
    )


def fake_engine(chunks, directory: Path, corpus: dict | None = None):
    """An Engine over ``chunks`` indexed in ``directory`` with the FakeEncoder (quick: no model);
    ``corpus`` is the manifest's corpus record (default: a fake one)."""
    from index.build import pipeline as store
    from index.retrieve.reader import LoadedIndex
    from qa.answer.engine import Engine

    store.build_index(directory, chunks, encoder=FakeEncoder(),
                      corpus=corpus or {"fingerprint": "fake", "inputs": ["<test>"], "documents": {}})
    loaded = LoadedIndex(directory)
    loaded.set_encoder(FakeEncoder())
    return Engine(loaded)


def notes_engine(root: Path, name: str, text: str, product: str):
    """A ``fake_engine`` over release notes ``text`` written to ``root/name`` as ``product``'s, indexed in ``root/idx``."""
    from corpus import CorpusInput
    from corpus.pipeline import load_chunks

    (root / name).write_text(text, encoding="utf-8")
    return fake_engine(load_chunks([CorpusInput(root / name, product)]), root / "idx")


def read_written(folder: Path, name: str, text: str):
    """``text`` written to ``folder/name`` and read by the corpus reader: its one loaded document."""
    from corpus import load_corpus

    path = folder / name
    path.write_text(text, encoding="utf-8")
    (loaded,) = load_corpus([path]).documents
    return loaded


def read_releases(folder: Path, name: str, text: str, releases: tuple[str, ...], dates: list[str] | None = None):
    """``text`` read as ``read_written`` reads it, and checked: its releases are ``releases`` with no
    warning, its release sections dated ``dates`` (when given), no text lost (``check_invariants``)."""
    from tests.support.invariants import check_invariants

    loaded = read_written(folder, name, text)
    assert loaded.releases == releases and loaded.warnings == ()
    if dates is not None:
        assert [s.date for s in loaded.sections if s.version] == dates
    check_invariants(loaded)
    return loaded
