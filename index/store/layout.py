"""Every file name of an index directory (and of the query encoder cache) in one place, and
which of them are read lazily.

An index directory holds the manifest (what built it, with each file's checksum), the chunks,
the BM25 statistics, the window vectors and the sentence vectors. The manifest lists the files
a build wrote; readers check the eager ones on open and the lazy ones on first use. The ONNX
query encoder lives once per model in the user cache (``index.encode.encoder_cache``); the manifest
records its key.
"""

from __future__ import annotations

from pathlib import Path

MANIFEST = "manifest.json"  # format, model, corpus fingerprint, file checksums
CHUNKS = "chunks.jsonl"  # one chunk a line, with its windows' embedding keys
LEXICAL_META = "lexical.json"  # BM25 parameters, vocabulary and corpus statistics
LEXICAL_ARRAYS = "lexical.npz"  # BM25 postings (no pickle)
VECTORS = "vectors.faiss"  # one vector a window (faiss IndexFlatIP; IndexIVFFlat for a large index)
SENTENCE_VECTORS = "sentences.npy"  # one vector a distinct sentence
SENTENCE_KEYS = "sentences.json"  # the key (text hash) of each sentence row
SENTENCE_CHUNKS = "sentence_chunks.npy"  # (chunk row, sentence row) pairs, in chunk order
QUERY_ENCODER = "query_encoder.onnx"  # the model's transformer exported for torch-free queries
QUERY_TOKENIZER = "query_tokenizer.json"  # its tokenizer
ENCODER_RECORD = "export.json"  # beside them in a cache entry: key, spec, each file's sha256 and size
MODEL_STAMPS = ".checked"  # in encoders/: which model folders (sizes, mtimes) hash to which key
INDEXES = "indexes"  # user cache folder of the default index directories
ENCODERS = "encoders"  # user cache folder of the query encoder exports, one entry per model
MODELS = "models"  # user cache folder of models adapted to a corpus (relnotes index --adapt)
ADAPTED_RECORD = "adapted.json"  # in an adapted model's folder: its base, recipe and corpus

LEXICAL_FILES = (LEXICAL_META, LEXICAL_ARRAYS)
SENTENCE_FILES = (SENTENCE_VECTORS, SENTENCE_KEYS, SENTENCE_CHUNKS)
# Checked and read when first searched: a bm25 question never touches them.
LAZY_FILES = (VECTORS, *SENTENCE_FILES)
# Only in indexes built before the encoder cache (still read); their damage only costs speed.
OPTIONAL_FILES = (QUERY_ENCODER, QUERY_TOKENIZER)


def cache_home() -> Path:
    """The user cache directory of relnotes (platformdirs), holding ``indexes/`` and ``encoders/``."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("relnotes-qa", appauthor=False))


def cache_root() -> Path:
    """The user cache directory for indexes (platformdirs)."""
    return cache_home() / INDEXES


def lock_file(directory: Path) -> Path:
    """The build lock beside an index directory."""
    return directory.parent / f".{directory.name}.lock"


def used_file(directory: Path) -> Path:
    """The in-use stamp beside an index directory (``index.housekeeping.usage``)."""
    return directory.parent / f".{directory.name}.used"


def tmp_prefix(directory: Path) -> str:
    """Name prefix of a build's temporary sibling directory (swapped into place when complete)."""
    return f".{directory.name}.tmp-"


def shards_dir(directory: Path) -> Path:
    """The folder beside an index directory holding the vectors of a build in progress
    (``index.store.shards``): kept when a build is interrupted, deleted when one completes."""
    return directory.parent / f".{directory.name}.shards"


def old_prefix(directory: Path) -> str:
    """Name prefix of the previous index while a swap is under way."""
    return f".{directory.name}.old-"
