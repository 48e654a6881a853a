"""The HTTP guard in-process: Host names a loopback server answers, and the token."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from qa.http.app import LOOPBACK_HOSTS, _Guard


def app(**guard) -> TestClient:
    inner = Starlette(routes=[Route("/v1/ask", lambda r: PlainTextResponse("ok"), methods=["GET"]),
                              Route("/v1/health", lambda r: PlainTextResponse("ok"), methods=["GET"])])
    return TestClient(_Guard(inner, **guard))


def test_a_loopback_server_answers_its_own_names_only() -> None:
    client = app(token=None, allowed_hosts=(*LOOPBACK_HOSTS, b"127.0.0.2"))
    for host in ("127.0.0.1:8765", "localhost:8765", "[::1]:8765", "127.0.0.2:8765", "127.0.0.2"):
        assert client.get("/v1/ask", headers={"Host": host}).status_code == 200, host
    assert client.get("/v1/ask", headers={"Host": "evil.example:8765"}).status_code == 421


def test_beyond_loopback_any_host_but_only_with_the_token() -> None:
    client = app(token="s3cret", allowed_hosts=None)
    assert client.get("/v1/ask", headers={"Host": "relnotes.team:8765"}).status_code == 401
    assert client.get("/v1/health", headers={"Host": "relnotes.team:8765"}).status_code == 200
    ok = client.get("/v1/ask", headers={"Host": "relnotes.team:8765", "Authorization": "BEARER s3cret"})
    assert ok.status_code == 200


def test_the_page_s_files_load_without_the_token_and_nothing_else_does() -> None:
    from qa.web.routes import page_routes

    inner = Starlette(routes=[*page_routes(), Route("/v1/show", lambda r: PlainTextResponse("lines"), methods=["GET"])])
    client = TestClient(_Guard(inner, token="s3cret", allowed_hosts=None))
    for path, kind in (("/", "text/html"), ("/show?c=x.md:1", "text/html"), ("/static/chat.js", "text/javascript"),
                       ("/static/page.css", "text/css")):
        response = client.get(path)
        assert response.status_code == 200 and response.headers["content-type"].startswith(kind), path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        again = client.get(path, headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
    for path in ("/v1/show?c=x.md:1", "/static/secrets.js", "/static/../v1/show", "/showx"):
        assert client.get(path).status_code == 401, path  # the corpus, and anything not a file of the page
    assert client.post("/", content=b"{}").status_code == 401
    assert TestClient(_Guard(inner, token=None, allowed_hosts=None)).get("/static/nope.js").status_code == 404
