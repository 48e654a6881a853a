"""Hardening catalogue, files and Markdown oddities (docs/hardening.md): what ``relnotes`` does
with each bad or strange input, end to end through the CLI."""

from __future__ import annotations

import codecs
import json
import os
import time
import zipfile
from pathlib import Path

import pytest

from corpus import load_corpus, load_documents, parse_sections
from corpus.chunking import MODEL_MAX_TOKENS, embedding_windows, estimate_tokens
from tests.support.hardening import assert_one_error, cli, fake_model, open_dir, unprivileged  # noqa: F401 (fixtures)
from tests.support.invariants import check_invariants


def _zip_bytes(tmp: Path) -> bytes:
    with zipfile.ZipFile(tmp / "a.zip", "w") as z:
        z.writestr("notes.md", "# hidden\n")
    return (tmp / "a.zip").read_bytes()


# (file name, content, the whole error line after "error: {path}: ")
BAD_FILES = {
    "empty-file": ("notes.md", b"", "the file holds no text; add release notes to it or remove it"),
    "png-named-md": ("notes.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "looks like a PNG image, not text; remove it from the corpus"),
    "zip-named-md": ("notes.md", "zip", "looks like a zip archive, not text; remove it from the corpus"),
    "invalid-utf8": ("notes.md", b"# T 1.0\n\nbad \xff\n",
                     "not valid UTF-8 at byte 13 (line 3); re-save the file as UTF-8, e.g. iconv -f latin1 -t utf-8"),
    "invalid-utf16-with-bom": ("notes.md", codecs.BOM_UTF16_LE + "# T 1.0\n".encode("utf-16-le") + b"\x00\xd8",
                               "not valid UTF-16-LE at byte 18; re-save the file as UTF-8"),
    "nul-bytes": ("notes.md", b"# T 1.0\n\ntext\x00more\n",
                  "contains NUL bytes, so it is binary, not text; remove it from the corpus"),
    "malformed-json": ("notes.json", b'{"title": "x",\n  "body": "y",,}',
                       "malformed JSON at line 2, column 15: Expecting property name enclosed in double quotes; "
                       "fix the file (python -m json.tool shows the problem)"),
    "malformed-jsonl": ("notes.jsonl", b'{"body": "ok"}\n{"body": }\n',
                        "malformed JSON at line 2, column 10: Expecting value; fix the file (python -m json.tool shows the problem)"),
    "json-wrong-shape": ("notes.json", b"42",
                         "JSON must be an object, a list of objects or JSONL objects, not int; "
                         "wrap each document in an object with a body_md or text field"),
    "json-list-of-strings": ("notes.json", b'["a", "b"]',
                             "JSON must be an object, a list of objects or JSONL objects, not a list of other values; "
                             "wrap each document in an object with a body_md or text field"),
    "record-without-body": ("notes.json", json.dumps([{"body": "fine"}, {"title": "T 1.0", "body": "  "}]).encode(),
                            "record 1 has no text body; add one of the fields body_md, body, markdown, text, content"),
    "index-of-links": ("index.txt", b"Release notes\n=============\n\n1.1 release\n-----------\n.. toctree::\n\n   1.1\n\n"
                                    b"1.0 release\n-----------\n.. toctree::\n\n   1.0\n",
                       "an index of links to other files (toctree or include directives), not release notes; "
                       "give --corpus the files it lists or their folder"),
}


@pytest.mark.parametrize("row", BAD_FILES, ids=list(BAD_FILES))
def test_bad_file_is_one_line_naming_file_and_fix(tmp_path: Path, row: str) -> None:
    name, content, message = BAD_FILES[row]
    path = tmp_path / name
    path.write_bytes(_zip_bytes(tmp_path) if content == "zip" else content)
    for command in (["sections"], ["chunks"], ["index", "--index", tmp_path / "idx"]):
        result = cli(*command, "--corpus", path)
        assert assert_one_error(result) == f"error: {path}: {message}"
    assert not (tmp_path / "idx").exists()  # nothing built from a bad corpus


def test_missing_path(tmp_path: Path) -> None:
    result = cli("ask", "x", "--corpus", tmp_path / "nope", "--index", tmp_path / "idx")
    assert assert_one_error(result) == f"error: {tmp_path / 'nope'}: no such file or directory; check the --corpus path"


def test_directory_with_no_supported_files(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "report.pdf").write_bytes(b"%PDF-1.7")
    (tmp_path / "notes" / ".hidden.md").write_text("# Hidden 1.0\n\ntext\n")
    result = cli("chunks", "--corpus", tmp_path / "notes")
    assert assert_one_error(result) == (
        f"error: {tmp_path / 'notes'}: no .md, .markdown, .rst, .txt, .json, .jsonl, .html, .htm files in this folder; "
        "point --corpus at release notes in one of those formats"
    )


def test_symlink_loop_given_directly(tmp_path: Path) -> None:
    (tmp_path / "loop.md").symlink_to(tmp_path / "loop.md")
    result = cli("chunks", "--corpus", tmp_path / "loop.md")
    assert assert_one_error(result) == f"error: {tmp_path / 'loop.md'}: a symbolic link loop; fix the link or the --corpus path"


def test_symlink_loop_and_broken_link_inside_a_folder(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "good.md").write_text("# Tool 1.0\n\nAdded the widget.\n")
    (notes / "a-loop.md").symlink_to(notes / "b-loop.md")
    (notes / "b-loop.md").symlink_to(notes / "a-loop.md")
    (notes / "c-gone.md").symlink_to(tmp_path / "deleted.md")
    (notes / "self").symlink_to(notes)  # a directory loop is not followed
    result = cli("chunks", "--corpus", notes)
    assert assert_one_error(result) == f"error: {notes / 'a-loop.md'}: a symbolic link loop; fix or remove the link"
    skipped = cli("chunks", "--corpus", notes, "--skip-bad")
    assert skipped.exit_code == 0 and [json.loads(x)["title"] for x in skipped.stdout.splitlines()] == ["Tool 1.0"]
    assert skipped.stderr.splitlines() == [
        f"skipped: {notes / 'a-loop.md'}: a symbolic link loop; fix or remove the link",
        f"skipped: {notes / 'b-loop.md'}: a symbolic link loop; fix or remove the link",
        f"skipped: {notes / 'c-gone.md'}: a broken symbolic link (its target is missing); fix or remove the link",
    ]


def test_unreadable_file(open_dir: Path) -> None:
    path = open_dir / "notes.md"
    path.write_text("# Tool 1.0\n\nsecret\n")
    os.chmod(path, 0)
    with unprivileged():
        result = cli("chunks", "--corpus", path)
    assert assert_one_error(result) == f"error: {path}: cannot read the file (Permission denied); check its permissions"


def test_unreadable_folder(open_dir: Path) -> None:
    notes = open_dir / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# Tool 1.0\n\ntext\n")
    os.chmod(notes, 0)
    with unprivileged():
        result = cli("chunks", "--corpus", notes)
    assert assert_one_error(result, str(notes), "Permission denied", "check its permissions")


@pytest.mark.parametrize(
    ("bom", "encoding"),
    [(codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"), (codecs.BOM_UTF8, "utf-8")],
    ids=["utf16-le-bom", "utf16-be-bom", "utf8-bom"],
)
def test_utf16_and_utf8_with_bom_are_read(tmp_path: Path, bom: bytes, encoding: str) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes(bom + "# Café 1.0\n\n## Features\n\nNaïve widgets.\n".encode(encoding))
    result = cli("sections", "--corpus", path, "--json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["title"] == "Café 1.0" and doc["sections"][-1] == {
        "path": ["Café 1.0", "Features"], "lines": [5, 5], "version": "1.0", "anchor": "features", "date": None,
        "status": None}


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "lone-cr"])
def test_crlf_and_lone_cr_keep_true_line_numbers(tmp_path: Path, newline: str) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes(newline.join(["# Tool 1.0", "", "## Fixes", "", "Fixed the crash.", ""]).encode())
    rows = [json.loads(x) for x in cli("chunks", "--corpus", path).stdout.splitlines()]
    assert [(r["text"], r["lines"]) for r in rows] == [("Fixed the crash.", [5, 5])]


def test_fifty_megabyte_markdown_file(tmp_path: Path) -> None:
    """Loads and splits into sections in seconds (chunking it all takes about 30 s more, untested here)."""
    path = tmp_path / "big.md"
    body = "\n\n".join(f"Paragraph {i} adds faster kernels for torch.compile on CUDA and MPS, " * 8 for i in range(5))
    section = "\n## Section {n}\n\n" + body + "\n"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("# Big 1.0\n")
        n = 0
        while fh.tell() < 50_000_000:
            n += 1
            fh.write(section.format(n=n))
    started = time.perf_counter()
    (doc,) = load_documents([path])
    sections = parse_sections(doc)
    assert time.perf_counter() - started < 60  # about 4 s here
    assert len(sections) == n and sections[-1].path[-1] == f"Section {n}"
    assert sections[-1].end_line == doc.text.count("\n")


def test_one_megabyte_single_line(tmp_path: Path) -> None:
    path = tmp_path / "long.md"
    words = [f"w{i % 5000}" for i in range(200_000)]
    line = " ".join(words)
    assert len(line) > 1_000_000
    path.write_text("# Long 1.0\n\n" + line + "\n")
    started = time.perf_counter()
    (loaded,) = load_corpus([path]).documents
    assert time.perf_counter() - started < 30  # about 2.5 s here
    assert all(c.lines == (3, 3) for c in loaded.chunks)
    assert " ".join(c.text for c in loaded.chunks).split() == words  # chunks are cut at word boundaries
    assert max(estimate_tokens(w) for c in loaded.chunks for w in embedding_windows(c)) <= MODEL_MAX_TOKENS


def test_duplicated_documents(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    text = "# Tool 1.0\n\n## Fixes\n\nFixed the crash.\n"
    (notes / "a.md").write_text(text)
    (notes / "copy.md").write_text(text)
    # One file given twice (directly and through its folder) is read once; a copy is its own document.
    rows = [json.loads(x) for x in cli("chunks", "--corpus", notes / "a.md", "--corpus", notes).stdout.splitlines()]
    assert [r["source"] for r in rows] == [str(notes / "a.md"), str(notes / "copy.md")]
    assert len({r["id"] for r in rows}) == 2 and len({r["document"] for r in rows}) == 2
    records = tmp_path / "dups.json"
    records.write_text(json.dumps([{"title": "Tool 2.0", "body": "Same."}] * 2))
    docs = [json.loads(x) for x in cli("sections", "--corpus", records, "--json").stdout.splitlines()]
    assert len(docs) == 2 and docs[0]["document"] != docs[1]["document"]


def test_two_files_with_the_same_title_and_release(tmp_path: Path, fake_model) -> None:
    for folder, fix in (("x", "Fixed the frobnicator crash."), ("y", "Fixed the frobnicator leak.")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "notes.md").write_text(f"# Tool 1.0\n\n## Fixes\n\n{fix}\n")
    result = cli("ask", "frobnicator", "--corpus", tmp_path / "x", "--corpus", tmp_path / "y",
                 "--index", tmp_path / "idx", "--json", "--mode", "bm25")
    passages = json.loads(result.stdout)["passages"]
    assert {p["citation"]["source"] for p in passages} == {str(tmp_path / "x" / "notes.md"), str(tmp_path / "y" / "notes.md")}
    assert len({p["citation"]["document"] for p in passages}) == 2


MARKDOWN = {
    "unclosed-code-fence": ("# Tool 1.0\n\n## Before\n\ntext before\n\n```python\n# not a heading\nprint('x')\n\n## also not\n",
                            [("Before",)]),
    "headings-only": ("# Tool 1.0\n\n## A\n\n### B\n\n## C\n", [("A",), ("A", "B"), ("C",)]),
    "ten-nested-levels": (
        "# Tool 1.0\n\n" + "\n\n".join("#" * i + f" Level {i}\n\nbody {i}" for i in range(2, 11)) + "\n\n"
        + "\n".join("  " * i + f"- item {i}" for i in range(10)) + "\n\n" + ">" * 10 + " deep quote\n",
        [tuple(f"Level {j}" for j in range(2, i + 1)) for i in range(2, 7)],
    ),
    "setext-and-atx-mixed": ("Tool 1.0\n========\n\nintro\n\nFeatures\n--------\n\n### Sub\n\nbody\n\n## Fixes\n\nmore\n",
                             [(), ("Features",), ("Features", "Sub"), ("Fixes",)]),
    "html-blocks": ("# Tool 1.0\n\n<div class=\"x\">\n# inside html\n<p>para</p>\n</div>\n\n<!-- comment\n## hidden\n-->\n\n"
                    "## Real\n\n<details><summary>More</summary>\n\ninner text\n\n</details>\n", [(), ("Real",)]),
    "tables": ("# Tool 1.0\n\n## Changes\n\n| a | b |\n|---|---|\n| 1 | `x|y` |\n| 2 | [l](https://x.y) |\n", [("Changes",)]),
    "very-long-heading": ("# Tool 1.0\n\n## " + "word " * 2000 + "\n\nbody text under it\n", None),
    "punctuation-only-headings": ("# Tool 1.0\n\n## !!!\n\nbang body\n\n## ***\n\nstar body\n\n## ---\n\ndash\n\n## ...\n",
                                  [("!!!",), ("---",), ("...",)]),
}


@pytest.mark.parametrize("row", MARKDOWN, ids=list(MARKDOWN))
def test_markdown_oddities_keep_every_word_and_true_lines(tmp_path: Path, row: str) -> None:
    text, paths = MARKDOWN[row]
    path = tmp_path / "notes.md"
    path.write_text(text)
    result = cli("sections", "--corpus", path, "--json")
    assert result.exit_code == 0, result.output
    (loaded,) = load_corpus([path]).documents
    check_invariants(loaded)
    if paths is not None:
        assert [s.path[1:] for s in loaded.sections] == paths
    for chunk in loaded.chunks:  # the model reads the chunk's own text, not only its breadcrumb
        assert estimate_tokens(chunk.index_text) <= 256
        assert chunk.index_text.endswith(chunk.text.split("\n")[-1].strip()) or "](" in chunk.text


def test_control_characters_in_a_file_name_stay_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad\x1b[31m\nname.md"
    path.write_bytes(b"")
    line = assert_one_error(cli("chunks", "--corpus", path))
    assert line == f"error: {tmp_path}/bad\\x1b[31m\\nname.md: the file holds no text; add release notes to it or remove it"
