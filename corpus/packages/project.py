"""A project's dependencies with their pins, and with the notes fetched for them (``Project``).

The pin of a dependency is the version the project is on: the lockfile's resolved version, else
an exact pin in the project file, else the version installed in the project's own environment,
else none (said, never guessed). ``open_project`` joins them with the notes ``relnotes add
--project`` remembered, with no network.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..errors import NothingFetched, ProjectError
from . import store
from .lockfiles import installed, locked
from .manifests import declared
from .model import Dependency, Project, normalized

PROJECT_FILES = ("pyproject.toml", "requirements*.txt", "requirements/*.txt", "package.json", "uv.lock",
                 "poetry.lock", "Pipfile.lock", "package-lock.json")


def read_dependencies(folder: Path) -> tuple[Dependency, ...]:
    """The dependencies ``folder``'s project files declare, each with its pin and where it came from.

    A lockfile that names packages no project file declares (a Pipfile.lock alone) gives the
    dependencies itself.

    Raises:
        ProjectError: ``folder`` is not a folder, holds no dependency file, or one that does not parse.
    """
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise ProjectError(f"{folder}: no such project folder; give the folder holding pyproject.toml, "
                           "requirements.txt or package.json")
    entries, files = declared(folder)
    lock, env = locked(folder), installed(folder)
    if not entries and not lock:
        raise ProjectError(f"{folder}: no dependencies found (looked for {', '.join(PROJECT_FILES)}); "
                           "give the folder of a Python or npm project")
    found = []
    for entry in entries:
        key = (entry.ecosystem, normalized(entry.ecosystem, entry.name))
        dependency = Dependency(entry.ecosystem, entry.name, entry.requirement, tuple(files[key]))
        if key in lock:
            dependency = replace(dependency, pin=lock[key][0], pin_source="lockfile", pin_file=lock[key][1])
        elif entry.exact:
            dependency = replace(dependency, pin=entry.exact, pin_source="project file", pin_file=entry.file)
        elif key in env:
            dependency = replace(dependency, pin=env[key][0], pin_source="installed", pin_file=env[key][1])
        found.append(dependency)
    if not entries:  # a lockfile alone: what it resolved is what the project uses
        found = [Dependency(eco, key, "", (source,), version, "lockfile", source)
                 for (eco, key), (version, source) in lock.items() if source == "Pipfile.lock"
                 or source == "package-lock.json"]
        if not found:
            raise ProjectError(f"{folder}: a lockfile but no project file declaring dependencies; give the folder "
                               "holding pyproject.toml, requirements.txt or package.json")
    return tuple(found)


def open_project(folder: Path) -> Project:
    """The project in ``folder`` with each dependency's pin and the notes ``relnotes add --project``
    fetched for it; no network.

    Raises:
        ProjectError: as ``read_dependencies``.
        NothingFetched: no notes were fetched for this project yet.
    """
    folder = Path(folder).expanduser().resolve()
    dependencies = read_dependencies(folder)
    memory = {(e["ecosystem"], normalized(e["ecosystem"], e["name"])): e for e in store.read_project_memory(folder)}
    if not memory:
        raise NothingFetched(f"No release notes fetched for the project {folder} yet; fetch them with: "
                             f"relnotes add --project {folder}")
    return Project(folder, tuple(_with_notes(d, memory.get((d.ecosystem, d.key)), folder) for d in dependencies))


def _with_notes(dependency: Dependency, entry: dict | None, folder: Path) -> Dependency:
    if entry is None:
        return dependency  # declared since the last fetch: "not fetched"
    record = store.find(entry["ecosystem"], entry["name"], entry.get("version")) if entry.get("version") else None
    if record is None:
        status = "failed" if entry.get("status") == "failed" else "not fetched"
        return replace(dependency, status=status, problem=str(entry.get("problem") or ""))
    return replace(dependency, notes=record, status="found" if record.shipped else "not shipped",
                   problem=str(entry.get("problem") or ""))


def project_memory_entry(dependency: Dependency) -> dict:
    """What ``store.remember_project`` keeps of a dependency after a fetch."""
    notes = dependency.notes
    return {"ecosystem": dependency.ecosystem, "name": notes.name if notes else dependency.name,
            "version": notes.version if notes else None, "status": dependency.status, "problem": dependency.problem}
