"""Hardening catalogue, safety (docs/hardening.md): no network, no unpickling, document and
question text never acts as markup (terminal, Markdown report), citations never leave the
corpus; plus the fusion property test."""

from __future__ import annotations

import json
import pickle
import re
import socket
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index.retrieve.fusion import FusionParams, fuse, minmax, rrf
from tests.conftest import NETWORK_ATTEMPTS, NetworkAccessError
from tests.support.hardening import cli, fake_model, run_child, write_notes  # noqa: F401 (fixture)

GUARDS = {"RELNOTES_TEST_GUARDS": "1"}


def test_the_socket_guard_refuses_every_connection() -> None:
    for attempt in (
        lambda: socket.create_connection(("127.0.0.1", 9), timeout=1),
        lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect(("127.0.0.1", 9)),
        lambda: socket.socket(socket.AF_INET6, socket.SOCK_STREAM).connect_ex(("::1", 9)),
    ):
        with pytest.raises(NetworkAccessError, match="relnotes must work offline"):
            attempt()
    assert len(NETWORK_ATTEMPTS) == 3
    NETWORK_ATTEMPTS.clear()  # expected here; any other test that connects fails at teardown


def test_with_loopback_allowed_only_loopback_connects(loopback) -> None:
    """The HTTP tests' servers listen on loopback; every other address is still refused."""
    with pytest.raises(ConnectionRefusedError):  # a real connect, to a port nobody listens on
        socket.create_connection(("127.0.0.1", 9), timeout=1)
    with pytest.raises(NetworkAccessError, match="relnotes must work offline"):
        socket.create_connection(("192.0.2.1", 80), timeout=1)
    with pytest.raises(NetworkAccessError):
        socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect(("10.0.0.1", 80))
    assert len(NETWORK_ATTEMPTS) == 2
    NETWORK_ATTEMPTS.clear()


def test_real_build_and_questions_open_no_socket_and_unpickle_nothing(tmp_path: Path) -> None:
    """The real model end to end in child processes whose guards end them at any connect or unpickling."""
    args = ["--corpus", str(write_notes(tmp_path / "notes")), "--index", str(tmp_path / "idx")]
    build = run_child(["index", *args, "--quiet"], env={**GUARDS, "RELNOTES_TEST_GUARD_TORCH": "1"})
    assert build.returncode == 0, build.stderr
    assert build.stdout.startswith("Indexed 2 documents, 3 chunks (3 windows embedded, 0 reused)")
    onnx = run_child(["ask", "which release added the frobnicator", *args, "--json", "--no-update"], env=GUARDS)
    assert onnx.returncode == 0, onnx.stderr
    assert json.loads(onnx.stdout)["passages"][0]["citation"]["version"] == "1.0"
    torch_path = run_child(["ask", "widget cache", *args, "--json", "--no-update"],
                           env={**GUARDS, "RELNOTES_TEST_GUARD_TORCH": "1", "RELNOTES_ONNX": "0"})
    assert torch_path.returncode == 0, torch_path.stderr  # sentence-transformers loads the model here
    assert json.loads(torch_path.stdout)["passages"]


def test_nothing_is_unpickled_in_process(tmp_path: Path, fake_model, monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("unpickling")

    class NoUnpickler:
        def __init__(self, *args, **kwargs):
            refuse()

    real_np_load = np.load

    def np_load(*args, allow_pickle=False, **kwargs):
        assert not allow_pickle, "np.load with allow_pickle"
        return real_np_load(*args, allow_pickle=False, **kwargs)

    for name, value in (("load", refuse), ("loads", refuse), ("Unpickler", NoUnpickler)):
        monkeypatch.setattr(pickle, name, value)
    monkeypatch.setattr(np, "load", np_load)
    args = ["--corpus", str(write_notes(tmp_path / "notes")), "--index", str(tmp_path / "idx")]
    assert cli("index", *args).exit_code == 0
    for mode in ("bm25", "dense", "hybrid"):
        assert cli("ask", "frobnicator", *args, "--mode", mode).exit_code == 0
        assert cli("search", "frobnicator", *args, "--mode", mode).exit_code == 0
    assert cli("batch", "-", *args, "--format", "json", stdin="frobnicator\nwidget cache\n").exit_code == 0
    assert cli("status", *args).exit_code == 0
    for path in (tmp_path / "idx").iterdir():  # and nothing on disk is a pickle
        assert not path.read_bytes().startswith(b"\x80"), path.name


HOSTILE_TEXT = (
    "[bold red]DANGER[/] see [link=file:///etc/passwd]here[/link] \x1b[2J\x1b]8;;https://evil.example\x1b\\click"
    "\x1b]8;;\x1b\\ and :smile: <script>alert(1)</script> <img src=x onerror=alert(1)> "
    "[md](javascript:alert(1)) **bold** &lt;b&gt;"
)


@pytest.fixture
def hostile(tmp_path: Path, fake_model) -> list[str]:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "evil.json").write_text(json.dumps({
        "title": "Tool 1.0 [bold]x[/bold] \x1b[31m",
        "url": "https://example.com/notes",
        "body_md": f"## Heading [i]styled[/i] <b>tag</b>\n\nFrobnicator news. {HOSTILE_TEXT}\n",
    }))
    return ["--corpus", str(notes), "--index", str(tmp_path / "idx")]


