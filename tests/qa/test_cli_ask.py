"""``relnotes ask`` / ``batch`` / ``eval`` end to end on the bundled index."""

from __future__ import annotations

import os
import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from qa.cli import cli
from tests.support.paths import DATA, QUESTION_SETS


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def test_ask_prints_answer_and_citations(bundled_index: Path) -> None:
    result = run("ask", "which release added deterministic FlexAttention backward?", "--index", str(bundled_index))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Answer: ")
    assert "Earliest release with strong evidence: 2.13" in result.output
    assert "[1] 2.13 · performance · PyTorch 2.13 Release Blog › Performance Improvements › Deterministic Backward" in result.output
    assert "corpus/data/pytorch-2.13-release-blog.txt:" in result.output
    assert "\x1b[" not in result.output  # no colour when stdout is not a terminal


def test_ask_json_follows_the_batch_schema(bundled_index: Path) -> None:
    result = run("ask", "nccl2 backend in 2.14", "--index", str(bundled_index), "--json", "-k", "3")
    record = json.loads(result.output)
    assert record["releases"] == ["2.14"] and len(record["passages"]) == 3
    assert set(record) >= {"id", "question", "releases", "answer", "passages", "timings_ms"}
    p = record["passages"][0]
    assert set(p) >= {"rank", "score", "text", "citation"} and p["rank"] == 1
    assert set(p["citation"]) == {"document", "title", "product", "version", "section", "source", "lines", "url", "kind",
                                  "body_field"}
    assert record["answer"]["text"].count("[") == len(record["answer"]["sentences"])
    for s in record["answer"]["sentences"]:
        assert s["text"] in record["passages"][s["passage"] - 1]["text"]


def test_markup_in_documents_is_printed_literally() -> None:
    from rich.console import Console

    from qa.model import Answer, AnswerSentence, Citation, Passage
    from qa.present.terminal import render_answer

    hostile = "[bold]DANGER[/bold] see [link=file:///etc/passwd]x[/] and \x1b]8;;evil\x1b\\"
    citation = Citation("d", "T [red]1[/red]", "P", "1.0", ("T", "[i]head[/i]"), "notes.md", (1, 2), None)
    answer = Answer("q", "q", (), "bm25", (Passage(1, "c1", hostile, 1.0, citation),),
                    (AnswerSentence("[bold]DANGER[/bold] see", 1),), True)
    out = Console(file=io.StringIO(), force_terminal=True, width=200)
    render_answer(answer, out)
    text = out.file.getvalue()
    assert "[bold]DANGER[/bold]" in text and "[link=file:///etc/passwd]x[/]" in text
    assert "[i]head[/i]" in text
    assert "\x1b]8;;evil" not in text and "\\x1b]8;;evil" in text  # escapes are shown, not sent


def test_ask_unknown_release_and_bad_question(bundled_index: Path) -> None:
    result = run("ask", "what is new in 2.11", "--index", str(bundled_index))
    assert result.exit_code == 0 and "The corpus holds no release 2.11" in result.output
    result = run("ask", "   ", "--index", str(bundled_index))
    assert result.exit_code == 1 and result.output.startswith("error: The question is empty")
    result = run("ask", "x", "--index", str(bundled_index), "--mode", "magic")
    assert result.exit_code == 2


QUESTIONS = 'lu_factor speedup on mps\n\n{"id": "n2", "question": "nccl2 backend", "other": 1}\nwhat is torch.switch\n'


@pytest.mark.parametrize("fmt", ["jsonl", "json", "csv", "trec", "markdown"])
def test_batch_formats(bundled_index: Path, fmt: str) -> None:
    result = run("batch", "-", "--index", str(bundled_index), "--format", fmt, "-k", "3", "--mode", "bm25",
                 stdin=QUESTIONS)
    assert result.exit_code == 0, result.output
    out = result.stdout
    if fmt == "jsonl":
        rows = [json.loads(line) for line in out.splitlines()]
        assert [r["id"] for r in rows] == ["1", "n2", "4"]
    elif fmt == "json":
        assert [r["id"] for r in json.loads(out)] == ["1", "n2", "4"]
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(out)))
        assert [(r["id"], r["rank"]) for r in rows] == [(q, str(n)) for q in ("1", "n2", "4") for n in (1, 2, 3)]
        assert os.path.isabs(rows[0]["source"]) and "/corpus/data/" in rows[0]["source"]
    elif fmt == "trec":
        lines = [line.split() for line in out.splitlines()]
        assert len(lines) == 9 and all(len(p) == 6 and p[1] == "Q0" and p[5] == "relnotes-bm25" for p in lines)
        assert [p[0] for p in lines] == ["1"] * 3 + ["n2"] * 3 + ["4"] * 3
    else:
        assert out.startswith("# relnotes answers") and "## n2: nccl2 backend" in out


