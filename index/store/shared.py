"""The vectors of texts, kept once per model in the user cache and shared by every index built
with that model: a package's notes at one version are embedded once, whatever project or corpus
holds them, and the next index holding the same texts takes their vectors instead of embedding.

    store = SharedVectors.for_model(identity)        # None when the cache cannot be written
    found = store.lookup(hashes)                     # text hash -> float32 vector
    store.add(hashes, vectors)                       # one new piece

A store is a folder per model (``vectors/<key>/`` in the user cache, the key a hash of the model's
identity: name, folder, dimension, int8 or not) holding ``model.json`` and pieces: each piece is
``ID.npy`` (float32 rows, ``np.save`` without pickle) and ``ID.json`` (its manifest: the model key,
the dimension and each row's text hash), written under temporary names and renamed, the JSON last,
so a piece without its JSON does not exist. Two processes adding at once write two pieces (a text
in both is read from the first); nothing is ever rewritten in place. A reader takes a shared lock
on ``.lock`` and pruning an exclusive one, so a store is never removed under a build reading it.
A piece's JSON is touched when a build takes vectors from it: its mtime is its last use.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np

from .layout import cache_home

VECTORS = "vectors"  # user cache folder of the shared stores, one per model
MODEL_RECORD = "model.json"
LOCK = ".lock"
STORE_FORMAT = 1


def text_hash(text: str) -> str:
    """The key of a text in a store: a hash of its exact text (a sentence's key in an index too)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def stores_root() -> Path:
    """The user cache folder holding one store per model."""
    return Path(os.environ.get("RELNOTES_VECTOR_STORE") or cache_home() / VECTORS)


def model_key(model: dict) -> str:
    """The folder name of a model's store: a hash of its identity (name, path, dim, quantized)."""
    identity = json.dumps({k: model.get(k) for k in ("name", "path", "dim", "quantized")}, sort_keys=True)
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:20]


@dataclass(frozen=True, slots=True)
class StoreInfo:
    """One store of the cache, for ``relnotes cache list``."""

    directory: Path
    model: dict
    texts: int  # distinct texts held
    pieces: int
    bytes: int
    last_used: float | None  # the newest piece's use (epoch seconds)


