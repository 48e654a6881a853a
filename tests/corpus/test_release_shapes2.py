"""Release headings in more shapes the reading check met (its npm and sdist notes, reading6), on
small files: each fails before its fix (read as fewer releases, or none)."""

from __future__ import annotations

from pathlib import Path

from tests.support.fakes import read_releases, read_written as read
from tests.support.invariants import check_invariants


def test_a_date_and_a_colon_before_a_release_opens_it(tmp_path: Path) -> None:
    # esprima's ChangeLog: "2018-06-17: Version 4.0.1" over its indented items, the first line too
    text = ("2018-06-17: Version 4.0.1\n\n      *  Fix parsing async get/set in a class (issue 1861)\n\n"
            "2017-06-10: Version 4.0.0\n\n      * Support ES2017 async function\n\n"
            "2012-10-22: Version 1.0.0\n\n      * Initial release\n")
    loaded = read_releases(tmp_path, "ChangeLog.txt", text, ("4.0.1", "4.0.0", "1.0.0"), ["2018-06-17", "2017-06-10", "2012-10-22"])
    assert "async get/set" in loaded.sections[0].text
    # a dated line that says more than its release is a sentence
    prose = "2018-06-17: Version 4.0.1 fixes a crash\n\n  * A.\n\n2017-06-10: Version 4.0.0 adds async\n\n  * B.\n"
    assert read(tmp_path, "NEWS.txt", prose).releases == ()


def test_lines_at_the_margin_each_a_release_over_indented_text(tmp_path: Path) -> None:
    # httplib2's CHANGELOG: "0.32.1" alone at the margin over its indented text, a blank line
    # between or not, its oldest "0.1 Rev 86"
    text = ("0.32.1\n\n  cacerts: remove a distrusted root CA\n\n0.9\n   Fix a bug in the cache.\n\n"
            "   And another.\n\n0.2.0\n   Added support for Google Auth.\n\n0.1 Rev 86\n\n    Initial Release\n")
    loaded = read_releases(tmp_path, "CHANGELOG.txt", text, ("0.32.1", "0.9", "0.2.0", "0.1"))
    assert "And another" in next(s for s in loaded.sections if s.version == "0.9").text
    assert "Initial Release" in loaded.sections[-1].text


def test_release_entries_that_say_more_keep_their_line_as_text(tmp_path: Path) -> None:
    # feedparser's NEWS: "6.0.14 - 30 July 2026" over its indented list, no blank line between, and
    # its oldest entries a paragraph each, "3.0fc1 - 4/23/2004 - MAP - made ..." over indented lines
    text = ("coming in the next release:\n\n6.0.14 - 30 July 2026\n    *   Upgrade to sgmllib 2.0.0.\n\n"
            "6.0.1 - 15 September 2020 [YANKED]\n    * Remove Python 2 code\n\n"
            "2.1 - 11/14/2002 - MAP - added gzip support\n\n3.0fc1 - 4/23/2004 - MAP - made links\n  lists\n\n"
            "4.0 - MAP - support for relative URIs\n")
    loaded = read_releases(tmp_path, "NEWS.txt", text, ("6.0.14", "6.0.1", "2.1", "3.0fc1", "4.0"))
    released = [s for s in loaded.sections if s.version]
    assert [s.path[-1] for s in released] == ["6.0.14 - 30 July 2026", "6.0.1 - 15 September 2020 [YANKED]",
                                              "2.1 - 11/14/2002", "3.0fc1 - 4/23/2004", "4.0"]
    assert released[0].date == "2026-07-30" and released[1].status == "yanked"
    assert released[3].text.startswith("3.0fc1 - 4/23/2004 - MAP - made links") and "lists" in released[3].text


def test_paragraphs_that_start_with_a_version_among_prose_stay_text(tmp_path: Path) -> None:
    text = ("Upgrade notes\n\n2.0 is the last release to support Python 2,\n  as said before.\n\n"
            "1.9 was the first to ship wheels,\n  for every platform.\n\nRead the docs for the rest of it.\n\n"
            "Ask on the list if in doubt.\n")
    assert read(tmp_path, "NOTES.txt", text).releases == ()


