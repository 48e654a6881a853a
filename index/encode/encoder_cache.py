"""The ONNX query encoder cache: one export per model in the user cache, shared by every index.

    <user cache>/relnotes-qa/encoders/<key>/query_encoder.onnx, query_tokenizer.json, export.json

The key hashes the model folder's files (relative names and contents) with the export recipe
(export version, spec, opset), so the same model exports once however many corpora it
indexes. An index records only the key (manifest ``model["query_encoder"]["key"]``) and finds
the export without reading the model. An entry is written into a
temporary sibling directory and renamed into place under a lock beside it (``index.store.atomic``),
so builders racing for one model export once and a reader never sees half an entry.

Questions embedded in numpy (``index.encode.numpy_query``) read the weights from the model folder
itself, so they must know it still hashes to the key. Hashing the model (about 0.12 s for the
bundled one) happens when building or exporting; a build then stamps the folder's file sizes and
modification times in ``<user cache>/relnotes-qa/encoders/.checked/``, and a question compares
those (a few stats). Only a folder without a stamp, or changed since, is hashed on the question
path, once, and stamped again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from corpus.regex import lazy_compile

from ..store.atomic import build_lock, fsync_tree, make_tmp, recover, swap_into_place
from ..errors import QueryEncoderUnavailable
from ..store.layout import ENCODER_RECORD, ENCODERS, MODEL_STAMPS, cache_home
from ..store.manifest import sha256_file

_KEY = lazy_compile(r"[0-9a-f]{16,64}")


def encoders_root() -> Path:
    """The cache folder of the query encoder exports, beside ``indexes/``."""
    return cache_home() / ENCODERS


def entry_dir(key: str) -> Path:
    """Where the export with ``key`` lives."""
    return encoders_root() / key


def model_key(model_path: Path | str, recipe: dict) -> str:
    """Hash of a model folder's files (sorted relative names and their contents) and the recipe.

    Reads every byte of the model (about 0.25 s for the bundled 90 MB model): build time only.
    """
    root = Path(model_path)
    files = {p.relative_to(root).as_posix(): sha256_file(p) for p in sorted(root.rglob("*")) if p.is_file()}
    blob = json.dumps({"recipe": recipe, "files": files}, sort_keys=True).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:16]


def folder_state(model_path: Path | str) -> dict[str, list[int]]:
    """Each file of a model folder (the relative names ``model_key`` hashes) -> [size, mtime in ns]."""
    root = Path(model_path)
    state = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            stat = path.stat()
            state[path.relative_to(root).as_posix()] = [stat.st_size, stat.st_mtime_ns]
    return state


def _stamp_path(key: str, model_path: Path | str) -> Path:
    """Where the stamp of ``model_path`` hashing to ``key`` lives (one per key and folder)."""
    folder = hashlib.sha256(str(model_path).encode("utf-8")).hexdigest()[:16]
    return encoders_root() / MODEL_STAMPS / f"{key}-{folder}.json"


def stamp_model(key: str, model_path: Path | str, state: dict[str, list[int]]) -> None:
    """Record that the model folder, as ``state`` (taken before it was hashed), hashes to ``key``.

    Best effort: a cache that cannot be written only costs the next question one hash.
    """
    path = _stamp_path(key, model_path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps({"key": key, "path": str(model_path), "files": state}, sort_keys=True),
                       encoding="utf-8")
        os.replace(tmp, path)  # readers see the old stamp or the new one, never half of one
    except OSError:
        tmp.unlink(missing_ok=True)


def model_matches(key: str, model_path: Path | str, recipe: dict, *, verify: bool = True) -> bool:
    """Whether the model folder still hashes to ``key`` with ``recipe`` (``model_key``).

    A few stats when its stamp says so; otherwise one hash of the folder (about 0.12 s), stamped
    for the next time. With ``verify`` False (no checksums) only a stamp can say so.
    """
    try:
        state = folder_state(model_path)
    except OSError:
        return False
    try:
        stamp = json.loads(_stamp_path(key, model_path).read_text(encoding="utf-8"))
        if isinstance(stamp, dict) and stamp.get("files") == state and stamp.get("key") == key:
            return True
    except (OSError, ValueError):
        pass  # no stamp, or an unreadable one: hash below
    if not verify:
        return False
    try:
        if model_key(model_path, recipe) != key:
            return False
    except OSError:
        return False
    stamp_model(key, model_path, state)  # the state taken before the hash
    return True


def forget_stamps(key: str) -> None:
    """Remove the stamps of the model folders that hash to ``key`` (its export was pruned)."""
    folder = encoders_root() / MODEL_STAMPS
    for path in folder.glob(f"{key}-*.json") if folder.is_dir() else ():
        path.unlink(missing_ok=True)


def _spec(info: dict) -> dict:
    """The export spec of a manifest record (the record without its key)."""
    return {k: v for k, v in info.items() if k != "key"}


def _record(directory: Path, key: str, spec: dict) -> dict[str, dict]:
    """The entry's file name -> {"sha256", "size"} from its record, checked against key and spec.

    Raises:
        QueryEncoderUnavailable: the entry or its record is missing, damaged or for another export.
    """
    if not directory.is_dir():
        raise QueryEncoderUnavailable(
            f"The ONNX query encoder {directory} is missing (pruned from the cache?); re-export it with: relnotes index"
        )
    path = directory / ENCODER_RECORD
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        files = record["files"]
        wanted = {spec["file"], spec["tokenizer"]}
        if record["key"] != key or record["spec"] != spec or set(files) != wanted:
            raise ValueError("made for another export")
        sizes = {name: (str(files[name]["sha256"]), int(files[name]["size"])) for name in wanted}
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        reason = "is missing" if isinstance(exc, FileNotFoundError) else "is damaged"
        raise QueryEncoderUnavailable(
            f"The ONNX query encoder record {path} {reason}; re-export it with: relnotes index"
        ) from None
    return {name: {"sha256": digest, "size": size} for name, (digest, size) in sizes.items()}


def open_entry(info: dict, *, verify: bool = True) -> Path:
    """The cache entry a manifest's ``query_encoder`` record names, checked like index files.

    Args:
        info: the manifest's ``model["query_encoder"]`` (the export spec and its ``key``).
        verify: check each file's sha256 (about 0.15 s); otherwise only that it is there.

    Raises:
        QueryEncoderUnavailable: the entry is missing, incomplete, damaged or fails a checksum.
    """
    key = info.get("key")
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise QueryEncoderUnavailable(f"The index's ONNX query encoder key {key!r} is damaged")
    directory = entry_dir(key)
    for name, expected in _record(directory, key, _spec(info)).items():
        path = directory / name
        if not path.is_file() or path.stat().st_size != expected["size"]:
            raise QueryEncoderUnavailable(
                f"Query encoder file {path} is missing or truncated; re-export it with: relnotes index"
            )
        if verify and sha256_file(path) != expected["sha256"]:
            raise QueryEncoderUnavailable(
                f"Query encoder file {path} fails its checksum (edited); "
                "re-export it with: relnotes index --rebuild"
            )
    return directory


def entry_present(info: dict) -> bool:
    """Whether the entry is there and complete (record and file sizes): no checksums, a few stats."""
    try:
        open_entry(info, verify=False)
    except QueryEncoderUnavailable:
        return False
    return True


def ensure_entry(key: str, spec: dict, write: Callable[[Path], None], *, about: dict | None = None) -> bool:
    """Make sure a complete, verified entry for ``key`` is in the cache, writing it when it is not.

    Args:
        key: ``model_key`` of the model and recipe.
        spec: the export spec (``index.encode.onnx_query.export_spec``); its ``file`` and ``tokenizer``
            name the files ``write`` puts in the directory it is given.
        write: fills a temporary directory with the exported files (and checks them).
        about: informational fields for the record (the model's name and path).

    Returns:
        True when this call wrote the entry, False when a complete one was already there.

    Raises:
        IndexWriteError, IndexBusy: the cache folder is not writable or stays locked.
        Whatever ``write`` raises; the temporary directory is removed and the old entry kept.
    """
    directory = entry_dir(key)
    info = {**spec, "key": key}
    with build_lock(directory):  # the second of two racing builders waits here, then reuses
        recover(directory)  # litter of an export killed hard
        try:
            open_entry(info)
            return False
        except QueryEncoderUnavailable:
            pass  # missing or damaged: write a new one (a damaged one is swapped out)
        tmp = make_tmp(directory)
        try:
            write(tmp)
            files = {name: {"sha256": sha256_file(tmp / name), "size": (tmp / name).stat().st_size}
                     for name in (spec["file"], spec["tokenizer"])}
            record = {"key": key, "spec": spec, "files": files, **(about or {}),
                      "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
            (tmp / ENCODER_RECORD).write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            fsync_tree(tmp)
            swap_into_place(tmp, directory)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return True
