"""``relnotes serve`` as a child process on a loopback port, driven by httpx (and the MCP client)."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from qa.cli import cli
from tests.support.paths import DATA
from tests.support.serving import serving


def widgetlib_index(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the widgetlib changelog and its index, built with the real model."""
    corpus = tmp_path / "widgetlib"
    shutil.copytree(DATA / "releases" / "widgetlib", corpus)
    index = tmp_path / "idx"
    result = CliRunner().invoke(cli, ["index", "--corpus", str(corpus), "--index", str(index), "--quiet"])
    assert result.exit_code == 0, result.output
    return corpus, index


def test_every_route(bundled_index: Path, loopback) -> None:
    with serving("--index", str(bundled_index)) as base:
        health = httpx.get(f"{base}/v1/health").json()
        assert (health["status"], health["chunks"], health["reloads"]) == ("ok", 88, 0)
        asked = httpx.post(f"{base}/v1/ask", json={"question": "how do I enable the nccl2 backend?"}).json()
        asked_turn = httpx.post(f"{base}/v1/ask", json={"question": "how do I enable the nccl2 backend?",
                                                         "previous": None}).json()["turn"]
        assert asked["passages"][0]["citation"]["section"][-1] == "nccl2 Backend" and "[1]" in asked["answer"]["text"]
        found = httpx.post(f"{base}/v1/search", json={"query": "MPS kernels", "top_k": 2, "release": "2.13"}).json()
        assert len(found["passages"]) == 2 and {p["citation"]["version"] for p in found["passages"]} == {"2.13"}
        listed = httpx.get(f"{base}/v1/releases").json()
        assert [r["version"] for r in listed["products"][0]["releases"]] == ["2.14", "2.13", "2.9"]
        changed = httpx.post(f"{base}/v1/changes", json={"since": "2.9", "until": "2.14", "product": "PyTorch"}).json()
        assert [r["version"] for r in changed["digest"]["releases"]] == ["2.13", "2.14"]
        batch = httpx.post(f"{base}/v1/batch", content='{"id": "a", "question": "nccl2 backend"}\n{"question": 5}\n\n')
        lines = [json.loads(line) for line in batch.text.splitlines()]
        assert batch.headers["content-type"].startswith("application/x-ndjson")
        assert lines[0]["id"] == "a" and lines[0]["passages"] and lines[1] == {"id": "2", "error": "line 2: 'question' must be a string"}
        page = httpx.post(f"{base}/v1/ask", json={"question": "and in 2.13?", "previous": asked_turn, "view": "page"}).json()
        assert page["asked_as"] == "how do I enable the nccl2 backend in 2.13" and page["turn"]["releases"] == ["2.13"]
        assert page["passages"][0]["cite"]["release"].startswith("2.13")
        shown = httpx.get(f"{base}/v1/show", params={"c": page["passages"][0]["cite"]["location"]}).json()
        assert shown["shown"][0]["lines"][0][0] == page["passages"][0]["citation"]["lines"][0]
        docs = httpx.get(f"{base}/docs").json()
        assert docs["openapi"].startswith("3.") and {"/v1/ask", "/v1/batch", "/mcp"} <= set(docs["paths"])
        assert httpx.get(f"{base}/openapi.json").json() == docs


