"""The ``initialize`` reply written before the MCP SDK has loaded, and the server's identity.

Importing the SDK (``mcp`` 2.x, with pydantic and its two protocol schemas) takes most of a
second, longer than an agent waits for the handshake, so ``relnotes mcp`` answers a client's
first message here when it is a well-formed ``initialize`` request, with the reply the SDK would
give, while the SDK loads on a thread (``qa.mcp.startup``). Anything else (another method, bad
JSON, a shape this module does not vouch for) gets no early reply: the SDK answers it as ever.

The SDK still sees the request (``qa.mcp.stdio``): it sets up the session as for any client and
its own reply, dropped, is compared with this one, so a drift is reported on stderr. The test
``tests/mcp/test_mcp_handshake.py`` compares both for every protocol version the SDK supports.
Nothing here imports the SDK, pydantic or anything heavy.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

NAME = "relnotes"
INSTRUCTIONS = (
    "Offline, version-aware answers from software release notes, with citations (file:lines, URL). "
    "ask_release_notes answers a question (which release added X, what breaks from A to B, how to "
    "enable Y); search_release_notes returns passages only; list_releases names the products and "
    "releases held; release_changes gives the upgrade digest of a range. Quote the citations."
)
# What mcp 2.3's ``mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS`` holds, oldest first: the
# versions an ``initialize`` can agree on (a client asking another one gets the newest). The
# 2026-07-28 protocol has no handshake. Kept equal to the SDK's by the test above.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
# What the SDK derives from the handlers MCPServer registers (tools, resources, prompts; no
# list-change notifications, no subscriptions), as ``build_server`` builds it.
CAPABILITIES = {
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": False},
    "tools": {"listChanged": False},
}
_ENVELOPE = {"jsonrpc", "id", "method", "params"}


@dataclass(frozen=True, slots=True)
class EarlyReply:
    """The reply to an ``initialize`` request (``request_id``): ``message`` as JSON, ``line`` as
    written to the client (UTF-8, one line)."""

    request_id: int | str
    message: dict
    line: bytes


def server_version() -> str:
    """The version ``serverInfo`` gives: relnotes-qa's, or "0" when it is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("relnotes-qa")
    except PackageNotFoundError:
        return "0"


def early_reply(line: bytes, version: str) -> EarlyReply | None:
    """The reply to ``line`` (a client's first line, with its newline) when it is an ``initialize``
    request this module vouches for, else None (the SDK answers). ``version``: ``server_version()``."""
    request = _initialize_request(line)
    if request is None:
        return None
    asked = request["params"]["protocolVersion"]
    result = {
        "capabilities": CAPABILITIES,
        "instructions": INSTRUCTIONS,
        "protocolVersion": asked if asked in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1],
        "serverInfo": {"name": NAME, "version": version},
    }
    message = {"jsonrpc": "2.0", "id": request["id"], "result": result}
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))  # as the SDK writes it
    return EarlyReply(request["id"], json.loads(text), text.encode("utf-8") + b"\n")


def _initialize_request(line: bytes) -> dict | None:
    """``line`` parsed, when it is one JSON-RPC ``initialize`` request of the shape the SDK
    accepts (checked as far as it matters here: its fields and their types), else None."""
    if not line.endswith(b"\n"):  # the stream ended inside the message
        return None
    body = line[:-1].removesuffix(b"\r")
    if b"\r" in body:  # the SDK reads lines as text, where a lone CR also ends one
        return None
    try:
        request = json.loads(body.decode("utf-8"), parse_constant=_not_json)
        json.dumps(request, ensure_ascii=False).encode("utf-8")  # a lone surrogate ("\ud800") is not JSON to the SDK
    except (UnicodeError, ValueError):
        return None
    if not isinstance(request, dict) or set(request) != _ENVELOPE:
        return None
    request_id, params = request["id"], request["params"]
    if request["jsonrpc"] != "2.0" or request["method"] != "initialize" or not isinstance(params, dict):
        return None
    if type(request_id) not in (int, str):  # the SDK's ids are strict: no bool, no float
        return None
    client = params.get("clientInfo")
    if not (isinstance(params.get("protocolVersion"), str) and isinstance(params.get("capabilities"), dict)
            and isinstance(client, dict) and isinstance(client.get("name"), str)
            and isinstance(client.get("version"), str)):
        return None
    return request


def _not_json(constant: str):
    """NaN and Infinity, which Python's json reads and JSON (and the SDK) does not."""
    raise ValueError(f"{constant} is not JSON")
