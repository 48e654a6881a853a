"""The embedded vectors of a build in progress, kept beside the index in pieces (shards) so an
interrupted build keeps what it embedded and the next one embeds only the rest.

Each shard is a ``.npy`` file of float32 vectors (no pickle) and a ``.json`` file naming the
model, the kind of text ("windows", "sentences") and each row's key; both are written under
temporary names and renamed, the JSON last, so a shard without its JSON does not exist. A
``plan.json`` records how many distinct texts the index needs, for "N of M texts embedded".
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from .layout import shards_dir

PLAN = "plan.json"
KINDS = ("windows", "sentences")


@dataclass(frozen=True, slots=True)
class DenseProgress:
    """How far the dense part of an index is: ``embedded`` of ``total`` distinct texts (total 0:
    not known yet, no dense build has started)."""

    embedded: int
    total: int

    def __post_init__(self) -> None:
        if self.embedded < 0 or self.total < 0:
            raise ValueError(f"counts cannot be negative: {self.embedded} of {self.total}")


def model_identity(encoder) -> dict:
    """What a shard's vectors depend on: the model's name, folder and dimension."""
    return {"name": encoder.name, "path": str(encoder.path), "dim": int(encoder.dim)}


class Shards:
    """The shard folder of one index directory."""

    def __init__(self, directory: Path) -> None:
        self.folder = shards_dir(Path(directory))

    def save(self, kind: str, keys: Sequence[str], vectors: np.ndarray, model: dict) -> None:
        """Write one shard atomically (vectors first, the JSON that makes it exist last)."""
        if kind not in KINDS:
            raise ValueError(f"shard kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if not len(keys):
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{kind}-", suffix=".npy", dir=self.folder)
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, np.ascontiguousarray(vectors, dtype=np.float32), allow_pickle=False)
            fh.flush()
            os.fsync(fh.fileno())
        name = Path(tmp).name[1:-4]  # "windows-abc123": unique in this folder
        os.replace(tmp, self.folder / f"{name}.npy")
        _write_json(self.folder / f"{name}.json", {"kind": kind, "model": model, "keys": list(keys)})

    def _records(self, model: dict):
        """(kind, keys, path of the vectors) of every complete shard made with ``model`` (whose
        record holds each of its items)."""
        if not self.folder.is_dir():
            return
        for meta in sorted(self.folder.glob("*.json")):
            if meta.name == PLAN:
                continue
            try:
                record = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                continue  # a damaged shard is re-embedded, never trusted
            made = record.get("model") if isinstance(record, dict) else None
            if isinstance(made, dict) and all(made.get(k) == v for k, v in model.items()) and record.get("kind") in KINDS:
                yield record["kind"], record.get("keys") or [], meta.with_suffix(".npy")

    def vectors(self, model: dict) -> dict[str, dict[str, np.ndarray]]:
        """Kind -> key -> vector of every readable shard made with ``model``."""
        found: dict[str, dict[str, np.ndarray]] = {kind: {} for kind in KINDS}
        for kind, keys, path in self._records(model):
            try:
                array = np.load(path, allow_pickle=False)
            except (OSError, ValueError):
                continue
            if array.ndim != 2 or array.shape != (len(keys), model.get("dim")):
                continue
            found[kind].update(zip(keys, array))
        return found

    def count(self, model: dict) -> int:
        """Distinct texts the shards made with ``model`` hold (their JSON only: no vector is read)."""
        seen: dict[str, set[str]] = {kind: set() for kind in KINDS}
        for kind, keys, _ in self._records(model):
            seen[kind].update(keys)
        return sum(len(keys) for keys in seen.values())

    def set_plan(self, model: dict, total: int) -> None:
        """Record how many distinct texts the index needs (``total``) with ``model``."""
        self.folder.mkdir(parents=True, exist_ok=True)
        _write_json(self.folder / PLAN, {"model": model, "total": int(total)})

    def progress(self, model: dict) -> DenseProgress:
        """How many of the texts the plan names are embedded (total 0 before any dense build)."""
        try:
            plan = json.loads((self.folder / PLAN).read_text(encoding="utf-8"))
            made = plan.get("model") or {}
            total = int(plan["total"]) if all(made.get(k) == v for k, v in model.items()) else 0
        except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError):
            total = 0
        embedded = self.count(model)
        return DenseProgress(min(embedded, total) if total else embedded, max(total, 0))

    def clear(self) -> None:
        """Delete every shard (the complete index holds their vectors now)."""
        shutil.rmtree(self.folder, ignore_errors=True)


def _write_json(path: Path, value: dict) -> None:
    """Write ``value`` to ``path`` through a temporary file and a rename."""
    fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(value, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