def test_batch_file_input(bundled_index: Path, tmp_path: Path) -> None:
    path = tmp_path / "q.txt"
    path.write_text(QUESTIONS)
    result = run("batch", str(path), "--index", str(bundled_index), "--mode", "bm25", "-k", "1")
    assert [json.loads(x)["id"] for x in result.stdout.splitlines()] == ["1", "n2", "4"]


BAD_LINES = {
    "json": ('ok question\n{"question": "x",\n', "line 2: invalid JSON"),
    "no-question": ('ok question\n{"id": "a"}\n', "line 2: no question"),
    "too-long": ("ok question\n" + "y" * 3000 + "\n", "line 2: The question is 3,000 characters long"),
    "control": ("ok question\nbad \x1b[31m escape\n", "line 2: The question holds control characters"),
}


@pytest.mark.parametrize("kind", BAD_LINES, ids=list(BAD_LINES))
def test_batch_bad_line_stops_before_answering(bundled_index: Path, kind: str) -> None:
    text, needle = BAD_LINES[kind]
    result = run("batch", "-", "--index", str(bundled_index), "--mode", "bm25", stdin=text)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.strip() == f"error: stdin {needle}" or needle in result.stderr
    skipped = run("batch", "-", "--index", str(bundled_index), "--mode", "bm25", "--skip-bad", stdin=text)
    assert skipped.exit_code == 0 and "skipped: stdin line 2" in skipped.stderr
    assert [json.loads(x)["id"] for x in skipped.stdout.splitlines()] == ["1"]


def test_batch_unreadable_file(tmp_path: Path) -> None:
    result = run("batch", str(tmp_path / "missing.txt"))
    assert result.exit_code == 1 and "missing.txt" in result.output and "Traceback" not in result.output


def test_eval_reports_every_mode_and_enforces_floors(bundled_index: Path, tmp_path: Path) -> None:
    qs = tmp_path / "q.jsonl"
    qs.write_text(
        '{"id": "a", "question": "lu_factor speedup on mps", "version": "2.14", "answer": "lu_factor", "kind": "lexical"}\n'
        '{"id": "b", "question": "nccl2 backend", "version": "2.14", "section": "nccl2 Backend", "kind": "lexical"}\n'
    )
    result = run("eval", str(qs), "--index", str(bundled_index), "--mode", "bm25,hybrid", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["modes"]) == {"bm25", "hybrid"} and data["questions"] == 2
    assert set(data["modes"]["bm25"]["metrics"]) == {"hit@1", "hit@5", "hit@10", "MRR@10", "nDCG@10"}
    plot = tmp_path / "hit.png"
    table = run("eval", str(qs), "--index", str(bundled_index), "--mode", "bm25", "--k", "1,3", "--plot", str(plot))
    assert "| hit@3 |" in table.stdout and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    strict = run("eval", str(qs), "--index", str(bundled_index), "--mode", "bm25", "--min-mrr", "1.01")
    assert strict.exit_code == 1 and "below --min-mrr 1.01" in strict.output
    bad = run("eval", str(qs), "--index", str(bundled_index), "--mode", "bm25,fuzzy")
    assert bad.exit_code == 2 and "hybrid, bm25, dense" in bad.output


@pytest.mark.parametrize(
    "name, floors",
    [("pytorch.jsonl", (0.77, 0.93, 0.83)), ("pytorch-fresh.jsonl", (0.81, 0.98, 0.89)),
     ("pytorch-heldout.jsonl", (0.81, 0.95, 0.87))],
    ids=["shipped", "fresh", "heldout"],
)
def test_bundled_question_set_floor(bundled_index: Path, name: str, floors: tuple[float, float, float]) -> None:
    """A shipped question set through the engine, hybrid: floors (hit@1, hit@5, MRR@10) that fail on regressions."""
    result = run("eval", str(QUESTION_SETS / name), "--index", str(bundled_index),
                 "--mode", "bm25,hybrid", "--json")
    modes = json.loads(result.stdout)["modes"]
    hybrid, bm25 = modes["hybrid"]["metrics"], modes["bm25"]["metrics"]
    hit1, hit5, mrr = floors
    assert hybrid["hit@1"] >= hit1 and hybrid["hit@5"] >= hit5 and hybrid["MRR@10"] >= mrr
    assert hybrid["MRR@10"] > bm25["MRR@10"] and hybrid["nDCG@10"] > bm25["nDCG@10"]


