"""Chunks in, ranked chunks out: the index package's public API, the only door ``qa`` uses.

    loaded, report = open_index(paths)          # build or update when missing or stale
    searcher = Searcher(loaded)
    hits = searcher.search("nccl2 backend", k=5, mode="hybrid", versions=["2.14"])
    cosines = searcher.similarity.cosines("nccl2 backend", ["a sentence", "another"])

Errors and modes import at once (the CLI needs them for ``--help``); everything else, which
brings numpy (and faiss or onnxruntime on first search), is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from corpus.lazy import lazy_api

from .errors import (
    AdaptError,
    DenseIndexFileError,
    IndexBusy,
    IndexCorrupt,
    IndexMissing,
    IndexStale,
    IndexWriteError,
    ModelNotFound,
    QueryEncoderUnavailable,
    RelnotesIndexError,
    UnknownMode,
)
from .modes import ASKED_MODES, AUTO, MODES, Mode, check_asked_mode, check_mode, needs_vectors

_LAZY = {
    "BuildReport": "build.pipeline",
    "CachedIndex": "housekeeping.cache",
    "CachedModel": "housekeeping.cache",
    "list_models": "housekeeping.cache",
    "list_stores": "store.shared",
    "prune_stores": "housekeeping.vectors",
    "prune_models": "housekeeping.cache",
    "replace_index": "store.atomic",
    "discard_index": "store.atomic",
    "cache_root": "store.layout",
    "in_use": "housekeeping.cache",
    "indexed_sources": "housekeeping.cache",
    "list_indexes": "housekeeping.cache",
    "prune": "housekeeping.cache",
    "Hit": "retrieve.search",
    "IndexStatus": "lifecycle.status",
    "LoadedIndex": "retrieve.reader",
    "Searcher": "retrieve.search",
    "Similarity": "retrieve.similarity",
    "default_index_dir": "lifecycle.freshness",
    "generation": "store.manifest",
    "index_status": "lifecycle.status",
    "open_index": "lifecycle.opening",
    "tokenize": "retrieve.tokenizer",
}

if TYPE_CHECKING:  # pragma: no cover
    from .build.pipeline import BuildReport
    from .store.atomic import discard_index, replace_index
    from .housekeeping.cache import CachedIndex, CachedModel, in_use, indexed_sources, list_indexes, list_models, prune, prune_models
    from .housekeeping.vectors import prune_stores
    from .store.manifest import generation
    from .store.shared import list_stores
    from .lifecycle.freshness import default_index_dir
    from .lifecycle.opening import open_index
    from .lifecycle.status import IndexStatus, index_status
    from .store.layout import cache_root
    from .retrieve.reader import LoadedIndex
    from .retrieve.search import Hit, Searcher
    from .retrieve.similarity import Similarity
    from .retrieve.tokenizer import tokenize


__getattr__, __dir__ = lazy_api(__name__, _LAZY)


__all__ = [
    "ASKED_MODES",
    "AUTO",
    "MODES",
    "AdaptError",
    "BuildReport",
    "CachedIndex",
    "CachedModel",
    "DenseIndexFileError",
    "Hit",
    "IndexBusy",
    "IndexCorrupt",
    "IndexMissing",
    "IndexStale",
    "IndexStatus",
    "IndexWriteError",
    "LoadedIndex",
    "Mode",
    "ModelNotFound",
    "QueryEncoderUnavailable",
    "RelnotesIndexError",
    "Searcher",
    "Similarity",
    "UnknownMode",
    "cache_root",
    "check_asked_mode",
    "check_mode",
    "default_index_dir",
    "discard_index",
    "generation",
    "in_use",
    "indexed_sources",
    "index_status",
    "list_indexes",
    "list_models",
    "list_stores",
    "needs_vectors",
    "open_index",
    "prune",
    "prune_models",
    "prune_stores",
    "replace_index",
    "tokenize",
]