def test_a_numbered_pre_release_is_a_release_of_its_own(tmp_path: Path) -> None:
    # handlebars' release-notes.md: npm's first pre-release "v4.1.2-0" above "v4.1.2"; a range of
    # releases ("1.0.6-1.0.9") stays its first
    text = ("# Release Notes\n\n## v4.1.2-0 - August 25th, 2019\n\n- browser field\n\n"
            "## v4.1.2 - April 13th, 2019\n\n- fix: prevent RCE\n\n## 1.0.6-1.0.9 - Feb 14 2013\n\n- old\n")
    loaded = read(tmp_path, "release-notes.md", text)
    assert loaded.releases == ("4.1.2-0", "4.1.2", "1.0.6") and loaded.warnings == ()
    assert [s.date for s in loaded.sections if s.version][:2] == ["2019-08-25", "2019-04-13"]


def test_a_release_s_sections_above_its_level_stay_in_it(tmp_path: Path) -> None:
    # moment's CHANGELOG.md: "### 2.19.0" and its date line over "## Features" / "## Packaging";
    # handlebars' "## v4.5.2 - ..." straight over "# Bugfixes"
    text = ("Changelog\n=========\n\n### 2.19.1\n\n_Released Oct 11, 2017_\n\n- A fix.\n\n### 2.19.0\n\n"
            "_Released Oct 10, 2017_\n\n## Features\n\n- Ignore NaN in setters\n\n## Packaging\n\n- bower\n\n"
            "### 2.18.1\n\n_Released Mar 22, 2017_\n\n- Fix whitespace\n")
    loaded = read(tmp_path, "CHANGELOG.md", text)
    assert loaded.releases == ("2.19.1", "2.19.0", "2.18.1")
    assert [s.path[1:] for s in loaded.sections] == [("2.19.1",), ("2.19.0",), ("2.19.0", "Features"),
                                                     ("2.19.0", "Packaging"), ("2.18.1",)]
    check_invariants(loaded)
    # a heading that groups the releases below it, after a release with notes of its own, keeps its place
    grouped = read(tmp_path, "HISTORY.md", "# History\n\n## 2.0.0\n\n- New.\n\n# 1.x\n\nOld ones.\n\n## 1.9.0\n\n- Old.\n")
    assert [s.path for s in grouped.sections][-2:] == [("History", "1.x"), ("History", "1.x", "1.9.0")]


def test_a_bold_sentence_that_opens_with_a_release_is_no_heading(tmp_path: Path) -> None:
    # nan's CHANGELOG.md: "**Version 2.30.0: current Node 26.12.0, ...**" above its "### X" releases
    text = ("# NAN ChangeLog\n\n**Version 2.30.0: current Node 26.12.0, Node 0.12: 0.12.18, iojs: 3.3.1**\n\n"
            "### 2.30.0 Oct 18 2026\n  - Bugfix: handle big-endian encoding\n\n### 2.29.0 Sep 14 2026\n  - Feature: V8 15.3\n")
    loaded = read(tmp_path, "CHANGELOG.md", text)
    assert loaded.releases == ("2.30.0", "2.29.0") and loaded.warnings == ()
    assert [s.path for s in loaded.sections] == [("NAN ChangeLog",), ("NAN ChangeLog", "2.30.0 Oct 18 2026"),
                                                 ("NAN ChangeLog", "2.29.0 Sep 14 2026")]
    assert "current Node" in loaded.sections[0].text
    # a bold line saying only its release is still one
    bold = read(tmp_path, "NEWS.md", "# News\n\n**1.1.0 (2024-02-01)**\n\n- B.\n\n**1.0.0 (2024-01-01)**\n\n- A.\n")
    assert bold.releases == ("1.1.0", "1.0.0")


