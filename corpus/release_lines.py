"""Releases written as lines of their own rather than as headings.

Some changelogs have no heading markup for their releases: eslint's Markdown writes
"v10.9.0 - August 21, 2026" between blank lines; agronholm's reStructuredText (anyio, typeguard,
apscheduler, cbor2, sqlacodegen) a bold paragraph, ``**4.16.0**`` or ``**4.0.0** (2023-08-01)``,
with italic lines (``*Bug fixes*``) over the lists inside a release; ruamel.yaml's plain-text
CHANGES a line over its list, ``[0.19.0, 2025-12-31]:`` then ``- item`` lines; websocket-client's
ChangeLog a list, each release an item ``- 1.9.2`` over its changes nested below; unidecode's
GNU-style ChangeLog an entry a release, ``2024-01-11<TAB>unidecode 1.3.8`` over its indented
changes, and pyOpenSSL's an entry whose first bullet marks one, ``<TAB>* Release 0.15``, over the older
entries that are its changes; httplib2's and feedparser's plain text a release at each line at the margin, ``0.3.0`` or
``6.0.14 - 30 July 2026`` over its indented text. Such a line opens a release only where the file
writes two or more of them and each says nothing but the release (its version, a date, a status:
``headings.release_alone``; a ChangeLog entry's date and the name and version), or where nearly every
line at the margin opens one (feedparser's oldest "2.1 - 11/14/2002 - MAP - added gzip support"), so
a paragraph that merely starts with a version or bold text (sqlacodegen's ``**NOTE**: Both the API
...``) stays text.
"""

from __future__ import annotations

import re

from .headings import find_date, opens_with_version, release_alone, release_heading, release_marker
from .markdown import Heading, slugify
from .regex import lazy_compile
from .repair import Line

_RELEASE_LINE = lazy_compile(r"^v?\d+(?:\.\d+)+[\w.+-]*\s+[-–—(]")  # "v10.9.0 - August 21, 2026"
_BOLD = lazy_compile(r"^\*\*(?P<bold>[^*\s](?:[^*]*[^*\s])?)\*\*(?P<rest>[^*]*)$")  # "**4.0.0** (2023-08-01)"
_ITALIC = lazy_compile(r"^\*(?P<text>[^*\s](?:[^*]*[^*\s.,:;!?])?)\*[ \t]*$")  # "*Bug fixes*", not "*Thanks!*"
_LIST_ITEM = lazy_compile(r"^[ \t]*(?:[-*+•]|\d+[.)]|#\.)[ \t]+\S")
# the version first: "[0.19.0, 2025-12-31]:", "4.1.0 (2026-10-28):", or after "Version" (regex's "Version: 2019.12.17")
_TEXT_RELEASE = lazy_compile(r"^(?:(?:version|release):?\s+)?\[?v?\d", re.IGNORECASE)
_MARGIN_ITEM = lazy_compile(r"^[-*+][ \t]+\S")
_BULLET_TEXT = lazy_compile(r"^[-*+][ \t]+(\S(?:.*\S)?)[ \t]*$")  # "- 1.9.2" -> "1.9.2"
_ENTRY = lazy_compile(r"^v?\d+\.\d+\S*(?:\s|$)")  # a line at the margin opening with its version: "0.3.0", "3.0b3 - 1/23/2004 - ..."
_DATED_LINE = lazy_compile(r"^\d{4}-\d\d-\d\d:?[ \t]+\S")  # a ChangeLog entry's date at the margin, a colon after it or not
MAX_SUBSECTION_WORDS = 6  # "*Removals and backward incompatible changes*"; a longer line is a sentence


def markdown_release_lines(lines: list[Line], headings: list) -> list:
    """A Markdown changelog with no release heading whose releases are lines of their own, each a
    version and its date (eslint's "v10.9.0 - August 21, 2026" between blank lines): those lines
    open the releases, above the headings inside them (else below the one before). Two at least."""

    taken = {h.index for h in headings}
    found = [i for i, ln in enumerate(lines) if i not in taken and _RELEASE_LINE.match(ln.text)
             and _paragraph_line(lines, i) and len(ln.text.split()) <= 8 and find_date(ln.text) is not None and release_heading(ln.text.strip())]
    if len(found) < 2:
        return headings
    after = [h.level for h in headings if h.index > found[0]]  # a release's own "### Fixes" stay under it
    before = [h.level for h in headings if h.index < found[0]]
    level = max(1, min(after) - 1) if after else min(6, before[-1] + 1) if before else 2
    added = [Heading(i, level, lines[i].text.strip(), slugify(lines[i].text.strip())) for i in found]
    return sorted([*headings, *added], key=lambda h: h.index)


