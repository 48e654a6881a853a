"""Fixtures of the web page's tests: a headless Chromium, servers shared by a module's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import link_encoders
from tests.support.browser import Browser, chromium
from tests.support.serving import serving

NO_CHROMIUM = "no chromium on this machine (.ci/run installs Debian's: apt-get install chromium)"


@pytest.fixture
def browser():
    """A fresh headless Chromium (its own profile), closed after the test."""
    if chromium() is None:
        pytest.skip(NO_CHROMIUM)
    with Browser() as started:
        yield started


@pytest.fixture(scope="module")
def module_home(tmp_path_factory: pytest.TempPathFactory, shared_encoders: Path):
    """HOME and the XDG folders of a server a module's tests share (the per-test ones come later)."""
    home = tmp_path_factory.mktemp("web-home")
    link_encoders(home / ".cache", shared_encoders)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        for name, folder in (("XDG_CACHE_HOME", ".cache"), ("XDG_DATA_HOME", ".local/share"),
                             ("XDG_CONFIG_HOME", ".config")):
            mp.setenv(name, str(home / folder))
        yield home


@pytest.fixture(scope="module")
def bundled_server(bundled_index: Path, module_home: Path, loopback_module) -> str:
    """``relnotes serve`` on the bundled notes (loopback, no token), for every test of a module."""
    if chromium() is None:
        pytest.skip(NO_CHROMIUM)
    with serving("--index", str(bundled_index)) as base:
        yield base
