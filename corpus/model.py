"""The data that flows out of the corpus package: documents, sections and chunks."""

from __future__ import annotations

from dataclasses import dataclass

from .textform import index_form

FORMATS = ("markdown", "rst", "text")  # how a document's headings are written
# How ``corpus.chunking`` makes chunks: an index built by another version is stale. Here, beside the
# Chunk, so checking an index's freshness does not load the chunker.
CHUNKER_VERSION = "23"  # 23: "What's new in Python 3.12" opens no release (a platform's version); 22: "What's new in psycopg 2.9.13", "Changes in Version 4.20.1 (date)" open releases; a
# pre-release tag written apart is the version's ("2.0.1 (rc1)" 2.0.1rc1, "1.0 beta 1" 1.0b1); 21: a plain-text line "Version 2026.12.2:" or "Version: 2019.12.17" (mrab regex's
# changelog) opens a release as one that opens with its version does; 20: a GNU ChangeLog entry whose first bullet marks a release ("* Release 0.15",
# "* (Version 1.14.0 released)") opens it, the entries below it its changes, nested under it; a "c" candidate
# ("1.1.0c1", PIL's "1.1.7c1") a release of its own; 19: a chunk opening with a bullet indented in its source reads its items from that
# depth (isort's "  - Implemented ..." then "  - Fixed ...": siblings, not the second a sub-item); 18: a product and its part before a dated release ("Twisted Conch 17.1.0 (...)"),
# a release role item in reST ("- :release:`3.0.3 <2026-04-07>`"), a release heading over only its series
# ("## 5.0" over "### 5.0.1") no release;
# 17: a semver tag of other words ("6.0.0-uncanny-rc.7", "0.0.0-prealpha.3"), a quoted
# date under a release ("> 4 September 2026"); 16: a date and a colon before a release ("2018-06-17: Version 4.0.1");
# plain text whose lines at the margin are its releases over indented text ("0.3.0", "2.1 - 11/14/2002 - ...");
# a numbered pre-release ("v4.1.2-0"); a release's Markdown sections above its level, under a release
# heading with nothing but its date (moment's "### 2.19.0" over "## Features"), stay in it;
# a bold Markdown line saying more than the release it opens with is no heading ("**Version 2.30.0: current ...**");
# slash dates where their order is said ("2.0 - 10/19/2002"), a space before a date's comma ("April 12 , 2014");
# 15: numeric dates day or month first ("released 22-06-2015", "(20260607)"),
# wiki-style headings in plain text ("= 4.15.0 (20260607)", "== Parsing =="), a list of releases
# ("- 1.9.2" over nested items), GNU ChangeLog entries ("2024-01-11<TAB>unidecode 1.3.8");
# 14: release lines of their own beside underlined releases (PyYAML's CHANGES);
# 13: a bullet label naming two kinds is none, "Discontinued ..." a removal; 12: a bullet
# that only heads a list ("* Other changes:") is a label, its bullets items;
# 11: releases read from bold reST lines and plain-text "[X, date]:" lines, issue 43's
# readings; 10: directive records (".. change::") whole, tags as kinds; 9: lists run together split;
# 6-8: items (list items, paragraphs) with lines and kinds; 5: reStructuredText


