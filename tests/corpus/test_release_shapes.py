"""Release headings in the shapes the reading check met (issue 43), on small files: each fails
before its fix (read as one release, or none)."""

from __future__ import annotations

from pathlib import Path

from corpus.dates import date_order, find_date
from corpus.headings import release_heading
from tests.support.fakes import read_releases, read_written as read
from tests.support.invariants import check_invariants


def test_a_txt_whose_titles_use_only_dash_underlines_is_rest(tmp_path: Path) -> None:
    text = "Changelog for six\n=================\n\n1.17.0\n------\n\n- Fixed a thing.\n\n1.16.0\n------\n\n- Another.\n"
    loaded = read(tmp_path, "CHANGES.txt", text)
    assert loaded.document.format == "rst" and loaded.releases == ("1.17.0", "1.16.0")
    only_dashes = read(tmp_path, "NEWS.txt", "2.1\n---\n\n- One.\n\n2.0\n---\n\n- Two.\n")
    assert only_dashes.releases == ("2.1", "2.0")


def test_markdown_in_a_txt_is_not_taken_for_rest(tmp_path: Path) -> None:
    text = "# Notes\n\n## 1.1\n\nA\n---\n\nbody\n\n## 1.0\n\nB\n---\n\nbody\n"
    assert read(tmp_path, "notes.txt", text).document.format == "text"


def test_release_terms_of_a_definition_list_open_releases(tmp_path: Path) -> None:
    text = ("=======\nHistory\n=======\n\n0.9.4 *2026-10-24*\n  * **Bugfix** flags.\n\n"
            "0.9.3 *2026-10-20*\n  * **Bugfix** NULL input.\n")
    loaded = read(tmp_path, "history.rst", text)
    assert loaded.releases == ("0.9.4", "0.9.3")
    assert [s.date for s in loaded.sections if s.version] == ["2026-10-24", "2026-10-20"]
    colorama = read(tmp_path, "CHANGELOG.rst", "0.4.6 Current release\n  * A fix.\n0.4.5\n  * Another.\n")
    assert colorama.releases == ("0.4.6", "0.4.5")


def test_a_term_in_a_file_whose_titles_are_releases_stays_text(tmp_path: Path) -> None:
    text = "1.1\n===\n\n2.0 compatibility\n  the old API stays.\n\n1.0\n===\n\n- First.\n"
    assert read(tmp_path, "CHANGES.rst", text).releases == ("1.1", "1.0")


def test_a_rst_file_of_bare_release_lines_is_read_as_text(tmp_path: Path) -> None:
    text = "4.1.0 (2026-10-28)\n\n- Drop 3.10\n\n4.0.3 (2026-10-07)\n\n- Faster\n\n1.4.0 (2016-12-30):\n\n- Old one\n"
    loaded = read(tmp_path, "NEWS.rst", text)
    assert loaded.releases == ("4.1.0", "4.0.3", "1.4.0") and loaded.warnings == ()


def test_a_plain_text_title_that_opens_a_release_is_the_first_release(tmp_path: Path) -> None:
    text = ("Version 4.3.0 released 2026-11-10\n\n* A fix in the encoder.\n\n"
            "Version 4.2.0 released 2026-10-01\n\n* Another fix.\n")
    loaded = read(tmp_path, "CHANGES.txt", text)
    assert loaded.releases == ("4.3.0", "4.2.0")
    assert loaded.sections[0].version == "4.3.0" and "encoder" in loaded.sections[0].text


def test_a_changelog_written_as_one_list_has_a_release_an_item(tmp_path: Path) -> None:
    text = "- 0.10.0: Add Python 3.13.\n  Drop 3.8.\n- 0.9.0: Drop 2.7.\n- 0.8.10: Bug fixes.\n"
    loaded = read(tmp_path, "CHANGELOG.txt", text)
    assert loaded.releases == ("0.10.0", "0.9.0", "0.8.10")
    first = next(s for s in loaded.sections if s.version == "0.10.0")
    assert first.text.startswith("- 0.10.0: Add Python 3.13.") and "Drop 3.8." in first.text  # no text lost


def test_version_lines_not_understood_are_said(tmp_path: Path) -> None:
    text = "Notes\n\nSome text here.\n\n* 1.2.0: a\n* 1.1.0: b\n* 1.0.0: c\n\nPlenty more prose that is no list at all.\n" \
           "\n* not a release\n* nor this\n"
    loaded = read(tmp_path, "notes.txt", text)
    assert any("3 lines start with a version but are not release headings (line 5: '* 1.2.0: a')" in w
               for w in loaded.warnings)


def test_heading_shapes() -> None:
    assert release_heading("2.2.0. (2007-07-31)").version == "2.2.0"
    assert release_heading("0.999999999/1.0b10").version == "0.999999999"
    assert release_heading("2.0.0 and newer") is None


