"""GitHub release exports (``gh api .../releases``, ``gh release view --json``): one release of one
product each, versioned by its tag, titled by its name, cited at its release page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpus import DraftsOnly, MissingBody, load_corpus, load_documents
from corpus.github import release_of
from tests.support.invariants import check_invariants
from tests.support.paths import DATA

REST = DATA / "github" / "httpx-releases.json"  # a draft, a pre-release and two releases, newest first
VIEW = DATA / "github" / "pytorch-release-view.json"  # one object, camelCase keys


def test_a_rest_export_is_one_document_per_published_release() -> None:
    docs = load_documents([REST])
    assert [(d.record, d.title, d.product, d.version) for d in docs] == [
        (1, "Version 1.0.dev1", "httpx", "1.0.dev1"),  # record 0, the draft, is not loaded
        (2, "Version 0.28.1", "httpx", "0.28.1"),
        (3, "Version 0.28.0", "httpx", "0.28.0"),
    ]
    assert [d.url for d in docs] == [f"https://github.com/encode/httpx/releases/tag/{t}"
                                     for t in ("1.0.dev1", "0.28.1", "0.28.0")]
    assert [d.date for d in docs] == ["2024-12-20T11:05:00Z", "2024-12-06T15:36:46Z", "2024-11-28T16:04:29Z"]
    assert [d.prerelease for d in docs] == [True, False, False]
    assert {(d.format, d.body_field) for d in docs} == {("markdown", "body")}
    assert not any("Not written yet" in d.text for d in docs)


def test_a_release_body_is_github_markdown_with_its_sections() -> None:
    newest = next(d for d in load_corpus([REST]).documents if d.document.version == "0.28.0")
    check_invariants(newest)
    paths = [s.path for s in newest.sections]
    assert ("Version 0.28.0", "What's Changed") in paths and ("Version 0.28.0", "New Contributors") in paths
    assert {s.version for s in newest.sections} == {"0.28.0"}
    zstd = next(c for c in newest.chunks if "zstd" in c.text)
    assert zstd.url == "https://github.com/encode/httpx/releases/tag/0.28.0" and zstd.product == "httpx"


def test_a_release_view_object_is_one_release() -> None:
    (doc,) = load_documents([VIEW])
    assert (doc.title, doc.product, doc.version, doc.record) == (
        "PyTorch 2.5.1 Release, bug fix release", "PyTorch", "2.5.1", None)
    assert doc.url == "https://github.com/pytorch/pytorch/releases/tag/v2.5.1"
    assert doc.date == "2024-10-29T17:58:27Z" and doc.prerelease is False


@pytest.mark.parametrize(
    ("tag", "name", "version"),
    [
        ("v2.9.0", "", "2.9.0"),
        ("pydantic-v2.10.1", "v2.10.1 2024-11-21", "2.10.1"),
        ("release-1.2.3", None, "1.2.3"),
        ("v2.0.0b3", "Beta 3", "2.0.0b3"),
        ("v3.0.0-rc.1", None, "3.0.0-rc.1"),
        ("nightly", "Version 0.9.4 nightly", "0.9.4"),
        ("nightly", "Nightly build", None),
    ],
    ids=["v-prefix", "product-prefix", "word-prefix", "beta", "rc", "from-the-name", "none"],
)
def test_the_version_comes_from_the_tag_else_the_name(tag, name, version) -> None:
    assert release_of({"tag_name": tag, "name": name, "body": "x"}).version == version


def test_the_title_falls_back_to_the_tag(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps([{"tag_name": "v1.4.0", "name": "", "body": "* Fix the thing by @a in #1"}]))
    (doc,) = load_documents([path])
    assert (doc.title, doc.version) == ("v1.4.0", "1.4.0")


@pytest.mark.parametrize(
    ("record", "url", "product"),
    [
        ({"url": "https://api.github.com/repos/encode/httpx/releases/1",
          "html_url": "https://github.com/encode/httpx/releases/tag/0.28.0"},
         "https://github.com/encode/httpx/releases/tag/0.28.0", "httpx"),
        ({"url": "https://github.com/Textualize/textual/releases/tag/v0.86.0"},
         "https://github.com/Textualize/textual/releases/tag/v0.86.0", "textual"),
        ({"url": "https://api.github.com/repos/numpy/numpy/releases/9"},  # no page given: built from the tag
         "https://github.com/numpy/numpy/releases/tag/v0.86.0", "NumPy"),
        ({"url": "https://api.github.com/repos/o/r/releases/9", "html_url": "javascript:alert(1)"},
         "https://github.com/o/r/releases/tag/v0.86.0", "r"),
        ({}, None, None),
    ],
    ids=["rest", "view", "api-only", "bad-html-url", "none"],
)
def test_the_citation_is_the_release_page_never_the_api(record, url, product) -> None:
    release = release_of({"tag_name": "v0.86.0", "body": "x", **record})
    assert (release.url, release.product) == (url, product)


def test_the_repository_names_the_product_whatever_else_the_title_names(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"tagName": "0.29.0", "name": "Python 3.14 support", "body": "Works on 3.14.",
                                "url": "https://github.com/encode/httpx/releases/tag/0.29.0"}))
    (doc,) = load_documents([path])
    assert (doc.product, doc.version) == ("httpx", "0.29.0")


def test_a_release_without_notes_is_still_a_release(tmp_path: Path) -> None:
    """Tag-only releases are common in exports: the release stays, its title standing for the body."""
    path = tmp_path / "releases.json"
    path.write_text(json.dumps([{"tag_name": "v1.0.0", "body": "ok"}, {"tag_name": "v1.1.0", "name": "v1.1.0", "body": "  "},
                                {"tag_name": "v1.2.0", "body": None}]))
    docs = load_documents([path])
    assert [(d.version, d.text) for d in docs] == [("1.0.0", "ok"), ("1.1.0", "v1.1.0"), ("1.2.0", "v1.2.0")]


def test_a_record_of_no_release_without_a_body_names_the_file_record_and_fix(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text(json.dumps([{"title": "a", "body": "ok"}, {"title": "b", "body": "  "}]))
    with pytest.raises(MissingBody) as info:
        load_documents([path])
    message = str(info.value)
    assert message.startswith(f"{path}: record 1 has no text body; add one of the fields")
    assert "\n" not in message


def test_a_draft_needs_no_body_but_a_file_of_drafts_only_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "releases.json"
    path.write_text(json.dumps([{"tag_name": "v2.0.0", "draft": True, "body": None},
                                {"tag_name": "v1.9.0", "body": "## Fixed\n\n- a crash"}]))
    assert [d.version for d in load_documents([path])] == ["1.9.0"]
    path.write_text(json.dumps({"tagName": "v2.0.0", "isDraft": True, "body": "wip"}))
    with pytest.raises(DraftsOnly) as info:
        load_documents([path])
    assert str(info.value).startswith(f"{path}: every GitHub release in it is a draft")
    assert load_documents([path, VIEW], skip_bad=True, on_skip=lambda e: None)[0].version == "2.5.1"


def test_records_without_a_tag_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"name": "Widget", "draft": True, "body": "Plain text.",
                                "url": "https://api.github.com/repos/o/r/releases/1"}))
    (doc,) = load_documents([path])
    assert (doc.title, doc.format, doc.prerelease) == ("notes", "text", False)
    assert doc.url == "https://api.github.com/repos/o/r/releases/1"  # not a GitHub release: url as given
