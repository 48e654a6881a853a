"""Releases written as lines of their own rather than as headings.

Some changelogs have no heading markup for their releases: eslint's Markdown writes
"v10.9.0 - August 21, 2026" between blank lines. Such a line opens a release only where the file
writes two or more of them and each says nothing but the release (its version, a date, a status),
so a paragraph that merely starts with a version stays text.
"""

from __future__ import annotations

from .headings import find_date, release_heading
from .markdown import Heading, slugify
from .regex import lazy_compile
from .repair import Line

_RELEASE_LINE = lazy_compile(r"^v?\d+(?:\.\d+)+[\w.+-]*\s+[-–—(]")  # "v10.9.0 - August 21, 2026"


def markdown_release_lines(lines: list[Line], headings: list) -> list:
    """A Markdown changelog with no release heading whose releases are lines of their own, each a
    version and its date (eslint's "v10.9.0 - August 21, 2026" between blank lines): those lines
    open the releases, above the headings inside them (else below the one before). Two at least."""

    taken = {h.index for h in headings}
    found = [i for i, ln in enumerate(lines) if i not in taken and _RELEASE_LINE.match(ln.text)
             and (i == 0 or not lines[i - 1].text.strip()) and (i + 1 >= len(lines) or not lines[i + 1].text.strip())
             and len(ln.text.split()) <= 8 and find_date(ln.text) is not None and release_heading(ln.text.strip())]
    if len(found) < 2:
        return headings
    after = [h.level for h in headings if h.index > found[0]]  # a release's own "### Fixes" stay under it
    before = [h.level for h in headings if h.index < found[0]]
    level = max(1, min(after) - 1) if after else min(6, before[-1] + 1) if before else 2
    added = [Heading(i, level, lines[i].text.strip(), slugify(lines[i].text.strip())) for i in found]
    return sorted([*headings, *added], key=lambda h: h.index)
