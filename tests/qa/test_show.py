"""``relnotes show``: a citation as printed, or a chunk id, opens the cited lines from any folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from qa.cli import cli


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_printed_citation_shows_its_lines_from_another_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # corpus/data/... does not exist here: the corpus resolves it
    result = run("show", "corpus/data/pytorch-2.14-release-blog.json:304-306 (body_md)")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("PyTorch 2.14 Release Blog · 2.14 · /")  # the absolute path of the bundled copy
    assert lines[0].endswith("/corpus/data/pytorch-2.14-release-blog.json:304-306 (lines of its decoded body_md)")
    assert lines[1].startswith("304 │ torchcomms arrived in 2.13") and lines[-1].startswith("306 │ c10d backend")
    text = run("show", "corpus/data/pytorch-2.13-release-blog.txt:32")
    assert text.exit_code == 0 and text.stdout.splitlines()[1].startswith("32 │ This improvement focuses on correctness")


def test_a_corpus_given_by_a_relative_path_prints_paths_that_open_from_anywhere(tmp_path: Path, monkeypatch) -> None:
    notes = tmp_path / "project" / "notes"
    notes.mkdir(parents=True)
    (notes / "CHANGES.md").write_text("# Tool 2.0\n\n## Fixes\n\n- Fixed the frobnicator.\n")
    monkeypatch.chdir(tmp_path / "project")
    result = run("sections", "--corpus", "notes", "--json")
    assert result.exit_code == 0, result.output
    (doc,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert doc["source"] == str(notes / "CHANGES.md")  # not "notes/CHANGES.md", which resolves only here
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert Path(doc["source"]).is_file()
    shown = run("show", f"{doc['source']}:5", "--corpus", str(notes))
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines()[1] == "5 │ - Fixed the frobnicator."


def test_a_citation_of_an_indexed_corpus_opens_from_another_folder_without_corpus(tmp_path: Path, monkeypatch) -> None:
    notes = tmp_path / "project" / "notes"
    notes.mkdir(parents=True)
    (notes / "CHANGES.md").write_text("# Tool 2.0\n\n## Fixes\n\n- Fixed the frobnicator.\n")
    monkeypatch.chdir(tmp_path / "project")
    built = run("index", "--corpus", "notes", "--quiet")
    assert built.exit_code == 0, built.output
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    absolute = run("show", f"{notes / 'CHANGES.md'}:5")  # as relnotes printed it: no --corpus needed
    assert absolute.exit_code == 0, absolute.output
    assert absolute.stdout.splitlines()[1] == "5 │ - Fixed the frobnicator."
    relative = run("show", "notes/CHANGES.md:5")  # not a file here: the index in the cache knows it
    assert relative.exit_code == 0, relative.output
    assert relative.stdout.splitlines()[0].endswith(f"{notes / 'CHANGES.md'}:5-5")
    missing = run("show", "notes/OTHER.md:5")
    assert missing.exit_code == 1 and "--corpus PATH" in missing.output


def test_a_chunk_id_from_ask_json_shows_the_chunk(bundled_index: Path) -> None:
    record = json.loads(run("ask", "nccl2 backend", "--index", str(bundled_index), "--json", "--no-history").stdout)
    passage = record["passages"][0]
    result = run("show", passage["chunk_id"], "--index", str(bundled_index))
    assert result.exit_code == 0, result.output
    first, *rest = result.stdout.splitlines()
    start, end = passage["citation"]["lines"]
    assert f"{passage['citation']['source']}:{start}-{end}" in first
    assert rest[0].startswith(f"{start} │ ") and len(rest) == len(passage["text"].split("\n"))


@pytest.mark.parametrize(("citation", "needle"), [
    ("nowhere.md:1-2", "nowhere.md: neither the bundled notes nor any index in the cache hold this file"),
    ("corpus/data/pytorch-2.13-release-blog.txt:5000-5001", "lines 5000-5001 are past its end"),
    ("just words", "'just words' is no citation; give PATH:START-END as printed"),
    ("corpus/data/pytorch-2.13-release-blog.txt:9-3", "give START-END with START <= END"),
])
def test_bad_citations_are_one_line_and_exit_1(citation: str, needle: str) -> None:
    result = run("show", citation)
    assert result.exit_code == 1 and needle in result.output and len(result.output.splitlines()) == 1
