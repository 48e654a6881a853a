"""Release headings in more shapes the reading check met (changelog generators and Sphinx
extensions, reading8), on small files: each fails before its fix."""

from __future__ import annotations

from pathlib import Path

from tests.support.fakes import read_releases, read_written as read


def test_a_product_and_its_part_before_a_dated_release_open_it(tmp_path: Path) -> None:
    # Twisted's NEWS.rst: "Twisted 17.5.0 (date)", then one title a part for older releases
    # ("Twisted Core 17.1.0 (date)", "Twisted Conch 17.1.0 (date)"): parts of one release, no repeat warned
    text = ("NEWS\n====\n\nTwisted 17.5.0 (2017-06-04)\n===========================\n\nFeatures\n--------\n\n- A.\n\n"
            "Twisted Core 17.1.0 (2017-02-04)\n================================\n\nFeatures\n--------\n\n- B.\n\n"
            "Twisted Conch 17.1.0 (2017-02-04)\n=================================\n\nBugfixes\n--------\n\n- C.\n\n"
            "Twisted Core 16.6.0 (2016-11-17)\n================================\n\n- D.\n")
    loaded = read_releases(tmp_path, "NEWS.rst", text, ("17.5.0", "17.1.0", "16.6.0"))
    assert "C." in next(s for s in loaded.sections if s.path[-1] == "Bugfixes").text
    assert next(s for s in loaded.sections if s.path[-1] == "Bugfixes").version == "17.1.0"
    # two words before a version with no date stay a feature heading
    plain = read(tmp_path, "CHANGES.rst", "Changes\n=======\n\n1.1.0\n-----\n\nUses Python 3.12\n~~~~~~~~~~~~~~~~\n\n- A.\n")
    assert plain.releases == ("1.1.0",)
    # the same heading written twice is still a repeat
    twice = read(tmp_path, "AGAIN.rst", "News\n====\n\nFoo Bar 1.0.0 (2020-01-01)\n==========================\n\n- A.\n\n"
                 "Foo Bar 1.0.0 (2020-01-01)\n==========================\n\n- B.\n")
    assert twice.releases == ("1.0.0",) and len(twice.warnings) == 1


def test_a_release_role_item_opens_the_release_of_the_items_below_it(tmp_path: Path) -> None:
    # the Sphinx "releases" extension (invoke's sites/www/changelog.rst): one list under the title,
    # "- :release:`3.0.3 <2026-04-07>`" items over the ":bug:" / ":feature:" items of that release
    text = ("=========\nChangelog\n=========\n\n- :release:`3.0.3 <2026-04-07>`\n- :support:`- backported` Reverted the\n"
            "  type hint change.\n- :release:`3.0.2 <2026-04-06>`\n- :bug:`742` Define a custom ``__repr__``.\n"
            "- :release:`0.7.0 <2014.01.28>`\n- :feature:`57` Optional-value flags.\n")
    loaded = read_releases(tmp_path, "changelog.rst", text, ("3.0.3", "3.0.2", "0.7.0"), ["2026-04-07", "2026-04-06", "2014-01-28"])
    text_of = {s.version: s.text for s in loaded.sections}
    assert "Reverted the" in text_of["3.0.3"] and "__repr__" in text_of["3.0.2"] and "flags" in text_of["0.7.0"]
    # a release role inside a sentence, or one alone, opens nothing
    prose = read(tmp_path, "notes.rst", "Notes\n=====\n\n- See :release:`1.0.0 <2020-01-01>` for more.\n- :release:`0.9.0`\n")
    assert prose.releases == ()


def test_a_release_heading_over_only_its_series_is_no_release(tmp_path: Path) -> None:
    # jupyter_client's CHANGELOG.md (github-activity): "## 5.2" over its own notes, but "## 5.0"
    # straight over "### 5.0.1" and "### 5.0.0", and "## 4.0" over its own text again
    text = ("# Changes in Jupyter Client\n\n## 5.2\n\n- Fix A.\n\n## 5.0\n\n### 5.0.1\n\n- Fix B.\n\n### 5.0.0\n\n"
            "New features:\n\n- C.\n\n## 4.0\n\nThe first release of Jupyter Client as its own package.\n")
    loaded = read_releases(tmp_path, "CHANGELOG.md", text, ("5.2", "5.0.1", "5.0.0", "4.0"))
    series = next(s for s in loaded.sections if s.path[-1] == "5.0")
    assert series.version is None and next(s for s in loaded.sections if s.path[-1] == "5.0.1").version == "5.0.1"
    # a release with notes of its own over its point releases stays one (mypy's "## Mypy 2.3" over "### Mypy 2.3.1")
    own = read(tmp_path, "NEWS.md", "# News\n\n## 2.3\n\nWe are happy.\n\n### 2.3.1\n\n- Fix.\n\n## 2.2\n\n- Old.\n")
    assert own.releases == ("2.3", "2.3.1", "2.2")
