"""Tests for finding, decoding and validating corpus files, and the errors users see."""

import os
import codecs
import json
import shutil
from pathlib import Path

import pytest

from corpus import (
    BinaryFile,
    CorpusPathNotFound,
    EmptyFile,
    EncodingError,
    JSONShapeError,
    MalformedJSON,
    MissingBody,
    NoSupportedFiles,
    bundled_paths,
    load_documents,
)
from tests.support.paths import DATA

BUNDLED = ["pytorch-2.13-release-blog.txt", "pytorch-2.14-news-apple-silicon-gpu.txt",
           "pytorch-2.14-release-blog.json", "pytorch-2.9-release-blog.txt"]


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


def test_bundled_paths_are_the_four_notes():
    assert [p.name for p in bundled_paths()] == BUNDLED


def test_bundled_documents_metadata():
    docs = {Path(d.source).name: d for d in load_documents()}
    assert sorted(docs) == BUNDLED
    blog = docs["pytorch-2.14-release-blog.json"]
    assert (blog.title, blog.product, blog.version, blog.format) == ("PyTorch 2.14 Release Blog", "PyTorch", "2.14", "markdown")
    assert blog.url == "https://pytorch.org/blog/pytorch-2-14-release-blog/"
    assert blog.date == "2026-09-02 18:41:48+00:00" and blog.body_field == "body_md"
    assert os.path.isabs(blog.source) and blog.source.endswith("/corpus/data/pytorch-2.14-release-blog.json")
    assert Path(blog.source).is_file()  # a printed citation resolves from any folder
    assert docs["pytorch-2.13-release-blog.txt"].title == "PyTorch 2.13 Release Blog"
    assert docs["pytorch-2.9-release-blog.txt"].title == "PyTorch 2.9 Release Blog"
    assert docs["pytorch-2.14-news-apple-silicon-gpu.txt"].title == "PyTorch 2.14 Speeds Up Apple Silicon and GPU Workloads"
    assert {d.version for d in docs.values()} == {"2.13", "2.14", "2.9"}
    assert all(d.format == "text" for n, d in docs.items() if n.endswith(".txt"))
    assert all(len(d.id) == 12 and "/" not in d.id for d in docs.values())


@pytest.mark.parametrize(
    ("name", "content", "fmt"),
    [
        ("a.md", "# Foo 1.2\n\nBody text.\n", "markdown"),
        ("a.markdown", "Foo 1.2\n=======\n\nBody text.\n", "markdown"),
        ("a.txt", "Foo 1.2 Release\n\nBody text here.\n", "text"),
        ("a.json", json.dumps({"title": "Foo 1.2", "body_md": "## Intro\n\nBody text."}), "markdown"),
        ("a.json", json.dumps({"title": "Foo 1.2", "text": "Plain body text."}), "text"),
        ("a.json", json.dumps({"title": "Foo 1.2", "content": "## Guessed\n\nMarkdown body."}), "markdown"),
        ("a.txt", json.dumps({"title": "Foo 1.2", "body": "Body read from JSON in a .txt file."}), "text"),
    ],
    ids=["md", "markdown-setext", "txt", "json-body_md", "json-text", "json-content-guessed-md", "txt-holding-json"],
)
def test_formats(tmp_path, name, content, fmt):
    (doc,) = load_documents([write(tmp_path / name, content)])
    assert doc.format == fmt
    assert doc.version == "1.2"
    assert doc.source == str(tmp_path / name)


def test_json_list_and_jsonl_records(tmp_path):
    records = [{"title": f"Foo 1.{i}", "markdown": f"Body {i}.", "url": f"https://x/{i}", "date": "2024"} for i in range(3)]
    listed = load_documents([write(tmp_path / "list.json", json.dumps(records))])
    lines = load_documents([write(tmp_path / "r.jsonl", "\n".join(json.dumps(r) for r in records) + "\n\n")])
    for docs in (listed, lines):
        assert [d.record for d in docs] == [0, 1, 2]
        assert [d.version for d in docs] == ["1.0", "1.1", "1.2"]
        assert docs[1].url == "https://x/1" and docs[1].body_field == "markdown"
        assert len({d.id for d in docs}) == 3


def test_canonical_source_preferred_and_untitled_record(tmp_path):
    rec = {"body": "Some text.", "url": "https://mirror", "canonical_source": "https://origin"}
    (doc,) = load_documents([write(tmp_path / "notes-3.1.json", json.dumps(rec))])
    assert doc.url == "https://origin"
    assert doc.title == "notes-3.1" and doc.version == "3.1"


def test_folder_discovery_recursive_sorted_skips_hidden(tmp_path):
    write(tmp_path / "b.md", "# B 1.0\n\nb")
    write(tmp_path / "a" / "z.txt", "Z 1.0 Notes\n\nz text")
    write(tmp_path / ".hidden" / "h.md", "# H\n\nh")
    write(tmp_path / ".secret.md", "# S\n\ns")
    write(tmp_path / "image.png", b"\x89PNG\r\n")
    docs = load_documents([tmp_path])
    assert [d.source for d in docs] == [str(tmp_path / "a" / "z.txt"), str(tmp_path / "b.md")]


def test_same_file_twice_loads_once(tmp_path):
    f = write(tmp_path / "a.md", "# A 1.0\n\ntext")
    assert len(load_documents([f, tmp_path, f])) == 1


