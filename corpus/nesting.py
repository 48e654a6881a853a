"""Sections a Markdown release writes with headings above its own level.

Some changelogs head a release's sections with fewer ``#`` than the release itself: moment's
``### 2.19.0`` then ``_Released Oct 10, 2017_`` over ``## Features`` and ``## Packaging``;
handlebars' ``## v4.5.2 - November 13th, 2019`` straight over ``# Bugfixes``. Read by their
levels, such a heading would close the release and hold every release after it ("Bugfixes >
v4.0.0 - September 1st, 2015"). It is the release's section where the release heading has nothing
under it but its date, so a heading that groups the releases below it ("# 1.x series" after a
release with notes of its own) keeps its place.

A release heading with nothing under it but the releases of its series one level below
(jupyter_client's ``## 5.0`` straight over ``### 5.0.1`` and ``### 5.0.0``) names the series,
not a release of its own: ``series_headings``.
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


def series_headings(lines: list[Line], headings: tuple[Heading, ...]) -> frozenset[int]:
    """The line indexes of release headings that only group their series (jupyter_client's ``## 4.2``
    over ``### 4.2.2``, ``### 4.2.1``, ``### 4.2.0``): nothing under the heading but blank lines
    before the next heading, a release one level deeper whose version continues its own ("4.2" ->
    "4.2.2"). ``## 5.2`` over its own notes is a release."""
    out = set()
    for h, nxt in zip(headings, headings[1:]):
        mine = release_heading(h.text)
        if mine is None or mine.version is None or nxt.level != h.level + 1:
            continue
        theirs = release_heading(nxt.text)
        if theirs is not None and theirs.version and theirs.version.startswith(mine.version + ".") \
                and not any(ln.text.strip() for ln in lines[h.index + h.span:nxt.index]):
            out.add(h.index)
    return frozenset(out)
