"""``relnotes mcp`` through the real MCP client: the SDK's stdio client spawns the server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

TOOLS = {"ask_release_notes", "search_release_notes", "list_releases", "release_changes"}


def server_env() -> dict[str, str]:
    """The test's HOME and caches (the client passes only a few variables of its own)."""
    names = ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "PATH")
    return {n: os.environ[n] for n in names if n in os.environ}


@asynccontextmanager
async def session(*args: str):
    params = StdioServerParameters(command=sys.executable, args=["-m", "qa", "mcp", *args], env=server_env())
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                yield client


async def test_tools_are_listed_with_schemas_and_read_only_hints(bundled_index: Path) -> None:
    async with session("--index", str(bundled_index)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == TOOLS
        for tool in tools.values():
            assert tool.annotations.read_only_hint is True and tool.annotations.destructive_hint is False
            assert tool.description and tool.input_schema["type"] == "object"
        ask = tools["ask_release_notes"].input_schema
        assert ask["required"] == ["question"]
        assert ask["properties"]["top_k"]["minimum"] == 1 and ask["properties"]["top_k"]["default"] == 5
        assert set(tools["release_changes"].input_schema["required"]) == {"product", "since", "until"}
        templates = (await client.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["relnotes://{product}/{version}"]


async def test_each_tool_answers_with_citations(bundled_index: Path) -> None:
    async with session("--index", str(bundled_index)) as client:
        asked = await client.call_tool("ask_release_notes", {"question": "how do I enable the nccl2 backend?"})
        assert not asked.is_error
        record = asked.structured_content
        top = record["passages"][0]["citation"]
        assert (top["version"], top["section"][-1]) == ("2.14", "nccl2 Backend")
        assert Path(top["source"]).is_absolute() and top["lines"][0] >= 1
        assert "[1]" in record["answer"]["text"] and "nccl2 Backend" in asked.content[0].text
        assert len(json.dumps(record)) <= 8000  # the default budget

        found = await client.call_tool("search_release_notes", {"query": "MPS native Metal kernels", "top_k": 3,
                                                                "release": "2.14"})
        passages = found.structured_content["passages"]
        assert len(passages) == 3 and {p["citation"]["version"] for p in passages} == {"2.14"}
        assert "answer" not in found.structured_content

        listed = (await client.call_tool("list_releases", {})).structured_content
        assert [(p["product"], [r["version"] for r in p["releases"]]) for p in listed["products"]] == [
            ("PyTorch", ["2.14", "2.13", "2.9"])]

        changed = await client.call_tool("release_changes", {"product": "PyTorch", "since": "2.9", "until": "2.14"})
        digest = changed.structured_content["digest"]
        assert [r["version"] for r in digest["releases"]] == ["2.13", "2.14"]
        assert all(item["citation"]["source"] for r in digest["releases"] for item in r["items"])

        notes = await client.read_resource("relnotes://PyTorch/2.13")
        text = notes.contents[0].text
        assert text.startswith("## PyTorch 2.13 Release Blog") and "pytorch-2.13-release-blog.txt:" in text


async def test_full_detail_and_the_budget(bundled_index: Path) -> None:
    async with session("--index", str(bundled_index)) as client:
        args = {"question": "what changed for MPS in 2.14?", "top_k": 10}
        cards = (await client.call_tool("ask_release_notes", args)).structured_content
        full = (await client.call_tool("ask_release_notes", {**args, "detail": "full", "max_chars": 200_000})).structured_content
        assert max(len(p["text"]) for p in full["passages"]) > max(len(p["text"]) for p in cards["passages"])
        small = (await client.call_tool("ask_release_notes", {**args, "max_chars": 1000})).structured_content
        assert len(json.dumps(small, ensure_ascii=False)) <= 1000 and small["omitted"] >= 1
        kept = {p["rank"] for p in small["passages"]}
        assert {s["passage"] for s in (small["answer"] or {}).get("sentences", [])} <= kept


@pytest.mark.parametrize(("arguments", "needle"), [
    ({"question": "nccl2", "top_k": -1}, "top_k must be a whole number from 1 to 50, got -1"),
    ({"question": ""}, "question must be a non-empty string"),
    ({"question": "   "}, "question must be a non-empty string"),
    ({"question": "nccl2", "product": "pydantic"}, "The corpus holds no product 'pydantic'; it has: PyTorch"),
    ({"question": "nccl2", "release": "9.9"}, "The corpus holds no release 9.9"),
    ({"question": "nccl2", "kind": "bugs"}, "unknown kind 'bugs'"),
], ids=["negative-top-k", "empty", "blank", "unknown-product", "unknown-release", "unknown-kind"])
async def test_bad_arguments_are_tool_errors_the_model_can_read(bundled_index: Path, arguments, needle) -> None:
    async with session("--index", str(bundled_index)) as client:
        result = await client.call_tool("ask_release_notes", arguments)
        assert result.is_error and needle in result.content[0].text
        again = await client.call_tool("ask_release_notes", {"question": "nccl2 backend"})  # the server lives on
        assert not again.is_error


BOUNDS = [  # (tool, arguments, the whole message after the SDK's "Error executing tool NAME: ")
    ("ask_release_notes", {"question": "nccl2", "max_chars": 600},
     "max_chars must be a whole number from 1000 to 200000, got 600"),
    ("ask_release_notes", {"question": "nccl2", "max_chars": 200_001},
     "max_chars must be a whole number from 1000 to 200000, got 200001"),
    ("ask_release_notes", {"question": "nccl2", "top_k": 51}, "top_k must be a whole number from 1 to 50, got 51"),
    ("ask_release_notes", {"question": "nccl2", "top_k": "five"}, "top_k must be a whole number from 1 to 50, got 'five'"),
    ("ask_release_notes", {"question": "nccl2", "detail": "all"}, "detail must be one of cards, full, got 'all'"),
    ("ask_release_notes", {"question": 7}, "question must be a non-empty string, e.g. 'which release added X?'"),
    ("ask_release_notes", {"question": "nccl2", "release": 2.14}, "release must be a string or null, got 2.14"),
    ("search_release_notes", {"query": "nccl2", "top_k": 0}, "top_k must be a whole number from 1 to 50, got 0"),
    ("search_release_notes", {"query": ""}, "query must be a non-empty string, e.g. 'MPS kernels'"),
    ("search_release_notes", {"query": "nccl2", "max_chars": 999},
     "max_chars must be a whole number from 1000 to 200000, got 999"),
    ("list_releases", {"max_chars": 10}, "max_chars must be a whole number from 1000 to 200000, got 10"),
    ("release_changes", {"product": "PyTorch", "since": "2.9", "until": "2.14", "max_chars": 600},
     "max_chars must be a whole number from 1000 to 200000, got 600"),
    ("release_changes", {"product": "PyTorch", "since": 2.9, "until": "2.14"},
     "since must be a string, got 2.9"),
    ("release_changes", {"product": "PyTorch", "since": "2.9", "until": "2.14", "kinds": "bugs"},
     "unknown kind 'bugs'"),
]


async def test_every_bound_and_type_is_a_tool_error_in_our_words(bundled_index: Path) -> None:
    """A bad argument is said as the HTTP API says it (qa.serving.api), never as pydantic's
    validation report with its link to a website; the schema still gives the bounds."""
    async with session("--index", str(bundled_index)) as client:
        schema = {t.name: t.input_schema for t in (await client.list_tools()).tools}
        for name in ("ask_release_notes", "search_release_notes", "list_releases", "release_changes"):
            bound = schema[name]["properties"]["max_chars"]
            assert (bound["type"], bound["minimum"], bound["maximum"], bound["default"]) == ("integer", 1000, 200_000, 8000)
        assert schema["ask_release_notes"]["properties"]["top_k"]["maximum"] == 50
        assert schema["ask_release_notes"]["properties"]["detail"]["enum"] == ["cards", "full"]
        assert schema["ask_release_notes"]["properties"]["question"]["minLength"] == 1
        for tool, arguments, message in BOUNDS:
            result = await client.call_tool(tool, arguments)
            text = result.content[0].text
            assert result.is_error, (tool, arguments)
            assert message in text, (tool, arguments, text)
            assert "pydantic" not in text and "http" not in text and "validation error" not in text, text
            assert text.count("\n") == 0, text  # one line


async def test_a_backwards_range_and_an_unknown_release_resource(bundled_index: Path) -> None:
    async with session("--index", str(bundled_index)) as client:
        result = await client.call_tool("release_changes", {"product": None, "since": "2.14", "until": "2.9"})
        assert result.is_error and "until 2.9 is not after since 2.14" in result.content[0].text
        with pytest.raises(Exception, match="no release 3.0"):
            await client.read_resource("relnotes://PyTorch/3.0")


async def test_a_corpus_that_fails_to_open_is_said_on_every_call(tmp_path: Path) -> None:
    """The handshake still works; each tool call then says why the index could not open."""
    async with session("--index", str(tmp_path / "none"), "--no-update") as client:
        result = await client.call_tool("list_releases", {})
        assert result.is_error and "relnotes index" in result.content[0].text


def test_a_bad_corpus_path_is_one_line_and_exit_1(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "qa", "mcp", "--corpus", str(tmp_path / "nope")],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=server_env())
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"error: {tmp_path / 'nope'}: no such file or directory; check the --corpus path"]


