"""Shared fixtures: every test gets its own HOME and cache directories, and no network."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


NETWORK_ATTEMPTS: list[str] = []
_LOCAL_FAMILIES = tuple(f for f in (getattr(socket, "AF_UNIX", None),) if f is not None)


class NetworkAccessError(AssertionError):
    """A test (or the code under test) tried to open a network connection."""


_REAL = type("Real", (), {"connect": socket.socket.connect, "connect_ex": socket.socket.connect_ex,
                          "create_connection": staticmethod(socket.create_connection)})


LOOPBACK = ("127.0.0.1", "::1", "localhost")  # servers in tests bind here (the HTTP API's tests)
_LOOPBACK_ALLOWED: list[bool] = [False]  # set by the ``loopback`` fixture, for the test that uses it


def _loopback(address) -> bool:
    return _LOOPBACK_ALLOWED[0] and isinstance(address, tuple) and bool(address) and address[0] in LOOPBACK


def _deny(what: str):
    def deny(*args, **kwargs):
        sock = args[0] if args and isinstance(args[0], socket.socket) else None
        if sock is not None and (sock.family in _LOCAL_FAMILIES or _loopback(args[1] if len(args) > 1 else None)):
            return getattr(_REAL, what)(*args, **kwargs)  # local IPC or a loopback server: not the network
        if sock is None and what == "create_connection" and args and _loopback(args[0]):
            return _REAL.create_connection(*args, **kwargs)
        NETWORK_ATTEMPTS.append(f"{what}{args[1:] if sock is not None else args!r}")
        raise NetworkAccessError(f"network access during tests: {what}{args!r}; relnotes must work offline")

    return deny


@pytest.fixture(autouse=True, scope="session")
def _no_network_session():
    """socket connect / connect_ex / create_connection raise for the whole session (fixtures included)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket.socket, "connect", _deny("connect"))
        mp.setattr(socket.socket, "connect_ex", _deny("connect_ex"))
        mp.setattr(socket, "create_connection", _deny("create_connection"))
        yield


@pytest.fixture
def loopback():
    """Let this test connect to servers on 127.0.0.1 / ::1 (a real uvicorn it started); any
    other address is still refused."""
    before, _LOOPBACK_ALLOWED[0] = _LOOPBACK_ALLOWED[0], True
    yield
    _LOOPBACK_ALLOWED[0] = before


@pytest.fixture(scope="module")
def loopback_module():
    """``loopback`` for a module's fixtures and tests (a server its tests share)."""
    before, _LOOPBACK_ALLOWED[0] = _LOOPBACK_ALLOWED[0], True
    yield
    _LOOPBACK_ALLOWED[0] = before


@pytest.fixture(autouse=True)
def _no_network(_no_network_session):
    """Fail the test in which any connection was attempted, even if the code swallowed the error."""
    yield
    attempts, NETWORK_ATTEMPTS[:] = list(NETWORK_ATTEMPTS), []
    if attempts:
        pytest.fail(f"network access attempted: {attempts}", pytrace=False)


@pytest.fixture(scope="session")
def shared_encoders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's ONNX query encoder cache (``encoders/``), linked into every test's cache.

    A user's cache keeps one export per model for all their indexes; sharing it across tests
    does the same: the bundled model is exported once per session, and every test that asks
    ``bundled_index`` a question finds the export (an empty cache would make ``open_index``
    export it again, with a notice). A test that damages or prunes the cache uses a private one.
    """
    return tmp_path_factory.mktemp("encoders")


def link_encoders(cache_home: Path, shared: Path) -> None:
    """Make ``cache_home``/relnotes-qa/encoders the shared encoder cache."""
    (cache_home / "relnotes-qa").mkdir(parents=True, exist_ok=True)
    (cache_home / "relnotes-qa" / "encoders").symlink_to(shared, target_is_directory=True)


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, shared_encoders: Path
) -> None:
    """Point HOME and the XDG directories at a temporary folder, so no test touches the user's."""
    home = tmp_path_factory.mktemp("home")
    link_encoders(home / ".cache", shared_encoders)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("RELNOTES_HISTORY", raising=False)  # the question history goes to XDG_DATA_HOME


@pytest.fixture(scope="session")
def bundled_index(tmp_path_factory: pytest.TempPathFactory, shared_encoders: Path) -> Path:
    """The bundled corpus indexed once with the real model (about half a minute on 2 cores); its
    ONNX query encoder goes to the shared encoder cache."""
    from click.testing import CliRunner

    from qa.cli import cli

    directory = tmp_path_factory.mktemp("bundled") / "idx"
    cache = tmp_path_factory.mktemp("bundled-cache")
    link_encoders(cache, shared_encoders)
    with pytest.MonkeyPatch.context() as mp:  # session fixtures set up before the per-test HOME
        mp.setenv("XDG_CACHE_HOME", str(cache))
        result = CliRunner().invoke(cli, ["index", "--index", str(directory), "--quiet"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Indexed 4 documents, ")
    return directory


@pytest.fixture(scope="session")
def engine(bundled_index: Path):
    """The engine over the bundled index (the model loads on first dense use)."""
    from index.retrieve.reader import LoadedIndex
    from qa.answer.engine import Engine

    return Engine(LoadedIndex(bundled_index))
