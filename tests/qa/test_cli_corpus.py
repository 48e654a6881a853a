"""``relnotes sections`` / ``chunks``: output shape, ``--corpus NAME=PATH``, bad input as one line and exit 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from qa.cli import cli
from tests.support.paths import DATA


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_help_lists_the_commands() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for name in ("sections", "chunks", "index", "status", "search", "chat"):
        assert name in result.output


def test_sections_shows_every_bundled_document_with_its_version() -> None:
    result = run("sections")
    assert result.exit_code == 0, result.output
    assert "PyTorch 2.13 Release Blog  [PyTorch 2.13]" in result.output
    assert "PyTorch 2.14 Release Blog  [PyTorch 2.14]  /" in result.output
    assert "/corpus/data/pytorch-2.14-release-blog.json (body_md)" in result.output
    assert "PyTorch 2.9 Release Blog  [PyTorch 2.9]" in result.output
    assert "      Native Linear Algebra  7" in result.output


def test_sections_json_is_one_object_per_document() -> None:
    result = run("sections", "--json")
    docs = [json.loads(line) for line in result.output.splitlines()]
    assert sorted(d["version"] for d in docs) == ["2.13", "2.14", "2.14", "2.9"]
    blog = next(d for d in docs if d["body_field"] == "body_md")
    assert blog["url"] == "https://pytorch.org/blog/pytorch-2-14-release-blog/"
    paths = [tuple(s["path"]) for s in blog["sections"]]
    assert ("PyTorch 2.14 Release Blog", "Core Features", "Installation") in paths
    assert not any(p[1:2] in (("CPU",), ("CUDA",), ("ROCm",), ("XPU",)) for p in paths)


def test_chunks_jsonl_has_the_documented_fields() -> None:
    result = run("chunks", "--format", "jsonl")
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) >= 80  # section-sized chunks: 88 for the bundled corpus
    assert {"id", "document", "title", "version", "section", "text", "source", "lines"} <= rows[0].keys()
    assert len({r["id"] for r in rows}) == len(rows)
    assert all(r["lines"][0] <= r["lines"][1] for r in rows)


def test_chunks_of_a_user_folder(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# Tool 1.2\n\n## Fixes\n\nFixed the frobnicator crash on start.\n")
    rows = [json.loads(x) for x in run("chunks", "--corpus", str(tmp_path)).output.splitlines()]
    assert rows and rows[0]["version"] == "1.2" and rows[0]["section"][-1] == "Fixes"


BAD_INPUTS = {
    "missing": (None, "no such file"),
    "empty": (b"", "empty"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    "bad-utf8": (b"# Title\n\nfine line\n\xff\xfe broken \xc3\x28\n", "UTF-8"),
    "bad-json": (b'{"title": "x", "body_md": "y",\n  "oops"}', "line 2"),
    "no-body": (b'{"title": "PyTorch 9.9"}', "body"),
}


@pytest.mark.parametrize("kind", BAD_INPUTS, ids=list(BAD_INPUTS))
def test_bad_input_is_one_line_exit_1(tmp_path: Path, kind: str) -> None:
    content, needle = BAD_INPUTS[kind]
    path = tmp_path / (f"{kind}.json" if "json" in kind or kind == "no-body" else f"{kind}.md")
    if content is not None:
        path.write_bytes(content)
    result = CliRunner().invoke(cli, ["chunks", "--corpus", str(path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert path.name in lines[0] and needle.lower() in lines[0].lower()
    assert "Traceback" not in result.output


def test_skip_bad_reports_and_goes_on(tmp_path: Path) -> None:
    (tmp_path / "good.md").write_text("# Tool 1.2\n\nAdded the widget.\n")
    (tmp_path / "bad.md").write_bytes(b"\x00\x01binary")
    strict = CliRunner().invoke(cli, ["chunks", "--corpus", str(tmp_path)])
    assert strict.exit_code == 1 and strict.stdout == ""
    result = CliRunner().invoke(cli, ["chunks", "--corpus", str(tmp_path), "--skip-bad"])
    assert result.exit_code == 0
    assert "skipped:" in result.stderr and "bad.md" in result.stderr
    assert [json.loads(x)["title"] for x in result.stdout.splitlines()] == ["Tool 1.2"]


def test_python_dash_m_qa_runs(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "qa", "--help"], capture_output=True, text=True, check=True)
    assert "sections" in out.stdout


def sections_json(*args: str) -> list[dict]:
    result = CliRunner().invoke(cli, ["sections", "--json", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_corpus_name_equals_path_names_the_product() -> None:
    docs = sections_json("--corpus", f"Gizmo={DATA / 'projects' / 'node'}", "--corpus", str(DATA / "projects" / "py"),
                         "--corpus", f"rustc={DATA / 'changelog-rust-mini.md'}")
    assert [(Path(d["source"]).parent.name, d["product"]) for d in docs] == [
        ("docs", "Gizmo"), ("py", "widgetry"), ("data", "rustc")]


def test_github_releases_in_sections() -> None:
    docs = sections_json("--corpus", str(DATA / "github" / "httpx-releases.json"))
    assert [(d["title"], d["product"], d["version"], d["prerelease"]) for d in docs] == [
        ("Version 1.0.dev1", "httpx", "1.0.dev1", True), ("Version 0.28.1", "httpx", "0.28.1", False),
        ("Version 0.28.0", "httpx", "0.28.0", False)]
    text = run("sections", "--corpus", str(DATA / "github" / "httpx-releases.json")).output
    assert "Version 1.0.dev1  [httpx 1.0.dev1 pre-release]" in text and "[httpx 0.28.1]  " in text


def test_a_path_with_an_equals_sign_that_exists_is_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "tool=v2"
    folder.mkdir()
    (folder / "notes.md").write_text("# Tool 2.0\n\n## Fixes\n\nFixed the frobnicator.\n")
    monkeypatch.chdir(tmp_path)
    (doc,) = sections_json("--corpus", "tool=v2")
    assert (doc["source"], doc["product"]) == (str(folder / "notes.md"), "Tool")
    (named,) = sections_json("--corpus", "Frob=tool=v2")  # the name ends at the first "="
    assert (named["source"], named["product"]) == (str(folder / "notes.md"), "Frob")


@pytest.mark.parametrize("value", ["=notes", "httpx=", " =notes", "ht\x1btp=notes", "a\tb=notes"],
                         ids=["no-name", "no-path", "blank-name", "escape", "tab"])
def test_a_bad_name_equals_path_is_a_usage_error(tmp_path: Path, value: str) -> None:
    result = CliRunner().invoke(cli, ["sections", "--corpus", value])
    assert result.exit_code == 2
    (line,) = [ln for ln in result.output.splitlines() if ln.startswith("Error:")]
    assert "expected PATH or NAME=PATH" in line and "Traceback" not in result.output


def test_a_named_path_that_is_missing_is_one_line_exit_1() -> None:
    result = CliRunner().invoke(cli, ["chunks", "--corpus", "httpx=/nonexistent/notes"])
    assert result.exit_code == 1
    assert result.output.strip() == "error: /nonexistent/notes: no such file or directory; check the --corpus path"


@pytest.mark.parametrize("command", ["ask", "search", "batch", "changes", "chat", "eval", "index", "status", "mcp",
                                     "serve", "sections", "chunks"])
def test_skip_bad_is_accepted_wherever_corpus_is(command: str) -> None:
    result = CliRunner().invoke(cli, [command, "--help"])
    assert result.exit_code == 0 and "--corpus" in result.output and "--skip-bad" in result.output


def test_an_index_built_with_skip_bad_serves_later_commands_and_names_every_bad_file(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "CHANGES.md").write_text("# Tool 2.0\n\n## Fixes\n\n- Fixed the frobnicator.\n", encoding="utf-8")
    (notes / "bad1.md").write_bytes(b"Latin-1 text: caf\xe9 \x80\x81")
    (notes / "bad2.md").write_bytes(b"\x00\x01\x02")
    (notes / "empty.md").write_text("", encoding="utf-8")
    runner = CliRunner()
    stopped = runner.invoke(cli, ["ask", "frobnicator", "--corpus", str(notes), "--mode", "bm25", "--no-history"])
    assert stopped.exit_code == 1 and stopped.output.startswith("error: ") and "bad" in stopped.output  # as before
    built = runner.invoke(cli, ["index", "--corpus", str(notes), "--skip-bad"])
    assert built.exit_code == 0, built.output
    assert all(f"{name}:" in built.stderr for name in ("bad1.md", "bad2.md", "empty.md"))  # each one named
    for args in (["ask", "frobnicator", "--no-history"], ["search", "frobnicator"], ["batch", "-"]):
        later = runner.invoke(cli, [*args, "--corpus", str(notes), "--mode", "bm25"], input="frobnicator\n")
        assert later.exit_code == 0, later.output
        assert "Fixed the frobnicator" in later.stdout or "CHANGES.md:5-5" in later.stdout  # search: citations
        assert all(f"skipped: {notes / name}" in later.stderr for name in ("bad1.md", "bad2.md", "empty.md"))
    (notes / "bad3.md").write_bytes(b"\x00")  # a new bad file is not one the index was built without
    fresh = runner.invoke(cli, ["ask", "frobnicator", "--corpus", str(notes), "--mode", "bm25", "--no-history"])
    assert fresh.exit_code == 1 and "bad3.md" in fresh.output
    asked = runner.invoke(cli, ["ask", "frobnicator", "--corpus", str(notes), "--mode", "bm25", "--no-history",
                                "--skip-bad"])
    assert asked.exit_code == 0 and "skipped: " in asked.stderr and "bad3.md" in asked.stderr
