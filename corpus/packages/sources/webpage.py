"""Source 5: the changelog page the metadata links (project URLs Changelog, Release notes,
Changes, History...), fetched over HTTPS and kept as ``changelog.html`` with the ``<!-- saved from
url=(NNNN)URL -->`` line browsers write, so its citations carry the page URL and each release
heading's anchor (``corpus.html`` reads it). A page in Markdown, reST or plain text is kept as
such. A page the corpus reader finds no release heading in is no notes (a link to a docs home).
GitHub links are left to the repository and releases sources."""

from __future__ import annotations

from ..model import NotesFile, NotesRecord, Published
from .. import web

NAME = "webpage"
ACCEPT = "text/html, application/xhtml+xml, text/markdown;q=0.9, text/plain;q=0.8"
TEXT_SUFFIXES = {"text/markdown": ".md", "text/x-rst": ".rst", "text/plain": ".txt"}


def _releases_in(name: str, data: bytes) -> int:
    """How many release documents the corpus reader finds in the page kept as ``name``."""
    from pathlib import Path

    from ...discovery import SourceFile
    from ...errors import CorpusError
    from ...versions import parse_version

    text = data.decode("utf-8", "replace")
    if name.endswith(".html"):
        from ...html import html_records

        try:
            return sum(1 for r in html_records(SourceFile(Path(name), name, name), text)
                       if r.title and parse_version(r.title))
        except CorpusError:
            return 0
    from .metadata import release_count

    return release_count(text, {".md": "markdown", ".rst": "rst"}.get(Path(name).suffix, "text"))


def find(release: Published, earlier: NotesRecord | None, limit: int):
    from . import Found, NoNotesHere, sha256

    url = release.changelog_url
    if not url or url.endswith("/releases"):
        raise NoNotesHere("its metadata links no changelog page")
    if "://github.com/" in url.lower():
        raise NoNotesHere(f"its changelog link is on GitHub ({url}): read by the repository and releases sources")
    what = f"{release.name} {release.version}"
    answer = web.get(url, what, accept=ACCEPT)
    if answer.status == 404:
        raise NoNotesHere(f"its changelog page {url} answered 404")
    kind = answer.content_type
    charset = next((p.split("=", 1)[1].strip().strip('"') for p in answer.headers.get("content-type", "").split(";")
                    if p.strip().lower().startswith("charset=")), "utf-8")
    try:
        text = answer.body.decode(charset, "replace")
    except LookupError:
        text = answer.body.decode("utf-8", "replace")
    if kind in ("text/html", "application/xhtml+xml"):
        name = "changelog.html"
        data = f"<!-- saved from url=({len(answer.url):04d}){answer.url} -->\n{text}".encode("utf-8")
    elif kind in TEXT_SUFFIXES:
        name, data = "changelog" + TEXT_SUFFIXES[kind], text.encode("utf-8")
    else:
        raise NoNotesHere(f"its changelog page {url} is {kind or 'of no stated type'}, not HTML or text")
    count = _releases_in(name, data)
    if count < 1:
        raise NoNotesHere(f"its changelog page {url} holds no release headings")
    kept = NotesFile(name, answer.url, sha256(data))
    return Found(((kept, data),), (), answer.url, "sha256", sha256(answer.body), answer.headers.get("etag"))
