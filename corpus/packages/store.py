"""The notes store in the user cache: one folder per package and version, and what each project uses.

    <cache>/notes/<ecosystem>/<package>/<version>/record.json    where the notes came from
    <cache>/notes/<ecosystem>/<package>/<version>/files/...      the notes files, as in the archive
    <cache>/projects/<key>.json                                  a project's dependencies and their notes

``<cache>`` is the user cache folder of relnotes (platformdirs, as the indexes'). A version's
folder is written beside the others under a temporary name and renamed into place, so a failed
fetch leaves what was fetched before as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import asdict
from pathlib import Path, PurePosixPath

from packaging.version import InvalidVersion, Version

from ..regex import lazy_compile
from .model import Archive, NotesFile, NotesRecord, Skipped, Tried, normalized
from .pick import RULES

FORMAT = 1
RECORD = "record.json"
SAFE = lazy_compile(r"^[A-Za-z0-9][A-Za-z0-9.+!_-]*$")


def cache_home() -> Path:
    """The user cache folder of relnotes (platformdirs), where ``notes/`` and ``projects/`` live."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("relnotes-qa", appauthor=False))


def package_folder(ecosystem: str, name: str) -> Path:
    """The folder of a package's fetched versions (``@scope/name`` becomes ``@scope+name``)."""
    return cache_home() / "notes" / ecosystem / normalized(ecosystem, name).replace("/", "+")


def _safe_version(version: str) -> str:
    if not SAFE.match(version) or version in (".", ".."):
        raise ValueError(f"not a version a folder can be named after: {version!r}")
    return version


def read_record(folder: Path) -> NotesRecord | None:
    """The record of a version folder; None when missing or unreadable (then it counts as not fetched)."""
    try:
        data = json.loads((folder / RECORD).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            return None
        return NotesRecord(
            data["ecosystem"], data["name"], data["version"], folder, data["index_url"], data["file_url"],
            data["hash_name"], data["hash_value"], data["fetched"],
            tuple(NotesFile(f["path"], f["member"], f.get("sha256", "")) for f in data.get("files", ())),
            tuple(Skipped(s["member"], s["why"]) for s in data.get("skipped", ())), data.get("changelog_url"),
            int(data.get("rules", 0)), data.get("source", "archive"),
            tuple(Tried(t["source"], t["why"], bool(t.get("failed"))) for t in data.get("tried", ())), data.get("etag"),
            int(data.get("chain", 0)))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def fetched_versions(ecosystem: str, name: str) -> list[NotesRecord]:
    """Every version of a package fetched so far, oldest first."""
    folder = package_folder(ecosystem, name)
    if not folder.is_dir():
        return []
    records = [r for p in folder.iterdir() if not p.name.startswith(".") and (r := read_record(p))]
    return sorted(records, key=lambda r: _order(r.version))


def _order(version: str):
    try:
        return (1, Version(version), version)
    except InvalidVersion:
        return (0, None, version)


def find(ecosystem: str, name: str, version: str | None = None) -> NotesRecord | None:
    """The record of ``version`` (None: the newest fetched), or None when not fetched."""
    records = fetched_versions(ecosystem, name)
    if version is None:
        return records[-1] if records else None
    return next((r for r in records if r.version == version), None)


def write_version(archive: Archive, files: list[tuple[NotesFile, bytes]], skipped: list[Skipped],
                  fetched: str, *, source: str = "archive", tried: tuple[Tried, ...] = (), etag: str | None = None,
                  chain: int = 0) -> NotesRecord:
    """Keep ``files`` as the notes of ``archive``'s package and version, replacing an earlier copy
    of that version only once the new one is complete. ``archive`` is where the notes came from: the
    source archive, or for another ``source`` the URL it read and the hash of what it kept."""
    parent = package_folder(archive.ecosystem, archive.name)
    parent.mkdir(parents=True, exist_ok=True)
    final = parent / _safe_version(archive.version)
    staging = Path(tempfile.mkdtemp(prefix=f".{archive.version}.tmp-", dir=parent))
    try:
        for kept, data in files:
            target = _inside(staging / "files", kept.path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        (staging / "files").mkdir(exist_ok=True)
        record = NotesRecord(archive.ecosystem, archive.name, archive.version, final, archive.index_url, archive.url,
                             archive.hash_name, archive.hash_value, fetched, tuple(f for f, _ in files),
                             tuple(skipped), archive.changelog_url, RULES, source, tuple(tried), etag, chain)
        (staging / RECORD).write_text(json.dumps(_as_json(record), indent=1, ensure_ascii=False), encoding="utf-8")
        old = None
        if final.exists():
            old = parent / f".{archive.version}.old-{os.getpid()}"
            os.replace(final, old)
        os.replace(staging, final)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        return record
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _inside(root: Path, relative: str) -> Path:
    """``root / relative``, refusing a path that would leave ``root`` (checked again here, after the archive)."""
    parts = PurePosixPath(relative).parts
    if not parts or PurePosixPath(relative).is_absolute() or ".." in parts:
        raise ValueError(f"a notes path must stay inside its folder: {relative!r}")
    return root.joinpath(*parts)


def _as_json(record: NotesRecord) -> dict:
    data = asdict(record)
    data.pop("folder")
    return {"format": FORMAT, **data}


def project_file(directory: Path) -> Path:
    """Where the notes a project uses are remembered (one file per project folder)."""
    key = hashlib.sha256(str(directory.resolve()).encode("utf-8")).hexdigest()[:16]
    return cache_home() / "projects" / f"{key}.json"


def remember_project(directory: Path, entries: list[dict], updated: str) -> Path:
    """Record, for ``directory``, each dependency's notes (``ecosystem``, ``name``, ``version``,
    ``status``, ``problem``); entries of packages not in ``entries`` are kept as they were."""
    path = project_file(directory)
    known = {(e["ecosystem"], normalized(e["ecosystem"], e["name"])): e for e in read_project_memory(directory)}
    for entry in entries:
        key = (entry["ecosystem"], normalized(entry["ecosystem"], entry["name"]))
        if entry.get("status") == "failed" and key in known:  # a failed fetch keeps the notes fetched before
            entry = {**known[key], "problem": entry.get("problem", "")}
        known[key] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": FORMAT, "directory": str(directory.resolve()), "updated": updated, "packages": list(known.values())}
    handle, temporary = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=1, ensure_ascii=False)
    os.replace(temporary, path)
    return path


def read_project_memory(directory: Path) -> list[dict]:
    """What ``remember_project`` recorded for ``directory`` ([] when nothing yet)."""
    try:
        data = json.loads(project_file(directory).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    packages = data.get("packages") if isinstance(data, dict) and data.get("format") == FORMAT else None
    return [p for p in packages or () if isinstance(p, dict) and {"ecosystem", "name"} <= set(p)]
