"""Release notes in the shapes package archives ship them (issue 29), each read by a rule and tested
on a real excerpt in tests/data/packages/: mypy's "## Mypy 2.3", SQLAlchemy's ``.. changelog::``
blocks, matplotlib's ``api_changes_3.10.0/`` folders, celery's docs/history/, Django's index of
links, and dates in "*Released on ...*" lines and ":release-date:" fields."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from corpus import LinksOnly, load_corpus, load_documents
from corpus.items import item_words
from corpus.products import generic, release_folder
from tests.support.invariants import check_invariants
from tests.support.paths import DATA

PACKAGES = DATA / "packages"
MPL_CHANGES = PACKAGES / "matplotlib" / "doc" / "api" / "prev_api_changes"
SQLA = PACKAGES / "sqlalchemy" / "doc" / "build" / "changelog"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def releases_of(loaded) -> dict[str, str | None]:
    """{version: date} of a loaded document's release sections, in order."""
    out: dict[str, str | None] = {}
    for s in loaded.sections:
        if s.version and s.version != loaded.document.version:
            out.setdefault(s.version, s.date)
    return out


def test_every_package_fixture_keeps_the_invariants() -> None:
    for loaded in load_corpus([PACKAGES]).documents:
        check_invariants(loaded)


def test_mypy_names_each_release_before_its_number() -> None:
    (loaded,) = load_corpus([PACKAGES / "mypy"]).documents
    assert (loaded.document.product, loaded.document.version) == ("mypy", None)
    assert loaded.releases == ("2.3", "2.3.1", "2.1")
    by_heading = {s.path[-1]: (s.version, s.status) for s in loaded.sections if s.path[-1] != "Acknowledgements"}
    assert by_heading["Next Release"] == (None, "unreleased")
    assert by_heading["Mypy 2.3"] == ("2.3", None)  # not "unreleased", as the Next Release above it
    assert by_heading["Mypy 2.3.1"] == ("2.3.1", None)
    # "### Acknowledgements" after "### Mypy 2.3.1" sits under "## Mypy 2.3", as its heading path says.
    thanks = [s.version for s in loaded.sections if s.path[-1] == "Acknowledgements"]
    assert thanks == ["2.3", "2.1"]


@pytest.mark.parametrize(
    ("text", "releases"),
    [
        ("# Notes\n\n## Python 3.12\n\nSupported now.\n", ()),  # one name and number: a feature
        ("# Notes\n\n## 2.0.0\n\n### CUDA 12.8\n\nBuilt.\n\n## 1.0.0\n\n### CUDA 12.6\n\nBuilt.\n",
         ("2.0.0", "1.0.0")),  # a family under the releases, deeper than them: features
        ("# Notes\n\n## Widget 2.0\n\nNew.\n\n## Widget 1.0\n\nFirst.\n", ("2.0", "1.0")),
    ],
    ids=["single", "under-releases", "family"],
)
def test_a_bare_name_and_number_is_a_release_only_as_a_family(tmp_path: Path, text: str, releases) -> None:
    (loaded,) = load_corpus([write(tmp_path / "notes" / "NOTES.md", text)]).documents
    assert loaded.releases == releases


def test_sqlalchemy_changelog_blocks_are_releases_with_dates() -> None:
    docs = {d.document.source.rsplit("/", 1)[-1]: d for d in load_corpus([SQLA]).documents}
    assert {d.document.product for d in docs.values()} == {"SQLAlchemy"}  # pyproject.toml three folders up
    assert releases_of(docs["changelog_21.rst"]) == {"2.1.0b4": None, "2.1.0b3": "2026-06-27", "2.1.0b1": "2026-01-21"}
    assert releases_of(docs["changelog_20.rst"]) == {"2.0.53": None, "2.0.51": "2026-06-15"}
    assert releases_of(docs["changelog_14.rst"]) == {"1.4.28": "2021-12-09"}


def test_sqlalchemy_changes_are_items_of_the_kind_their_tags_name() -> None:
    chunks = load_corpus([SQLA]).chunks
    changes = [(c, i) for c in chunks for i in c.items if c.item_text(i).lstrip().startswith(".. change::")]
    assert len(changes) == 18 + 6 + 8  # every change of the three excerpts, none cut from its tags
    kinds = Counter((c.version, i.kind) for c, i in changes)
    assert kinds[("1.4.28", "deprecated")] == 1  # ":tags: deprecated, orm"
    assert kinds[("2.0.51", "fixed")] == 6  # ":tags: bug, sql", "bug, postgresql", ...
    assert kinds[("2.1.0b3", "added")] == 3  # "usecase, orm", "feature, orm", "feature, sqlite"
    assert kinds[("2.1.0b3", "changed")] == 1  # "postgresql, usecase" worded "Changed the default ..."
    first = next(c.item_text(i) for c, i in changes if c.version == "2.0.51")
    assert item_words(first).startswith("Fixed issue where :class:`_sql.StatementLambdaElement`")
    fields = [c for c in chunks if c.version == "2.0.53"]  # ":version:" and ":include_notes_from:" only
    assert fields and all(not c.items for c in fields)


