"""The cache of indexes (``relnotes cache list`` / ``prune``): one folder per corpus and model.

Listing reads each index's manifest (its corpus inputs, counts and build time), its size on
disk and when it was last opened (``index.housekeeping.usage``). Pruning removes indexes not opened for a
while (or all), under the build lock and an exclusive in-use lock, so an index another process
has open or is building is never touched.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import IndexCorrupt, IndexMissing
from ..store.layout import cache_root, lock_file, shards_dir, tmp_prefix
from ..store.manifest import read_manifest
from .usage import NOT_OPENED, last_used, try_exclusive


@dataclass(frozen=True, slots=True)
class CachedIndex:
    """One index folder of the cache."""

    directory: Path
    inputs: tuple[str, ...]  # the corpus inputs ("<bundled>" for the bundled notes); () if unreadable
    chunks: int
    bytes: int
    built: str | None
    last_used: float | None  # epoch seconds; None: built, never opened
    problem: str | None = None  # why its manifest could not be read

    def idle_since(self) -> float:
        """When it was last opened, or built (its folder's time) when never opened."""
        return self.last_used if self.last_used is not None else self.directory.stat().st_mtime


def folder_size(directory: Path) -> int:
    total = 0
    for root, _, names in os.walk(directory):
        for name in names:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def list_indexes(root: Path | None = None) -> list[CachedIndex]:
    """Every index folder in the cache, most recently used first."""
    root = root or cache_root()
    if not root.is_dir():
        return []
    found = []
    for directory in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        try:
            manifest = read_manifest(directory)
            inputs = tuple(str(i) for i in manifest.corpus.get("inputs", ()))
            chunks, built, problem = int(manifest.counts.get("chunks", 0)), manifest.created or None, None
        except (IndexMissing, IndexCorrupt, TypeError, ValueError, AttributeError) as exc:
            inputs, chunks, built, problem = (), 0, None, str(exc) or type(exc).__name__
        found.append(CachedIndex(directory, inputs, chunks, folder_size(directory), built, last_used(directory), problem))
    return sorted(found, key=lambda c: -c.idle_since())


def indexed_sources(root: Path | None = None) -> list[str]:
    """The source path of every document of every readable index in the cache, most recently used
    index first (``relnotes show`` finds the file a citation names this way)."""
    sources: list[str] = []
    for cached in list_indexes(root):
        try:
            documents = read_manifest(cached.directory).corpus.get("documents", {})
        except (IndexMissing, IndexCorrupt, TypeError, ValueError, AttributeError):
            continue
        sources += [d["source"] for d in documents.values() if isinstance(d, dict) and isinstance(d.get("source"), str)]
    return sources


def in_use(directory: Path) -> bool:
    """Whether another process has the index open (its in-use lock is held)."""
    fd = try_exclusive(directory)
    if fd is None:
        return True
    if fd != NOT_OPENED:
        os.close(fd)
    return False


def prune(older_than_days: float | None, *, everything: bool = False, dry_run: bool = False,
          root: Path | None = None) -> tuple[list[CachedIndex], list[CachedIndex]]:
    """Remove the indexes idle for more than ``older_than_days`` (all with ``everything``).

    Returns:
        (removed, kept because another process has them open or is building them).
    """
    import fcntl

    if older_than_days is None and not everything:
        raise ValueError("say which: older_than_days or everything")
    now = time.time()
    removed, busy = [], []
    for entry in list_indexes(root):
        if not everything and (now - entry.idle_since()) / 86400 <= older_than_days:
            continue
        if dry_run:
            (busy if in_use(entry.directory) else removed).append(entry)
            continue
        before = last_used(entry.directory)
        fd = try_exclusive(entry.directory, create=True)  # held while deleting: an opener waits, then rebuilds
        if fd is None:
            busy.append(entry)
            continue
        try:
            lock_fd = os.open(lock_file(entry.directory), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            os.close(fd)
            busy.append(entry)
            continue
        try:
            try:
                fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # not while a build writes it
            except OSError:
                busy.append(entry)
                continue
            used = last_used(entry.directory)  # again, under the locks: opened meanwhile?
            if not everything and before is not None and used != before and (now - used) / 86400 <= older_than_days:
                continue
            doomed = entry.directory.with_name(f"{tmp_prefix(entry.directory)}prune")
            try:
                entry.directory.rename(doomed)  # gone at once for openers; a failed delete leaves build litter
                shutil.rmtree(doomed)
                shutil.rmtree(shards_dir(entry.directory), ignore_errors=True)  # an unfinished build's vectors
            except OSError:
                busy.append(entry)
                continue
            removed.append(entry)
        finally:
            os.close(lock_fd)
            os.close(fd)
    return removed, busy


ORPHAN_GRACE_S = 3600.0  # an adapted model no index uses yet is kept this long: its index may be building


@dataclass(frozen=True, slots=True)
class CachedModel:
    """One model of the cache adapted to a corpus (``relnotes index --adapt``)."""

    directory: Path
    base: str  # the name of the model it was adapted from
    created: str | None
    bytes: int
    used_by: tuple[Path, ...]  # the cached indexes built with it


def list_models(indexes: list[CachedIndex] | None = None) -> list[CachedModel]:
    """Every adapted model in the cache, with the cached indexes that use it."""
    from ..encode.adapt import models_root, read_adapted

    root = models_root()
    if not root.is_dir():
        return []
    users: dict[str, list[Path]] = {}
    for entry in list_indexes() if indexes is None else indexes:
        try:
            path = read_manifest(entry.directory).model.get("path")
        except (IndexMissing, IndexCorrupt, TypeError, ValueError, AttributeError):
            continue
        users.setdefault(str(Path(path).resolve()) if path else "", []).append(entry.directory)
    found = []
    for directory in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        model = read_adapted(directory)
        record = model.record if model is not None else {}
        found.append(CachedModel(directory, str((record.get("base") or {}).get("name", "?")), record.get("created"),
                                 folder_size(directory), tuple(users.get(str(directory.resolve()), ()))))
    return found


def prune_models(older_than_days: float | None = None, *, everything: bool = False,
                 dry_run: bool = False) -> list[CachedModel]:
    """Remove the adapted models no cached index uses and none opened for ``older_than_days``
    (any age with ``everything``; never within ORPHAN_GRACE_S: an index built with ``--index DIR``
    outside the cache stamps its model's folder each time it opens it); the removed ones."""
    idle_enough = ORPHAN_GRACE_S if everything or older_than_days is None else max(ORPHAN_GRACE_S,
                                                                                   older_than_days * 86400)
    removed = []
    for model in list_models():
        if model.used_by or time.time() - model.directory.stat().st_mtime < idle_enough:
            continue
        if not dry_run:
            from ..encode.encoder_cache import forget_stamps

            exports = _exports_of(model.directory)
            try:
                for directory in [model.directory, *exports]:
                    doomed = directory.with_name(f"{tmp_prefix(directory)}prune")
                    directory.rename(doomed)
                    shutil.rmtree(doomed)
            except OSError:
                continue
            for export in exports:  # the stamps saying which folder hashes to its key go too
                forget_stamps(export.name)
        removed.append(model)
    return removed


def _exports_of(model: Path) -> list[Path]:
    """The ONNX exports in the cache made from ``model`` (float, then the int8 ones made from those)."""
    import json

    from ..encode.encoder_cache import encoders_root
    from ..store.layout import ENCODER_RECORD

    records = {}
    root = encoders_root()
    for entry in (p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")) if root.is_dir() else ():
        try:
            records[entry] = json.loads((entry / ENCODER_RECORD).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
    target = str(model.resolve())
    floats = [e for e, r in records.items() if isinstance(r, dict) and (r.get("model") or {}).get("path") == target]
    keys = {e.name for e in floats}
    return floats + [e for e, r in records.items() if isinstance(r, dict) and r.get("quantized_from") in keys]