@dataclass(frozen=True, slots=True)
class Document:
    """One release document as loaded from a file (or one record of a JSON file).

    ``text`` is the body the sections and line numbers refer to: the file's text for
    Markdown and plain text, the decoded body field for a JSON record (``body_field``
    then names that field, e.g. ``"body_md"``).
    """

    id: str
    title: str
    product: str | None
    version: str | None
    source: str
    format: str  # "markdown", "rst" or "text"
    text: str
    date: str | None = None
    url: str | None = None
    body_field: str | None = None
    record: int | None = None  # index of the record inside a JSON list / JSONL file
    prerelease: bool = False  # a GitHub release marked pre-release
    kind: str | None = None  # the kind of change of the whole document: a file of a release folder ("Removals")
    # the other names its product goes by, from its distribution's metadata (``corpus.metadata``):
    # ("Python-Markdown", "Python-Markdown/markdown") for markdown
    other_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {self.format!r}")
        if not self.id:
            raise ValueError("document id must not be empty")


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and the text under it, up to the next heading of any level.

    ``path`` is the breadcrumb from the document title down to this section's own
    heading; ``text`` is the verbatim source text of the section body (its heading line
    excluded); lines are 1-based and inclusive, in ``Document.text``.
    """

    document: str
    path: tuple[str, ...]
    text: str
    start_line: int
    end_line: int
    version: str | None = None
    anchor: str | None = None
    level: int = 0
    date: str | None = None  # the release's date (YYYY-MM-DD) where its heading or the line under it gives one
    status: str | None = None  # "unreleased" or "yanked" where the source says so

    def __post_init__(self) -> None:
        if self.start_line < 1 or self.end_line < self.start_line:
            raise ValueError(f"bad line range {self.start_line}-{self.end_line}")


MAX_CRUMB_CHARS = 150  # per heading: the model reads 256 word pieces, breadcrumb first


def _short(heading: str) -> str:
    """A heading cut to MAX_CRUMB_CHARS at a word boundary (a 10,000-character heading would
    fill the model's window and leave the section's own text unread)."""
    if len(heading) <= MAX_CRUMB_CHARS:
        return heading
    cut = heading[:MAX_CRUMB_CHARS].rsplit(" ", 1)[0] or heading[:MAX_CRUMB_CHARS]
    return cut + " …"


def breadcrumb(title: str, version: str | None, path: tuple[str, ...]) -> str:
    """"Title > version > heading > sub-heading" (the version only when the title lacks it)."""
    head = [_short(title)]
    if version and version not in title:
        head.append(_short(version))
    return " > ".join(head + [_short(h) for h in path if h != title])


@dataclass(frozen=True, slots=True)
class Item:
    """One item of a chunk (``corpus.items``): ``chunk.text[start:end]``, its source lines and kind."""

    start: int
    end: int
    lines: tuple[int, int]
    kind: str | None = None

    def to_json(self) -> list:
        return [self.start, self.end, self.lines[0], self.lines[1], self.kind]

    @classmethod
    def from_json(cls, obj: list) -> "Item":
        start, end, first, last, kind = obj
        return cls(int(start), int(end), (int(first), int(last)), kind)


@dataclass(frozen=True, slots=True)
class Chunk:
    """The retrieval unit: a window of a section's text with everything a citation needs."""

    id: str
    document: str
    title: str
    product: str | None
    version: str | None
    section: tuple[str, ...]
    text: str
    source: str
    lines: tuple[int, int]
    url: str | None = None
    anchor: str | None = None
    body_field: str | None = None
    kind: str | None = None  # the kind of change its section names (``corpus.kinds``), if any
    items: tuple[Item, ...] = ()  # its list items and paragraphs, in order (``corpus.items``)
    other_names: tuple[str, ...] = ()  # its product's other names (``Document.other_names``)

    def __post_init__(self) -> None:
        if not self.id:
            raise ValueError("chunk id must not be empty")
        if self.lines[0] < 1 or self.lines[1] < self.lines[0]:
            raise ValueError(f"bad line range {self.lines}")

    @property
    def breadcrumb(self) -> str:
        """Title, version and heading path as one line, indexed with the text."""
        return breadcrumb(self.title, self.version, self.section)

    @property
    def index_text(self) -> str:
        """What both retrievers read: the breadcrumb, then the text without link targets."""
        return f"{self.breadcrumb}\n{index_form(self.text)}"

    def to_json(self) -> dict:
        """The chunk as a JSON-ready dict (the ``relnotes chunks`` and index schema)."""
        return {
            "id": self.id,
            "document": self.document,
            "title": self.title,
            "product": self.product,
            "version": self.version,
            "section": list(self.section),
            "text": self.text,
            "source": self.source,
            "lines": list(self.lines),
            "url": self.url,
            "anchor": self.anchor,
            "body_field": self.body_field,
            "kind": self.kind,
            "items": [item.to_json() for item in self.items],
            "other_names": list(self.other_names),
        }

    def item_text(self, item: Item) -> str:
        """The verbatim text of one of its items."""
        return self.text[item.start : item.end]

    @classmethod
    def from_json(cls, obj: dict) -> "Chunk":
        """Inverse of :meth:`to_json`."""
        return cls(
            id=obj["id"],
            document=obj["document"],
            title=obj["title"],
            product=obj.get("product"),
            version=obj.get("version"),
            section=tuple(obj["section"]),
            text=obj["text"],
            source=obj["source"],
            lines=(int(obj["lines"][0]), int(obj["lines"][1])),
            url=obj.get("url"),
            anchor=obj.get("anchor"),
            body_field=obj.get("body_field"),
            kind=obj.get("kind"),
            items=tuple(Item.from_json(i) for i in obj.get("items") or ()),
            other_names=tuple(str(n) for n in obj.get("other_names") or ()),
        )
