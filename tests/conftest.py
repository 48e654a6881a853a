"""Shared fixtures: every test gets its own HOME and cache directories."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point HOME and the XDG directories at a temporary folder, so no test touches the user's."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))


@pytest.fixture(scope="session")
def bundled_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled corpus indexed once with the real model (about half a minute on 2 cores)."""
    from click.testing import CliRunner

    from qa.cli import cli

    directory = tmp_path_factory.mktemp("bundled") / "idx"
    result = CliRunner().invoke(cli, ["index", "--index", str(directory), "--quiet"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Indexed 4 documents, ")
    return directory


@pytest.fixture(scope="session")
def engine(bundled_index: Path):
    """The engine over the bundled index (the model loads on first dense use)."""
    from index.reader import LoadedIndex
    from qa.engine import Engine

    return Engine(LoadedIndex(bundled_index))
