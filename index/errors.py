"""Errors a user can fix when building, loading or querying an index."""


class RelnotesIndexError(Exception):
    """Base class: an index problem the user can fix."""


class ModelNotFound(RelnotesIndexError):
    """Raised when an embedding model path is missing or is not a sentence-transformers folder."""


class DenseIndexFileError(RelnotesIndexError):
    """Raised when a saved dense index file is missing, unreadable or not a flat inner-product index."""


class IndexMissing(RelnotesIndexError):
    """Raised when no index exists where one is expected (and building is not allowed)."""


class IndexCorrupt(RelnotesIndexError):
    """Raised when an index file is truncated, fails its checksum or disagrees with the manifest."""


class IndexStale(RelnotesIndexError):
    """Raised under --no-update when the index no longer matches the corpus, model or format."""


class IndexWriteError(RelnotesIndexError):
    """Raised when an index cannot be written (read-only directory, disk full); the old index is kept."""


class IndexBusy(RelnotesIndexError):
    """Raised when another process holds the build lock for too long."""


class UnknownMode(RelnotesIndexError):
    """Raised for a retrieval mode other than bm25, dense or hybrid."""


class QueryEncoderUnavailable(RelnotesIndexError):
    """Raised when the ONNX query encoder is missing, damaged or cannot be loaded (the caller falls back to torch)."""


class AdaptError(RelnotesIndexError):
    """Raised when ``--adapt`` cannot adapt the model to a corpus (too few list items to learn from)."""
