"""Read a changelog web page (``.html``, saved or fetched by ``relnotes add``) into records: the
page parsed with lxml (libxml2's forgiving HTML parser; nothing fetched or run), its main content
turned into Markdown (h1-h6 as headings, list items as ``-`` items, ``pre`` as code blocks),
navigation, scripts and Sphinx's ``¶`` links left out.

A page whose headings name releases gives one record per release heading (the shallowest level
that names versions; text before the first is a record of its own when it has any), each cited
with the page URL and the heading's anchor (``id`` of the heading, its ``<section>`` or an ``<a
name>`` in it): ``https://host/changes/#version-3-1-0``. A page naming no release is one record.
The page URL is the page's ``<link rel="canonical">``, ``og:url``, or the ``<!-- saved from
url=(NNNN)URL -->`` line browsers (and ``relnotes add``) write when saving a page.
"""

from __future__ import annotations

import re

from .discovery import SourceFile
from .errors import EmptyFile
from .records import Record
from .regex import lazy_compile
from .versions import parse_version

HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
DROPPED = ("script", "style", "nav", "header", "footer", "aside", "noscript", "form", "button", "svg", "template")
DROPPED_CLASSES = ("headerlink", "sphinxsidebar", "related", "toc", "table-of-contents", "sidebar", "breadcrumb")
CONTAINERS = frozenset({*HEADINGS, "p", "ul", "ol", "li", "pre", "div", "section", "article", "table", "dl", "dd",
                        "dt", "blockquote", "details", "main"})
_SAVED_FROM = lazy_compile(r"<!--\s*saved from url=\(\d+\)(\S+?)\s*-->", re.I)
_SPACES = lazy_compile(r"\s+")
CONTENT = ("//main", "//*[@role='main']", "//article", "//div[contains(concat(' ', @class, ' '), ' body ')]", "//body")


def page_url(tree, text: str) -> str | None:
    """The page's own URL, when it says (canonical link, og:url, a saved-from line)."""
    for query in ("//link[@rel='canonical']/@href", "//meta[@property='og:url']/@content"):
        found = [str(u).strip() for u in tree.xpath(query) if str(u).strip().startswith(("http://", "https://"))]
        if found:
            return found[0]
    saved = _SAVED_FROM.search(text[:4096])
    return saved.group(1) if saved and saved.group(1).startswith(("http://", "https://")) else None


def _dropped(el) -> bool:
    if not isinstance(el.tag, str) or el.tag in DROPPED or el.get("role") == "navigation" or el.get("hidden") is not None:
        return True
    classes = (el.get("class") or "").split()
    return any(c in DROPPED_CLASSES for c in classes)


def _inline(el, skip_lists: bool = True) -> str:
    """The text of ``el`` on one line, ``code`` in backticks, nested lists (and dropped parts) left out."""
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str) and not _dropped(child) and not (skip_lists and child.tag in ("ul", "ol")):
            inner = _inline(child, skip_lists)
            if child.tag in ("code", "tt", "kbd", "samp") and inner.strip() and "`" not in inner:
                inner = f"`{inner.strip()}`"
            parts.append(" " + inner + " " if child.tag in ("br", "td", "th", "div", "p") else inner)
        parts.append(child.tail or "")
    return _SPACES.sub(" ", "".join(parts)).strip()


def _anchor(el) -> str | None:
    """A heading's anchor: its id, its section's, or an ``<a id|name>`` inside it."""
    if el.get("id"):
        return el.get("id")
    parent = el.getparent()
    if parent is not None and parent.tag in ("section", "div") and parent.get("id") and \
            next((c for c in parent if isinstance(c.tag, str)), None) is el:
        return parent.get("id")
    for a in el.iter("a"):
        if a.get("id") or a.get("name"):
            return a.get("id") or a.get("name")
    return None


def blocks(root) -> list[tuple[str, int, str, str | None]]:
    """The page as (kind, level, text, anchor): ``heading`` (level 1-6), ``item`` (its depth),
    ``para`` and ``code`` blocks, in document order."""
    found: list[tuple[str, int, str, str | None]] = []

    def walk(el, depth: int) -> None:
        for child in el:
            if _dropped(child):
                continue
            tag = child.tag
            if tag in HEADINGS:
                text = _inline(child)
                if text:
                    found.append(("heading", int(tag[1]), text, _anchor(child)))
            elif tag == "li":
                text = _inline(child)
                if text:
                    found.append(("item", depth, text, None))
                for sub in child:
                    if isinstance(sub.tag, str) and sub.tag in ("ul", "ol") and not _dropped(sub):
                        walk(sub, depth + 1)
            elif tag in ("ul", "ol"):
                walk(child, depth)
            elif tag == "pre":
                found.append(("code", depth, child.text_content().strip("\n"), None))
            elif any(isinstance(c.tag, str) and c.tag in CONTAINERS for c in child.iterdescendants()):
                own = [(child.text or "").strip()] + [(c.tail or "").strip() for c in child]
                if any(own):  # "Fixed <b>x</b>:" above a list: its own words are a paragraph
                    found.append(("para", depth, " ".join(w for w in own if w), None))
                walk(child, depth)
            else:
                text = _inline(child)
                if text:
                    found.append(("para", depth, text, None))

    walk(root, 0)
    return found


def _markdown(part: list[tuple[str, int, str, str | None]]) -> str:
    lines: list[str] = []
    for kind, level, text, _ in part:
        if kind == "heading":
            lines += ["#" * level + " " + text, ""]
        elif kind == "item":
            lines.append("  " * level + "- " + text)
        elif kind == "code":
            lines += ["```", text, "```", ""]
        else:
            lines += [text, ""]
    out, previous = [], ""
    for line in lines:  # a blank line after a list, none between its items
        if line and not line.lstrip().startswith("- ") and previous.lstrip().startswith("- "):
            out.append("")
        out.append(line)
        previous = line
    return "\n".join(out).strip() + "\n"


def html_records(f: SourceFile, text: str) -> list[Record]:
    """The records of a web page (module doc); EmptyFile when it holds no text to read."""
    import lxml.html
    from lxml.etree import ParserError

    try:
        tree = lxml.html.document_fromstring(text)
    except (ParserError, ValueError):
        raise EmptyFile(f"{f.display}: an HTML page with no content to read; save the page again or remove it") from None
    root = next((found[0] for query in CONTENT if (found := tree.xpath(query))), tree)
    page = blocks(root)
    url = page_url(tree, text)
    if not page:
        raise EmptyFile(f"{f.display}: an HTML page with no text in its main content; save the page again or "
                        "remove it")
    levels = [level for kind, level, t, _ in page if kind == "heading" and parse_version(t)]
    if len(levels) < 1:
        return [Record(f, _markdown(page), "markdown", url=url)]
    cut = min(levels)
    starts = [n for n, (kind, level, _, _) in enumerate(page) if kind == "heading" and level <= cut]
    records: list[Record] = []
    if starts[0] > 0:
        starts.insert(0, 0)
    for number, (start, end) in enumerate(zip(starts, [*starts[1:], len(page)])):
        kind, level, title, anchor = page[start]
        body = page[start + 1:end] if kind == "heading" else page[start:end]
        if kind != "heading":
            title, anchor = None, None
        if not body and (kind != "heading" or not parse_version(title)):
            continue  # a page title over the first release: nothing of its own
        where = f"{url.split('#')[0]}#{anchor}" if url and anchor else url
        text_of = _markdown(body) if body else "(no text)\n"
        records.append(Record(f, text_of, "markdown", record=number, title=title, url=where, body_field="text"))
    return records
