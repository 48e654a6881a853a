"""GNU-style ChangeLogs whose releases are marked by an entry, not a heading (pyOpenSSL's old
ChangeLog, dnspython's), on short excerpts of the real shape: each fails before its fix."""

from __future__ import annotations

from pathlib import Path

from tests.support.fakes import read_releases, read_written as read

# pyOpenSSL's doc/ChangeLog_old.txt: a preamble, then dated author entries over tab-indented
# "* file: change" bullets, newest first; an entry whose only bullet is "* Release 0.15" marks a
# release, the entries below it (older) its changes; older entries say "* Released version 0.6."
# or open their list with "* Version 0.4.1"
PYOPENSSL = (
    "This file only contains the changes up to release 0.15.1.  Newer changes can be\n"
    "found at <https://pyopenssl.readthedocs.io/en/latest/changelog.html>.\n\n***\n\n"
    "2015-04-14  Hynek Schlawack  <hs@ox.cx>\n\n\t* Release 0.15.1\n\n"
    "2015-04-14  Glyph Lefkowitz  <glyph@twistedmatrix.com>\n\n"
    "\t* OpenSSL/SSL.py, OpenSSL/test/test_ssl.py: Fix a regression\n"
    "\t  present in 0.15, where when an error occurs and no errno() is set,\n\t  a KeyError is raised.\n\n"
    "2015-04-14  Hynek Schlawack  <hs@ox.cx>\n\n\t* Release 0.15\n\n"
    "2015-04-12  Jean-Paul Calderone  <exarkun@twistedmatrix.com>\n\n"
    "\t* OpenSSL/rand.py, OpenSSL/SSL.py: APIs which previously accepted\n\t  filenames only as bytes.\n\n"
    "2003-01-09  Martin Sjögren  <martin@strakt.com>\n\n\t* Released version 0.6.\n\n"
    "2002-12-31  Martin Sjögren  <martin@strakt.com>\n\n\t* src/crypto/x509name.c: Use unicode strings.\n\n"
    "2002-08-15  Martin Sjögren  <martin@strakt.com>\n\n\t* Version 0.5. Yay!\n\n"
    "2002-01-08  Martin Sjögren  <martin@strakt.com>\n\n\t* Version 0.4.1\n\t* Added some example code\n\n"
    "2001-07-16  Martin Sjögren  <martin@strakt.com>\n\n\t* Initial release (0.1, don't expect much from this one :-)\n"
)


def test_a_release_entry_opens_the_release_of_the_entries_below_it(tmp_path: Path) -> None:
    loaded = read_releases(tmp_path, "ChangeLog_old.txt", PYOPENSSL, ("0.15.1", "0.15", "0.6", "0.5", "0.4.1", "0.1"))
    opened = [s for s in loaded.sections if s.level == 1 and s.version]
    assert [(s.path[-1], s.date) for s in opened] == [
        ("Release 0.15.1 (2015-04-14)", "2015-04-14"), ("Release 0.15 (2015-04-14)", "2015-04-14"),
        ("Release 0.6 (2003-01-09)", "2003-01-09"), ("Release 0.5 (2002-08-15)", "2002-08-15"),
        ("Release 0.4.1 (2002-01-08)", "2002-01-08"), ("Release 0.1 (2001-07-16)", "2001-07-16")]
    by_text = {s.text.split("\n")[-1].strip(): s for s in loaded.sections}
    # the regression fixed in 0.15.1 is 0.15.1's (the entry below its release line), not 0.15's
    assert by_text["a KeyError is raised."].version == "0.15.1"
    assert by_text["a KeyError is raised."].path[1] == "Release 0.15.1 (2015-04-14)"
    assert by_text["filenames only as bytes."].version == "0.15"
    assert by_text["* src/crypto/x509name.c: Use unicode strings."].version == "0.6"
    assert by_text["* Added some example code"].version == "0.4.1"  # the bullets after the marker, its own entry
    # the preamble stays outside any release; the entry's author line stays text of its release
    assert loaded.sections[0].version is None and "only contains the changes" in loaded.sections[0].text
    assert "Hynek Schlawack" in opened[0].text and "* Release 0.15.1" in opened[0].text


def test_release_entries_in_other_wordings(tmp_path: Path) -> None:
    # dnspython's ChangeLog: "* (Version 1.14.0 released)" over that release's own bullets; the
    # newest entries above the first release line are no release's
    text = ("2016-09-29  Bob Halley  <halley@dnspython.org>\n\n\t* Add AVC RR support.\n\n"
            "2016-05-27  Bob Halley  <halley@dnspython.org>\n\n\t* (Version 1.14.0 released)\n\n\t* Add CSYNC RR support\n\n"
            "2016-05-13  Bob Halley  <halley@dnspython.org>\n\n\t* dns/message.py (make_query): Setting any value.\n\n"
            "2016-05-10  Bob Halley  <halley@dnspython.org>\n\n        * (Version 1.13.0 released)\n\n"
            "2010-01-01  Jane Doe  <jd@example.org>\n\n\t* Version 1.2 released.\n\n"
            "2009-01-01  Jane Doe  <jd@example.org>\n\n\t* Released 1.1\n\n"
            "2008-01-01  Jane Doe  <jd@example.org>\n\n\t* Release 1.0.0b3 (the winter release)\n")
    loaded = read_releases(tmp_path, "ChangeLog", text, ("1.14.0", "1.13.0", "1.2", "1.1", "1.0.0b3"))
    of = {s.text.strip().split("\n")[-1].strip(): s.version for s in loaded.sections}
    assert of["* Add CSYNC RR support"] == "1.14.0" and of["* dns/message.py (make_query): Setting any value."] == "1.14.0"
    assert all(s.version is None for s in loaded.sections if "AVC" in s.text)


