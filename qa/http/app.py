"""The HTTP API: an ASGI app (Starlette) over ``qa.serving.api``, the same JSON as the CLI and the MCP tools.

Routes: ``GET /v1/health``, ``POST /v1/ask``, ``POST /v1/search``, ``GET /v1/releases``,
``POST /v1/changes``, ``GET /v1/deps`` (a server started with ``--project``), ``POST /v1/batch`` (JSONL in, JSONL out), ``GET /v1/show`` (a citation's
lines in their section), ``GET /openapi.json`` and ``/docs`` (the OpenAPI document), the MCP
server over streamable HTTP at ``/mcp``, and the web page (``qa.web``: ``/``, ``/show`` and its
files, which hold no corpus text). With a token every route but health and the page's files
needs ``Authorization: Bearer TOKEN`` (else 401). Bodies
over ``max_body`` bytes are 413; a bad argument or question (too long, empty, a release the
corpus lacks) is 422 with ``{"error": ...}``. Answering runs in a worker pool of one thread a
core, through the current service of a ``ReloadingService``.
"""

from __future__ import annotations

import hmac
import json
import os
from typing import Callable

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..present import web
from ..serving import api, cited
from ..serving.calls import Unanswered, call
from ..web.routes import is_public, page_routes
from . import is_loopback
from .openapi import openapi

MAX_BODY = 1_000_000  # bytes of a request body
MAX_BATCH = 1000  # questions in one /v1/batch
STATUS = {"argument": 422, "loading": 503, "failed": 503}  # of an Unanswered, by why
SEARCHING = ("top_k", "product", "release", "kind", "mode", "max_chars", "detail")  # optional fields of ask and search
CONVERSING = ("previous", "view")  # optional fields of ask alone


class HTTPError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def make_app(service, *, token: str | None = None, max_body: int = MAX_BODY, host: str = "127.0.0.1",
             workers: int | None = None, dependencies: bool = False) -> Starlette:
    """The app over ``service`` (a started ``ReloadingService``, or anything with ``get(timeout)``);
    ``dependencies``: it answers for a project (``--project``), so MCP serves the dependencies tool."""
    from ..mcp.server import build_server

    limiter = anyio.CapacityLimiter(workers or os.cpu_count() or 2)  # REST and MCP calls alike
    mcp_app = build_server(service, limiter, dependencies=dependencies).streamable_http_app(
        streamable_http_path="/mcp", stateless_http=True, json_response=True, max_request_body_size=max_body,
        host=host)
    # one app: the MCP server's lifespan runs its session manager
    mcp_app.router.routes[:0] = _Routes(service, limiter, token, max_body).routes()
    return _Guard(mcp_app, token, allowed_hosts=(*LOOPBACK_HOSTS, host.encode()) if is_loopback(host) else None)


