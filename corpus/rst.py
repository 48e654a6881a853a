"""The outline of a reStructuredText document: section titles found by their adornment.

A title is a line underlined, or over- and underlined, with one punctuation character
repeated; its level comes from the order in which adornment styles (character, overline or
not) first appear in the file, not from the character; an overlined title may be inset.
Explicit markup blocks (directives such as ``.. only::``, comments, hyperlink targets and
substitution definitions: a ``..`` line and the indented lines under it) hold no titles, except
that a directive with a ``:version:`` option opens that release (SQLAlchemy's, Alembic's and
Mako's ``.. changelog::`` blocks): a heading named by the version, one level below the title
styles seen before it. Where no title is a release, a definition-list term can open one
(wcwidth's), else a bold paragraph of its own (agronholm's ``**4.16.0**``, with ``*Bug fixes*``
sub-sections: ``corpus.release_lines``), else a list item that is a ``:release:`` role alone (the
Sphinx "releases" extension's ``- :release:`3.0.3 <2026-04-07>```, invoke's and paramiko's, over
the ``- :bug:`` and ``- :feature:`` items of that release).

Why not docutils: it is the reference parser, but it reports every Sphinx role and
directive it does not know (``:pr:``, ``.. towncrier release notes start``) as an error, gives
approximate line numbers, and builds a document tree where a passage must stay the verbatim
source lines. The outline only needs titles and their lines, which the adornments say exactly,
as the Markdown outline does for ``#`` and setext headings.
"""

from __future__ import annotations

from .errors import MalformedReST
from .markdown import Heading, slugify
from .release_lines import emphasised_releases, lines_beside_titles, text_release_lines
from .regex import lazy_compile
from .repair import Line
from .textform import RST_ROLE, role_text
from .headings import opens_with_version, release_heading
from .versions import VERSION

_ADORNMENT = lazy_compile(r"""^([!-/:-@\[-`{-~])\1{2,}[ \t]*$""")  # one punctuation character, 3 or more
_ATX = lazy_compile(r"^#{1,6}[ \t]+\S")  # a Markdown heading
_EXPLICIT = lazy_compile(r"^\.\.(?:[ \t]|$)")
_DIRECTIVE = lazy_compile(r"^\.\.[ \t]+[\w:+-]+::[ \t]*$")  # a directive with no argument, at the margin
_OPTION = lazy_compile(r"^[ \t]+:[\w-]+:")
_VERSION_OPTION = lazy_compile(r"^[ \t]+:version:[ \t]*" + VERSION + r"[ \t]*$")
_DIRECTIVE_NAME = lazy_compile(r"^\.\.[ \t]+([\w:+-]+)::")
_LINK_DIRECTIVES = frozenset({"toctree", "include", "literalinclude", "contents"})  # they point elsewhere
_RELEASE_STYLE = ("..", False)  # the "adornment style" of release directives, for levels
_TERM_STYLE = ("dl", False)  # and of release terms (wcwidth's "0.9.4 *2026-10-24*" over its indented items)
_BOLD_STYLE = ("**", False)  # and of bold release paragraphs (agronholm's "**4.16.0**")
_ITALIC_STYLE = ("*", False)  # and of the italic sub-sections inside them ("*Bug fixes*")
_ROLE_STYLE = (":release:", False)  # and of release roles ("- :release:`3.0.3 <2026-04-07>`")
# A list item at the margin that is a release role alone: the version, and its date in angle brackets.
_RELEASE_ROLE = lazy_compile(r"^[-*+][ \t]+:release:`[ \t]*v?" + VERSION + r"[ \t]*(?:<(?P<date>[^>`]*)>)?[ \t]*`[ \t]*$")
_TITLE_MARKUP = lazy_compile(r"``([^`]+)``|`([^`<]+?)\s*<[^>]*>`__?|`([^`]+)`_{0,2}|\*\*([^*]+)\*\*|\*([^*]+)\*")


def markup_mask(lines: list[Line]) -> list[bool]:
    """True for the lines of explicit markup blocks: a ``..`` line and the blank or indented lines after it."""
    mask = [False] * len(lines)
    inside = False
    for i, ln in enumerate(lines):
        text = ln.text
        if _EXPLICIT.match(text):
            inside = True
        elif inside and text.strip() and not text[:1].isspace():
            inside = False
        mask[i] = inside
    return mask


