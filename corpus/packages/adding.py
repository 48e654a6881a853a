"""``relnotes add``'s work, without the printing: packages or a project's dependencies fetched
one by one (a failure is that package's outcome, never the end of the run), then the project's
notes remembered."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Literal

from ..errors import PackageError
from ..regex import lazy_compile
from . import store
from .fetch import MAX_ARCHIVE_BYTES, fetch, fetch_local, local_identity, now
from .model import Dependency, PackageRef, Project
from .project import project_memory_entry, read_dependencies
from .settings import npm_registry, pypi_indexes

Action = Literal["fetched", "up to date", "failed"]
NAMES = {"pypi": lazy_compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$"), "npm": lazy_compile(r"^(@[\w.-]+/)?[\w.-]+$")}
VERSION = lazy_compile(r"^[\w.+!-]+$")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What happened to one package: its dependency entry (notes and status set) and the action."""

    dependency: Dependency
    action: Action

    @property
    def summary(self) -> str:
        """``found``, ``not shipped`` or ``failed`` (the run's summary counts these)."""
        return "failed" if self.action == "failed" else self.dependency.status


def parse_spec(spec: str) -> PackageRef:
    """``flask``, ``flask==3.0.0``, ``npm:left-pad``, ``npm:@scope/pkg==1.2.3`` (or ``@1.2.3``).

    Raises:
        ValueError: not a package name with an optional version.
    """
    ecosystem = "npm" if spec.startswith("npm:") else "pypi"
    text = spec[4:] if ecosystem == "npm" else spec.removeprefix("pypi:")
    name, version = text, ""
    if "==" in text:
        name, version = text.split("==", 1)
    elif ecosystem == "npm" and "@" in text[1:]:
        name, version = text[0] + text[1:].rsplit("@", 1)[0], text[1:].rsplit("@", 1)[1]
    if not NAMES[ecosystem].match(name) or (version and not VERSION.match(version)):
        raise ValueError(f"expected NAME, NAME==VERSION, npm:NAME or a local archive or folder, not {spec!r}")
    return PackageRef(ecosystem, name, version or None)


class Indexes:
    """The indexes to ask, found on first need (a run of npm packages never asks pip)."""

    def __init__(self, index_url: str | None, registry: str | None, project: Path | None = None) -> None:
        self._given = (index_url, registry)
        self._project = project
        self._found: dict[str, tuple[str, ...]] = {}

    def __call__(self, ecosystem: str) -> tuple[str, ...]:
        if ecosystem not in self._found:
            index_url, registry = self._given
            self._found[ecosystem] = (pypi_indexes(index_url) if ecosystem == "pypi"
                                      else (npm_registry(registry, self._project),))
        return self._found[ecosystem]


def add_one(dependency: Dependency, indexes: Indexes, limit: int = MAX_ARCHIVE_BYTES,
            version: str | None = None) -> Outcome:
    """Fetch one dependency's notes (its newest release, or ``version``); a failure is its outcome."""
    ref = PackageRef(dependency.ecosystem, dependency.name, version)
    try:
        done = fetch(ref, indexes(dependency.ecosystem), limit=limit)
    except PackageError as exc:
        return Outcome(replace(dependency, status="failed", problem=str(exc)), "failed")
    record = done.record
    return Outcome(replace(dependency, notes=record, status="found" if record.shipped else "not shipped"), done.action)


def add_packages(specs: list[str], indexes: Indexes, report: Callable[[Outcome, int, int], None] | None = None,
                 limit: int = MAX_ARCHIVE_BYTES) -> tuple[Outcome, ...]:
    """Fetch each of ``specs`` (``parse_spec``'s forms, or a local archive or folder)."""
    outcomes = []
    for number, spec in enumerate(specs, 1):
        path = Path(spec).expanduser()
        if path.exists():
            outcome = _add_local(path)
        else:
            ref = parse_spec(spec)
            outcome = add_one(Dependency(ref.ecosystem, ref.name), indexes, limit, ref.version)
        outcomes.append(outcome)
        if report:
            report(outcome, number, len(specs))
    return tuple(outcomes)


def _add_local(path: Path) -> Outcome:
    name, version = local_identity(path)
    dependency = Dependency("pypi", name)
    try:
        record = fetch_local(path, name, version).record
    except PackageError as exc:
        return Outcome(replace(dependency, status="failed", problem=str(exc)), "failed")
    return Outcome(replace(dependency, notes=record, status="found" if record.shipped else "not shipped"), "fetched")


def add_project(folder: Path, indexes: Indexes, report: Callable[[Outcome, int, int], None] | None = None,
                limit: int = MAX_ARCHIVE_BYTES) -> tuple[Project, tuple[Outcome, ...]]:
    """Fetch the notes of every dependency of the project in ``folder`` and remember them as the
    project's corpus; a package that fails keeps the notes fetched for it before.

    Raises:
        ProjectError: as ``project.read_dependencies``.
    """
    folder = Path(folder).expanduser().resolve()
    dependencies = read_dependencies(folder)
    outcomes = []
    for number, dependency in enumerate(dependencies, 1):
        outcomes.append(add_one(dependency, indexes, limit))
        if report:
            report(outcomes[-1], number, len(dependencies))
    store.remember_project(folder, [project_memory_entry(o.dependency) for o in outcomes], now())
    return Project(folder, tuple(o.dependency for o in outcomes)), tuple(outcomes)
