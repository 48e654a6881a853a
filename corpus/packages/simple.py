"""A package's files from a simple index: PEP 691 JSON when the index speaks it, else PEP 503 HTML
(hashes from the ``#sha256=`` fragments, yanked files marked)."""

from __future__ import annotations

import json
import urllib.parse
from html.parser import HTMLParser

from .http import get

ACCEPT = "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"


def simple_files(index: str, name: str, what: str) -> list[dict] | None:
    """The files the simple index lists for the project ``name`` (each a dict with ``filename``,
    ``url``, ``hashes``, ``size`` when given, ``yanked``, ``base``); None when it has no such project."""
    url = f"{index.rstrip('/')}/{urllib.parse.quote(name)}/"
    answer = get(url, what, accept=ACCEPT)
    if answer.status == 404:
        return None
    if "json" in answer.content_type:
        try:
            files = json.loads(answer.body.decode("utf-8"))["files"]
        except (ValueError, KeyError, TypeError):
            return None
        return [{**f, "base": url} for f in files if isinstance(f, dict) and "filename" in f and "url" in f]
    parser = _Links()
    parser.feed(answer.body.decode("utf-8", "replace"))
    return [{**f, "base": url} for f in parser.files]


class _Links(HTMLParser):
    """The anchors of a PEP 503 page."""

    def __init__(self) -> None:
        super().__init__()
        self.files: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        if tag != "a":
            return
        attributes = dict(attrs)
        href = attributes.get("href") or ""
        link, _, fragment = href.partition("#")
        algorithm, _, value = fragment.partition("=")
        self._open = {"url": link, "hashes": {algorithm: value} if value else {},
                      "yanked": "data-yanked" in attributes, "filename": ""}

    def handle_data(self, data):
        if self._open is not None:
            self._open["filename"] += data

    def handle_endtag(self, tag):
        if tag == "a" and self._open is not None:
            self._open["filename"] = self._open["filename"].strip() or self._open["url"].rsplit("/", 1)[-1]
            self.files.append(self._open)
            self._open = None
