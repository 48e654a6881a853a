"""The ``initialize`` reply ``relnotes mcp`` writes before the SDK has loaded (``qa.mcp.handshake``):
the SDK's own, for every protocol version; written while the SDK and anything heavy cannot load;
and then a session that works as any other, through the real MCP client."""

from __future__ import annotations

import io
import json
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, MODERN_PROTOCOL_VERSIONS

from qa.mcp import handshake
from qa.mcp.server import build_server
from qa.serving.background import BackgroundService
from tests.mcp.test_mcp_server import TOOLS, server_env
from tests.support.paths import DATA, REPO

WAIT = 120  # seconds a test waits for a line from a server before it fails (a busy machine is slow, not stuck)


def initialize(version: str, request_id: int | str = 0, **capabilities) -> bytes:
    """An ``initialize`` request line asking ``version``, as a client sends it."""
    return (json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": capabilities, "clientInfo": {"name": "test", "version": "1"}}})
        + "\n").encode()


def spawn(tmp_path: Path, *, early: bool, stderr=subprocess.DEVNULL, prelude: str = "") -> subprocess.Popen:
    """``relnotes mcp`` on an index that does not open (the handshake needs none), with the early
    reply on or off (``RELNOTES_MCP_EARLY``); ``prelude``: Python run in the server first."""
    code = f"{prelude}\nimport sys\nfrom qa.cli import main\nsys.argv = ['relnotes', *sys.argv[1:]]\nmain()\n"
    env = {**server_env(), "RELNOTES_MCP_EARLY": "1" if early else "0"}
    return subprocess.Popen([sys.executable, "-c", code, "mcp", "--index", str(tmp_path / "none"), "--no-update"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env, cwd=REPO,
                            bufsize=0)


def line_from(stream, timeout: float = WAIT) -> bytes:
    """The next line ``stream`` (unbuffered) gives; fails after ``timeout`` seconds without one."""
    line = b""
    deadline = time.monotonic() + timeout
    while not line.endswith(b"\n"):
        ready, _, _ = select.select([stream], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no line from the server in {timeout} s (so far {line!r})"
        byte = stream.read(1)
        assert byte, f"the server closed its output (so far {line!r})"
        line += byte
    return line


def replies(tmp_path: Path, first: bytes, *, early: bool = True) -> list[dict]:
    """Every message ``relnotes mcp`` writes when ``first`` is all it reads (it must exit 0)."""
    server = spawn(tmp_path, early=early)
    out, _ = server.communicate(first, timeout=WAIT)
    assert server.returncode == 0
    return [json.loads(line) for line in out.splitlines()]


async def sdk_replies(first: bytes, monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """Every message the SDK writes when ``first`` is all it reads: the server ``relnotes mcp``
    builds, run by the SDK's own ``run_stdio_async`` on a stdin and stdout in memory (streams
    that are not fds 0 and 1 it reads and writes in place)."""
    server = build_server(BackgroundService(lambda: None))
    stdout = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(first)))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(stdout))
    await server.run_stdio_async()
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def test_the_versions_are_the_sdks() -> None:
    assert handshake.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS
    assert handshake.HANDSHAKE_VERSIONS[-1] == LATEST_HANDSHAKE_VERSION


REQUESTS = [*(initialize(v, i) for i, v in enumerate([*HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS,
                                                       "1999-01-01", ""])),
            initialize("2025-06-18", "a-string-id", roots={"listChanged": True}, sampling={}, elicitation={})]


async def test_the_early_reply_is_the_sdks_for_every_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """Field for field what the SDK answers, for each version it supports, one it has no handshake
    for, an unknown one and an empty one, and a client with capabilities and a string id."""
    for request in REQUESTS:
        early = handshake.early_reply(request, handshake.server_version())
        assert early is not None and [early.message] == await sdk_replies(request, monkeypatch), request
        assert early.line.endswith(b"}\n") and json.loads(early.line) == early.message


async def test_with_the_early_reply_off_the_sdk_answers_alone(tmp_path: Path, monkeypatch) -> None:
    """RELNOTES_MCP_EARLY=0 leaves the handshake to the SDK's stdio transport, which says the same."""
    request = initialize(LATEST_HANDSHAKE_VERSION)
    assert replies(tmp_path, request, early=False) == await sdk_replies(request, monkeypatch)


@pytest.mark.parametrize("first", [
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}\n',
    b"not json\n",
    b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}\n',
    b'{"jsonrpc": "2.0", "id": true, "method": "initialize", "params": {}}\n',
    initialize("2025-06-18").rstrip(b"\n"),
    b"",
], ids=["another-method", "not-json", "no-client-info", "bool-id", "no-newline", "nothing"])
async def test_any_other_first_input_is_left_to_the_sdk(tmp_path: Path, monkeypatch, first: bytes) -> None:
    """No early reply: the server answers exactly what the SDK answers (an error, or nothing)."""
    assert handshake.early_reply(first, "1") is None
    assert replies(tmp_path, first) == await sdk_replies(first, monkeypatch)