def test_matplotlib_release_folders_give_the_release_and_the_files_the_kind() -> None:
    loaded = load_corpus([PACKAGES / "matplotlib"]).documents
    got = {Path(d.document.source).name: (d.document.product, d.document.version) for d in loaded}
    assert got == {name: ("matplotlib", "3.10.0") for name in
                   ("behavior.rst", "deprecations.rst", "development.rst", "removals.rst")} | {
        "api_changes_3.10.1.rst": ("matplotlib", "3.10.1")}  # api_changes_3.10.0.rst only includes them
    kinds = {Path(d.document.source).stem: Counter(c.kind for c in d.chunks) for d in loaded}
    assert set(kinds["deprecations"]) == {"deprecated"} and set(kinds["removals"]) == {"removed"}
    assert kinds["behavior"].most_common(1)[0][0] == "changed"
    assert kinds["development"]["changed"] >= 1


def test_matplotlib_product_from_the_checkout_above_the_folder_given() -> None:
    docs = load_documents([MPL_CHANGES / "api_changes_3.10.0"])  # pyproject.toml four folders up
    assert {(d.product, d.version) for d in docs} == {("matplotlib", "3.10.0")}


@pytest.mark.parametrize(
    ("name", "version"),
    [("api_changes_3.10.0", "3.10.0"), ("3.10.0", "3.10.0"), ("v2.1", "2.1"), ("release-2.0.1", "2.0.1"),
     ("mypy-2.3.0", None), ("api_changes", None), ("numpy", None)],
)
def test_a_release_folder_is_a_version_after_generic_words(name: str, version: str | None) -> None:
    assert release_folder(name) == version


@pytest.mark.parametrize(
    ("name", "expected"),
    [("docs", True), ("prev_api_changes", True), ("next_api_changes", True), ("api", True),
     ("next", False), ("django-news", False), ("celery", False)],
)
def test_generic_folder_names_say_what_not_whose(name: str, expected: bool) -> None:
    assert generic(name) is expected


def test_celery_history_reads_its_releases_dates_and_product() -> None:
    loaded = {Path(d.document.source).name: d for d in load_corpus([PACKAGES / "celery"]).documents}
    assert {d.document.product for d in loaded.values()} == {"celery"}
    assert loaded["changelog-5.4.rst"].document.title == "Change history"  # an inset, overlined title
    assert releases_of(loaded["changelog-5.4.rst"]) == {"5.4.0": "2024-04-17", "5.4.0rc2": "2024-03-27"}
    assert releases_of(loaded["Changelog.rst"]) == {"5.6.2": "2026-01-04", "5.6.1": "2025-12-29"}
    whatsnew = loaded["whatsnew-5.4.rst"].document
    assert (whatsnew.title, whatsnew.version) == ("What's new in Celery 5.4 (Opalescent)", "5.4")
    # ":release-date:" and ":release-by:" say when and by whom: no change of the release.
    items = [c.item_text(i) for d in loaded.values() for c in d.chunks for i in c.items]
    assert items and not any(":release-date:" in text for text in items)


def test_an_unpacked_archive_names_its_project(tmp_path: Path) -> None:
    sdist = tmp_path / "celery-5.4.0"
    shutil.copytree(PACKAGES / "celery" / "docs", sdist / "docs")
    (plain,) = {d.product for d in load_documents([sdist])}
    assert plain == "celery"  # "celery-5.4.0" is celery's archive, not a product named so
    write(sdist / "PKG-INFO", "Metadata-Version: 2.1\nName: celery\nVersion: 5.4.0\n\nDistributed Task Queue.\n")
    (history,) = {d.product for d in load_documents([sdist / "docs" / "history"])}
    assert history == "celery"  # its core metadata, two folders above the folder given


def test_an_index_of_links_is_no_release_notes() -> None:
    folder = PACKAGES / "django" / "docs" / "releases"
    assert [Path(d.source).name for d in load_documents([folder])] == ["5.1.1.txt"]
    with pytest.raises(LinksOnly, match=r"index\.txt: an index of links to other files"):
        load_documents([folder / "index.txt"])
    skipped: list = []
    docs = load_documents([folder / "index.txt", folder / "5.1.1.txt"], skip_bad=True, on_skip=skipped.append)
    assert [d.version for d in docs] == ["5.1.1"] and isinstance(skipped[0], LinksOnly)


def test_a_release_that_only_holds_a_note_is_no_index(tmp_path: Path) -> None:
    path = write(tmp_path / "gadget" / "CHANGES.rst",
                 "Changes\n=======\n\n1.1\n---\n\n.. note::\n\n   Nothing else changed.\n\n"
                 "1.0\n---\n\n.. include:: first.rst\n")
    (loaded,) = load_corpus([path]).documents  # a note is text to read, not a link elsewhere
    assert loaded.releases == ("1.1", "1.0")


def test_released_on_lines_date_their_releases() -> None:
    (loaded,) = load_corpus([PACKAGES / "bmds-ui"]).documents
    assert releases_of(loaded) == {"25.1": "2025-04-25", "24.1": "2024-11-25"}


@pytest.mark.parametrize(
    ("line", "date"),
    [("*Released on 2025-04-25.*", "2025-04-25"), ("**Released on 2020-11-29.**", "2020-11-29"),
     (":release-date: 2024-04-17", "2024-04-17"), ("    :released: June 27, 2026", "2026-06-27"),
     ("*Released on 2025-XX-XX.*", None), (":release-by: Tomer Nosrati", None)],
)
def test_date_lines_under_a_release(line: str, date: str | None) -> None:
    from corpus.headings import release_line

    found = release_line(line)
    assert (found.date if found else None) == date
