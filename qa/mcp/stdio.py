"""The SDK's stdio transport over a ``Wire``, after an early ``initialize`` reply (``handshake``).

The SDK gets everything the client sent, the ``initialize`` already answered included, so it sets
up the session exactly as for any client (the negotiated version, the client's capabilities);
its reply to that request, the client's second, is dropped, after checking it says what the
early one said. Everything else passes as the SDK writes it.
"""

from __future__ import annotations

import sys

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCResponse

from .handshake import EarlyReply
from .wire import Wire


async def serve(server: MCPServer, wire: Wire, head: bytes, early: EarlyReply | None) -> None:
    """Serve ``server`` over ``wire`` until the client closes its end: ``head`` is what was read
    already, ``early`` the reply written to it, if any."""
    stdin, stdout = wire.text_streams(head)
    # MCPServer runs only on the process's own stdin and stdout (run_stdio_async); its low-level
    # server is what runs on given streams. mcp 2.3's own in-memory client reaches it the same
    # way (mcp/client/_memory.py: "TODO: Make `lowlevel_server` public").
    lowlevel = server._lowlevel_server  # noqa: SLF001
    async with stdio_server(anyio.wrap_file(stdin), anyio.wrap_file(stdout)) as (read, write):
        if early is not None:
            write = AlreadyAnswered(write, early)
        await lowlevel.run(read, write, lowlevel.create_initialization_options())


class AlreadyAnswered:
    """A write stream that passes every message but the SDK's reply to the request ``early``
    answered; a reply that says something else is reported on stderr."""

    def __init__(self, inner, early: EarlyReply) -> None:
        self._inner = inner
        self._early: EarlyReply | None = early

    async def send(self, item: SessionMessage) -> None:
        message = item.message
        early = self._early
        if early is not None and isinstance(message, (JSONRPCResponse, JSONRPCError)) and message.id == early.request_id:
            self._early = None
            said = message.model_dump(mode="json", by_alias=True, exclude_unset=True)
            if said != early.message:
                print(f"relnotes mcp: the initialize reply sent early differs from the SDK's; sent "
                      f"{early.line.decode().strip()}, the SDK's {said} (set RELNOTES_MCP_EARLY=0 to "
                      "leave the handshake to the SDK)", file=sys.stderr, flush=True)
            return
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> AlreadyAnswered:
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.aclose()
