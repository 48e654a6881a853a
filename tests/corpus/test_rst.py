"""reStructuredText release notes: titles by adornment, release headings, one file per release."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from corpus import load_corpus, load_documents, parse_sections
from corpus.errors import MalformedReST
from corpus.repair import as_lines
from corpus.rst import looks_like_rst, rst_headings
from corpus.textform import index_form
from qa.cli import cli
from tests.support.invariants import check_invariants
from tests.support.paths import BUNDLED, DATA, ZOO

RST = DATA / "rst"


def headings(text: str):
    return [(h.level, h.text) for h in rst_headings(as_lines(text))]


def test_levels_come_from_the_order_styles_first_appear_not_from_the_character() -> None:
    text = "A\n~~~\n\nbody\n\nB\n***\n\nC\n~~~\n\n=====\nD\n=====\n"
    assert headings(text) == [(1, "A"), (2, "B"), (1, "C"), (3, "D")]


def test_directives_comments_and_targets_hold_no_titles() -> None:
    text = (".. _`changelog`:\n\n.. only:: not is_release\n\n   Draft\n   ^^^^^\n\n..\n    Comment\n    -------\n\n"
            "Real\n====\n\n.. |sub| replace:: x\n")
    assert headings(text) == [(1, "Real")]


def test_inline_markup_is_dropped_from_titles_and_transitions_are_not_titles() -> None:
    text = "``numpy.strings.slice`` and `Link <https://x>`_\n-------------------------------------------\n\nText.\n\n----------\n\nMore.\n"
    assert headings(text) == [(1, "numpy.strings.slice and Link")]


def test_pallets_changes_each_release_with_its_date_and_the_unreleased_one() -> None:
    doc = load_documents([RST / "CHANGES.rst"])[0]
    assert doc.format == "rst"
    releases = [(s.version, s.date, s.status) for s in parse_sections(doc)]
    assert releases == [("3.2.0", None, "unreleased"), ("3.1.1", "2025-05-13", None), ("3.1.0", "2024-11-13", None)]


def test_towncrier_changelog_title_prefixes_yanked_and_old_style_releases() -> None:
    doc = load_documents([RST / "changelog.rst"])[0]
    assert doc.title == "Changelog" and doc.version is None
    sections = parse_sections(doc)
    assert [(s.path[-1], s.version, s.date, s.status) for s in sections[1:]] == [
        ("pytest 9.1.1 (2026-06-19)", "9.1.1", "2026-06-19", None),
        ("Bug fixes", "9.1.1", "2026-06-19", None),
        ("8.1.0 (YANKED)", "8.1.0", None, "yanked"),
        ("Features", "8.1.0", None, "yanked"),
        ("2.6", "2.6", None, None),
    ]
    assert "To be included" not in " ".join(s.path[-1] for s in sections)  # inside a directive


def test_one_file_a_release_takes_its_version_from_the_title_and_reports_a_template() -> None:
    corpus = load_corpus([RST / "release"])
    by_name = {Path(d.document.source).name: d for d in corpus.documents}
    assert by_name["2.3.0-notes.rst"].document.version == "2.3.0"
    assert by_name["2.3.0-notes.rst"].document.title == "NumPy 2.3.0 Release Notes"
    assert {s.version for s in by_name["2.2.0-notes.rst"].sections} == {"2.2.0"}
    template = by_name["template.rst"]
    assert template.document.version is None and template.releases == ()
    assert template.warnings == ("no release found: no version in the title, the headings, the file name or a release tag",)
    assert by_name["2.3.0-notes.rst"].warnings == ()


def test_a_txt_of_rest_is_read_as_rest_and_the_bundled_text_is_not() -> None:
    django = load_documents([RST / "django" / "5.1.txt"])[0]
    assert django.format == "rst" and django.title == "Django 5.1 release notes" and django.version == "5.1"
    assert [s.path[-1] for s in parse_sections(django)][1:3] == ["What's new in Django 5.1", "{% querystring %} template tag"]
    assert all(d.format != "rst" for d in load_documents([BUNDLED]))
    assert not looks_like_rst(as_lines((BUNDLED / "pytorch-2.13-release-blog.txt").read_text()))


def test_passages_are_verbatim_source_lines() -> None:
    corpus = load_corpus([RST])
    for loaded in corpus.documents:
        check_invariants(loaded)
    for loaded in corpus.documents:
        lines = loaded.document.text.split("\n")
        for s in loaded.sections:
            if s.text:
                assert s.text == "\n".join(lines[s.start_line - 1 : s.end_line])


def test_roles_and_references_read_as_their_text_for_the_retrievers() -> None:
    text = ("- `#14220 <https://github.com/pytest-dev/pytest/issues/14220>`_: Fixed :class:`pytest.RaisesGroup`.\n"
            "-   Drop support for Python 3.9. :pr:`5730` :issue:`5639` :ref:`the docs <usage>`\n\n"
            ".. note::\n   :class: strong\n\n   This release was yanked.\n\n..\n    a comment\n\n.. _target:\n\nafter")
    assert index_form(text) == ("- #14220: Fixed pytest.RaisesGroup.\n"
                                "-   Drop support for Python 3.9. PR #5730 issue #5639 the docs\n\n\n\n"
                                "   This release was yanked.\n\n\n\nafter")  # a directive's content stays


def test_a_broken_title_adornment_is_one_line_naming_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "broken.rst"
    bad.write_text("Title\n=====\n\nText.\n\n=========\nBroken title\n---------\n\nMore.\n")
    with pytest.raises(MalformedReST, match=r"broken.rst line 6: the title 'Broken title' has an overline"):
        load_documents([bad])
    result = CliRunner().invoke(cli, ["sections", "--corpus", str(bad)])
    assert result.exit_code == 1 and result.output.count("\n") == 1 and "make the line under it the same" in result.output


def test_sections_shows_dates_statuses_and_warnings() -> None:
    result = CliRunner().invoke(cli, ["sections", "--corpus", str(RST / "CHANGES.rst"), "--corpus", str(RST / "release")])
    assert result.exit_code == 0
    assert "Version 3.2.0 [3.2.0, unreleased]" in result.stdout and "Version 3.1.1 [3.1.1, 2025-05-13]" in result.stdout
    assert "warning: " in result.stderr and "template.rst: no release found" in result.stderr


ZOO_RELEASES = {"flask": 63, "textual": 225, "httpx": 77, "numpy": 133}


@pytest.mark.skipif(not ZOO.is_dir(), reason="../shared/data/zoo not available")
@pytest.mark.parametrize("project", sorted(ZOO_RELEASES))
def test_every_release_of_the_zoo_gets_its_own_version(project: str) -> None:
    corpus = load_corpus([ZOO / project])
    found = [v for d in corpus.documents for v in (d.releases or ((d.document.version,) if d.document.version else ()))]
    assert len(found) == len(set(found)) == ZOO_RELEASES[project]


@pytest.mark.skipif(not ZOO.is_dir(), reason="../shared/data/zoo not available")
def test_the_pytest_changelog_every_release_heading_including_old_and_odd_ones() -> None:
    loaded = load_corpus([ZOO / "pytest"]).documents[0]
    assert len(loaded.releases) == 212  # 203 "X (date)" headings, 8 old bare "2.6" ones, "3.9.0 (... not published ...)"
    by_version = {s.version: s for s in loaded.sections if s.version}
    assert by_version["8.1.0"].status == "yanked" and by_version["9.1.0"].date == "2026-06-13"
    assert by_version["3.9.0"].date == "2018-10-15" and "2.6" in by_version
    assert loaded.warnings == ()


@pytest.mark.skipif(not ZOO.is_dir(), reason="../shared/data/zoo not available")
@pytest.mark.parametrize("project", ["flask", "pytest", "numpy", "textual", "httpx"])
def test_no_text_of_the_zoo_is_lost_and_every_chunk_holds_its_lines(project: str) -> None:
    for loaded in load_corpus([ZOO / project]).documents:
        check_invariants(loaded)
