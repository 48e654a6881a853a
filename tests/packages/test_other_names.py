"""Packages known by other names (issue 43): ``relnotes add`` keeps the names the sdist's own
PKG-INFO gives its product, and a question naming the product so (Python-Markdown, pyca/cryptography)
gets that product's notes; a product not held is still declined."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from corpus.packages import store
from qa.cli import cli
from tests.packages.test_project_corpus import offline
from tests.support.metadata_samples import (CRYPTOGRAPHY_CHANGELOG, CRYPTOGRAPHY_PKG_INFO, MARKDOWN_CHANGELOG,
                                            MARKDOWN_PKG_INFO)

LXML_CHANGES = b"""lxml changelog
==============

6.0.0 (2025-06-26)
==================

Other changes
-------------

* The ``lxml.html.clean`` module was moved to the ``lxml_html_clean`` project.
"""


@pytest.fixture
def project(package_index, tmp_path: Path) -> Path:
    """markdown, cryptography and lxml pinned in a requirements.txt, their notes added from an index
    with the simple API alone (as here: no JSON metadata, the archive's PKG-INFO is all it says)."""
    package_index.json_api = False
    package_index.publish("Markdown", "3.7", {"docs/changelog.md": MARKDOWN_CHANGELOG}, pkg_info=MARKDOWN_PKG_INFO)
    package_index.publish("cryptography", "46.0.0", {"CHANGELOG.rst": CRYPTOGRAPHY_CHANGELOG},
                          pkg_info=CRYPTOGRAPHY_PKG_INFO.replace(b"Version: 44.0.0", b"Version: 46.0.0"))
    package_index.publish("lxml", "6.0.0", {"CHANGES.txt": LXML_CHANGES})
    root = tmp_path / "app"
    root.mkdir()
    (root / "requirements.txt").write_text("markdown==3.7\ncryptography==44.0.0\nlxml==6.0.0\n")
    result = CliRunner().invoke(cli, ["add", "--project", str(root)])
    assert result.exit_code == 0, result.output
    return root


def ask(question: str, project: Path) -> dict:
    result = CliRunner().invoke(cli, ["ask", question, "--project", str(project), "--json", "--mode", "bm25",
                                      "--no-history"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_add_keeps_the_names_the_sdists_metadata_gives(project: Path) -> None:
    assert store.find("pypi", "Markdown").names == ("Python-Markdown", "Python-Markdown/markdown")
    assert store.find("pypi", "cryptography").names == ("pyca/cryptography",)
    assert store.find("pypi", "lxml").names == ()
    record = json.loads((store.find("pypi", "cryptography").folder / "record.json").read_text())
    assert record["names"] == ["pyca/cryptography"]


def test_questions_naming_the_products_by_their_other_names(project: Path) -> None:
    offline()
    markdown = ask("what changed in Python-Markdown 3.5?", project)
    # held as the requirement spells it: the simple API names no other spelling
    assert markdown["products"] == ["markdown"] and markdown["releases"] == ["3.5"]
    assert markdown["passages"] and {p["citation"]["product"] for p in markdown["passages"]} == {"markdown"}
    assert {p["citation"]["version"] for p in markdown["passages"]} <= {"3.5.0", "3.5.1"}

    cryptography = ask("which pyca/cryptography release dropped Python 3.7?", project)
    assert cryptography["products"] == ["cryptography"]
    assert cryptography["asked_as"] == "which cryptography release dropped Python 3.7?"
    assert cryptography["passages"][0]["citation"]["version"] == "46.0.0"
    assert "Support for Python 3.7 has been removed" in cryptography["passages"][0]["text"]

    by_repository = ask("what changed in Python-Markdown/markdown 3.6?", project)
    assert by_repository["products"] == ["markdown"] and by_repository["releases"] == ["3.6"]
    assert by_repository["asked_as"] == "what changed in markdown 3.6?"


def test_a_product_not_held_is_still_declined(project: Path) -> None:
    offline()
    declined = ask("what changed in lxml_html_clean 0.4?", project)
    assert [n["kind"] for n in declined["notes"]][:1] == ["product_not_held"]
    assert not declined["answer"]


def test_a_record_kept_before_names_were_read_is_fetched_again(project: Path, package_index) -> None:
    kept = store.find("pypi", "cryptography")
    path = kept.folder / "record.json"
    data = json.loads(path.read_text())
    del data["names"]
    path.write_text(json.dumps(data))
    assert store.find("pypi", "cryptography").names is None
    result = CliRunner().invoke(cli, ["add", "cryptography"])
    assert result.exit_code == 0, result.output
    assert "cryptography 46.0.0: fetched" in result.stderr
    assert store.find("pypi", "cryptography").names == ("pyca/cryptography",)

