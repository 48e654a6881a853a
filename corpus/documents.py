"""Load files into Documents: titles, products, versions, stable ids and display sources."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path, PurePosixPath

from .errors import CorpusError, LinksOnly, NoSupportedFiles
from .inputs import CorpusInput, as_input
from .kinds import kind_of
from .model import Document
from .metadata import Identity
from .products import canonical, project_near, release_folder, root_of
from .readers import discover, file_key, read_records
from .records import Record, SourceFile
from .sections import build_outline, links_only
from .versions import detect_product, parse_version

OnSkip = Callable[[CorpusError], None]


def short_hash(*parts: str, length: int = 12) -> str:
    """A short, stable hex digest of the parts (the same on every machine and run)."""
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:length]


def make_document(rec: Record, product: str | None = None,
                  nearby: Callable[[], Identity | None] | None = None, other_names: tuple[str, ...] = ()) -> Document:
    """Build the Document for one record (its id is made unique later by :func:`load_documents`).

    The product is ``product`` (the user named it; ``other_names`` are its other names), else a
    GitHub release's repository, else the one the title or file name names, else ``nearby()`` (a
    project file or folder name). Where no other names are given, those a project file beside it
    gives (``nearby()``) count when its product is that file's. A document that names no release
    of its own takes its folder's (``api_changes_3.10.0/``).

    Raises:
        LinksOnly: the record only links to other files (a toctree or include index).
    """
    stem = PurePosixPath(rec.file.relative).stem
    o = build_outline(rec.text, rec.format, None, rec.file.display)
    if rec.format == "rst" and links_only(o):
        raise LinksOnly(f"{rec.file.display}: an index of links to other files (toctree or include directives), "
                        "not release notes; give --corpus the files it lists or their folder")
    title = rec.title or o.title
    if not title:
        title = stem if rec.record is None else f"{stem} #{rec.record}"
    release_heads = o.releases
    version = rec.version or parse_version(title)
    if version is None and len(release_heads) < 2:  # A changelog's sections carry the versions.
        first = next((h.text for h in o.headings), "")
        version = parse_version(first) or parse_version(stem)
    elif version is None:  # a changelog of one series, titled "Change history": the series its name gives
        version = parse_version(stem)  # (celery's changelog-5.4.rst: its intro is about 5.4.x)
    kind = None
    if version is None and not release_heads:  # a file of a release folder: that release, one kind of change
        version = release_folder(rec.file.path.parent.name)
        kind = (kind_of(title) or kind_of(stem)) if version else None
    product = product or rec.product or detect_product(title) or detect_product(stem)
    if not other_names and nearby is not None:
        near = nearby()
        if near is not None and (product is None or _same_product(product, near.name)):
            product, other_names = product or near.name, near.names
    base = rec.file.relative if rec.record is None else f"{rec.file.relative}#{rec.record}"
    return Document(
        id=short_hash(base),
        title=title,
        product=product,
        version=version,
        source=rec.file.display,
        format=rec.format,
        text=rec.text,
        date=rec.date,
        url=rec.url,
        body_field=rec.body_field,
        record=rec.record,
        prerelease=rec.prerelease,
        kind=kind,
        other_names=tuple(other_names),
    )


def _same_product(a: str, b: str) -> bool:
    """Whether two spellings name one product ("Markdown", "markdown"; "python_dateutil", "python-dateutil")."""
    return canonical(a).lower().replace("_", "-") == canonical(b).lower().replace("_", "-")


def load_documents(
    paths: Sequence[Path | CorpusInput] | None = None,
    *,
    skip_bad: bool = False,
    on_skip: OnSkip | None = None,
) -> list[Document]:
    """Load release notes from files and folders (None: the bundled corpus).

    Args:
        paths: files or folders (a CorpusInput names the product of everything under it);
            folders are searched recursively for .md, .markdown, .rst, .txt, .json and .jsonl
            files, hidden entries skipped.
        skip_bad: skip a bad path or file (after calling ``on_skip`` with its error) instead
            of raising.
        on_skip: called with each skipped error when ``skip_bad`` is set.

    Returns:
        The documents, in input order; every file is read and checked before any is returned.

    Raises:
        CorpusError: the first bad path or file, unless ``skip_bad``; NoSupportedFiles when
            ``skip_bad`` left nothing to load.
    """

    def handle(err: CorpusError, path: Path | None = None) -> None:
        if path is not None:
            err.path = str(path)  # which file, for a caller that keeps a record of what it skipped
        if not skip_bad:
            raise err
        if on_skip is not None:
            on_skip(err)

    files: list[tuple[SourceFile, CorpusInput | None]] = []
    if paths is None:
        files = [(f, None) for f in discover(None)]
    else:
        seen: set[str] = set()  # a file reached through two inputs is read once
        for p in map(as_input, paths):
            try:
                found = discover([p.path])
            except CorpusError as err:
                handle(err)
                continue
            for f in found:
                key = file_key(f.path)
                if key not in seen:
                    seen.add(key)
                    files.append((f, p))
    docs: list[Document] = []
    for f, given in files:
        # The bundled notes name their product; a user's may leave it to the files around them.
        nearby = None if given is None else cache(lambda f=f: project_near(f.path, root_of(f.path, f.relative)))
        product = canonical(given.product) if given and given.product else None  # numpy= is NumPy, as the folder
        names = given.other_names if given else ()
        try:
            docs.extend(make_document(rec, product, nearby, names) for rec in read_records(f))
        except LinksOnly as err:
            if given is not None and given.path.is_file():
                handle(err)  # a folder's index is passed over; a file the user named is reported
        except CorpusError as err:
            handle(err, f.path)
    if not docs:
        shown = ", ".join(str(p) for p in paths) if paths else "corpus/data"
        raise NoSupportedFiles(f"{shown}: no loadable release notes; fix or replace the files reported above")
    return _unique_ids(docs)


def _unique_ids(docs: list[Document]) -> list[Document]:
    """Give documents whose relative paths collide (same name in two folders) distinct ids."""
    seen: set[str] = set()
    out = []
    for d in docs:
        if d.id in seen:
            n = 1
            new = short_hash(d.id, d.source)
            while new in seen:
                n += 1
                new = short_hash(d.id, d.source, str(n))
            d = replace(d, id=new)
        seen.add(d.id)
        out.append(d)
    return out
