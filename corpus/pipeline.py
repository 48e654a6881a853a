"""Load a whole corpus: documents with their sections and chunks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .chunking import chunk_sections
from .documents import OnSkip, load_documents
from .model import Chunk, Document, Section
from .sections import parse_sections, release_warnings, releases


@dataclass(frozen=True, slots=True)
class LoadedDocument:
    """A document with its sections, chunks, the releases its headings name, and what looked like
    a release but gave none (``corpus.sections.release_warnings``)."""

    document: Document
    sections: tuple[Section, ...]
    chunks: tuple[Chunk, ...]
    releases: tuple[str, ...]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Corpus:
    """Every loaded document, in input order."""

    documents: tuple[LoadedDocument, ...]

    @property
    def chunks(self) -> list[Chunk]:
        """All chunks of all documents, in order."""
        return [c for d in self.documents for c in d.chunks]


def load_corpus(
    paths: Sequence[Path] | None = None,
    *,
    skip_bad: bool = False,
    on_skip: OnSkip | None = None,
) -> Corpus:
    """Load documents (see :func:`corpus.load_documents`) and split them into sections and chunks.

    Raises:
        CorpusError: as :func:`corpus.load_documents`.
    """
    loaded = []
    for doc in load_documents(paths, skip_bad=skip_bad, on_skip=on_skip):
        sections = parse_sections(doc)
        loaded.append(LoadedDocument(doc, tuple(sections), tuple(chunk_sections(doc, sections)), releases(doc),
                                     release_warnings(doc)))
    return Corpus(tuple(loaded))


def load_chunks(
    paths: Sequence[Path] | None = None,
    *,
    skip_bad: bool = False,
    on_skip: OnSkip | None = None,
) -> list[Chunk]:
    """All chunks of the corpus at ``paths`` (None: the bundled corpus), in document order.

    Raises:
        CorpusError: as :func:`corpus.load_documents`.
    """
    return load_corpus(paths, skip_bad=skip_bad, on_skip=on_skip).chunks


def check_corpus(paths: Sequence[Path] | None) -> None:
    """Check that every corpus path exists and holds release notes in a supported format, without
    reading them (the chat checks this before its window opens).

    Raises:
        CorpusError: a path does not exist, cannot be read or holds no supported file.
    """
    from .inputs import as_input
    from .readers import discover

    if paths:
        discover([as_input(p).path for p in paths])