BEIR_MINI = DATA / "beir-mini"


def test_eval_beir_indexes_the_dataset_and_scores_documents(tmp_path: Path) -> None:
    result = run("eval", "--beir", str(BEIR_MINI), "--index", str(tmp_path / "idx"), "--mode", "bm25,hybrid", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["queries"] == 2 and data["split"] == "test"  # the unjudged query is left out
    for mode in ("bm25", "hybrid"):
        metrics = data["modes"][mode]["metrics"]
        assert metrics["hit@1"] == 1.0 and metrics["nDCG@10"] == pytest.approx(1.0) and metrics["Recall@100"] == 1.0


def test_eval_needs_exactly_one_of_questions_and_beir(tmp_path: Path) -> None:
    assert run("eval").exit_code == 2
    both = run("eval", str(tmp_path / "q.jsonl"), "--beir", str(BEIR_MINI))
    assert both.exit_code == 2 and "one of them" in both.output
    missing = run("eval", "--beir", str(tmp_path), "--index", str(tmp_path / "idx"))
    assert missing.exit_code == 1 and "No corpus.jsonl in" in missing.output
    split = run("eval", "--beir", str(BEIR_MINI), "--split", "dev", "--index", str(tmp_path / "idx"))
    assert split.exit_code == 1 and "dev.tsv" in split.output


def test_ask_release_option_restricts_passages(bundled_index: Path) -> None:
    result = run("ask", "FlexAttention", "--index", str(bundled_index), "--release", "2.9", "--json", "-k", "4")
    record = json.loads(result.stdout)
    assert record["releases"] == ["2.9"] and {p["citation"]["version"] for p in record["passages"]} == {"2.9"}
    batch = run("batch", "-", "--index", str(bundled_index), "--release", "2.13", "--mode", "bm25", "-k", "3",
                stdin="FlexAttention\n")
    assert {p["citation"]["version"] for p in json.loads(batch.stdout)["passages"]} == {"2.13"}


def test_ask_on_a_user_corpus_builds_its_index_first(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "CHANGELOG.md").write_text(
        "# Changelog\n\n## v1.2.0\n\n### Features\n\nThe frobnicator now caches widgets between runs.\n\n"
        "## v1.1.0\n\n### Features\n\nAdded the frobnicator, a tool that tunes widgets.\n"
    )
    result = run("ask", "which release added the frobnicator?", "--corpus", str(notes), "--index",
                 str(tmp_path / "idx"), "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["earliest_release"] == "1.1.0"
    assert record["passages"][0]["citation"]["source"].endswith("CHANGELOG.md")
    assert record["passages"][0]["citation"]["section"][-2:] == ["v1.1.0", "Features"]
    missing = run("ask", "x", "--index", str(tmp_path / "none"), "--corpus", str(notes), "--no-update")
    assert missing.exit_code == 1 and "relnotes index" in missing.output


def history_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def test_ask_records_every_question_unless_no_history(bundled_index: Path) -> None:
    from qa.history import default_path

    path = default_path()  # in the test's own XDG_DATA_HOME
    first = run("ask", "nccl2 backend in 2.14", "--index", str(bundled_index), "--mode", "bm25")
    assert first.exit_code == 0, first.output
    run("ask", "ROCm wheels", "--index", str(bundled_index), "--mode", "bm25", "--no-history")
    run("ask", "   ", "--index", str(bundled_index), "--mode", "bm25")  # refused: not recorded
    run("batch", "-", "--index", str(bundled_index), "--mode", "bm25", stdin="FlexAttention\n")  # batch: not recorded
    records = history_lines(path)
    assert [(r["question"], r["asked_as"], r["releases"]) for r in records] == [
        ("nccl2 backend in 2.14", "nccl2 backend in 2.14", ["2.14"])]
    assert records[0]["time"].endswith("+00:00")


def test_ask_follow_up_reads_the_last_question(bundled_index: Path, tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "history.jsonl"
    monkeypatch.setenv("RELNOTES_HISTORY", str(path))
    index = ("--index", str(bundled_index), "--mode", "bm25")
    assert run("ask", "what changed for MPS in 2.14?", *index).exit_code == 0
    result = run("ask", "--follow-up", "and in 2.13?", *index, "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["question"] == "and in 2.13?"  # as typed
    assert record["asked_as"] == "what changed for MPS in 2.13"  # as understood
    assert record["releases"] == ["2.13"] and {p["citation"]["version"] for p in record["passages"]} == {"2.13"}
    shown = run("ask", "--follow-up", "how do I enable it?", *index)
    assert shown.exit_code == 0, shown.output
    assert "asked as: how do I enable MPS?" in shown.stdout and "releases: 2.13" in shown.stdout
    assert "release 2.13, kept from the previous question" in shown.stderr
    explicit = run("ask", "--follow-up", "what about ROCm?", *index, "--release", "2.9", "--json")
    record = json.loads(explicit.stdout)
    assert record["asked_as"] == "how do I enable ROCm" and record["releases"] == ["2.9"]
    assert "from the previous question" not in explicit.stderr
    assert [(r["question"], r["asked_as"], r["releases"]) for r in history_lines(path)] == [
        ("what changed for MPS in 2.14?", "what changed for MPS in 2.14?", ["2.14"]),
        ("and in 2.13?", "what changed for MPS in 2.13", ["2.13"]),
        ("how do I enable it?", "how do I enable MPS?", ["2.13"]),
        ("what about ROCm?", "how do I enable ROCm", ["2.9"]),
    ]


def test_ask_follow_up_keeps_the_range_of_the_last_question(bundled_index: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RELNOTES_HISTORY", str(tmp_path / "history.jsonl"))
    index = ("--index", str(bundled_index), "--mode", "bm25")
    assert run("ask", "what changed from 2.9 to 2.13?", *index).exit_code == 0
    result = run("ask", "--follow-up", "and for MPS?", *index, "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["asked_as"] == "what changed for MPS"
    assert record["range"] == {"since": "2.9", "until": "2.13", "until_inclusive": True, "since_inclusive": False}
    assert record["passages"] and {p["citation"]["version"] for p in record["passages"]} == {"2.13"}  # not 2.14's
    assert "releases after 2.9 up to 2.13, kept from the previous question" in result.stderr


def test_ask_follow_up_without_history_asks_on_its_own(bundled_index: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RELNOTES_HISTORY", str(tmp_path / "history.jsonl"))
    result = run("ask", "--follow-up", "how fast is it?", "--index", str(bundled_index), "--mode", "bm25", "--json",
                 "--no-history")
    assert result.exit_code == 0, result.output
    assert "No earlier question in the history" in result.stderr
    assert json.loads(result.stdout)["asked_as"] == "how fast is it?"
    assert not (tmp_path / "history.jsonl").exists()


def test_an_unusable_history_warns_and_answers(bundled_index: Path, tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "history-is-a-folder"
    folder.mkdir()
    monkeypatch.setenv("RELNOTES_HISTORY", str(folder))
    result = run("ask", "--follow-up", "nccl2 backend", "--index", str(bundled_index), "--mode", "bm25", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["question"] == "nccl2 backend"
    warnings = [line for line in result.stderr.splitlines() if "question history" in line]
    assert len(warnings) == 1 and warnings[0].startswith(f"Cannot read the question history {folder}")


def test_kind_filters_the_answer_and_shows_on_each_citation(bundled_index: Path) -> None:
    result = run("ask", "what got faster", "--index", str(bundled_index), "--mode", "bm25", "--kind", "performance",
                 "--json", "--no-history")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["kinds"] == ["performance"] and record["passages"]
    assert {p["citation"]["kind"] for p in record["passages"]} == {"performance"}
    text = run("ask", "what got faster", "--index", str(bundled_index), "--mode", "bm25", "--kind", "perf", "--no-history")
    assert text.exit_code == 0 and "kinds: performance" in text.stdout and " · performance · " in text.stdout
    bad = run("ask", "what got faster", "--index", str(bundled_index), "--kind", "nope")
    assert bad.exit_code == 2 and "unknown kind 'nope'; use one of: added" in bad.output


@pytest.mark.parametrize("extra", [(), ("--json",)], ids=["text", "json"])
def test_a_closed_pipe_ends_quietly(bundled_index: Path, extra: tuple[str, ...]) -> None:
    """``relnotes ask ... | head``: the reader stopped reading; no message, exit 0 or 141 (128 + SIGPIPE)."""
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "qa", "ask", "what changed for MPS in 2.14?", "--index",
                                str(bundled_index), "--mode", "bm25", "--no-history", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=bundled_index.parent)
    process.stdout.close()  # the reader is gone before a byte is written
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) in (0, 141) and stderr == ""