def test_a_bare_mention_of_a_release_opens_none(tmp_path: Path) -> None:
    # a version inside a longer bullet, a release word before more words, a marker not first in its
    # entry: none opens a release
    text = ("2015-04-14  Glyph Lefkowitz  <glyph@twistedmatrix.com>\n\n"
            "\t* OpenSSL/SSL.py: Fix a regression present in 0.15\n\n"
            "2015-04-10  Glyph Lefkowitz  <glyph@twistedmatrix.com>\n\n\t* Fix a regression present in 0.14\n\n"
            "2015-04-09  Jean Doe  <jd@example.org>\n\n\t* Preparing release 2.0.5.\n\n"
            "2015-04-08  Jean Doe  <jd@example.org>\n\n\t* Release 0.13 was broken, so fix it.\n\n"
            "2015-04-07  Jean Doe  <jd@example.org>\n\n\t* Version 1.2 adds a flag.\n\n"
            "2015-04-06  Jean Doe  <jd@example.org>\n\n\t* setup.py: bump.\n\t* Release 0.12\n\n"
            "2015-04-05  Jean Doe  <jd@example.org>\n\n\t* Release 0.11\n\n"
            "2015-04-04  Jean Doe  <jd@example.org>\n\n\t* Release 0.10\n")
    loaded = read_releases(tmp_path, "ChangeLog", text, ("0.11", "0.10"))
    first = next(n for n, s in enumerate(loaded.sections) if s.version)  # the text above 0.11's entry is no release's
    assert "* Release 0.12" in "\n".join(s.text for s in loaded.sections[:first])


def test_a_release_entry_first_in_the_file_is_no_title(tmp_path: Path) -> None:
    # a ChangeLog that opens with a release entry: its date line opens the release, not the title
    text = ("2015-04-14  Hynek Schlawack  <hs@ox.cx>\n\n\t* Release 0.15.1\n\n"
            "2015-04-13  Glyph Lefkowitz  <glyph@twistedmatrix.com>\n\n\t* OpenSSL/SSL.py: Fix a regression.\n\n"
            "2015-04-12  Hynek Schlawack  <hs@ox.cx>\n\n\t* Release 0.15\n\n"
            "2015-04-11  Jean Doe  <jd@example.org>\n\n\t* OpenSSL/rand.py: Accept unicode.\n")
    loaded = read_releases(tmp_path, "ChangeLog", text, ("0.15.1", "0.15"))
    assert loaded.document.title == "ChangeLog"
    assert [s.version for s in loaded.sections if "Fix a regression" in s.text] == ["0.15.1"]


def test_a_c_candidate_is_a_release_of_its_own(tmp_path: Path) -> None:
    # dnspython's "* (Version 1.1.0c1 released)", PIL's "1.1.7c1" titles: "c", PEP 440's other
    # spelling of rc, is a candidate before 1.1.0, not 1.1.0 itself
    text = ("2003-08-09  Bob Halley  <halley@dnspython.org>\n\n\t* (Version 1.1.0 released)\n\n"
            "2003-08-02  Bob Halley  <halley@dnspython.org>\n\n\t* (Version 1.1.0c1 released)\n\n"
            "2003-08-01  Bob Halley  <halley@dnspython.org>\n\n\t* Node and all rdata types have been slotted.\n")
    loaded = read_releases(tmp_path, "ChangeLog", text, ("1.1.0", "1.1.0c1"))
    assert [s.version for s in loaded.sections if "slotted" in s.text] == ["1.1.0c1"]


# mrab regex's changelog.txt: plain text, each release a line of its own at the margin, "Version 2026.12.2:"
# in the newer part and "Version: 2019.12.17" in the older, its changes indented below
REGEX = (
    "Version 2026.12.2:\n\n"
    "    PR 653: Git issue 634: regex.Scanner still ignores non-ASCII whitespace in VERSION0\n\n"
    "    PR 656: Fix SEGV calling a fuzzy-section group that itself calls a group\n\n"
    "Version 2026.11.30:\n\n"
    "    Git issue 649: test_regex.py:4719: SyntaxWarning: \"\\.\" is an invalid escape sequence\n\n"
    "Version: 2020.10.28\n\n"
    "    Git issue 362: Any LICENSE work for this project?\n\n"
    "    Changed licence to Apache 2.0 and added licence file.\n\n"
    "Version: 2020.10.23\n\n"
    "    Git issue 387: Compilaton flag to avoid storing compiled regexp in internal cache\n"
)


def test_a_version_line_worded_version_opens_a_release(tmp_path: Path) -> None:
    loaded = read_releases(tmp_path, "changelog.txt", REGEX, ("2026.12.2", "2026.11.30", "2020.10.28", "2020.10.23"))
    licence = next(s for s in loaded.sections if s.version == "2020.10.28")
    assert "Changed licence to Apache 2.0" in licence.text and "Compilaton flag" not in licence.text


def test_a_version_line_in_prose_opens_none(tmp_path: Path) -> None:
    # one such line, or one saying more than its release, is text
    text = "Changes\n=======\n\nVersion 2.0: we rewrote the parser.\n\nVersion 1.0 is the last with Python 2.\n"
    assert read(tmp_path, "CHANGES.txt", text).releases == ()