BAD = [
    ("/v1/ask", {"question": "nccl2", "top_k": 0}, "top_k must be a whole number from 1 to 50"),
    ("/v1/ask", {"question": "x " * 1500}, "keep it under 2,000"),
    ("/v1/ask", {"question": "nccl2", "release": "9.9"}, "The corpus holds no release 9.9"),
    ("/v1/ask", {"question": "nccl2", "product": "pydantic"}, "The corpus holds no product 'pydantic'"),
    ("/v1/ask", {"question": "nccl2", "colour": "red"}, "unknown field 'colour'"),
    ("/v1/ask", {}, "the field 'question' is required"),
    ("/v1/ask", [1, 2], "the body must be a JSON object"),
    ("/v1/search", {"query": 5}, "'query' must be a string"),
    ("/v1/changes", {"since": "2.14", "until": "2.9"}, "until 2.9 is not after since 2.14"),
    ("/v1/changes", {"since": "soon", "until": "2.9"}, "since 'soon' is not a release"),
    ("/v1/ask", {"question": "nccl2", "kind": 5}, "'kind' must be a string or null"),
    ("/v1/ask", {"question": "nccl2", "release": 2.10}, "'release' must be a string or null"),
    ("/v1/ask", {"question": "nccl2", "top_k": "5"}, "'top_k' must be a whole number"),
    ("/v1/ask", {"question": "nccl2", "max_chars": True}, "'max_chars' must be a whole number"),
    ("/v1/ask", {"question": "nccl2", "kind": "bugs"}, "unknown kind 'bugs'"),
    ("/v1/changes", {"since": "2.9", "until": "2.14", "kinds": 5}, "'kinds' must be a list of strings or null"),
    ("/v1/changes", {"since": "2.9", "until": "2.14", "topic": 5}, "'topic' must be a string or null"),
    ("/v1/ask", {"question": "nccl2", "view": "html"}, "view must be one of record, page"),
    ("/v1/ask", {"question": "nccl2", "mode": "fuzzy"}, "mode must be one of auto, hybrid, bm25, dense"),
    ("/v1/ask", {"question": "nccl2", "previous": 5}, "previous must be null or the \"turn\""),
    ("/v1/search", {"query": "nccl2", "previous": None}, "unknown field 'previous'"),
]


def test_bad_requests_are_refused_with_the_reason(bundled_index: Path, loopback) -> None:
    with serving("--index", str(bundled_index)) as base:
        for route, body, needle in BAD:
            response = httpx.post(f"{base}{route}", json=body)
            assert response.status_code == 422 and needle in response.json()["error"], (route, body, response.text)
        not_json = httpx.post(f"{base}/v1/ask", content=b"{nope")
        assert not_json.status_code == 400 and "not JSON" in not_json.json()["error"]
        huge = httpx.post(f"{base}/v1/ask", content=b"x" * 1_100_000)
        assert huge.status_code == 413 and "over 1000000 bytes" in huge.json()["error"]
        for value in ("lots", "²"):
            bad_query = httpx.get(f"{base}/v1/releases", params={"max_chars": value})
            assert bad_query.status_code == 422 and "max_chars must be a whole number" in bad_query.json()["error"]
        chunked = httpx.post(f"{base}/v1/ask", content=(b"x" * 100_000 for _ in range(11)))  # no Content-Length
        assert chunked.status_code == 413
        alias = httpx.post(f"{base}/v1/changes", json={"since": "2.9", "until": "2.14", "kinds": ["breaking"]})
        assert alias.status_code == 200 and alias.json()["kinds"] == ["removed"]  # as the CLI reads it
        batch = httpx.post(f"{base}/v1/batch", content='{"id": "q9", "question": "x", "kind": 5}\n{"question": "nccl2"}\n')
        lines = [json.loads(line) for line in batch.text.splitlines()]
        assert lines[0] == {"id": "q9", "error": "line 1: 'kind' must be a string or null"} and lines[1]["passages"]
        missing = httpx.get(f"{base}/v1/show", params={"c": "/etc/passwd:1-2"})
        assert missing.status_code == 422 and "no document of this index has this path" in missing.json()["error"]
        rebound = httpx.get(f"{base}/v1/health", headers={"Host": "evil.example:8765"})
        assert rebound.status_code == 421  # a page rebinding its name to 127.0.0.1 reads nothing
        assert httpx.post(f"{base}/v1/ask", json={"question": "nccl2 backend"}).status_code == 200  # still serving


