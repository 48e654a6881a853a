"""``qa.serving.calls.call``: one failure, mapped once, reads the same over REST and over MCP."""

from __future__ import annotations

import re

import httpx
import pytest
from mcp import Client

from index import IndexMissing
from qa.http.app import STATUS, make_app
from qa.mcp.server import build_server
from qa.serving.calls import STILL_LOADING, Unanswered, call


class Opened:
    """A service whose open went as given: ``get`` raises ``error``, else returns a stand-in
    (a call refused for its arguments never reaches it)."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.error = error

    def get(self, timeout: float | None = None):
        if self.error is not None:
            raise self.error
        return object()

    def state(self) -> tuple[str, str | None]:
        return ("failed", str(self.error)) if self.error else ("ok", None)


MISSING = "No index at /nowhere; build it with: relnotes index"
CASES = [
    (Opened(), "   ", "argument", "question must be a non-empty string, e.g. 'which release added X?'"),
    (Opened(TimeoutError("the index is still loading")), "nccl2", "loading", STILL_LOADING),
    (Opened(IndexMissing(MISSING)), "nccl2", "failed", MISSING),
]


@pytest.mark.parametrize(("service", "question", "why", "message"), CASES, ids=["argument", "loading", "failed"])
async def test_the_http_routes_and_the_mcp_tools_say_one_failure_alike(service, question, why, message) -> None:
    from qa.serving import api

    with pytest.raises(Unanswered) as caught:
        await call(service, lambda s: api.ask(s, question))
    assert (caught.value.why, str(caught.value)) == (why, message)

    transport = httpx.ASGITransport(app=make_app(service))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        response = await http.post("/v1/ask", json={"question": question})
    assert (response.status_code, response.json()) == (STATUS[why], {"error": message})

    async with Client(build_server(service)) as mcp:
        result = await mcp.call_tool("ask_release_notes", {"question": question})
        if why != "argument":  # the resource of a release's notes, through the same call
            with pytest.raises(Exception, match=re.escape(message)):
                await mcp.read_resource("relnotes://PyTorch/2.14")
    assert result.is_error and [c.text for c in result.content] == [f"Error executing tool ask_release_notes: {message}"]
