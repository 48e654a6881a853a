"""Wiki-style headings in a plain-text file: a line of ``=`` marks, a space and the heading.

Beautiful Soup's NEWS.txt writes its releases so, as MediaWiki, Trac and MoinMoin do, some closed
and some not, its sub-sections with more marks:

    = 4.15.0 (20260607)
    = 3.0.0 "Who would not give all else for two p" (20060528) =
    == Parsing ==
    === The module name has changed ===

The number of marks is the level. A heading starts at the margin after a blank line (or the file's
start), so "= y + z" continuing an equation is no heading; a file needs two or more to be read so.
"""

from __future__ import annotations

from .markdown import Heading
from .regex import lazy_compile
from .repair import Line

_WIKI = lazy_compile(r"^(={1,6})[ \t]+(?P<text>[^=\s](?:.*?[^=\s])?)(?:[ \t]+=+)?[ \t]*$")


def wiki_headings(lines: list[Line]) -> list[Heading]:
    """The wiki-style headings among ``lines`` (``= 4.15.0 (20260607)``, ``== Parsing ==``), levels
    from their marks; none unless there are two or more."""
    found = []
    for i, ln in enumerate(lines):
        m = _WIKI.match(ln.text)
        if m and (i == 0 or not lines[i - 1].text.strip()):
            found.append(Heading(i, len(m.group(1)), " ".join(m.group("text").split()), None))
    return found if len(found) >= 2 else []