def test_markdown_releases_written_as_lines_of_their_own_open_releases(tmp_path: Path) -> None:
    """eslint's CHANGELOG.md: no Markdown heading, each release a "vX.Y.Z - Month D, YYYY" line."""
    text = ("v10.9.0 - August 21, 2026\n\n* [`899dbf1`](https://x.test/c/899dbf1) feat: handle underflow (#21218)\n\n"
            "v10.0.0-rc.2 - January 27, 2026\n\n* [`18eb0a7`](https://x.test/c/18eb0a7) fix: ASI hazard (#21173)\n")
    loaded = read(tmp_path, "CHANGELOG.md", text)
    assert loaded.releases == ("10.9.0", "10.0.0-rc.2")
    assert [s.date for s in loaded.sections if s.version] == ["2026-08-21", "2026-01-27"]
    prose = read(tmp_path, "NOTES.md", "# Notes\n\n1.2.3 - the version we ship, see below.\n\nText.\n")
    assert prose.releases == ()


def test_release_lines_hold_their_own_subheadings(tmp_path: Path) -> None:
    text = ("# Changelog\n\nv1.1.0 - March 2, 2026\n\n### Fixes\n\n- A fix.\n\n"
            "v1.0.0 - March 1, 2026\n\n### Features\n\n- A feature.\n")
    loaded = read(tmp_path, "CHANGELOG.md", text)
    assert loaded.releases == ("1.1.0", "1.0.0")
    paths = [s.path for s in loaded.sections if s.version == "1.0.0"]
    assert all("Fixes" not in p for p in paths), paths


def test_release_lines_beside_underlined_releases_open_releases(tmp_path: Path) -> None:
    # PyYAML's CHANGES: its newest releases are lines of their own, the older ones underlined
    text = ("\nFor a complete changelog, see the commits.\n\n6.0.4 (2026-11-20)\n\n* Fix merge key performance\n\n"
            "6.0 (2021-10-13)\n\n* always require `Loader` arg to `yaml.load()`\n\n"
            "5.2 (2019-12-02)\n------------------\n\n* Repair incompatibilities\n\n"
            "5.1 (2019-03-13)\n----------------\n\n* Deprecate yaml.load\n")
    loaded = read(tmp_path, "CHANGES.txt", text)
    assert loaded.releases == ("6.0.4", "6.0", "5.2", "5.1") and loaded.warnings == ()
    six = next(s for s in loaded.sections if s.version == "6.0")
    assert "require `Loader`" in six.text and six.path == ("CHANGES", "6.0 (2021-10-13)") and six.date == "2021-10-13"
    # a line naming a titled release again, one with no date, or another thing's release stays text
    again = text.replace("6.0 (2021-10-13)", "5.2 (2019-12-02)", 1).replace("6.0.4 (2026-11-20)", "6.0.4")
    assert read(tmp_path, "CHANGES.txt", again).releases == ("5.2", "5.1")
    other = text.replace("6.0 (2021-10-13)", "CPython 3.13.0 (2024-10-07)", 1)
    assert read(tmp_path, "CHANGES.txt", other).releases == ("6.0.4", "5.2", "5.1")


def test_a_worded_release_dated_day_first_opens_a_release(tmp_path: Path) -> None:
    # pyasn1's CHANGES.rst: "Revision X, released DD-MM-YYYY" underlined; the day first is read from the
    # document's dates that say it (16 is no month), so 01-09-2019 is 1 September
    text = ("Revision 0.4.8, released 16-11-2019\n-----------------------------------\n\n- A fix.\n\n"
            "Revision 0.4.7, released 01-09-2019\n-----------------------------------\n\n- Another.\n\n"
            "Python 3.12 support\n-------------------\n\nText.\n")
    loaded = read(tmp_path, "CHANGES.rst", text)
    assert loaded.releases == ("0.4.8", "0.4.7")
    assert [s.date for s in loaded.sections if s.version] == ["2019-11-16", "2019-09-01", "2019-09-01"]


def test_numeric_dates_are_read_only_where_their_order_is_said() -> None:
    assert find_date("released 22-06-2015") == "2015-06-22" and find_date("(12-30-2015)") == "2015-12-30"
    assert find_date("(08-02-2016)") is None and find_date("(08-02-2016)", order="mdy") == "2016-08-02"
    assert date_order(["0.18.4 (13-11-2015)", "0.20.1 (12-30-2015)"]) is None  # aiohttp writes both
    assert date_order(["Revision 0.6.5, released 26-10-2026", "0.1 (01-02-2003)"]) == "dmy"
    assert find_date("(2021.11.06)") == "2021-11-06" and find_date("(20260607)") == "2026-06-07"
    assert find_date("(04.12.2010)") == "2010-12-04"  # dots: the day first
    assert find_date("2024.08.30") is None and find_date("1.2.2010.5") is None  # versions, not dates