def test_same_name_in_two_folders_gets_distinct_ids(tmp_path):
    write(tmp_path / "x" / "notes.md", "# A 1.0\n\ntext")
    write(tmp_path / "y" / "notes.md", "# A 1.0\n\ntext")
    docs = load_documents([tmp_path / "x", tmp_path / "y"])
    assert len({d.id for d in docs}) == 2


def test_ids_stable_across_folders(tmp_path):
    for root in ("one", "two"):
        shutil.copytree(DATA, tmp_path / root / "data")
    a = load_documents([tmp_path / "one" / "data"])
    b = load_documents([tmp_path / "two" / "data"])
    assert [d.id for d in a] == [d.id for d in b]
    assert [d.source for d in a] != [d.source for d in b]


@pytest.mark.parametrize(
    ("data", "error", "words"),
    [
        (b"", EmptyFile, "no text"),
        (b"  \n\t\n", EmptyFile, "no text"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", BinaryFile, "PNG"),
        (b"PK\x03\x04rest", BinaryFile, "zip"),
        (b"%PDF-1.7\n", BinaryFile, "PDF"),
        (b"text\x00more", BinaryFile, "NUL"),
        (b"line one\nbad \xff byte\n", EncodingError, "byte 13 (line 2)"),
    ],
    ids=["empty", "whitespace", "png-named-md", "zip", "pdf", "nul", "invalid-utf8"],
)
def test_bad_files(tmp_path, data, error, words):
    path = write(tmp_path / "notes.md", data)
    with pytest.raises(error) as info:
        load_documents([path])
    message = str(info.value)
    assert str(path) in message and words in message and "\n" not in message


@pytest.mark.parametrize(
    ("bom", "encoding"),
    [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
     (codecs.BOM_UTF32_LE, "utf-32-le")],
    ids=["utf8-bom", "utf16-le", "utf16-be", "utf32-le"],
)
def test_bom_encodings(tmp_path, bom, encoding):
    text = "# Café 1.0\n\nNaïve text.\n"
    (doc,) = load_documents([write(tmp_path / "a.md", bom + text.encode(encoding))])
    assert doc.text == text and doc.title == "Café 1.0"


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "lone-cr"])
def test_line_ends_normalised(tmp_path, newline):
    (doc,) = load_documents([write(tmp_path / "a.md", newline.join(["# T 1.0", "", "one", "two"]).encode())])
    assert doc.text == "# T 1.0\n\none\ntwo"


@pytest.mark.parametrize(
    ("name", "content", "where"),
    [
        ("a.json", '{"title": "x",\n  "body": "y",,}', "line 2, column 15"),
        ("a.jsonl", '{"body": "ok"}\n{"body": }\n', "line 2, column 10"),
        ("a.json", '{"body": "a"}\n{"body": ', "line 2, column 10"),
    ],
    ids=["json", "jsonl", "json-holding-broken-jsonl"],
)
def test_malformed_json_gives_line_and_column(tmp_path, name, content, where):
    path = write(tmp_path / name, content)
    with pytest.raises(MalformedJSON) as info:
        load_documents([path])
    assert str(path) in str(info.value) and where in str(info.value)


def test_txt_starting_with_brace_but_not_json_is_text(tmp_path):
    (doc,) = load_documents([write(tmp_path / "a.txt", "{not json}\n\nSome text.")])
    assert doc.format == "text" and doc.body_field is None


@pytest.mark.parametrize(
    "content", ["[]", "[1, 2]", '"text"', "42", '[{"body": "a"}, "b"]'],
    ids=["empty-list", "numbers", "string", "number", "mixed-list"],
)
def test_json_wrong_shape(tmp_path, content):
    path = write(tmp_path / "a.json", content)
    with pytest.raises(JSONShapeError) as info:
        load_documents([path])
    assert str(path) in str(info.value)


def test_record_without_body_names_record_and_fields(tmp_path):
    path = write(tmp_path / "a.json", json.dumps([{"body": "fine"}, {"title": "no body", "body": ""}]))
    with pytest.raises(MissingBody) as info:
        load_documents([path])
    message = str(info.value)
    assert str(path) in message and "record 1" in message
    assert all(f in message for f in ("body_md", "body", "markdown", "text", "content"))


def test_missing_path(tmp_path):
    with pytest.raises(CorpusPathNotFound) as info:
        load_documents([tmp_path / "nope"])
    assert str(tmp_path / "nope") in str(info.value)


def test_folder_without_supported_files(tmp_path):
    write(tmp_path / "x.pdf", b"%PDF")
    with pytest.raises(NoSupportedFiles) as info:
        load_documents([tmp_path])
    assert str(tmp_path) in str(info.value)


def test_skip_bad_reports_and_continues(tmp_path):
    good = write(tmp_path / "good.md", "# Good 1.0\n\ntext")
    bad = write(tmp_path / "bad.md", b"\x89PNG")
    skipped = []
    docs = load_documents([tmp_path / "missing", bad, good], skip_bad=True, on_skip=skipped.append)
    assert [d.title for d in docs] == ["Good 1.0"]
    assert [type(e) for e in skipped] == [CorpusPathNotFound, BinaryFile]


def test_without_skip_bad_the_first_error_raises(tmp_path):
    write(tmp_path / "a.md", "# A 1.0\n\ntext")
    write(tmp_path / "b.md", b"")
    with pytest.raises(EmptyFile):
        load_documents([tmp_path])


def test_skip_bad_with_nothing_left_raises(tmp_path):
    bad = write(tmp_path / "bad.md", b"")
    with pytest.raises(NoSupportedFiles):
        load_documents([bad], skip_bad=True)
