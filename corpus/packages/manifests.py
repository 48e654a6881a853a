"""The dependencies a project declares: pyproject.toml ([project] dependencies and
optional-dependencies, [dependency-groups], [tool.poetry] dependencies and groups),
requirements*.txt (following ``-r`` includes) and package.json (dependencies,
devDependencies, optionalDependencies), each with an exact pin when the file gives one."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

from ..errors import ProjectError
from ..regex import lazy_compile
from .model import Ecosystem, normalized

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: no TOML reader in the standard library
    tomllib = None

NPM_EXACT = lazy_compile(r"^[=v]?(\d+\.\d+\.\d+(?:-[\w.]+)?(?:\+[\w.]+)?)$")
NPM_NOT_REGISTRY = ("file:", "link:", "workspace:", "git", "http:", "https:", "github:", "npm:", "portal:")
POETRY_EXACT = lazy_compile(r"^={0,2}\s*(\d[\w.+!-]*)$")


@dataclass(frozen=True, slots=True)
class Declared:
    """A dependency as one project file declares it."""

    ecosystem: Ecosystem
    name: str
    requirement: str
    exact: str | None  # the version when the file pins exactly (``==1.26.15``)
    file: str  # relative to the project folder


def load_toml(path: Path) -> dict | None:
    """A TOML file's table, None when absent.

    Raises:
        ProjectError: it does not parse (or no TOML reader: Python 3.10).
    """
    if not path.is_file():
        return None
    if tomllib is None:
        raise ProjectError(f"{path}: reading TOML needs Python 3.11 or later; run relnotes on Python 3.11+")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ProjectError(f"{path}: not readable TOML ({exc}); fix the file, then run the command again") from None


def pep508(text: str, file: str) -> Declared | None:
    """One requirement string; None for one that names no index package (a URL, a path)."""
    try:
        req = Requirement(text)
    except InvalidRequirement:
        return None
    if req.url:
        return None
    specs = list(req.specifier)
    exact = specs[0].version if len(specs) == 1 and specs[0].operator in ("==", "===") and "*" not in specs[0].version \
        else None
    return Declared("pypi", req.name, str(req.specifier), exact, file)


def from_pyproject(folder: Path) -> list[Declared]:
    data = load_toml(folder / "pyproject.toml") or {}
    found: list[Declared] = []
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    strings = list(project.get("dependencies") or [])
    for extra in (project.get("optional-dependencies") or {}).values():
        strings += list(extra or [])
    for group in (data.get("dependency-groups") or {}).values():
        strings += [g for g in group or [] if isinstance(g, str)]  # {include-group = ...} names another group
    found += [d for s in strings if isinstance(s, str) and (d := pep508(s, "pyproject.toml"))]
    poetry = (data.get("tool") or {}).get("poetry") or {}
    tables = [poetry.get("dependencies") or {}, poetry.get("dev-dependencies") or {}]
    tables += [(g or {}).get("dependencies") or {} for g in (poetry.get("group") or {}).values()]
    for table in tables:
        for name, spec in table.items():
            if name.lower() == "python":
                continue
            version = spec.get("version") if isinstance(spec, dict) else spec
            if isinstance(spec, dict) and ("path" in spec or "git" in spec or "url" in spec):
                continue
            version = version if isinstance(version, str) else ""
            exact = POETRY_EXACT.match(version.strip())
            found.append(Declared("pypi", name, version, exact.group(1) if exact else None, "pyproject.toml"))
    return found


def from_requirements(folder: Path) -> list[Declared]:
    files = sorted(folder.glob("requirements*.txt")) + sorted((folder / "requirements").glob("*.txt"))
    found: list[Declared] = []
    seen: set[Path] = set()
    for path in files:
        found += _requirements_file(path, folder, seen)
    return found


def _requirements_file(path: Path, folder: Path, seen: set[Path]) -> list[Declared]:
    resolved = path.resolve()
    if resolved in seen or not path.is_file():
        return []
    seen.add(resolved)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ProjectError(f"{path}: not readable ({exc}); fix the file, then run the command again") from None
    name = _relative(path, folder)
    found: list[Declared] = []
    for line in lines:
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        include = re.match(r"^(-r|--requirement)[\s=]+(\S+)", line)
        if include:
            found += _requirements_file(path.parent / include.group(2), folder, seen)
        elif line and not line.startswith("-"):
            declared = pep508(line, name)
            if declared:
                found.append(declared)
    return found


def _relative(path: Path, folder: Path) -> str:
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return str(path)


def from_package_json(folder: Path) -> list[Declared]:
    path = folder / "package.json"
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ProjectError(f"{path}: not readable JSON ({exc}); fix the file, then run the command again") from None
    found = []
    for table in ("dependencies", "devDependencies", "optionalDependencies"):
        entries = data.get(table) if isinstance(data, dict) else None
        for name, spec in (entries or {}).items() if isinstance(entries, dict) else ():
            spec = spec if isinstance(spec, str) else ""
            if spec.startswith(NPM_NOT_REGISTRY):
                continue
            exact = NPM_EXACT.match(spec.strip())
            found.append(Declared("npm", name, spec, exact.group(1) if exact else None, "package.json"))
    return found


def declared(folder: Path) -> tuple[list[Declared], dict[tuple[str, str], list[str]]]:
    """Every dependency the project files declare, one entry per package (the first file's
    requirement; the first exact pin found wins, with its file), and the files naming each."""
    merged: dict[tuple[str, str], Declared] = {}
    files: dict[tuple[str, str], list[str]] = {}
    for entry in from_pyproject(folder) + from_requirements(folder) + from_package_json(folder):
        key = (entry.ecosystem, normalized(entry.ecosystem, entry.name))
        files.setdefault(key, [])
        if entry.file not in files[key]:
            files[key].append(entry.file)
        first = merged.get(key)
        if first is None or (first.exact is None and entry.exact is not None):
            merged[key] = entry if first is None else Declared(first.ecosystem, first.name, first.requirement or
                                                               entry.requirement, entry.exact, entry.file)
    return [merged[k] for k in merged], files


def project_identity(folder: Path) -> tuple[str | None, str | None]:
    """The name and version a folder's pyproject.toml ([project]) or package.json gives, where given."""
    project = (load_toml(folder / "pyproject.toml") or {}).get("project")
    if isinstance(project, dict) and isinstance(project.get("name"), str):
        version = project.get("version")
        return project["name"], version if isinstance(version, str) else None
    try:
        data = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        return None, None
    return data["name"], data.get("version") if isinstance(data.get("version"), str) else None