def text_release_lines(lines: list[Line]) -> list[Heading]:
    """Plain-text releases written as lines of their own over their lists (ruamel.yaml's CHANGES:
    ``[0.19.0, 2025-12-31]:`` and its ``- item`` lines, no blank line between, which no inferred
    heading allows): a line at the margin after a blank line that opens with its version and says
    only the release, over a list item or a blank line. Two at least; each a heading of its own
    line at level 1, the items below it its text."""
    found = []
    for i, ln in enumerate(lines):
        text, nxt = ln.text.strip(), lines[i + 1].text if i + 1 < len(lines) else ""
        if ln.text[:1].isspace() or (i and lines[i - 1].text.strip()) or not _TEXT_RELEASE.match(text):
            continue
        found_release = release_alone(text)
        if found_release is not None and found_release.version and (not nxt.strip() or _MARGIN_ITEM.match(nxt)):
            found.append(Heading(i, 1, text, None))
    return found if len(found) >= 2 else []


def release_bullets(lines: list[Line]) -> list[Heading]:
    """A changelog written as one list whose items at the margin each say only a release, the
    release's changes nested under it (websocket-client's ``- 1.9.2`` / ``- v0.20.0`` over
    ``  - Fix ...`` items, pycparser's ``+ Version 2.21 (2021.11.06)``): each such item is a heading
    of level 1, its text the release without the bullet. Two at least, and nearly every item at the
    margin one (a note such as "+ Starting with version 2.22, see the GitHub UI" stays text)."""
    found = []
    for i, ln in enumerate(lines):
        m = _BULLET_TEXT.match(ln.text)
        if m and _nested_below(lines, i) and (release := release_alone(m.group(1))) is not None and release.version:
            found.append(Heading(i, 1, m.group(1), None))
    items = sum(1 for ln in lines if _MARGIN_ITEM.match(ln.text))
    return found if len(found) >= 2 and len(found) >= 0.8 * items else []


def dated_release_lines(lines: list[Line]) -> list[Heading]:
    """Entries of a GNU-style ChangeLog, each a line at the margin that dates its indented changes,
    that name a release: in the date line (unidecode's ``2024-01-11<TAB>unidecode 1.3.8`` then
    ``<TAB>* Fix ...``; a blank line may come between), a heading of that line at level 1
    (``headings.release_heading`` reads the date and the release); or in the entry's first bullet
    (pyOpenSSL's ``2015-04-14  Hynek Schlawack  <hs@ox.cx>`` over ``<TAB>* Release 0.15``, dnspython's
    ``* (Version 1.14.0 released)``: ``headings.release_marker``), a heading at level 1 named
    "Release 0.15 (2015-04-14)" with no line of its own (span 0: the entry stays its text). Newest
    first, the entries below a release, down to the next, are its changes: each a heading at level 2
    under it. An entry naming no release ("2009-03-18  Jane Doe  <jd@example.org>") is none; two at least."""
    found, entries = [], []
    for i, ln in enumerate(lines):
        text = ln.text
        if not _DATED_LINE.match(text) or (i and lines[i - 1].text.strip()) or not _nested_below(lines, i):
            continue
        line = " ".join(text.split())
        release = release_heading(line)
        if release is not None and release.version:
            found.append(Heading(i, 1, line, None))
        elif (marked := _marked_release(lines, i)) is not None:
            found.append(Heading(i, 1, f"Release {marked} ({line.split()[0].rstrip(':')})", None, 0))
        else:
            entries.append(Heading(i, 2, line, None))
    if len(found) < 2:
        return []
    return sorted([*found, *(h for h in entries if h.index > found[0].index)], key=lambda h: h.index)


def _marked_release(lines: list[Line], i: int) -> str | None:
    """The version the first bullet of the ChangeLog entry dated at line ``i`` marks as released
    ("* Release 0.15"), else None."""
    first = next((ln.text for ln in lines[i + 1:i + 3] if ln.text.strip()), "")
    m = _BULLET_TEXT.match(first.strip())
    return release_marker(m.group(1)) if m else None


