"""Release notes in, sections and chunks out: the corpus package's public API."""

from .chunking import CHUNKER_VERSION, chunk_sections, estimate_tokens
from .documents import load_documents
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
from .inputs import CorpusInput, as_input
from .model import Chunk, Document, Section
from .pipeline import Corpus, LoadedDocument, check_corpus, load_chunks, load_corpus
from .readers import bundled_paths
from .sections import chrome_lines, parse_sections, releases
from .versions import detect_product, parse_version, version_key, version_matches

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