def test_wiki_style_headings_open_releases_and_their_sections(tmp_path: Path) -> None:
    # beautifulsoup4's NEWS.txt: "= X (YYYYMMDD)", older ones closed " =", sub-sections "== ... =="
    text = ('= 4.15.0 (20260607)\n\n* Last release for Python 3.7.\n\n= 4.0.0b3 (20120203) =\n\nA rewrite.\n\n'
            '=== The module name has changed ===\n\nNow bs4.\n\n= 3.0.0 "Who would not give all" (20060528) =\n\n'
            'Old.\n\n= Between 1.2 and 2.0 =\n\nPython 1.5.\n')
    loaded = read_releases(tmp_path, "NEWS.txt", text, ("4.15.0", "4.0.0b3", "3.0.0"))
    assert [s.date for s in loaded.sections[:3]] == ["2026-06-07", "2012-02-03", "2012-02-03"]
    assert loaded.sections[2].path == ("NEWS", "4.0.0b3 (20120203)", "The module name has changed")
    one = read(tmp_path, "notes.txt", "Sum\n\nx\n= y + z\n\n= 1.0 =\n\nText.\n")  # one at most: no heading
    assert one.releases == ()


def test_a_list_of_releases_each_over_its_nested_changes(tmp_path: Path) -> None:
    # websocket-client's ChangeLog.txt: "- 1.9.2" / "- v0.20.0" alone, the changes nested below
    text = ("ChangeLog\n============\n\n- 1.9.2\n  - Fix race in close()\n\n\n- 1.9.1\n  - Add Python 3.14\n"
            "  - Fix close()\n\n- v0.20.0\n\n  - fix a header\n")
    loaded = read_releases(tmp_path, "ChangeLog.txt", text, ("1.9.2", "1.9.1", "0.20.0"))
    assert "Fix close()" in next(s for s in loaded.sections if s.version == "1.9.1").text
    # one such item, or items that are mostly changes, stay text
    assert read(tmp_path, "a.txt", "Notes\n\n- 3.8\n  - tested\n- Drop X\n\nMore text.\n").releases == ()
    mostly = "- 1.2\n  - a\n- 1.1\n  - b\n- Add X\n- Add Y\n- Add Z\n"
    assert read(tmp_path, "b.txt", mostly).releases == ()


def test_version_items_with_dotted_dates_open_releases(tmp_path: Path) -> None:
    # pycparser's OLDER_CHANGES.txt: "+ Version 2.21 (2021.11.06)", its items indented under it
    text = ("+ Starting with version 2.22, please use the GitHub UI\n  to compare tags.\n\n"
            "+ Version 2.21 (2021.11.06)\n\n  - Much improved support for C11\n\n"
            "+ Version 2.02 (2010.12.10)\n\n  - Fix a bug\n\n+ Version 2.01 (04.12.2010)\n\n  - Fix another\n\n"
            "+ Version 1.0 (2008.11.15)\n\n  * Initial release\n")
    loaded = read(tmp_path, "OLDER_CHANGES.txt", text)
    assert loaded.releases == ("2.21", "2.02", "2.01", "1.0")
    assert [s.date for s in loaded.sections if s.version] == ["2021-11-06", "2010-12-10", "2010-12-04", "2008-11-15"]
    assert "GitHub UI" in loaded.sections[0].text and loaded.sections[0].version is None
    check_invariants(loaded)


def test_changelog_entries_dated_and_naming_a_release_open_releases(tmp_path: Path) -> None:
    # unidecode's GNU-style ChangeLog: "DATE<TAB>name version" over tab-indented entries (a blank line
    # between in older ones), the first line too
    text = ("2025-04-24\tunidecode 1.4.0\n\t* Drop support for Python <3.7.\n\n"
            "2024-01-11\tunidecode 1.3.8\n\t* Fix replacement for U+1E9E\n\t  (thanks to Thomas Voss)\n\n"
            "2015-06-13\tunidecode 0.04.18\n\n\t* Add a command line utility.\n")
    loaded = read_releases(tmp_path, "ChangeLog.txt", text, ("1.4.0", "1.3.8", "0.04.18"), ["2025-04-24", "2024-01-11", "2015-06-13"])
    assert "Drop support" in loaded.sections[0].text
    # an entry naming its author, not a release, opens none
    gnu = "2009-03-18  Jane Doe  <jd@example.org>\n\t* foo.c: Fix.\n\n2009-03-17  Jane Doe  <jd@example.org>\n\t* bar.c: New.\n"
    assert read(tmp_path, "ChangeLog", gnu).releases == ()