def release_entries(lines: list[Line]) -> list[Heading]:
    """A changelog whose lines at the margin are its releases, each opening a paragraph with its
    version, the release's text indented under it or in the paragraphs below (httplib2's "0.3.0"
    over "   Calling Http.request() ..."; feedparser's "6.0.14 - 30 July 2026" over "    *   Upgrade
    ...", and its oldest entries "2.1 - 11/14/2002 - MAP - added gzip support"). A line that says
    only its release is a heading; one that says more opens its release with no line of its own
    (span 0: the line stays the release's text), named by the release its start says ("2.1 -
    11/14/2002"). Two at least, and nearly every line at the margin one, so a paragraph that merely
    starts with a version among others stays text."""
    found, margin = [], 0
    for i, ln in enumerate(lines):
        text = ln.text
        if not text.strip() or text[:1].isspace():
            continue
        margin += 1
        below = lines[i + 1].text if i + 1 < len(lines) else ""
        if not _ENTRY.match(text) or (i and lines[i - 1].text.strip()) or (below.strip() and not below[:1].isspace()):
            continue
        line = " ".join(text.split())
        release = release_heading(line)
        if release is None or release.version is None:
            continue
        if release_alone(line) is not None:
            found.append(Heading(i, 1, line, None))
            continue
        parts = line.split(" - ")
        named = next((" - ".join(parts[:k]) for k in range(len(parts), 0, -1) if release_alone(" - ".join(parts[:k]))), None)
        found.append(Heading(i, 1, named or release.version, None, 0))
    return found if len(found) >= 2 and len(found) >= 0.8 * margin else []


def emphasised_releases(lines: list[Line], skip: list[bool]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(line, text) of the releases written as bold paragraphs of their own (``**4.16.0**``,
    ``**4.0.0** (2023-08-01)``, ``**UNRELEASED**``), two with a version at least, and of the italic
    lines below the first that head a list (``*New features*`` over ``- Added ...``): the
    sub-sections inside a release, read as its "### Fixed" would be. Lines ``skip`` marks
    (explicit markup) are neither."""
    alone = [i for i, ln in enumerate(lines) if not skip[i] and _paragraph_line(lines, i)]
    releases, versioned = [], 0
    for i in alone:
        m = _BOLD.match(lines[i].text)
        text = " ".join(f"{m.group('bold')}{m.group('rest')}".split()) if m else ""
        found = release_alone(text) if m else None
        if found is not None:
            releases.append((i, text))
            versioned += bool(found.version)
    if versioned < 2:
        return [], []
    sections = [(i, m.group("text")) for i in alone if i > releases[0][0] and (m := _ITALIC.match(lines[i].text))
                and len(m.group("text").split()) <= MAX_SUBSECTION_WORDS and _heads_a_list(lines, i)]
    return releases, sections


def _paragraph_line(lines: list[Line], i: int) -> bool:
    """Whether line ``i`` is a paragraph of one line at the margin (blank lines or the file's ends around it)."""
    text = lines[i].text
    return bool(text.strip()) and not text[:1].isspace() and (i == 0 or not lines[i - 1].text.strip()) \
        and (i + 1 == len(lines) or not lines[i + 1].text.strip())


def _nested_below(lines: list[Line], i: int) -> bool:
    """Whether the line after line ``i``, or the one after a blank line, is indented: held by line
    ``i``'s item or entry ("- 1.9.2" over "  - Fix race ...")."""
    for ln in lines[i + 1:i + 3]:
        if ln.text.strip():
            return ln.text[:1].isspace()
    return False


def _heads_a_list(lines: list[Line], i: int) -> bool:
    """Whether the first line with text after line ``i`` is a list item."""
    nxt = next((ln.text for ln in lines[i + 1:] if ln.text.strip()), "")
    return _LIST_ITEM.match(nxt) is not None


def lines_beside_titles(lines: list[Line], named: set[str], skip: list[bool]) -> list[int]:
    """Releases written as lines of their own in a file whose other releases are titled (PyYAML's
    CHANGES.txt: its newest ``6.0.4 (2026-11-20)`` over its list, the older ``5.2 (2019-12-02)``
    underlined): a line at the margin between blank lines that says only a release and its date, of
    a version no title names. ``named``: the versions of the release titles; ``skip``: lines that
    hold no such line (titles, explicit markup)."""
    if not named:
        return []
    found = []
    for i, ln in enumerate(lines):
        text = ln.text
        if skip[i] or not text.strip() or text[:1].isspace() or (i and lines[i - 1].text.strip()) \
                or (i + 1 < len(lines) and lines[i + 1].text.strip()):
            continue
        release = release_alone(text.strip())  # opening with its version: "CPython 3.13.0 (2024-10-07)" is another's
        if release is not None and release.version and release.version not in named and find_date(text) is not None \
                and opens_with_version(text):
            found.append(i)
    return found
