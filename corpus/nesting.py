"""Sections a Markdown release writes with headings above its own level.

Some changelogs head a release's sections with fewer ``#`` than the release itself: moment's
``### 2.19.0`` then ``_Released Oct 10, 2017_`` over ``## Features`` and ``## Packaging``;
handlebars' ``## v4.5.2 - November 13th, 2019`` straight over ``# Bugfixes``. Read by their
levels, such a heading would close the release and hold every release after it ("Bugfixes >
v4.0.0 - September 1st, 2015"). It is the release's section where the release heading has nothing
under it but its date, so a heading that groups the releases below it ("# 1.x series" after a
release with notes of its own) keeps its place.
"""

from __future__ import annotations

from dataclasses import replace

from .headings import release_heading, release_line
from .markdown import Heading
from .repair import Line


def release_subsections(lines: list[Line], headings: list[Heading]) -> list[Heading]:
    """``headings`` with the sections a release heads above its own level put under it: those
    that follow a release heading with nothing under it but its date, up to the next release
    heading, each one level below the releases (deeper ones under them in turn)."""
    top = min((h.level for h in headings if (r := release_heading(h.text)) is not None and r.version), default=None)
    if top is None:
        return headings
    out = list(headings)
    for n, h in enumerate(headings):
        if release_heading(h.text) is None or h.level != top or not _date_only(lines, h, headings[n + 1:n + 2]):
            continue
        run = []
        for k in range(n + 1, len(headings)):
            if release_heading(headings[k].text) is not None:
                break
            run.append(k)
        above = [k for k in run if headings[k].level < top]
        if not above or run[0] not in above:
            continue
        least = min(headings[k].level for k in above)
        for k in above:
            out[k] = replace(headings[k], level=min(6, top + 1 + headings[k].level - least))
    return out


def _date_only(lines: list[Line], h: Heading, after: list[Heading]) -> bool:
    """Whether release heading ``h`` has no text under it before the next heading but its date line
    ("_Released Oct 10, 2017_")."""
    end = after[0].index if after else len(lines)
    own = [ln.text for ln in lines[h.index + h.span:end] if ln.text.strip()]
    return not own or (len(own) == 1 and release_line(own[0]) is not None)
