"""Release headings that say what they are before the version (psycopg2's "What's new in psycopg
2.9.13", pymongo's "Changes in Version 4.20.1 (date)") and pre-release tags written apart from the
number (nltk's "Version 2.0.1 (rc1)", six's "1.0 beta 1"), on short excerpts of the real shapes:
each fails before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus.headings import release_alone, release_heading
from tests.support.fakes import read_releases

# psycopg2's NEWS (reST, no extension): "Current release" over the newest series' releases, a
# series' first release over "---" holding the older series' releases over "^^^", betas spelled apart
PSYCOPG2 = (
    "Current release\n---------------\n\n"
    "What's new in psycopg 2.9.13\n^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\n- Add support for Python 3.15.\n\n\n"
    "What's new in psycopg 2.9.12\n^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\n- Fix infinite loop with malformed interval.\n\n\n"
    "What's new in psycopg 2.9\n-------------------------\n\n- ``with connection`` starts a transaction.\n\n\n"
    "What's new in psycopg 2.8.7\n^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\n- Accept empty params as `~psycopg2.connect()`.\n\n\n"
    "What's new in psycopg 2.0\n-------------------------\n\n- Fixed exception in setup.py.\n\n\n"
    "What's new in psycopg 2.0 beta 7\n^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\n- Ironed out last problems with times.\n"
)

# pymongo's doc/changelog.rst: "Changes in Version X (YYYY/MM/DD)" over a release's "...." sub-titles
PYMONGO = (
    "Changelog\n=========\n\n"
    "Changes in Version 4.20.1 (2026/11/19)\n--------------------------------------\n\n"
    "Version 4.20.1 is a bug fix release.\n\nBug fixes\n.........\n\n- Sanitize parsing error messages.\n\n"
    "Changes in Version 4.20.0 (2026/11/12)\n--------------------------------------\n\n"
    "- The client handshake metadata now reports a detected coding agent.\n"
)

# nltk's ChangeLog: "Version X date" lines over their lists, a blank line between or not; one
# release candidate with its tag in parentheses
NLTK = (
    "Version 3.9.1 2024-08-19\n* Fixed bug that prevented wordnet from loading\n\n"
    "Version 3.9 2024-08-18\n* Fix security vulnerability CVE-2024-39705 (breaking change)\n\n"
    "Version 2.0.1 2012-05-15\n\n* Corpus readers fixed\n\n"
    "Version 2.0.1 (rc1) 2011-04-11\n\nNLTK:\n* added interface to the Stanford POS Tagger\n\n"
    "Version 2.0b9 2010-07-25\n\n* bugfixes in chunk eval\n"
)


def test_words_before_the_version_open_a_release(tmp_path: Path) -> None:
    loaded = read_releases(tmp_path, "NEWS.txt", PSYCOPG2, ("2.9.13", "2.9.12", "2.9", "2.8.7", "2.0", "2.0b7"))
    by_version = {s.version: s for s in loaded.sections if s.version}
    assert "Accept empty params" in by_version["2.8.7"].text and "Accept empty params" not in by_version["2.9"].text
    read_releases(tmp_path, "changelog.rst", PYMONGO, ("4.20.1", "4.20.0"))


def test_a_release_candidate_in_parentheses_is_a_release_of_its_own(tmp_path: Path) -> None:
    loaded = read_releases(tmp_path, "ChangeLog.txt", NLTK, ("3.9.1", "3.9", "2.0.1", "2.0.1rc1", "2.0b9"),
                           ["2024-08-19", "2024-08-18", "2012-05-15", "2011-04-11", "2010-07-25"])
    assert "Stanford POS Tagger" in next(s.text for s in loaded.sections if s.version == "2.0.1rc1")


@pytest.mark.parametrize(("heading", "version"), [
    ("1.0 beta 1", "1.0b1"),  # six's CHANGES
    ("Version 2.0.1 (rc1) 2011-04-11", "2.0.1rc1"),
    ("What's new in psycopg 2.0 beta 7", "2.0b7"),
    ("Release 1.0 (b2)", "1.0b2"),
    ("0.18.0-beta2 (05 Jan 2022)", "0.18.0-beta2"),  # a tag joined to its number stays as written
    ("1.0 beta", "1.0"),  # no number: no pre-release named
], ids=["six", "nltk", "psycopg2", "parenthesised", "joined", "untagged"])
def test_a_pre_release_tag_written_apart_is_the_versions(heading: str, version: str) -> None:
    assert release_heading(heading).version == version


@pytest.mark.parametrize("heading", ["Changes in 2.0 to the parser", "What's new in the 3.0 series of Python", "Changes in psycopg"])
def test_words_before_a_version_that_say_more_open_no_release(heading: str) -> None:
    assert release_heading(heading) is None and release_alone(heading) is None


def test_a_platforms_version_after_whats_new_opens_no_release() -> None:
    from corpus.headings import release_heading

    assert release_heading("What's new in Python 3.12") is None
    assert release_heading("Changes in Django 5.0") is None
    assert release_heading("What's new in psycopg 2.9.13").version == "2.9.13"
