"""The versions a project resolved: lockfiles (uv.lock, poetry.lock, Pipfile.lock,
package-lock.json) and, failing those, what is installed in the project's own environment
(``.venv``/``venv`` ``*.dist-info`` folders, ``node_modules/NAME/package.json``)."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import ProjectError
from ..regex import lazy_compile
from .manifests import load_toml
from .model import normalized

Versions = dict[tuple[str, str], tuple[str, str]]  # (ecosystem, normalized name) -> (version, file)
DIST_INFO = lazy_compile(r"^(?P<name>.+?)-(?P<version>[^-]+)\.dist-info$")
ENVIRONMENTS = (".venv", "venv", "env")


def locked(folder: Path) -> Versions:
    """The resolved version of every package the project's lockfiles name."""
    found: Versions = {}
    for name in ("uv.lock", "poetry.lock"):
        data = load_toml(folder / name) or {}
        for package in data.get("package") or ():
            if isinstance(package, dict) and isinstance(package.get("name"), str) and isinstance(
                    package.get("version"), str):
                found.setdefault(("pypi", normalized("pypi", package["name"])), (package["version"], name))
    pipfile = _json(folder / "Pipfile.lock")
    for section in ("default", "develop"):
        for name, entry in ((pipfile or {}).get(section) or {}).items():
            version = entry.get("version", "") if isinstance(entry, dict) else ""
            if version.startswith("=="):
                found.setdefault(("pypi", normalized("pypi", name)), (version[2:], "Pipfile.lock"))
    lock = _json(folder / "package-lock.json") or {}
    for path, entry in (lock.get("packages") or {}).items():
        name = path.rpartition("node_modules/")[2]
        if path.count("node_modules/") == 1 and isinstance(entry, dict) and isinstance(entry.get("version"), str):
            found.setdefault(("npm", normalized("npm", entry.get("name") or name)), (entry["version"], "package-lock.json"))
    for name, entry in (lock.get("dependencies") or {}).items():  # lockfileVersion 1
        if isinstance(entry, dict) and isinstance(entry.get("version"), str):
            found.setdefault(("npm", normalized("npm", name)), (entry["version"], "package-lock.json"))
    return found


def _json(path: Path) -> dict | None:
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ProjectError(f"{path}: not readable JSON ({exc}); fix the file, then run the command again") from None
    return data if isinstance(data, dict) else None


def installed(folder: Path) -> Versions:
    """The version of every package installed in the project's own environment (its ``.venv``,
    ``venv`` or ``env`` folder, and ``node_modules``), read from folder names and package.json files."""
    found: Versions = {}
    for env in ENVIRONMENTS:
        for site in sorted((folder / env).glob("lib*/python*/site-packages")) + [folder / env / "Lib" / "site-packages"]:
            if not site.is_dir():
                continue
            for entry in site.iterdir():
                match = DIST_INFO.match(entry.name)
                if match:
                    found.setdefault(("pypi", normalized("pypi", match["name"])), (match["version"], f"{env}/"))
    modules = folder / "node_modules"
    if modules.is_dir():
        for manifest in list(modules.glob("*/package.json")) + list(modules.glob("@*/*/package.json")):
            data = _json_or_none(manifest)
            if data and isinstance(data.get("name"), str) and isinstance(data.get("version"), str):
                found.setdefault(("npm", normalized("npm", data["name"])), (data["version"], "node_modules/"))
    return found


def _json_or_none(path: Path) -> dict | None:
    try:
        return _json(path)
    except ProjectError:  # a broken installed package.json is not the project's file: skip it
        return None