class _Routes:
    """The REST routes over one service, answering in the threads of ``limiter``."""

    def __init__(self, service, limiter: anyio.CapacityLimiter, token: str | None, max_body: int) -> None:
        self.service = service
        self.limiter = limiter
        self.token = token
        self.max_body = max_body

    def routes(self) -> list[Route]:
        return [
            Route("/v1/health", handler(self.health), methods=["GET"]),
            Route("/v1/ask", handler(self.ask), methods=["POST"]),
            Route("/v1/search", handler(self.search), methods=["POST"]),
            Route("/v1/releases", handler(self.releases), methods=["GET"]),
            Route("/v1/changes", handler(self.changes), methods=["POST"]),
            Route("/v1/deps", handler(self.deps), methods=["GET"]),
            Route("/v1/batch", handler(self.batch), methods=["POST"]),
            Route("/v1/show", handler(self.show), methods=["GET"]),
            Route("/openapi.json", docs, methods=["GET"]),
            Route("/docs", docs, methods=["GET"]),
            *page_routes(),
        ]

    async def run(self, fn: Callable[[object], object]):
        """``fn(the current service)`` through ``qa.serving.calls.call``; its failure as an HTTPError."""
        try:
            return await call(self.service, fn, self.limiter)
        except Unanswered as exc:
            raise HTTPError(STATUS[exc.why], str(exc)) from None

    async def body_of(self, request: Request) -> bytes:
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            raise HTTPError(413, f"the request body is over {self.max_body} bytes")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > self.max_body:
                raise HTTPError(413, f"the request body is over {self.max_body} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    async def json_of(self, request: Request) -> dict:
        try:
            data = json.loads(await self.body_of(request) or b"{}")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise HTTPError(400, f"the body is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise HTTPError(422, "the body must be a JSON object")
        return data

    async def health(self, request: Request) -> Response:
        state, error = self.service.state()
        if state != "ok":
            body = {"status": state, **({"error": error} if error and _authorized(request, self.token) else {})}
            return JSONResponse(body, status_code=503)
        if not _authorized(request, self.token):  # open to a load balancer; what the index holds needs the token
            return JSONResponse({"status": "ok"})
        info = self.service.get(0).info
        return JSONResponse({"status": "ok", "corpus": info.corpus, "documents": info.documents, "chunks": info.chunks,
                             "index": info.directory, "built": info.created,
                             "reloads": getattr(self.service, "reloads", 0),
                             "retrieval": self.service.get(0).retrieval().to_json()})

    async def ask(self, request: Request) -> Response:
        data = arguments(await self.json_of(request), ("question",), SEARCHING + CONVERSING)
        view = _view(data.pop("view", "record"))
        record = await self.run(lambda s: api.ask(s, **_typed(data)))
        return JSONResponse(web.page(record) if view == "page" else record)

    async def show(self, request: Request) -> Response:
        query = request.query_params
        view = _view(query.get("view", "record"))
        record = await self.run(lambda s: cited.show(s, query.get("c", ""), query.get("id") or None))
        return JSONResponse(web.shown(record) if view == "page" else record)

    async def search(self, request: Request) -> Response:
        data = arguments(await self.json_of(request), ("query",), SEARCHING)
        return JSONResponse(await self.run(lambda s: api.search(s, **_typed(data))))

    async def releases(self, request: Request) -> Response:
        product = request.query_params.get("product")
        given = request.query_params.get("max_chars", str(api.DEFAULT_MAX_CHARS))
        try:
            max_chars = int(given)
        except ValueError:
            raise HTTPError(422, f"max_chars must be a whole number, got {given!r}") from None
        return JSONResponse(await self.run(lambda s: api.releases(s, product, max_chars=max_chars)))

    async def deps(self, request: Request) -> Response:
        names = request.query_params.getlist("name")
        given = request.query_params.get("max_chars", str(api.DEFAULT_MAX_CHARS))
        if not given.isdigit():
            raise HTTPError(422, f"max_chars must be a whole number, got {given!r}")
        return JSONResponse(await self.run(lambda s: api.deps(s, names, max_chars=int(given))))

    async def changes(self, request: Request) -> Response:
        data = arguments(await self.json_of(request), ("since", "until"),
                         ("product", "kinds", "topic", "max_chars", "detail"))
        data.setdefault("product", None)
        return JSONResponse(await self.run(lambda s: api.changes(s, **_typed(data))))

    async def batch(self, request: Request) -> Response:
        lines = [line for line in (await self.body_of(request)).decode("utf-8", "replace").splitlines() if line.strip()]
        if len(lines) > MAX_BATCH:
            raise HTTPError(413, f"{len(lines)} questions; send at most {MAX_BATCH} a batch")
        out = []
        for number, line in enumerate(lines, 1):
            qid = str(number)
            try:
                item = json.loads(line)
                if not isinstance(item, dict):
                    raise ValueError("not a JSON object")
                qid = str(item.pop("id", number))
                record = await self.run(
                    lambda s, item=item: api.ask(s, **_typed(arguments(item, ("question",), SEARCHING))))
                out.append({**record, "id": qid})
            except (ValueError, HTTPError) as exc:  # one bad line is its own error line; the rest are answered
                out.append({"id": qid, "error": f"line {number}: {exc}"})
        body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out)
        return Response(body, media_type="application/x-ndjson")


def handler(fn):
    """``fn`` as an endpoint whose HTTPError is the response ``{"error": message}`` with its status."""

    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)
        except HTTPError as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)

    return endpoint


