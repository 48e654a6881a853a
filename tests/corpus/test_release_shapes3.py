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
