"""Which package index to ask: the one the user's pip or npm already uses.

Nothing here names an index: PyPI's URL comes from ``PIP_INDEX_URL``, else pip's configuration
(``pip config list``: every file pip reads), else the default pip documents in its own help
(``pip install --help``: "Base URL of the Python Package Index (default ...)"). npm's comes from
``npm_config_registry``, else a ``registry=`` line of the project's or the user's ``.npmrc``,
else ``npm config get registry``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from ..errors import NoIndexConfigured

PIP_TIMEOUT = 60  # seconds for one pip or npm call (pip's first run in a fresh venv is slow)


def _run(command: list[str]) -> str:
    """What ``command`` prints on stdout; "" when it cannot run or fails."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode == 0 else ""


def _pip(*args: str) -> str:
    return _run([sys.executable, "-m", "pip", *args])


def pip_config() -> dict[str, str]:
    """pip's settings as ``pip config list`` prints them (``global.index-url`` -> value)."""
    found = {}
    for line in _pip("config", "list").splitlines():
        key, sep, value = line.partition("=")
        if sep:
            found[key.strip()] = value.strip().strip("'\"")
    return found


def pip_default_index() -> str | None:
    """The index pip uses when nothing is configured, as its own help documents it."""
    text = " ".join(_pip("install", "--help").split())
    match = re.search(r"--index-url <url> Base URL of the Python Package Index \(default (\S+?)\)", text)
    return match.group(1) if match else None


def pypi_indexes(index_url: str | None = None) -> tuple[str, ...]:
    """The PyPI-style indexes to ask, the main one first, then pip's extra indexes.

    ``index_url`` (``--index-url``) overrides everything and is the only one asked; with
    ``PIP_INDEX_URL`` set, the environment alone says (``PIP_EXTRA_INDEX_URL`` for extras).

    Raises:
        NoIndexConfigured: pip has no index URL and cannot be asked for its default.
    """
    if index_url:
        return (index_url,)
    main = os.environ.get("PIP_INDEX_URL", "").strip()
    extras = os.environ.get("PIP_EXTRA_INDEX_URL", "").split()
    if not main:  # pip's files (and its default) only when the environment does not say
        config = pip_config()
        for scope in ("download", "install", "global"):
            main = main or config.get(f"{scope}.index-url", "")
            extras = extras or config.get(f"{scope}.extra-index-url", "").split()
    main = main or pip_default_index() or ""
    if not main:
        raise NoIndexConfigured("No Python package index found: pip has none configured and could not be asked "
                                "for its default; pass --index-url URL or set PIP_INDEX_URL")
    return (main, *[e for e in extras if e != main])


def _npmrc_registry(path: Path) -> str | None:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for line in lines:
        key, sep, value = line.partition("=")
        if sep and key.strip() == "registry" and value.strip():
            return value.strip()
    return None


def npm_registry(registry: str | None = None, project: Path | None = None) -> str:
    """The npm registry to ask: ``registry`` (``--registry``), ``npm_config_registry``, the
    project's then the user's ``.npmrc``, else what ``npm config get registry`` says.

    Raises:
        NoIndexConfigured: none of these gives one (npm is not installed and nothing is set).
    """
    found = (registry or os.environ.get("npm_config_registry") or os.environ.get("NPM_CONFIG_REGISTRY")
             or (project and _npmrc_registry(project / ".npmrc")) or _npmrc_registry(Path.home() / ".npmrc")
             or _run(["npm", "config", "get", "registry"]).strip())
    if not found or not found.startswith(("http://", "https://")):
        raise NoIndexConfigured("No npm registry found: npm is not installed and none is set; pass --registry URL "
                                "or set npm_config_registry")
    return found