def link_mask(lines: list[Line]) -> list[bool]:
    """True for the lines of explicit markup that hold nothing to read: comments, targets,
    substitutions, and directives that point at other files (``.. toctree::``, ``.. include::``,
    ``.. contents::``); not a ``.. note::`` and its text."""
    out, reading = [], False
    for ln, inside in zip(lines, markup_mask(lines)):
        if _EXPLICIT.match(ln.text):
            named = _DIRECTIVE_NAME.match(ln.text)
            reading = named is not None and named.group(1).lower() not in _LINK_DIRECTIVES
        out.append(inside and not reading)
    return out


def looks_like_rst(lines: list[Line]) -> bool:
    """Whether plain text is reStructuredText (a ``.txt`` from Sphinx docs, six's ``CHANGES``): two or
    more titles by adornment, whatever their characters (``-`` underlines alone are reST section
    titles too), and not Markdown's ``#`` headings."""
    titles = _titles(lines, markup_mask(lines), source=None)  # no source: a broken title is no title here
    if len(titles) < 2:
        return False
    return sum(1 for ln in lines if _ATX.match(ln.text)) < 2


def plain_releases(lines: list[Line]) -> bool:
    """Whether a ``.rst`` file is plain text: no title, release directive or release term, but
    release lines standing alone (pyflakes' ``4.1.0 (2026-10-28)`` over a list) or over their lists
    (ruamel.yaml's ``[0.19.0, 2025-12-31]:``)."""
    if _titles(lines, markup_mask(lines), source=None) or _release_directives(lines) or _release_terms(lines):
        return False
    from .plaintext import text_outline  # a plain-text reader's question, asked only here

    alone = sum(1 for h in text_outline(lines).headings if release_heading(h.text))
    return alone >= 2 or bool(text_release_lines(lines))


def title_text(raw: str) -> str:
    """A title for a breadcrumb: inline markup dropped (``code``, `link <url>`_, emphasis), text kept."""
    text = RST_ROLE.sub(role_text, raw)
    text = _TITLE_MARKUP.sub(lambda m: next(g for g in m.groups() if g is not None), text)
    return " ".join(text.replace("\\ ", "").split())


def rst_headings(lines: list[Line], source: str | None = None) -> list[Heading]:
    """The section titles among ``lines``, in order, with levels from their adornment styles.

    Raises:
        MalformedReST: a title has an overline but no matching underline (``source`` names the file).
    """
    styles: list[tuple[str, bool]] = []
    headings: list[Heading] = []
    slugs: dict[str, int] = {}
    mask = markup_mask(lines)
    titles = [(index, span, (char, over), title_text(lines[index + (1 if over else 0)].text))
              for index, span, char, over in _titles(lines, mask, source)]
    titles += _untitled(lines, titles, mask)
    releases = [(index, 1, _RELEASE_STYLE, version) for index, version in _release_directives(lines)]
    if not releases and not any(release_heading(text) for _, _, _, text in titles):
        releases = [(index, 1, _TERM_STYLE, title_text(lines[index].text)) for index in _release_terms(lines)]
        releases = releases or _emphasised(lines, mask) or _release_roles(lines, mask)
    for index, span, style, text in sorted(titles + releases):
        if style not in styles:
            styles.append(style)
        if not text:
            continue
        slug = slugify(text)
        count = slugs.get(slug, 0)
        slugs[slug] = count + 1
        headings.append(Heading(index, min(styles.index(style) + 1, 6), text,
                                slug if not count else f"{slug}-{count}", span))
    return headings


def _untitled(lines: list[Line], titles: list, mask: list[bool]) -> list:
    """Releases written as lines of their own beside the titled ones (``release_lines.lines_beside_titles``),
    in the adornment style of the first release title; ``mask``: the lines of explicit markup."""
    released = [(style, found.version) for _, _, style, text in titles
                if (found := release_heading(text)) is not None and found.version]
    if not released:
        return []
    skip = list(mask)
    for index, span, _, _ in titles:
        skip[index:index + span] = [True] * span
    found = lines_beside_titles(lines, {version for _, version in released}, skip)
    return [(i, 1, released[0][0], title_text(lines[i].text)) for i in found]


def _emphasised(lines: list[Line], mask: list[bool]) -> list[tuple[int, int, tuple[str, bool], str]]:
    """Bold release paragraphs and the italic sub-sections under them (``corpus.release_lines``),
    as titles of their own two styles: a release one level below the title, its sub-sections below it."""
    opened, inside = emphasised_releases(lines, mask)
    return [(i, 1, _BOLD_STYLE, text) for i, text in opened] + [(i, 1, _ITALIC_STYLE, text) for i, text in inside]