class SharedVectors:
    """The store of one model."""

    def __init__(self, directory: Path, model: dict) -> None:
        self.directory = Path(directory)
        self.model = {k: model.get(k) for k in ("name", "path", "dim", "quantized")}
        self.dim = int(model["dim"])

    @classmethod
    def for_model(cls, model: dict, root: Path | None = None) -> SharedVectors | None:
        """The store of ``model`` (made when missing); None when it is off (``RELNOTES_VECTOR_STORE=0``)
        or cannot be made (the build then embeds as it would without one)."""
        if os.environ.get("RELNOTES_VECTOR_STORE") == "0":
            return None
        base = root if root is not None else stores_root()
        store = cls(base / model_key(model), model)
        try:
            store.directory.mkdir(parents=True, exist_ok=True)
            record = store.directory / MODEL_RECORD
            if not record.exists():
                _write_json(record, {"format": STORE_FORMAT, "model": store.model})
        except OSError:
            return None
        return store

    @contextmanager
    def _held(self, exclusive: bool = False, wait: bool = True) -> Iterator[bool]:
        """The store's lock, shared (builds) or exclusive (pruning); yields False when ``wait`` is
        off and it is taken, or when the lock file cannot be opened."""
        try:
            fd = os.open(self.directory / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            yield False
            return
        try:
            flags = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB)
            try:
                fcntl.flock(fd, flags)
            except OSError:
                yield False
                return
            yield True
        finally:
            os.close(fd)

    def _pieces(self) -> Iterator[tuple[Path, list[str]]]:
        """(vectors file, row keys) of every complete, readable piece made for this model."""
        key = model_key(self.model)
        for meta in sorted(self.directory.glob("*.json")):
            if meta.name == MODEL_RECORD:
                continue
            try:
                record = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                continue  # damaged: its texts are embedded again, never trusted
            if not isinstance(record, dict) or record.get("model") != key or record.get("dim") != self.dim:
                continue
            keys = record.get("keys")
            if isinstance(keys, list):
                yield meta.with_suffix(".npy"), keys

    def lookup(self, hashes: Iterable[str]) -> dict[str, np.ndarray]:
        """Text hash -> vector of every one of ``hashes`` the store holds (a damaged piece is skipped)."""
        wanted = set(hashes)
        found: dict[str, np.ndarray] = {}
        if not wanted:
            return found
        with self._held():
            for path, keys in self._pieces():
                rows = [(row, key) for row, key in enumerate(keys) if key in wanted and key not in found]
                if not rows:
                    continue
                try:
                    array = np.load(path, mmap_mode="r", allow_pickle=False)
                except (OSError, ValueError):
                    continue
                if array.ndim != 2 or array.shape != (len(keys), self.dim) or array.dtype != np.float32:
                    continue
                taken = np.asarray(array[[row for row, _ in rows]])
                found.update((key, taken[i]) for i, (_, key) in enumerate(rows))
                try:
                    os.utime(path.with_suffix(".json"), None)  # its last use, for cache prune --older-than
                except OSError:
                    pass
                if len(found) == len(wanted):
                    break
        return found

    def add(self, hashes: Sequence[str], vectors: np.ndarray) -> None:
        """Keep ``vectors`` (one row per hash) as one new piece, atomically.

        Raises:
            OSError: the store cannot be written (the caller goes on without it).
        """
        if not len(hashes):
            return
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.shape != (len(hashes), self.dim):
            raise ValueError(f"{len(hashes)} keys for vectors of shape {vectors.shape}")
        with self._held():
            fd, tmp = tempfile.mkstemp(prefix=".piece-", suffix=".npy", dir=self.directory)
            try:
                with os.fdopen(fd, "wb") as fh:
                    np.save(fh, vectors, allow_pickle=False)
                    fh.flush()
                    os.fsync(fh.fileno())
                name = Path(tmp).name[1:-4]  # "piece-abc123": unique in this folder
                os.replace(tmp, self.directory / f"{name}.npy")
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            _write_json(self.directory / f"{name}.json", {
                "format": STORE_FORMAT, "model": model_key(self.model), "dim": self.dim, "count": len(hashes),
                "created": time.time(), "keys": list(hashes)})

    def info(self) -> StoreInfo:
        """What the store holds (its pieces' manifests only: no vector is read)."""
        texts: set[str] = set()
        pieces, newest = 0, None
        for path, keys in self._pieces():
            pieces += 1
            texts.update(keys)
            try:
                used = path.with_suffix(".json").stat().st_mtime
                newest = used if newest is None else max(newest, used)
            except OSError:
                pass
        size = sum(p.stat().st_size for p in self.directory.iterdir() if p.is_file())
        return StoreInfo(self.directory, self.model, len(texts), pieces, size, newest)

    def prune(self, older_than_days: float | None, *, dry_run: bool = False) -> tuple[int, int] | None:
        """Remove the pieces unused for more than ``older_than_days`` (the whole store when None);
        (pieces, bytes) removed, or None when a build is using the store (nothing removed)."""
        now, removed, freed = time.time(), 0, 0
        with self._held(exclusive=True, wait=False) as held:
            if not held:
                return None
            for meta in sorted(self.directory.glob("*.json")):
                if meta.name == MODEL_RECORD:
                    continue
                try:
                    age = (now - meta.stat().st_mtime) / 86400
                except OSError:
                    continue
                if older_than_days is not None and age <= older_than_days:
                    continue
                vectors = meta.with_suffix(".npy")
                size = sum(p.stat().st_size for p in (meta, vectors) if p.exists())
                if not dry_run:
                    meta.unlink(missing_ok=True)  # the JSON first: the piece is gone for readers at once
                    vectors.unlink(missing_ok=True)
                removed, freed = removed + 1, freed + size
            if older_than_days is None and not dry_run:
                for litter in self.directory.glob(".piece-*"):  # a writer killed before its rename
                    litter.unlink(missing_ok=True)
        return removed, freed


def list_stores(root: Path | None = None) -> list[StoreInfo]:
    """Every store of the cache, most recently used first."""
    base = root if root is not None else stores_root()
    found = []
    for directory in sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith(".")) if base.is_dir() else ():
        try:
            record = json.loads((directory / MODEL_RECORD).read_text(encoding="utf-8"))
            model = record["model"]
            found.append(SharedVectors(directory, model).info())
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return sorted(found, key=lambda s: -(s.last_used or 0))


def remove_store(info: StoreInfo) -> bool:
    """Delete a whole store when no build holds it (its folder renamed away first)."""
    store = SharedVectors(info.directory, info.model)
    with store._held(exclusive=True, wait=False) as held:
        if not held:
            return False
        doomed = info.directory.with_name(f".{info.directory.name}.prune")
        try:
            info.directory.rename(doomed)
        except OSError:
            return False
    shutil.rmtree(doomed, ignore_errors=True)
    return True


def _write_json(path: Path, value: dict) -> None:
    """Write ``value`` to ``path`` through a temporary file and a rename."""
    fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(value, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