def test_a_token_guards_every_route_but_health(bundled_index: Path, loopback) -> None:
    with serving("--index", str(bundled_index), "--token", "s3cret") as base:
        assert httpx.get(f"{base}/v1/health").status_code == 200
        for token in (None, "wrong"):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            refused = httpx.post(f"{base}/v1/ask", json={"question": "nccl2"}, headers=headers)
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
            assert httpx.post(f"{base}/mcp", json={}, headers=headers).status_code == 401
        ok = httpx.post(f"{base}/v1/ask", json={"question": "nccl2"}, headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 200
        assert httpx.get(f"{base}/v1/releases", headers={"Authorization": "bearer s3cret"}).status_code == 200
        assert httpx.get(f"{base}/v1/health").json() == {"status": "ok"}  # what the index holds needs the token
        told = httpx.get(f"{base}/v1/health", headers={"Authorization": "Bearer s3cret"}).json()
        assert told["chunks"] == 88


def test_binding_beyond_loopback_needs_a_token(monkeypatch) -> None:
    monkeypatch.delenv("RELNOTES_TOKEN", raising=False)
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0"])
    assert result.exit_code == 2 and "pass --token TOKEN (or set RELNOTES_TOKEN)" in result.output


async def test_the_mcp_tools_over_streamable_http(bundled_index: Path, loopback) -> None:
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    with serving("--index", str(bundled_index)) as base:
        async with streamable_http_client(f"{base}/mcp") as streams:
            async with ClientSession(streams[0], streams[1]) as client:
                await client.initialize()
                assert len((await client.list_tools()).tools) == 4
                result = await client.call_tool("ask_release_notes", {"question": "nccl2 backend"})
                assert result.structured_content["passages"][0]["citation"]["version"] == "2.14"


def test_a_rebuilt_index_is_picked_up_without_a_failed_request(tmp_path: Path, loopback) -> None:
    corpus, index = widgetlib_index(tmp_path)
    with serving("--corpus", str(corpus), "--index", str(index)) as base:
        statuses: list[int] = []
        stop = threading.Event()

        def keep_asking() -> None:
            with httpx.Client(timeout=30) as client:
                while not stop.is_set():
                    statuses.append(client.post(f"{base}/v1/ask", json={"question": "config parser"}).status_code)

        askers = [threading.Thread(target=keep_asking) for _ in range(3)]
        for t in askers:
            t.start()
        changelog = corpus / "CHANGELOG.md"
        text = changelog.read_text()
        changelog.write_text(text.replace("## [2.1.0]", "## [2.2.0] - 2026-04-01\n\n### Added\n\n- Added the "
                                          "gizmo exporter\n\n## [2.1.0]", 1))
        rebuilt = CliRunner().invoke(cli, ["index", "--corpus", str(corpus), "--index", str(index), "--quiet"])
        assert rebuilt.exit_code == 0, rebuilt.output
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            versions = [r["version"] for r in httpx.get(f"{base}/v1/releases").json()["products"][0]["releases"]]
            if versions[0] == "2.2.0":
                break
            time.sleep(0.3)
        stop.set()
        for t in askers:
            t.join()
        assert versions[0] == "2.2.0"  # no restart
        assert httpx.get(f"{base}/v1/health").json()["reloads"] == 1
        assert statuses and set(statuses) == {200}  # not one request failed during the swap
        gizmo = httpx.post(f"{base}/v1/ask", json={"question": "gizmo exporter"}).json()
        assert gizmo["passages"][0]["citation"]["version"] == "2.2.0"


def test_eight_concurrent_clients_get_answers_and_no_errors(bundled_index: Path, loopback) -> None:
    questions = ["how do I enable the nccl2 backend?", "what changed for MPS in 2.14?", "FlexAttention deterministic"]
    with serving("--index", str(bundled_index)) as base:
        results: list[int] = []

        def client(n: int) -> None:
            with httpx.Client(timeout=60) as http:
                for i in range(5):
                    r = http.post(f"{base}/v1/ask", json={"question": questions[(n + i) % 3]})
                    results.append(r.status_code if r.json().get("passages") else -1)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == [200] * 40
