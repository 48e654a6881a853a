"""Chunks in, ranked chunks out: the index package's public API, the only door ``qa`` uses.

    loaded, report = open_index(paths)          # build or update when missing or stale
    searcher = Searcher(loaded)
    hits = searcher.search("nccl2 backend", k=5, mode="hybrid", versions=["2.14"])
    cosines = searcher.similarity.cosines("nccl2 backend", ["a sentence", "another"])

Errors and modes import at once (the CLI needs them for ``--help``); everything else, which
brings numpy (and faiss or onnxruntime on first search), is imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

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
from .modes import MODES, Mode, check_mode

_LAZY = {
    "BuildReport": "build",
    "CachedIndex": "cache",
    "CachedModel": "cache",
    "list_models": "cache",
    "prune_models": "cache",
    "replace_index": "atomic",
    "discard_index": "atomic",
    "cache_root": "lifecycle",
    "in_use": "cache",
    "indexed_sources": "cache",
    "list_indexes": "cache",
    "prune": "cache",
    "Hit": "search",
    "IndexStatus": "lifecycle",
    "LoadedIndex": "reader",
    "Searcher": "search",
    "Similarity": "similarity",
    "default_index_dir": "lifecycle",
    "generation": "manifest",
    "index_status": "lifecycle",
    "open_index": "lifecycle",
    "tokenize": "tokenizer",
}

if TYPE_CHECKING:  # pragma: no cover
    from .build import BuildReport
    from .atomic import discard_index, replace_index
    from .cache import CachedIndex, CachedModel, in_use, indexed_sources, list_indexes, list_models, prune, prune_models
    from .manifest import generation
    from .lifecycle import IndexStatus, cache_root, default_index_dir, index_status, open_index
    from .reader import LoadedIndex
    from .search import Hit, Searcher
    from .similarity import Similarity
    from .tokenizer import tokenize


def __getattr__(name: str):
    """Import the heavy parts of the API on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'index' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The API names, loaded or not (PEP 562), for ``dir()`` and tab completion."""
    return sorted(set(__all__) | set(globals()))


__all__ = [
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
    "check_mode",
    "default_index_dir",
    "discard_index",
    "generation",
    "in_use",
    "indexed_sources",
    "index_status",
    "list_indexes",
    "list_models",
    "open_index",
    "prune",
    "prune_models",
    "replace_index",
    "tokenize",
]