def _release_roles(lines: list[Line], mask: list[bool]) -> list[tuple[int, int, tuple[str, bool], str]]:
    """List items that are a release role alone (``- :release:`3.0.3 <2026-04-07>```), two at
    least, as release titles "Release 3.0.3 (2026-04-07)" one level below the title: the items after each,
    up to the next, are that release's, as the "releases" extension reads them."""
    found = [(i, m) for i, ln in enumerate(lines) if not mask[i] and (m := _RELEASE_ROLE.match(ln.text))]
    if len(found) < 2:
        return []
    return [(i, 1, _ROLE_STYLE, f"Release {m.group(1)}" + (f" ({m.group('date').strip()})" if m.group("date") else ""))
            for i, m in found]


def _titles(lines: list[Line], markup: list[bool], source: str | None) -> list[tuple[int, int, str, bool]]:
    """(first line, lines spanned, adornment character, overlined) of every title."""
    found: list[tuple[int, int, str, bool]] = []
    n = len(lines)
    i = 0
    while i < n:
        text = lines[i].text
        if markup[i] or not text.strip():
            i += 1
            continue
        adorned = _ADORNMENT.match(text)
        above_clear = i == 0 or not lines[i - 1].text.strip() or markup[i - 1]
        # An overlined title may be inset (celery's "=====" / " Change history" / "=====").
        inset = i + 1 < n and lines[i + 1].text[:1].isspace() and bool(lines[i + 1].text.strip()) and not markup[i + 1]
        if adorned and above_clear and i + 2 < n and (_is_title(lines[i + 1].text, markup[i + 1]) or inset) \
                and not _ADORNMENT.match(lines[i + 1].text.strip()):
            under = _ADORNMENT.match(lines[i + 2].text)
            if under and under.group(0).strip() == adorned.group(0).strip():
                found.append((i, 3, adorned.group(1), True))
                i += 3
                continue
            if not lines[i + 2].text.strip() or inset:
                pass  # a transition or a table border above a paragraph line: no title
            elif source is not None and (under or len(text.strip()) >= len(lines[i + 1].text.strip())):
                raise MalformedReST(
                    f"{source} line {lines[i].start}: the title {lines[i + 1].text.strip()!r} has an overline "
                    f"of {adorned.group(1)!r} but no matching underline; make the line under it the same"
                )
        if above_clear and _is_title(text, markup[i]) and i + 1 < n and not adorned:
            under = _ADORNMENT.match(lines[i + 1].text)
            if under and len(lines[i + 1].text.strip()) >= min(len(text.strip()), 4):
                found.append((i, 2, under.group(1), False))
                i += 2
                continue
        i += 1
    return found


def _release_directives(lines: list[Line]) -> list[tuple[int, str]]:
    """(line, version) of every directive at the margin whose options give a release version
    (``.. changelog::`` / ``:version: 2.1.9`` / ``:released: ...``)."""
    found = []
    for i, ln in enumerate(lines):
        if not _DIRECTIVE.match(ln.text):
            continue
        j = i + 1
        while j < len(lines) and _OPTION.match(lines[j].text):
            version = _VERSION_OPTION.match(lines[j].text)
            if version:
                found.append((i, version.group(1)))
                break
            j += 1
    return found


def _release_terms(lines: list[Line]) -> list[int]:
    """The lines of definition-list terms that open a release: a line at the margin that starts with
    a version ("0.9.4 *2026-10-24*", colorama's "0.4.6 Current release"), over an indented block,
    after a blank or indented line. Only read where no title is a release (the file writes its
    releases so), so a term in a release's own text stays text."""
    mask = markup_mask(lines)
    found = []
    for i, ln in enumerate(lines[:-1]):
        text, nxt = ln.text, lines[i + 1].text
        if mask[i] or not _is_title(text, False) or not nxt[:1].isspace() or not nxt.strip() or mask[i + 1]:
            continue
        if i and lines[i - 1].text.strip() and not lines[i - 1].text[:1].isspace():
            continue  # the line of a paragraph
        if opens_with_version(text) and release_heading(title_text(text)) is not None:
            found.append(i)
    return found


def _is_title(text: str, in_markup: bool) -> bool:
    """A line that can be a title: not blank, not indented, not explicit markup."""
    return bool(text.strip()) and not in_markup and not text[:1].isspace()
