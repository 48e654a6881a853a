"""Release notes in, sections and chunks out: the corpus package's public API.

The errors import at once (the CLI needs them for ``--help``); the readers, chunker and model,
which bring regular expressions and tables that take tens of milliseconds, load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_api
from .errors import (
    BinaryFile,
    CorpusError,
    CorpusPathNotFound,
    DraftsOnly,
    EmptyFile,
    EncodingError,
    JSONShapeError,
    LinksOnly,
    MalformedJSON,
    MissingBody,
    NoSupportedFiles,
    UnreadableFile,
)

_LAZY = {
    "CHUNKER_VERSION": "model",
    "chunk_sections": "chunking",
    "estimate_tokens": "chunking",
    "load_documents": "documents",
    "CorpusInput": "inputs",
    "as_input": "inputs",
    "Chunk": "model",
    "Document": "model",
    "Section": "model",
    "Corpus": "pipeline",
    "LoadedDocument": "pipeline",
    "check_corpus": "pipeline",
    "load_chunks": "pipeline",
    "load_corpus": "pipeline",
    "bundled_paths": "readers",
    "corpus_stamp": "stamp",
    "chrome_lines": "sections",
    "parse_sections": "sections",
    "releases": "sections",
    "detect_product": "versions",
    "parse_version": "versions",
    "version_key": "versions",
    "version_matches": "versions",
}

if TYPE_CHECKING:  # pragma: no cover
    from .chunking import chunk_sections, estimate_tokens
    from .documents import load_documents
    from .inputs import CorpusInput, as_input
    from .model import CHUNKER_VERSION, Chunk, Document, Section
    from .pipeline import Corpus, LoadedDocument, check_corpus, load_chunks, load_corpus
    from .readers import bundled_paths
    from .sections import chrome_lines, parse_sections, releases
    from .stamp import corpus_stamp
    from .versions import detect_product, parse_version, version_key, version_matches


__getattr__, __dir__ = lazy_api(__name__, _LAZY)


__all__ = [
    "CHUNKER_VERSION",
    "BinaryFile",
    "Chunk",
    "Corpus",
    "CorpusError",
    "CorpusInput",
    "CorpusPathNotFound",
    "Document",
    "DraftsOnly",
    "EmptyFile",
    "EncodingError",
    "JSONShapeError",
    "LinksOnly",
    "LoadedDocument",
    "MalformedJSON",
    "MissingBody",
    "NoSupportedFiles",
    "Section",
    "UnreadableFile",
    "as_input",
    "bundled_paths",
    "check_corpus",
    "chrome_lines",
    "corpus_stamp",
    "chunk_sections",
    "detect_product",
    "estimate_tokens",
    "load_chunks",
    "load_corpus",
    "load_documents",
    "parse_sections",
    "parse_version",
    "releases",
    "version_key",
    "version_matches",
]
