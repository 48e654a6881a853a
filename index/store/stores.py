"""A build's vector stores: ``.npy`` files mapped into memory that the embedding writes into,
their disk space reserved up front, and their written pages handed back to the page cache as the
build goes, so a large build's resident memory does not grow with its vectors."""

from __future__ import annotations

import errno
import mmap
import os
from pathlib import Path

import numpy as np


def open_store(path: Path, rows: int, dim: int, name: str) -> np.ndarray:
    """A (rows, dim) float32 ``.npy`` memory map at ``path``, its disk space reserved now, so a full
    disk is an OSError naming ``name`` here (the old index kept, a clear message) instead of a
    crash mid-write."""
    if rows == 0:
        return np.empty((0, dim), dtype=np.float32)
    try:
        store = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=(rows, dim))
        if hasattr(os, "posix_fallocate"):  # not on macOS
            with open(path, "r+b") as fh:
                try:
                    os.posix_fallocate(fh.fileno(), 0, os.fstat(fh.fileno()).st_size)
                except OSError as exc:
                    if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL):  # a file system without it: go on
                        raise
    except OSError as exc:
        raise OSError(exc.errno, f"{name}: {exc.strerror or exc}") from None
    return store


def release(store: np.ndarray) -> None:
    """Write a store's pages to its file and drop them from this process's memory (they stay in
    the page cache; reading a row maps it back). Nothing for an array that is not a memory map,
    or where the platform cannot advise (the pages then stay until the build ends), or a
    copy-on-write map (mode "c"), whose changes live only in those pages."""
    if not isinstance(store, np.memmap) or store.mode == "c":
        return
    mapping = getattr(store, "_mmap", None)  # numpy keeps the mmap.mmap it made here
    if mapping is None or not hasattr(mapping, "madvise") or not hasattr(mmap, "MADV_DONTNEED"):
        return
    try:
        # Linux keeps a shared map's dirty pages in the page cache anyway; elsewhere the advice may
        # drop them, so they go to the file first (only the pages written since the last release).
        mapping.flush()
        mapping.madvise(mmap.MADV_DONTNEED)
    except (OSError, ValueError):  # a closed map, or a file system that refuses: keep the pages
        pass
