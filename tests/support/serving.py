"""``relnotes serve`` as a child process on a free loopback port, for tests that talk to it over HTTP
(httpx, the MCP client, a headless Chromium); it stops by itself after LIFETIME seconds."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager

import httpx

from tests.support.hardening import RUNNER

LIFETIME = 240  # seconds a test server lives at most (it stops by itself)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def env() -> dict[str, str]:
    return {n: os.environ[n] for n in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "PATH")
            if n in os.environ}


@contextmanager
def serving(*args: str, fake_model: bool = False, lifetime: float = LIFETIME):
    """A server on a free loopback port; yields its base URL once /v1/health says ok.

    ``fake_model``: the server embeds with tests/support/fakes.py's FakeEncoder (through
    tests/support/hardening_run.py), for a test about serving, not about the model.
    """
    port = free_port()
    command = [str(RUNNER)] if fake_model else ["-m", "qa"]
    extra = {"RELNOTES_TEST_FAKE_ENCODER": "1"} if fake_model else {}
    process = subprocess.Popen([sys.executable, *command, "serve", "--port", str(port), "--exit-after",
                                str(lifetime), *args], env={**env(), **extra}, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise AssertionError(f"the server stopped: {process.stderr.read()}")
            try:
                if httpx.get(f"{base}/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the server did not come up in 120 s")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
