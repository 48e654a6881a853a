"""Release headings in more shapes the reading check met (its npm and sdist notes, reading6), on
small files: each fails before its fix (read as fewer releases, or none)."""

from __future__ import annotations

from pathlib import Path

from tests.support.fakes import read_written as read
from tests.support.invariants import check_invariants


def test_a_date_and_a_colon_before_a_release_opens_it(tmp_path: Path) -> None:
    # esprima's ChangeLog: "2018-06-17: Version 4.0.1" over its indented items, the first line too
    text = ("2018-06-17: Version 4.0.1\n\n      *  Fix parsing async get/set in a class (issue 1861)\n\n"
            "2017-06-10: Version 4.0.0\n\n      * Support ES2017 async function\n\n"
            "2012-10-22: Version 1.0.0\n\n      * Initial release\n")
    loaded = read(tmp_path, "ChangeLog.txt", text)
    assert loaded.releases == ("4.0.1", "4.0.0", "1.0.0") and loaded.warnings == ()
    assert [s.date for s in loaded.sections if s.version] == ["2018-06-17", "2017-06-10", "2012-10-22"]
    assert "async get/set" in loaded.sections[0].text
    check_invariants(loaded)
    # a dated line that says more than its release is a sentence
    prose = "2018-06-17: Version 4.0.1 fixes a crash\n\n  * A.\n\n2017-06-10: Version 4.0.0 adds async\n\n  * B.\n"
    assert read(tmp_path, "NEWS.txt", prose).releases == ()