def test_slash_dates_are_read_where_their_order_is_said(tmp_path: Path) -> None:
    # feedparser's oldest entries: "2.0 - 10/19/2002" says the month comes first, and so "2.3 -
    # 6/11/2003" is 11 June; where no date says the order, a slash date stays unread
    text = ("2.0 - 10/19/2002\n  JD - use inchannel\n\n2.3 - 6/11/2003 - MAP - added USER_AGENT\n  for default\n\n"
            "2.7.6 - 1/16/2004 - MAP - fixed a bug\n")
    loaded = read(tmp_path, "NEWS.txt", text)
    assert [s.date for s in loaded.sections if s.version] == ["2002-10-19", "2003-06-11", "2004-01-16"]
    unsaid = read(tmp_path, "OLD.txt", "1.1 - 6/11/2003\n  one\n\n1.0 - 5/4/2003\n  two\n")
    assert unsaid.releases == ("1.1", "1.0") and [s.date for s in unsaid.sections] == [None, None]


def test_a_spelled_date_with_a_space_before_its_comma_is_read(tmp_path: Path) -> None:
    # moment's "### 2.6.0 [See changelog](url)" over "_Released April 12 , 2014_"
    text = "# Changelog\n\n### 2.6.1\n\n_Released May 1, 2014_\n\n- A.\n\n### 2.6.0\n\n_Released April 12 , 2014_\n\n- B.\n"
    loaded = read(tmp_path, "CHANGELOG.md", text)
    assert [s.date for s in loaded.sections if s.version] == ["2014-05-01", "2014-04-12"]


def test_a_semver_tag_of_other_words_is_a_release_of_its_own(tmp_path: Path) -> None:
    # rxjs' conventional-changelog: "# [6.0.0-uncanny-rc.7](url) (date)" after "# [6.0.0](url)",
    # its oldest "# [0.0.0-prealpha.3](url)": each a release, not a repeated 6.0.0 or 0.0.0
    text = ("# [6.0.0](https://x/compare/a...b) (2018-04-24)\n\n### Bug Fixes\n\n- A.\n\n"
            "<a name=\"6.0.0-uncanny-rc.7\"></a>\n\n# [6.0.0-uncanny-rc.7](https://x/c) (2018-04-13)\n\n- B.\n\n"
            "# [0.0.0-prealpha.3](https://x/d) (2015-06-01)\n\n- C.\n\n# [0.0.0-prealpha.2](https://x/e) (2015-05-30)\n\n- D.\n")
    loaded = read(tmp_path, "CHANGELOG.md", text)
    assert loaded.releases == ("6.0.0", "6.0.0-uncanny-rc.7", "0.0.0-prealpha.3", "0.0.0-prealpha.2")
    assert loaded.warnings == ()
    assert "B." in next(s for s in loaded.sections if s.version == "6.0.0-uncanny-rc.7").text
    check_invariants(loaded)
    # "3.8-only" in a heading is still 3.8
    assert read(tmp_path, "NEWS.md", "# News\n\n## 1.1.0\n\n- A.\n\n## 1.0.0 (3.8-only)\n\n- B.\n").releases == ("1.1.0", "1.0.0")


def test_a_quoted_date_under_a_release_dates_it(tmp_path: Path) -> None:
    # auto-changelog: "#### [v2.6.1](compare-url)" over "> 4 September 2026"
    text = ("### Changelog\n\n#### [v2.7.0](https://x/compare/v2.6.1...v2.7.0)\n\n- A.\n\n"
            "#### [v2.6.1](https://x/compare/v2.6.0...v2.6.1)\n\n> 4 September 2026\n\n- B.\n\n"
            "### [v2.0.0](https://x/compare/v1.0.0...v2.0.0)\n\n> 10 April 2020\n\n- C.\n")
    loaded = read(tmp_path, "CHANGELOG.md", text)
    assert loaded.releases == ("2.7.0", "2.6.1", "2.0.0")
    assert [s.date for s in loaded.sections if s.version] == [None, "2026-09-04", "2020-04-10"]
    check_invariants(loaded)
