"""A corpus never indexed answers at once by BM25, and says so, in every front end; once its
vectors are in place answers are hybrid, without a restart (the real bundled model)."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

from click.testing import CliRunner
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from index import open_index
from index.build import embedding
from qa.cli import cli
from qa.service import AnswerService
from qa.staging import VectorsToCome

DATA = Path(__file__).resolve().parent.parent / "data"
CORPUS = [DATA / "changelog-rust-mini.md", DATA / "changelog-pydantic-mini.md"]
QUESTION = "uncaught panics in extern C functions"


def dense_notes(answer) -> list:
    return [n for n in answer.notes if n.kind in ("dense_pending", "dense_building")]


def wait_until(condition, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_ask_on_a_new_corpus_answers_by_bm25_and_says_so_then_index_finishes_it(tmp_path: Path) -> None:
    args = ["--index", str(tmp_path / "idx"), *(a for p in CORPUS for a in ("--corpus", str(p))), "--no-history"]
    runner = CliRunner()
    first = runner.invoke(cli, ["ask", QUESTION, *args])
    assert first.exit_code == 0, first.output
    command = f"relnotes index {' '.join(f'--corpus {p}' for p in CORPUS)} --index {tmp_path / 'idx'}"
    assert f"Answered by BM25 alone: dense retrieval is not built yet; run `{command}` to build it." in first.output
    assert "Building the BM25 part of the index at" in first.output  # said on stderr
    record = json.loads(runner.invoke(cli, ["ask", QUESTION, *args, "--json"]).stdout)
    assert record["mode"] == "bm25" and record["notes"][-1] == {"kind": "dense_pending", "command": command}
    assert record["passages"][0]["citation"]["source"].endswith("changelog-rust-mini.md")
    refused = json.loads(runner.invoke(cli, ["ask", "what's new in django 5?", *args, "--json"]).stdout)
    assert [n["kind"] for n in refused["notes"]] == ["product_not_held"]  # nothing answered, by BM25 or not
    assert not (tmp_path / "idx" / "vectors.faiss").exists()  # nothing kept running or built them
    status = runner.invoke(cli, ["status", "--index", str(tmp_path / "idx"), *args[2:-1]])
    assert f"vectors:   not built yet (questions are answered by BM25); build them with: {command}" in status.stdout
    assert "state:     up to date" in status.stdout

    built = runner.invoke(cli, ["index", "--index", str(tmp_path / "idx"), *(a for p in CORPUS for a in ("--corpus", str(p)))])
    assert built.exit_code == 0, built.output
    assert "Building the vectors of the index at" in built.output
    record = json.loads(runner.invoke(cli, ["ask", QUESTION, *args, "--json"]).stdout)
    assert record["mode"] == "hybrid" and not [n for n in record["notes"] if n["kind"].startswith("dense")]


def test_changes_and_show_on_a_new_corpus_build_only_the_bm25_part(tmp_path: Path) -> None:
    corpus = [a for p in CORPUS for a in ("--corpus", str(p))]
    runner = CliRunner()
    digest = runner.invoke(cli, ["changes", "Rust", "1.80.0", "1.81.0", "--index", str(tmp_path / "idx"), *corpus])
    assert digest.exit_code == 0, digest.output
    assert "Building the BM25 part of the index at" in digest.output and "Answered by BM25 alone" in digest.output
    assert not (tmp_path / "idx" / "vectors.faiss").exists()
    chunk = json.loads((tmp_path / "idx" / "chunks.jsonl").read_text(encoding="utf-8").splitlines()[0])["id"]
    shown = runner.invoke(cli, ["show", chunk, "--index", str(tmp_path / "other"), *corpus])
    assert shown.exit_code == 0, shown.output
    assert "Building the BM25 part of the index at" in shown.output
    assert not (tmp_path / "other" / "vectors.faiss").exists()


def test_an_ask_during_a_build_is_answered_by_bm25_then_the_service_switches_to_hybrid(
        tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(embedding, "PIECE", 4)  # several pieces: some are kept while the build waits
    directory = tmp_path / "idx"
    service = AnswerService.open(CORPUS, directory, staged=True)
    halfway, go_on, totals = threading.Event(), threading.Event(), []

    def build(progress):  # the service's own build (open_index without staged), held at half way
        def step(done: int, total: int, what: str = "") -> None:
            progress(done, total, what)
            totals.append(total)
            if done >= total // 2 and not go_on.is_set():
                halfway.set()
                assert go_on.wait(120)

        return open_index(CORPUS, index_dir=directory, progress=step)

    service.coming = VectorsToCome(directory, build)
    service.build_vectors()
    assert halfway.wait(120)
    during = service.ask(QUESTION, top_k=3)
    assert during.mode == "bm25" and during.passages
    [note] = dense_notes(during)
    assert note.kind == "dense_building" and note.total == totals[-1] and note.total // 2 <= note.count < note.total
    now = service.retrieval()
    assert now.mode == "bm25" and now.building and now.total == totals[-1]

    go_on.set()
    wait_until(lambda: service.retrieval().mode == "hybrid")
    after = service.ask(QUESTION, top_k=3)
    assert after.mode == "hybrid" and not dense_notes(after)
    assert after.passages[0].citation.source.endswith("changelog-rust-mini.md")


def test_vectors_built_by_another_process_switch_an_open_service_to_hybrid(tmp_path: Path) -> None:
    directory = tmp_path / "idx"
    service = AnswerService.open(CORPUS, directory, staged=True)
    before = service.ask(QUESTION)
    assert before.mode == "bm25" and [n.kind for n in dense_notes(before)] == ["dense_pending"]
    open_index(CORPUS, index_dir=directory)  # what `relnotes index` does in another terminal
    after = service.ask(QUESTION)
    assert after.mode == "hybrid" and not dense_notes(after) and service.retrieval().mode == "hybrid"


async def test_mcp_on_a_new_corpus_answers_by_bm25_while_the_vectors_build(tmp_path: Path) -> None:
    notes = tmp_path / "CHANGELOG.md"
    releases = [f"## 1.{r}.0\n\n" + "".join(f"- Added widget option {r}-{i} for the {i}th frobnicator mode.\n"
                                           for i in range(60)) for r in range(40, 0, -1)]
    notes.write_text("# Changelog\n\n" + "\n".join(releases), encoding="utf-8")  # minutes of vectors on 2 cores
    env = {n: os.environ[n] for n in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "PATH")
           if n in os.environ}
    params = StdioServerParameters(command=sys.executable, env=env,
                                   args=["-m", "qa", "mcp", "--corpus", str(notes), "--index", str(tmp_path / "idx")])
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as client:
                started = time.monotonic()
                await client.initialize()
                asked = await client.call_tool("ask_release_notes", {"question": "widget option 7-3"})
                waited = time.monotonic() - started
    record = asked.structured_content
    assert not asked.is_error and record["mode"] == "bm25"
    assert "dense retrieval is being built in the background" in record["note"]
    assert record["passages"][0]["citation"]["version"] == "1.7.0"
    assert waited < 30  # BM25 only: no embedding before the first answer


def test_hybrid_asked_by_name_waits_for_the_vectors_and_auto_does_not(tmp_path: Path) -> None:
    directory = tmp_path / "idx"
    service = AnswerService.open(CORPUS, directory, staged=True)
    auto = service.ask(QUESTION, top_k=3)  # auto: BM25 at once, said with the command for this corpus
    assert auto.mode == "bm25"
    [note] = dense_notes(auto)
    assert note.command == f"relnotes index {' '.join(f'--corpus {p}' for p in CORPUS)} --index {directory}"
    said: list[str] = []
    service.notify = said.append
    hybrid = service.ask(QUESTION, top_k=3, mode="hybrid")  # built on the service's thread, waited for
    assert hybrid.mode == "hybrid" and not dense_notes(hybrid)
    assert any("answers are hybrid now" in line for line in said)
    assert service.ask(QUESTION, top_k=3).mode == "hybrid"  # auto, once the vectors are in