def test_document_text_is_never_markup_in_the_terminal(hostile, monkeypatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich styles on: a real terminal's output
    result = cli("ask", "frobnicator news", *hostile)
    assert result.exit_code == 0
    out = result.stdout
    assert "[bold red]DANGER[/] see [link=file:///etc/passwd]here[/link]" in out
    assert "Tool 1.0 [bold]x[/bold]" in out and "Heading [i]styled[/i]" in out and ":smile:" in out
    escapes = re.findall(r"\x1b[^m]*m?", out)
    assert escapes and all(re.fullmatch(r"\x1b\[[0-9;]*m", e) for e in escapes), escapes  # colours only
    assert "\\x1b]8;;https://evil.example" in out and "\\x1b[2J" in out  # shown, not sent
    sections = cli("sections", "--corpus", hostile[1])
    assert "\x1b" not in sections.stdout and "Tool 1.0 [bold]x[/bold] \\x1b[31m" in sections.stdout


def test_document_and_question_text_is_never_markup_in_the_markdown_report(hostile) -> None:
    from markdown_it import MarkdownIt

    stdin = json.dumps({"id": "<b>q1</b>", "question": "frobnicator news <img src=y> [x](javascript:y)"}) + "\n"
    result = cli("batch", "-", *hostile, "--format", "markdown", stdin=stdin)
    assert result.exit_code == 0
    tokens = MarkdownIt("commonmark").parse(result.stdout)

    def walk(ts):
        for t in ts:
            yield t
            yield from walk(t.children or [])

    kinds = {t.type for t in walk(tokens)}
    assert not kinds & {"html_block", "html_inline", "link_open", "image"}, kinds
    code = "".join(t.content for t in tokens if t.type == "fence")
    assert "Frobnicator news. [bold red]DANGER[/]" in code and "<img src=x onerror=alert(1)>" in code


def test_citation_paths_never_escape_the_corpus(tmp_path: Path, fake_model) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("# Secret 9.0\n\nSecret frobnicator text.\n")
    notes = tmp_path / "notes"
    (notes / "deep" / "er").mkdir(parents=True)
    (notes / "deep" / "er" / "a.md").write_text("# Tool 1.0\n\nFrobnicator in a subfolder.\n")
    (notes / "link.md").symlink_to(outside)
    (notes / "records.json").write_text(json.dumps([
        {"title": "Tool 2.0", "body": "Frobnicator record one.", "url": "file:///etc/passwd"},
        {"title": "Tool 2.1", "body": "Frobnicator record two.", "canonical_source": "javascript:alert(1)",
         "url": "https://example.com/2.1"},
        {"title": "Tool 2.2", "body": "Frobnicator record three.", "canonical_source": "../../etc/passwd"},
    ]))
    result = cli("ask", "frobnicator", "--corpus", notes, "--index", tmp_path / "idx", "--json", "-k", "10")
    citations = [p["citation"] for p in json.loads(result.stdout)["passages"]]
    assert len(citations) == 5
    for c in citations:
        rel = Path(c["source"]).relative_to(notes)  # raises if the citation points outside
        assert ".." not in rel.parts and not rel.is_absolute()
    assert {c["source"] for c in citations} == {str(notes / "deep" / "er" / "a.md"), str(notes / "link.md"),
                                                str(notes / "records.json")}
    assert {c["url"] for c in citations} == {None, "https://example.com/2.1"}  # no file:, javascript: or path


# -- property: fusion is a merge without duplicates, best first --------------------------------

RESULTS = st.lists(st.tuples(st.integers(0, 40), st.floats(-1e6, 1e6, allow_nan=False)), max_size=30)


@settings(max_examples=300, deadline=None)
@given(lexical=RESULTS, dense=RESULTS, method=st.sampled_from(["rrf", "minmax"]), depth=st.integers(1, 40),
       weights=st.tuples(st.floats(0, 10), st.floats(0, 10)))
def test_fusion_never_duplicates_and_sorts(lexical, dense, method, depth, weights) -> None:
    fused = fuse(lexical, dense, FusionParams(method=method, k=60, weights=weights, depth=depth))
    ids = [d for d, _ in fused]
    assert len(ids) == len(set(ids))
    assert set(ids) == {d for d, _ in lexical[:depth]} | {d for d, _ in dense[:depth]}
    scores = [s for _, s in fused]
    assert scores == sorted(scores, reverse=True) and all(np.isfinite(scores))


@settings(max_examples=200, deadline=None)
@given(rankings=st.lists(st.lists(st.integers(0, 30), max_size=30), max_size=4))
def test_rrf_and_minmax_are_permutation_free(rankings) -> None:
    for fused in (rrf(rankings), minmax([[(d, float(-i)) for i, d in enumerate(r)] for r in rankings], [1.0] * len(rankings))):
        ids = [d for d, _ in fused]
        assert len(ids) == len(set(ids)) and set(ids) == {d for r in rankings for d in r}
        assert [s for _, s in fused] == sorted((s for _, s in fused), reverse=True)

