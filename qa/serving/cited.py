"""What a citation points at, from the index a server answers from: the cited lines numbered
(as ``relnotes show`` prints them, ``qa.show``) and the section around them (as the chat's
passage view shows it, ``AnswerService.section``), for the web page's /show.

Only documents the index holds are read: the path is matched against the chunks' sources, and
the file read is the chunk's source, never the path as given.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .. import show as cited_lines
from ..errors import CitationNotFound
from ..model import Passage, citation_of
from .api import BadArgument, check_text


def show(service, citation: str, chunk_id: str | None = None) -> dict:
    """The record of ``GET /v1/show``: ``{"citation", "shown": [{"header", "lines": [[n, text]]}],
    "more", "sections": [{"citation", "before", "passage", "after"}]}``.

    ``citation`` is ``PATH:START-END (field)`` as an answer printed it, or a chunk id;
    ``chunk_id`` picks the record when several records of one file hold those lines.

    Raises:
        BadArgument: no citation, or one naming no document or lines of this index.
    """
    given = (check_text("c", citation, optional=False) or "").strip()
    if not given:
        raise BadArgument("c must be a citation, PATH:START-END as an answer printed it, or a chunk id")
    try:
        if cited_lines.CHUNK_ID.match(given):
            chunk = next((c for c in service.chunks if c.id == given), None)
            if chunk is None:
                raise CitationNotFound(f"no chunk {given} in this index; ask again for a fresh citation")
            given, chunk_id = _location(chunk), chunk.id
        chunks = cited_lines.cited_chunks(service.chunks, given, chunk_id)
        shown, more = cited_lines.by_path(_documents(chunks), given)
    except CitationNotFound as exc:
        raise BadArgument(str(exc)) from None
    _, start, end, _ = cited_lines.parse(given)
    sections, seen = [], set()
    for chunk in chunks:
        if chunk.document in seen or len(seen) >= cited_lines.MOST_RECORDS:
            continue
        seen.add(chunk.document)
        view = service.section(_passage(chunk, start, end))
        sections.append({"citation": view.citation.to_json(), "before": view.before, "passage": view.passage,
                         "after": view.after})
    return {"citation": given, "shown": [{"header": s.header, "lines": [list(line) for line in s.lines]} for s in shown],
            "more": more, "sections": sections}


def _location(chunk) -> str:
    from ..present import cite

    return cite.location(chunk)


def _documents(chunks):
    """The documents of the chunks' files, read again (their lines as the file has them), only
    those the chunks come from when the file holds several records."""
    from corpus import load_documents
    from corpus.errors import CorpusError

    sources = list(dict.fromkeys(c.source for c in chunks))[: cited_lines.MOST_RECORDS]
    try:
        documents = load_documents([Path(s) for s in sources])
    except CorpusError as exc:
        raise CitationNotFound(f"{exc} (the index was built from it; rebuild it with: relnotes index)") from None
    ids = {c.document for c in chunks}
    return [d for d in documents if d.id in ids] or documents


def _passage(chunk, start: int, end: int) -> Passage:
    """The cited lines of ``chunk`` as a passage: the item they are, when they are one, else the chunk."""
    item = next((i for i in chunk.items if i.lines == (start, end)), None)
    text = chunk.text[item.start:item.end] if item is not None else chunk.text
    lines = (start, end) if chunk.lines[0] <= start <= end <= chunk.lines[1] else chunk.lines
    return Passage(1, chunk.id, text, 0.0, replace(citation_of(chunk), lines=lines))
