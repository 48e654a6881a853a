"""``relnotes mcp`` from start-up to serving: the ``initialize`` reply first, the SDK meanwhile.

1. The protocol is moved off fds 0 and 1 (``wire``) and a thread starts importing the MCP SDK
   and building the server (``server.build_server``), most of a second.
2. Meanwhile the first line the client sends is read; when it is an ``initialize`` request, the
   reply the SDK would give is written at once (``handshake``), before anything heavy is
   imported: an agent's handshake is answered about 0.2 s after the spawn (Python's and the
   command line's own start-up), where the SDK alone takes about 0.9 s to import.
3. Once the SDK has loaded, the index and the model start opening (``BackgroundService``), and
   the SDK serves everything the client sent, that first line included (``stdio``): it sets up
   the session itself, and its own reply to the ``initialize`` is dropped. Opening the index
   after the SDK, not beside it (both imports hold the GIL most of the time), listed the tools
   0.4 to 1 s sooner on 2 cores, and the first answer came as soon (docs/benchmarks.md).

``RELNOTES_MCP_EARLY=0`` (or stdin and stdout that are not fds 0 and 1) leaves the handshake to
the SDK, which then runs over stdio on its own as it would without this module.
"""

from __future__ import annotations

import os
import threading

from ..serving.background import BackgroundService
from .handshake import early_reply, server_version
from .wire import Wire

EARLY_ENV = "RELNOTES_MCP_EARLY"


def serve_stdio(service: BackgroundService, *, dependencies: bool) -> None:
    """Serve the tools over ``service`` (not yet started) on stdio until the client leaves;
    ``dependencies``: serve the ``dependencies`` tool too (``build_server``)."""
    wire = Wire.claim() if os.environ.get(EARLY_ENV, "1") != "0" else None
    if wire is None:
        from .server import build_server

        build_server(service.start(), dependencies=dependencies).run("stdio")
        return
    try:
        loading = _Loading(service, dependencies)
        head = wire.read_first_line()
        line, newline, _ = head.partition(b"\n")
        early = early_reply(line + newline, server_version())
        if early is not None:
            wire.write(early.line)
        server, serve = loading.result()
        import anyio  # loaded with the SDK

        anyio.run(serve, server, wire, head, early)
    finally:
        wire.release()


class _Loading:
    """The MCP SDK imported and the server built on a thread, then the service started."""

    def __init__(self, service: BackgroundService, dependencies: bool) -> None:
        self._service = service
        self._dependencies = dependencies
        self._loaded: tuple | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="relnotes-mcp-sdk", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            from .server import build_server
            from .stdio import serve

            self._loaded = (build_server(self._service, dependencies=self._dependencies), serve)
            self._service.start()
        except BaseException as exc:  # noqa: BLE001 - raised again in the main thread by result()
            self._error = exc

    def result(self) -> tuple:
        """(the server, ``stdio.serve``), once loaded; raises what loading raised."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._loaded
