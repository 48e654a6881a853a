"""The lines a citation points at, as ``relnotes show`` prints them: ``PATH:START-END`` as printed
(a JSON record's lines count in its decoded body field) or a chunk id from ``ask --json``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Sequence

from corpus.model import Chunk, Document
from corpus.regex import lazy_compile

from .present import cite
from .errors import CitationNotFound

CHUNK_ID = lazy_compile(r"^[0-9a-f]{16}$")
_CITATION = lazy_compile(r"^(?P<path>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?(?:\s*\((?P<field>[\w.-]+)\))?\s*$")
MOST_RECORDS = 5  # records of one JSON file shown for a path citation; a chunk id picks one


@dataclass(frozen=True, slots=True)
class Shown:
    """Cited lines of one document: a header naming it (and its record) and numbered lines."""

    header: str
    lines: tuple[tuple[int, str], ...]


def parse(citation: str) -> tuple[str, int, int, str | None]:
    """``PATH:START-END (field)`` -> (path, start, end, field); CitationNotFound names the shape wanted."""
    m = _CITATION.match(citation.strip())
    if not m:
        raise CitationNotFound(f"{citation!r} is no citation; give PATH:START-END as printed "
                               "(corpus/data/notes.md:12-18) or a chunk id (relnotes ask --json shows it)")
    start = int(m.group("start"))
    end = int(m.group("end") or start)
    if start < 1 or end < start:
        raise CitationNotFound(f"{citation!r}: lines run from {start} to {end}; give START-END with START <= END")
    return m.group("path"), start, end, m.group("field")


def _same(given: str, source: str) -> bool:
    """Whether a printed path names a document's source: the same text, the same file, or its end."""
    if given == source or os.path.realpath(given) == os.path.realpath(source):
        return True
    return source.endswith("/" + given.lstrip("./")) or given.endswith("/" + source)


def names_any(documents: Sequence[Document], citation: str) -> bool:
    """Whether ``citation``'s path names a document of ``documents``."""
    path = parse(citation)[0]
    return any(_same(path, d.source) for d in documents)


def by_path(documents: Sequence[Document], citation: str) -> tuple[list[Shown], int]:
    """The cited lines of every document ``citation``'s path names (a JSON file's records each),
    at most MOST_RECORDS, and how many more matched."""
    path, start, end, field = parse(citation)
    docs = [d for d in documents if _same(path, d.source) and (field is None or d.body_field == field)]
    if not docs:
        raise CitationNotFound(f"{path}: no document of the corpus has this path; check --corpus and the path "
                               "as relnotes printed it")
    shown = []
    for doc in docs:
        lines = doc.text.split("\n")
        if end > len(lines):
            continue
        shown.append(Shown(_header(doc, start, end), tuple((n, lines[n - 1]) for n in range(start, end + 1))))
    if not shown:
        most = max(len(d.text.split("\n")) for d in docs)
        raise CitationNotFound(f"{path} has {most} lines{' in its longest record' if len(docs) > 1 else ''}; "
                               f"lines {start}-{end} are past its end")
    return shown[:MOST_RECORDS], max(0, len(shown) - MOST_RECORDS)


def cited_chunks(chunks: Sequence[Chunk], citation: str, chunk_id: str | None = None) -> list[Chunk]:
    """The chunks holding the lines ``citation`` points at (``relnotes serve``'s /show): of the
    documents its path names (with its body field, when given), in line order; ``chunk_id``
    picks one when several records of a file match.

    Raises:
        CitationNotFound: no chunk has this path, or none holds these lines.
    """
    path, start, end, field = parse(citation)
    named = [c for c in chunks if _same(path, c.source) and (field is None or c.body_field == field)]
    if not named:
        raise CitationNotFound(f"{path}: no document of this index has this path; give the path as the answer "
                               "printed it")
    found = sorted((c for c in named if c.lines[0] <= end and start <= c.lines[1]), key=lambda c: (c.source, c.lines))
    if not found:
        raise CitationNotFound(f"{path}: lines {start}-{end} are in no section of this index; give the lines as "
                               "the answer printed them")
    return [c for c in found if c.id == chunk_id] or found


def cited_file(citation: str, sources: Sequence[str] = ()) -> str | None:
    """The file on disk a path citation names when the corpus given does not hold it: the path
    itself when it is a file here, else the first of ``sources`` (the documents the cached indexes
    hold, ``index.indexed_sources``) that the path names and that is on disk; None when neither."""
    path = parse(citation)[0]
    if os.path.isfile(path):
        return path
    return next((s for s in sources if _same(path, s) and os.path.isfile(s)), None)


def by_chunk(chunks: Sequence[Chunk], chunk_id: str) -> Shown:
    """The text of chunk ``chunk_id`` (verbatim, as cited) with its lines numbered."""
    for c in chunks:
        if c.id == chunk_id:
            first = c.lines[0]
            texts = c.text.split("\n")
            header = " · ".join(filter(None, [c.title, c.version, cite.heading(c), cite.location(c)]))
            return Shown(header, tuple((first + k, t) for k, t in enumerate(texts)))
    raise CitationNotFound(f"no chunk {chunk_id} in this index; chunk ids change when the corpus changes "
                           "(ask again for a fresh one)")


def source_file(source: str) -> str | None:
    """The file a citation's source names, as an absolute path ("corpus/data/x.txt" is the bundled
    copy), or None when it is not on disk."""
    if os.path.isfile(source):
        return os.path.abspath(source)
    if source.startswith("corpus/data/"):
        from corpus import bundled_paths

        for path in bundled_paths():
            if path.name == source.rsplit("/", 1)[-1]:
                return str(path)
    return None


def editor_command(editor: str, path: str, line: int) -> list[str]:
    """The command that opens ``path`` at ``line`` in ``editor`` ($VISUAL or $EDITOR, with its
    arguments): "+LINE PATH", which vi, vim, nano, emacs, micro and kak read."""
    import shlex

    return [*shlex.split(editor), f"+{line}", path]


def _header(doc: Document, start: int, end: int) -> str:
    where = f"{doc.source}:{start}-{end}"
    if doc.body_field:
        record = f"record {doc.record}, " if doc.record is not None else ""
        where += f" ({record}lines of its decoded {doc.body_field})"
    return " · ".join(filter(None, [doc.title, doc.version, where]))
