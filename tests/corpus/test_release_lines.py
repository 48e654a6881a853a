"""Releases written as lines of their own, no heading markup (``corpus.release_lines``), on small
files: agronholm's bold reST paragraphs (anyio's ``docs/versionhistory.rst``) and ruamel.yaml's
``[0.19.0, 2025-12-31]:`` lines; each was read as one release with no version before its fix."""

from __future__ import annotations

from pathlib import Path

from tests.support.fakes import read_written as read
from tests.support.invariants import check_invariants

ANYIO = """Version history
===============

This library adheres to `Semantic Versioning 2.0 <http://semver.org/>`_.

.. towncrier release notes start

**UNRELEASED**

- Dropped Python 3.8

**4.16.0** (2026-11-02)

*New features*

- Added ``BlockingPortal.call_async()``
  (`#1342 <https://github.com/agronholm/anyio/issues/1342>`_)

*Bug fixes*

- Fixed ``sleep()`` treating a negative delay inconsistently

**4.15.1**

- Implemented a compatibility fix for ``anyio.*`` submodules

**1.0.0rc1** (2019-xx-xx)

- Fixed ``setsockopt()`` passing options the wrong way
"""


def test_bold_paragraphs_open_releases_with_their_dates(tmp_path: Path) -> None:
    loaded = read(tmp_path, "versionhistory.rst", ANYIO)
    assert loaded.releases == ("4.16.0", "4.15.1", "1.0.0rc1") and loaded.warnings == ()
    opened = {s.path[1]: (s.version, s.date, s.status) for s in loaded.sections if len(s.path) == 2}
    assert opened == {"UNRELEASED": (None, None, "unreleased"), "4.16.0 (2026-11-02)": ("4.16.0", "2026-11-02", None),
                      "4.15.1": ("4.15.1", None, None), "1.0.0rc1 (2019-xx-xx)": ("1.0.0rc1", None, None)}
    check_invariants(loaded)


def test_italic_lines_are_sections_of_their_release(tmp_path: Path) -> None:
    loaded = read(tmp_path, "versionhistory.rst", ANYIO)
    chunks = [c for c in loaded.chunks if c.version == "4.16.0"]
    assert [(c.section, c.kind) for c in chunks] == [
        (("Version history", "4.16.0 (2026-11-02)", "New features"), "added"),
        (("Version history", "4.16.0 (2026-11-02)", "Bug fixes"), "fixed")]
    lines = ANYIO.split("\n")
    assert [lines[c.lines[0] - 1] for c in chunks] == ["- Added ``BlockingPortal.call_async()``",
                                                       "- Fixed ``sleep()`` treating a negative delay inconsistently"]
    assert chunks[0].lines == (16, 17) and len(chunks[0].items) == 1  # the item and its continuation line
    after = next(c for c in loaded.chunks if c.version == "4.15.1")
    assert after.section == ("Version history", "4.15.1") and after.kind is None  # no sub-section carried over


def test_prose_in_bold_or_italics_stays_text(tmp_path: Path) -> None:
    note = ("Version history\n===============\n\n**3.0.0b1**\n\n**NOTE**: Both the API and the command line\n"
            "interface have been refactored.\n\n*Thanks to all who helped!*\n\n- Dropped Python < 3.6\n\n"
            "*Not a heading: no list follows*\n\nSome words.\n\n**2.3.0**\n\n- Added computed columns\n")
    loaded = read(tmp_path, "CHANGES.rst", note)
    assert loaded.releases == ("3.0.0b1", "2.3.0")
    assert [s.path for s in loaded.sections] == [("Version history", "3.0.0b1"), ("Version history", "2.3.0")]
    check_invariants(loaded)


def test_one_bold_version_or_a_version_with_words_is_no_release(tmp_path: Path) -> None:
    one = read(tmp_path, "one.rst", "Notes\n=====\n\n**2.0.0**\n\n- A change.\n\nMore prose.\n")
    assert one.releases == ()
    worded = read(tmp_path, "worded.rst", "History\n=======\n\n**0.4** - One super bundle.\n\n"
                  "**0.3** - Activator and neo packages in one bundle.\n")
    assert worded.releases == ()


RUAMEL = """[0.19.0, 2025-01-02]:
- removed dependency on `ruamel.yaml.clibz`

[0.19.0, 2025-12-31]:
- changed dependency on `ruamel.yaml.clib` to `ruamel.yaml.clibz`
  which includes support for free-threading
- added `.max_depth` to `YAML()` instance

[0.10.6-0.10.9, 2015-09-14]:
- Fix for issue 9

[0.10, 2015-06-22]:

- |-
  preservation of hand crafted anchor names
"""


def test_bracketed_release_lines_open_releases_over_their_items(tmp_path: Path) -> None:
    loaded = read(tmp_path, "CHANGES.txt", RUAMEL)
    assert loaded.releases == ("0.19.0", "0.10.6", "0.10")  # a range counts as its first
    assert loaded.warnings == ("line 4: release 0.19.0 again (first at line 1)",)  # said, as for any heading
    opened = [(s.path[-1], s.version, s.date, s.start_line, s.end_line) for s in loaded.sections]
    assert opened == [("[0.19.0, 2025-01-02]:", "0.19.0", "2025-01-02", 2, 2),
                      ("[0.19.0, 2025-12-31]:", "0.19.0", "2025-12-31", 5, 7),
                      ("[0.10.6-0.10.9, 2015-09-14]:", "0.10.6", "2015-09-14", 10, 10),
                      ("[0.10, 2015-06-22]:", "0.10", "2015-06-22", 14, 15)]
    second = next(c for c in loaded.chunks if c.lines == (5, 7))
    assert [item.lines for item in second.items] == [(5, 6), (7, 7)]  # items stay list items, continuation kept
    check_invariants(loaded)


def test_unbracketed_release_lines_over_their_items_and_the_first_line(tmp_path: Path) -> None:
    text = "1.1.0 (2026-03-02):\n- A fix.\n\n1.0.0 (2026-03-01):\n- First.\n"
    loaded = read(tmp_path, "NEWS.txt", text)
    assert loaded.releases == ("1.1.0", "1.0.0") and [s.start_line for s in loaded.sections] == [2, 5]
    check_invariants(loaded)
    as_rst = read(tmp_path, "NEWS.rst", RUAMEL)  # no reST title: plain text, as pyflakes' NEWS.rst
    assert as_rst.document.format == "text" and as_rst.releases == ("0.19.0", "0.10.6", "0.10")


def test_prose_in_brackets_stays_text(tmp_path: Path) -> None:
    one = read(tmp_path, "one.txt", "Changes\n\n[1.2.0, 2026-01-02]:\n- A fix.\n\nMore prose here.\n")
    assert one.releases == ()
    text = ("Notes\n\n[1.2.0] was the last release with the old API:\n- keep it\n\n"
            "[1.1.0] see the manual:\n- and this\n")
    assert read(tmp_path, "notes.txt", text).releases == ()
