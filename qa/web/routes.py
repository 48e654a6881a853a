"""The page's files as Starlette routes: ``/`` and ``/show`` (HTML), ``/static/NAME`` (style,
script, icon), each with a content security policy that allows only the server's own files."""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

PAGES = {"/": "index.html", "/show": "show.html"}
ASSETS = ("page.css", "common.js", "chat.js", "show.js", "icon.svg")
TYPES = {"html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
         "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml"}
# Only the server's own files run or load: release-note text that slipped into the page as
# markup could still run nothing (the script never puts it there as markup in the first place).
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
          "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": POLICY, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "Cache-Control": "no-cache"}


def is_public(scope) -> bool:
    """Whether an HTTP request is for one of the page's files (which a browser fetches without
    the token: they hold no corpus text)."""
    path = scope.get("path", "")
    if scope.get("method") not in ("GET", "HEAD"):
        return False
    return path in PAGES or (path.startswith("/static/") and path[len("/static/"):] in ASSETS)


@cache
def read(name: str) -> tuple[bytes, str]:
    """A file of the page and its ETag."""
    data = resources.files(__package__).joinpath("static", name).read_bytes()
    return data, '"' + hashlib.sha256(data).hexdigest()[:20] + '"'


def sizes() -> dict[str, int]:
    """The bytes of each file of the page (what a first visit downloads)."""
    return {name: len(read(name)[0]) for name in (*PAGES.values(), *ASSETS)}


def _response(request: Request, name: str) -> Response:
    data, etag = read(name)
    headers = {**HEADERS, "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=TYPES[name.rsplit(".", 1)[1]], headers=headers)


def page_routes() -> list[Route]:
    """The routes of the page's files."""

    def page(name: str):
        async def endpoint(request: Request) -> Response:
            return _response(request, name)

        return endpoint

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return Response("not found", status_code=404, media_type="text/plain")
        return _response(request, name)

    return [*(Route(path, page(name), methods=["GET", "HEAD"]) for path, name in PAGES.items()),
            Route("/static/{name}", asset, methods=["GET", "HEAD"])]
