"""What a corpus file holds before it is a Document: the file, its records, and the records of a
JSON file (GitHub releases, or objects with a text body)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from . import github
from .discovery import SourceFile
from .errors import DraftsOnly, JSONShapeError, MalformedJSON, MissingBody
from .regex import lazy_compile

BODY_FIELDS = ("body_md", "body", "markdown", "text", "content")
_MARKDOWN_FIELDS = ("body_md", "markdown")
_WEB_URL = lazy_compile(r"https?://[^\s]+$", re.I)
_HEADING_HINT = lazy_compile(r"^ {0,3}#{1,6}[ \t]+\S|^[^\n]*\S[^\n]*\n {0,3}(=+|-{2,})[ \t]*$", re.M)


@dataclass(frozen=True, slots=True)
class Record:
    """One document's raw material: a file's text or one JSON record's body and metadata."""

    file: SourceFile
    text: str
    format: str
    record: int | None = None
    title: str | None = None
    url: str | None = None
    date: str | None = None
    body_field: str | None = None
    version: str | None = None  # a GitHub release's, from its tag
    product: str | None = None  # a GitHub release's repository
    prerelease: bool = False


def parse_json(text: str, display: str, *, jsonl: bool) -> Any:
    """A JSON file's value, or its JSON Lines as a list; MalformedJSON names the line and column."""
    if not jsonl:
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            if not e.msg.startswith("Extra data"):
                raise MalformedJSON(_json_message(display, e, 0)) from e
    records = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise MalformedJSON(_json_message(display, e, n - 1)) from e
    return records


def _json_message(display: str, e: json.JSONDecodeError, line_offset: int) -> str:
    return (
        f"{display}: malformed JSON at line {e.lineno + line_offset}, column {e.colno}: {e.msg}; "
        "fix the file (python -m json.tool shows the problem)"
    )


def json_records(f: SourceFile, data: Any) -> list[Record]:
    """One record per object of a JSON file (drafts left out); JSONShapeError or DraftsOnly otherwise."""
    items = [data] if isinstance(data, dict) else data
    if not isinstance(items, list) or not items or not all(isinstance(r, dict) for r in items):
        raise JSONShapeError(
            f"{f.display}: JSON must be an object, a list of objects or JSONL objects, "
            f"not {type(data).__name__ if not isinstance(data, list) or not data else 'a list of other values'}; "
            "wrap each document in an object with a body_md or text field"
        )
    many = len(items) > 1 or isinstance(data, list)
    records = [_record(f, obj, i if many else None) for i, obj in enumerate(items) if not github.is_draft(obj)]
    if not records:
        raise DraftsOnly(
            f"{f.display}: every GitHub release in it is a draft (draft or isDraft true), and drafts are "
            "not loaded; publish the release, or remove the file from the corpus"
        )
    return records


def _record(f: SourceFile, obj: dict, index: int | None) -> Record:
    field = next((k for k in BODY_FIELDS if isinstance(obj.get(k), str) and obj[k].strip()), None)
    if github.is_release(obj):  # a release body is GitHub Markdown, headings or not
        rel = github.release_of(obj)
        # A tag with no notes is still a release: its title stands for the body (nothing else to cite).
        body = obj[field] if field else rel.title
        return Record(file=f, text=body.replace("\r\n", "\n").replace("\r", "\n"), format="markdown", record=index,
                      title=rel.title, url=rel.url, date=rel.date, body_field=field or "name", version=rel.version,
                      product=rel.product, prerelease=rel.prerelease)
    if field is None:
        where = f"record {index}" if index is not None else "the record"
        raise MissingBody(f"{f.display}: {where} has no text body; add one of the fields {', '.join(BODY_FIELDS)}")
    body = obj[field].replace("\r\n", "\n").replace("\r", "\n")
    if field in _MARKDOWN_FIELDS or _HEADING_HINT.search(body):
        fmt = "markdown"
    else:
        fmt = "text"

    def text_field(*names: str) -> str | None:
        for n in names:
            v = obj.get(n)
            if isinstance(v, str) and v.strip():
                return v.strip()
        return None

    def web_url(*names: str) -> str | None:  # a file:, javascript: or data: "URL" is never a citation
        return next((u for u in map(text_field, names) if u and _WEB_URL.match(u)), None)

    return Record(
        file=f,
        text=body,
        format=fmt,
        record=index,
        title=text_field("title"),
        url=web_url("canonical_source", "url"),
        date=text_field("published_at", "date"),
        body_field=field,
    )
