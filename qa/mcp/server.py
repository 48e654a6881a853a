"""The MCP server: four read-only tools (five with ``--project``: ``dependencies``) and one
resource template over ``qa.serving.api``.

Built on the official SDK (mcp 2.x, ``MCPServer``). Nothing heavy is imported here: the index
and the model open on a background thread (``BackgroundService``) and the first tool call waits
for them. On stdio the ``initialize`` request is answered before this module (and the SDK) has
loaded (``startup``); over HTTP (``relnotes serve``) the SDK answers it. Each tool returns the
JSON record as structured content and a short text rendering for clients that show text; a bad
argument is a tool error (``is_error``) whose message says how to retry (``qa.serving.calls.call``,
as the HTTP routes answer). Logs go to stderr: stdout carries only the protocol.

Arguments reach the tools as sent (``Arg``): their JSON schema gives the types and bounds, and
``qa.serving.api`` checks them, so a bad one is said in its words ("max_chars must be a whole
number from 1000 to 200000, got 600"), never as pydantic's validation report with its link.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import WithJsonSchema

from ..present.plain import render
from ..serving import api
from ..serving.background import BackgroundService
from ..serving.calls import Unanswered, call
from .handshake import INSTRUCTIONS, NAME, server_version

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def Arg(schema: dict, description: str | None = None):  # noqa: N802 - a type, as Annotated[...] is
    """A tool argument passed to the tool as sent, published with ``schema`` (and ``description``):
    the SDK's pydantic model accepts any value, ``qa.serving.api`` says what is wrong with it."""
    return Annotated[Any, WithJsonSchema({**schema, **({"description": description} if description else {})})]


_TEXT = {"type": "string"}
_TEXT_OR_NULL = {"anyOf": [{"type": "string"}, {"type": "null"}]}
_KINDS = {"anyOf": [{"type": "array", "items": _TEXT}, {"type": "null"}]}
TOP_K = {"type": "integer", "minimum": 1, "maximum": api.MOST_TOP_K}
TopK = Arg(TOP_K, "How many passages.")
MaxChars = Arg({"type": "integer", "minimum": api.MIN_MAX_CHARS, "maximum": api.MOST_MAX_CHARS},
               "Largest size of the result's JSON, in characters.")
DetailArg = Arg({"type": "string", "enum": list(api.DETAILS)}, "cards: citation and first lines; full: whole passages.")
Product = Arg(_TEXT_OR_NULL, "Only this product's notes, e.g. 'pydantic' (list_releases names them).")
Release = Arg(_TEXT_OR_NULL, "Only this release, e.g. '2.14'.")
Kind = Arg(_TEXT_OR_NULL, "Only sections of this kind: added, changed, deprecated, removed, fixed, security, "
                          "performance, docs, other.")


def build_server(service: BackgroundService, limiter: anyio.CapacityLimiter | None = None, *,
                 dependencies: bool = False) -> MCPServer:
    """The server over ``service`` (started by the caller; anything with ``get(timeout)``);
    ``limiter`` bounds the threads answering (the HTTP server shares its pool with REST);
    ``dependencies``: the service answers for a project (``--project``), so the
    ``dependencies`` tool is served too."""
    server = MCPServer(name=NAME, instructions=INSTRUCTIONS, version=server_version(), log_level="WARNING")

    async def tool(fn: Callable[[object], dict]) -> CallToolResult:
        try:
            record = await call(service, fn, limiter)
        except Unanswered as exc:
            raise ToolError(str(exc)) from None
        return CallToolResult(content=[TextContent(text=render(record))], structured_content=record)

    @server.tool(annotations=READ_ONLY)
    async def ask_release_notes(question: Arg({**_TEXT, "minLength": 1}, "The question, as a user asks it."),
                                top_k: TopK = 5, product: Product = None, release: Release = None, kind: Kind = None,
                                max_chars: MaxChars = api.DEFAULT_MAX_CHARS, detail: DetailArg = "cards") -> CallToolResult:
        """Answer a question about release notes: quoted answer sentences with [n] markers, ranked
        passages with citations, notes (a release the corpus lacks, no confident answer), the
        earliest release with strong evidence, and a digest for release and upgrade questions."""
        return await tool(lambda s: api.ask(s, question, top_k, product, release, kind, max_chars=max_chars, detail=detail))

    @server.tool(annotations=READ_ONLY)
    async def search_release_notes(query: Arg({**_TEXT, "minLength": 1}, "What to look for."),
                                   top_k: Arg(TOP_K) = 10, product: Product = None,
                                   release: Release = None, kind: Kind = None,
                                   max_chars: MaxChars = api.DEFAULT_MAX_CHARS, detail: DetailArg = "cards") -> CallToolResult:
        """Ranked, cited passages of the release notes for a query (no answer sentences)."""
        return await tool(lambda s: api.search(s, query, top_k, product, release, kind, max_chars=max_chars, detail=detail))

    @server.tool(annotations=READ_ONLY)
    async def list_releases(product: Product = None, max_chars: MaxChars = api.DEFAULT_MAX_CHARS) -> CallToolResult:
        """The products in the corpus with their releases, newest first, and dates where the notes give them."""
        return await tool(lambda s: api.releases(s, product, max_chars=max_chars))

    @server.tool(annotations=READ_ONLY)
    async def release_changes(product: Arg(_TEXT_OR_NULL, "The product (needed when the corpus holds several)."),
                              since: Arg(_TEXT, "The release upgraded from, e.g. '1.10'."),
                              until: Arg(_TEXT, "The release upgraded to, e.g. '2.0' (included)."),
                              kinds: Arg(_KINDS, "Only items of these kinds.") = None,
                              topic: Arg(_TEXT_OR_NULL, "Only the range's items on this topic.") = None,
                              max_chars: MaxChars = api.DEFAULT_MAX_CHARS, detail: DetailArg = "cards") -> CallToolResult:
        """What changed after `since` up to `until`: each release's breaking, removed and deprecated
        items (or those of `kinds`; with `topic`, the range's items on it), oldest first, cited."""
        return await tool(lambda s: api.changes(s, product, since, until, kinds, topic, max_chars=max_chars, detail=detail))

    if dependencies:
        @server.tool(name="dependencies", annotations=READ_ONLY)
        async def dependencies_report(
                names: Arg(_KINDS, "Only these dependencies (all when omitted).") = None,
                max_chars: MaxChars = api.DEFAULT_MAX_CHARS) -> CallToolResult:
            """The project's dependencies, what needs attention first: each one's pin (lockfile, exact pin
            or installed version), the newest release in its notes, how many releases lie between, and
            the breaking, removed and deprecated items among them (counts, the first few cited)."""
            return await tool(lambda s: api.deps(s, names, max_chars=max_chars))

    @server.resource("relnotes://{product}/{version}", name="release-notes", mime_type="text/markdown",
                     description="One release's notes, each section headed by its citation.")
    async def release_notes(product: str, version: str) -> str:
        try:
            return await call(service, lambda s: api.release_notes(s, product, version), limiter)
        except Unanswered as exc:
            raise ResourceError(str(exc)) from None

    return server