def arguments(data: dict, required: tuple[str, ...], optional: tuple[str, ...]) -> dict:
    """``data`` when it has every ``required`` field and no field but those and ``optional`` (else a 422)."""
    unknown = sorted(set(data) - set(required) - set(optional))
    if unknown:
        raise HTTPError(422, f"unknown field {unknown[0]!r}; the fields are {', '.join(required + optional)}")
    missing = [name for name in required if name not in data]
    if missing:
        raise HTTPError(422, f"the field {missing[0]!r} is required")
    return data


async def docs(request: Request) -> Response:
    return JSONResponse(openapi())


LOOPBACK_HOSTS = (b"127.0.0.1", b"localhost", b"[::1]", b"::1")  # Host headers a loopback server answers


def _bearer(headers) -> bytes:
    """The token of an ``Authorization: Bearer TOKEN`` header (the scheme in any case), or b""."""
    scheme, _, value = dict(headers or ()).get(b"authorization", b"").partition(b" ")
    return value.strip() if scheme.lower() == b"bearer" else b""


def _authorized(request: Request, token: str | None) -> bool:
    return token is None or hmac.compare_digest(_bearer(request.scope.get("headers")), token.encode())


class _Guard:
    """ASGI middleware: the bearer token on every route but health and the page's files (401
    without it), and, on a loopback server, a loopback Host header (a web page that rebinds its
    name to 127.0.0.1 gets 421)."""

    def __init__(self, app, token: str | None, allowed_hosts: tuple[bytes, ...] | None = LOOPBACK_HOSTS) -> None:
        """``allowed_hosts``: the Host names answered (None: any, for a server beyond loopback)."""
        self.app = app
        self.token = token.encode() if token else None
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            host = dict(scope.get("headers") or ()).get(b"host", b"")
            name = host.rsplit(b":", 1)[0] if not host.endswith(b"]") else host
            if self.allowed_hosts is not None and name not in self.allowed_hosts:
                await JSONResponse({"error": f"Host {host.decode('latin-1')!r} is not this loopback server"},
                                   status_code=421)(scope, receive, send)
                return
            if self.token is not None and scope.get("path") != "/v1/health" and not is_public(scope):
                if not hmac.compare_digest(_bearer(scope.get("headers")), self.token):
                    response = JSONResponse({"error": "missing or wrong bearer token; send Authorization: Bearer TOKEN"},
                                            status_code=401, headers={"WWW-Authenticate": "Bearer"})
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


TEXT_FIELDS = ("question", "query", "since", "until", "mode")  # strings
OPTIONAL_TEXT = ("product", "release", "kind", "topic", "detail")  # strings or null
NUMBERS = ("top_k", "max_chars")  # whole numbers


def _view(view: str) -> str:
    if view not in web.VIEWS:
        raise HTTPError(422, f"view must be one of {', '.join(web.VIEWS)}, got {view!r}")
    return view


def _typed(data: dict) -> dict:
    """The JSON fields with the types ``qa.serving.api`` takes; another type is a 422 naming the field."""
    for name, value in data.items():
        if name in TEXT_FIELDS and not isinstance(value, str):
            raise HTTPError(422, f"{name!r} must be a string")
        if name in OPTIONAL_TEXT and value is not None and not isinstance(value, str):
            raise HTTPError(422, f"{name!r} must be a string or null")
        if name in NUMBERS and (isinstance(value, bool) or not isinstance(value, int)):
            raise HTTPError(422, f"{name!r} must be a whole number")
        if name == "kinds" and value is not None and not (
                isinstance(value, list) and all(isinstance(k, str) for k in value)):
            raise HTTPError(422, "'kinds' must be a list of strings or null")
    return data