def test_stdout_carries_only_the_protocol(bundled_index: Path) -> None:
    """Every stdout line is a JSON-RPC message (the SDK's client would drop a stray print silently)."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "ask_release_notes", "arguments": {"question": "nccl2 backend"}}},
    ]
    process = subprocess.Popen([sys.executable, "-m", "qa", "mcp", "--index", str(bundled_index)], env=server_env(),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        lines = []
        for message in messages:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
            if "id" in message:
                while True:
                    line = process.stdout.readline()
                    assert line, "the server closed stdout"
                    lines.append(line)
                    if json.loads(line).get("id") == message["id"]:
                        break
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    replies = [json.loads(line) for line in lines]  # each line parses: no log line, no stray print
    assert all(r.get("jsonrpc") == "2.0" for r in replies)
    assert replies[-1]["result"]["structuredContent"]["passages"][0]["citation"]["version"] == "2.14"


def test_nothing_heavy_is_imported_before_the_handshake() -> None:
    """The server object exists before torch, faiss, sentence-transformers or onnxruntime load."""
    code = (
        "import sys\n"
        "from qa.serving.background import BackgroundService\n"
        "from qa.mcp.server import build_server\n"
        "build_server(BackgroundService(lambda: None))\n"
        "heavy = [m for m in ('torch', 'faiss', 'sentence_transformers', 'onnxruntime', 'numpy', 'index.retrieve.reader')"
        " if m in sys.modules]\n"
        "print(heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