HOLD = """
import importlib.abc, importlib.machinery, os, sys, time
HELD, FLAG = {held!r}, {flag!r}

class Held(importlib.abc.Loader):
    '''Runs a module once FLAG exists, saying on stderr that it waits.'''
    def __init__(self, loader):
        self.loader = loader
    def __getattr__(self, name):
        return getattr(self.loader, name)
    def create_module(self, spec):
        return self.loader.create_module(spec)
    def exec_module(self, module):
        print('holding ' + module.__name__, file=sys.stderr, flush=True)
        while not os.path.exists(FLAG):
            time.sleep(0.01)
        self.loader.exec_module(module)

class Hold(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in HELD:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = Held(spec.loader)
        return spec

sys.meta_path.insert(0, Hold())
"""
HELD = ("mcp", "mcp_types", "pydantic", "anyio", "numpy", "faiss", "onnxruntime", "torch", "sentence_transformers")


def test_the_reply_is_written_while_the_sdk_and_anything_heavy_cannot_load(tmp_path: Path) -> None:
    """The server's imports of the SDK (mcp, pydantic, anyio) and of numpy, faiss, onnxruntime and
    torch wait until the test has the reply: it is written without them, while the SDK is loading."""
    flag = tmp_path / "go"
    errors = tmp_path / "stderr"
    with errors.open("wb") as errlog:
        server = spawn(tmp_path, early=True, stderr=errlog, prelude=HOLD.format(held=HELD, flag=str(flag)))
    try:
        deadline = time.monotonic() + WAIT
        while b"holding " not in errors.read_bytes():  # the SDK is being loaded, and waits
            assert server.poll() is None and time.monotonic() < deadline, errors.read_bytes()[-2000:]
            time.sleep(0.01)
        server.stdin.write(initialize(LATEST_HANDSHAKE_VERSION))
        reply = json.loads(line_from(server.stdout))
        assert reply["id"] == 0 and reply["result"]["serverInfo"]["name"] == "relnotes"
        held = [line.removeprefix("holding ") for line in errors.read_text().splitlines() if line.startswith("holding ")]
        assert held and set(held) <= set(HELD[:4]), held  # the SDK's first import waits; nothing heavy was asked
        flag.touch()  # now the SDK loads, and serves the rest of the session
        server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'
                           b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}\n')
        listed = json.loads(line_from(server.stdout))
        assert listed["id"] == 1 and {t["name"] for t in listed["result"]["tools"]} == TOOLS
    finally:
        flag.touch()
        server.stdin.close()
        server.wait(timeout=WAIT)
    assert b"differs from the SDK's" not in errors.read_bytes()


async def test_a_session_through_the_real_client_on_a_small_corpus(tmp_path: Path) -> None:
    """The SDK's client spawns the server on a small corpus: the early handshake, then tools
    listed and called as ever; the SDK's own reply to the initialize agreed (nothing on stderr says otherwise)."""
    args = ["-m", "qa", "mcp", "--corpus", str(DATA / "changelog-rust-mini.md"), "--index", str(tmp_path / "idx")]
    params = StdioServerParameters(command=sys.executable, args=args, env=server_env(), cwd=str(REPO))
    errors = tmp_path / "stderr"
    with errors.open("w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as client:
                started = await client.initialize()
                assert (started.server_info.name, started.protocol_version) == ("relnotes", LATEST_HANDSHAKE_VERSION)
                assert started.instructions == handshake.INSTRUCTIONS
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS
                listed = await client.call_tool("list_releases", {})
                assert not listed.is_error
                assert [p["product"] for p in listed.structured_content["products"]] == ["Rust"]
                found = await client.call_tool("search_release_notes", {"query": "uncaught panics", "top_k": 1})
                assert "panics" in found.structured_content["passages"][0]["text"]
    assert "differs from the SDK's" not in errors.read_text()


def test_the_fast_path_imports_nothing_of_the_sdk() -> None:
    """What answers the handshake (``qa.mcp.startup`` and what it imports) loads no SDK, no
    pydantic, nothing heavy."""
    code = ("import sys\nimport qa.cli.mcp, qa.mcp.startup\n"
            "from qa.mcp.handshake import early_reply, server_version\n"
            f"assert early_reply({initialize('2025-06-18')!r}, server_version()) is not None\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('mcp', 'mcp_types', 'pydantic', 'anyio', 'numpy', 'faiss', 'onnxruntime', 'torch')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=WAIT, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
