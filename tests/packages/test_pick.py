"""The rules that pick an archive's notes: names and folders, stubs, fragments (no list of projects)."""

from __future__ import annotations

import pytest

from corpus.packages.pick import candidates, stub_reason

from .conftest import CHANGES_RST, STUB_INCLUDE, STUB_POINTER


@pytest.mark.parametrize(("path", "kept_as"), [
    ("CHANGES.rst", "CHANGES.rst"), ("CHANGELOG.md", "CHANGELOG.md"), ("HISTORY.md", "HISTORY.md"),
    ("NEWS", "NEWS.txt"), ("RELEASE.md", "RELEASE.md"), ("Changelog.rst", "Changelog.rst"),
    ("release-notes.md", "release-notes.md"), ("docs/changelog.rst", "docs/changelog.rst"),
    ("doc/en/changelog.rst", "doc/en/changelog.rst"), ("docs/releases/5.1.txt", "docs/releases/5.1.txt"),
    ("doc/source/release/2.3.0-notes.rst", "doc/source/release/2.3.0-notes.rst"),
    ("docs/releasenotes/10.4.0.rst", "docs/releasenotes/10.4.0.rst"),
    ("doc/users/prev_whats_new/whats_new_3.9.0.rst", "doc/users/prev_whats_new/whats_new_3.9.0.rst"),
    ("doc/api/prev_api_changes/api_changes_3.9.0/behavior.rst", "doc/api/prev_api_changes/api_changes_3.9.0/behavior.rst"),
    ("docs/history/changelog-5.0.rst", "docs/history/changelog-5.0.rst"),
    ("doc/build/changelog/changelog_14.rst", "doc/build/changelog/changelog_14.rst"),
    ("docs/versionhistory.rst", "docs/versionhistory.rst"),  # agronholm's: anyio, typeguard
], ids=lambda v: v if "/" in v or "." in v else None)
def test_notes_files_are_kept(path: str, kept_as: str) -> None:
    kept, fragments = candidates([f"pkg-1.0/{path}", "pkg-1.0/PKG-INFO"])
    assert [(c.member, c.path) for c in kept] == [(f"pkg-1.0/{path}", kept_as)] and not fragments


@pytest.mark.parametrize("path", [
    "RELEASING.md", "README.rst", "src/pkg/CHANGES.rst", "tests/CHANGES.rst", "docs/releases/index.txt",
    "docs/index.rst", "docs/_vendor/x/CHANGES.rst", "CHANGES.html", "docs/releases/security.txt",
    "node_modules/x/CHANGELOG.md", "docs/internals/release-process.txt", "doc/devel/release_guide.rst",
    "doc/RELEASE_WALKTHROUGH.rst", "docs/contributing/release_process.md",
])
def test_other_files_are_not_notes(path: str) -> None:
    assert candidates([f"pkg-1.0/{path}", "pkg-1.0/PKG-INFO"]) == ([], [])


@pytest.mark.parametrize("path", [
    "changelog.d/123.bugfix.rst", "newsfragments/4567.feature.md", "docs/unreleased_changes/x.rst",
    "doc/release/upcoming_changes/26000.deprecation.rst", "doc/users/next_whats_new/new.rst",
    "changelog/12345.breaking.rst",
])
def test_fragment_folders_are_left_out_and_said(path: str) -> None:
    kept, fragments = candidates([f"pkg-1.0/{path}", "pkg-1.0/PKG-INFO"])
    assert kept == [] and [m for m, _ in fragments] == [f"pkg-1.0/{path}"]
    assert fragments[0][1].startswith("an unreleased fragment (")


def test_an_npm_tarball_and_an_archive_with_no_top_folder() -> None:
    assert [c.path for c in candidates(["package/CHANGELOG.md", "package/package.json"])[0]] == ["CHANGELOG.md"]
    assert [c.path for c in candidates(["CHANGES.rst", "setup.py"])[0]] == ["CHANGES.rst"]


@pytest.mark.parametrize(("text", "why"), [
    (STUB_INCLUDE, "a stub that includes ../CHANGES.rst"),
    (STUB_POINTER, "a stub that points elsewhere (https://docs.pytest.org/en/stable/changelog.html)"),
    (b"Release notes\n=============\n\n.. toctree::\n   :maxdepth: 1\n\n   release/2.3.0-notes\n   release/2.2.0-notes\n",
     "a table of contents of other files"),
    (b"# Changelog\n\nSee [the releases](https://github.com/acme/x/releases).\n",
     "a stub that points elsewhere (https://github.com/acme/x/releases)"),
    (b"Changes\n=======\n", "no text of its own"),
    (b"```{include} ../CHANGELOG.md\n```\n", "a stub that includes ../CHANGELOG.md"),
], ids=["include", "pointer", "toctree", "markdown-link", "title-only", "myst-include"])
def test_stubs_are_told_apart(text: bytes, why: str) -> None:
    assert stub_reason(text.decode()) == why


@pytest.mark.parametrize("text", [
    CHANGES_RST, b"# Changelog\n\n## 1.0.0\n\n- First release, see https://x.test/docs\n",
    b"Changes\n=======\n\n1.0 (2024-01-01)\n----------------\n\n* Initial release.\n",
    b"=============\n1.4 Changelog\n=============\n\n.. changelog::\n    :version: 1.4.54\n    :released: 2024\n\n"
    b"    .. change::\n        :tags: bug, orm\n\n        Fixed a regression.\n",
], ids=["flask-like", "short-with-url", "short", "sphinx-changelog-blocks"])
def test_short_real_notes_are_not_stubs(text: bytes) -> None:
    assert stub_reason(text.decode()) is None
