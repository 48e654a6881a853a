"""``relnotes sections`` and ``relnotes chunks``: the corpus as sections and as retrieval units."""

from __future__ import annotations

import json

import click

from ..text import safe
from .common import corpus_option, project_option, skip_bad_option, skipped
from .progress import notice


def _load(corpus_paths, skip_bad):
    from corpus import load_corpus

    return load_corpus(list(corpus_paths) or None, skip_bad=skip_bad, on_skip=skipped)


def _section_json(section) -> dict:
    return {
        "path": list(section.path),
        "lines": [section.start_line, section.end_line],
        "version": section.version,
        "anchor": section.anchor,
        "date": section.date,
        "status": section.status,
    }


def _tag(section, doc) -> str:
    """" [3.1.0, 2024-11-13]" on a section that opens another release than the document's."""
    if not section.version or section.version == doc.version:
        return " [unreleased]" if section.status == "unreleased" and not section.version else ""
    facts = [section.version, *(x for x in (section.date, section.status) if x)]
    return f" [{', '.join(facts)}]"


@click.command("sections")
@corpus_option
@skip_bad_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per document.")
@project_option
def sections_cmd(corpus_paths, skip_bad, as_json) -> None:
    """Show each document with its version and its section tree with line ranges."""
    corpus = _load(corpus_paths, skip_bad)
    for loaded in corpus.documents:
        doc = loaded.document
        if as_json:
            click.echo(json.dumps({
                "document": doc.id, "title": doc.title, "product": doc.product, "version": doc.version,
                "source": doc.source, "body_field": doc.body_field, "url": doc.url, "date": doc.date,
                "prerelease": doc.prerelease, "other_names": list(doc.other_names),
                "releases": list(loaded.releases), "chunks": len(loaded.chunks),
                "sections": [_section_json(s) for s in loaded.sections], "warnings": list(loaded.warnings),
            }, ensure_ascii=False))
            continue
        where = f"{doc.source} ({doc.body_field})" if doc.body_field else doc.source
        version = doc.version or (f"{len(loaded.releases)} releases" if loaded.releases else "no version")
        version += " pre-release" if doc.prerelease else ""
        click.echo(safe(f"{doc.title}  [{doc.product or '?'} {version}]  {where}  {len(loaded.chunks)} chunks"))
        for section in loaded.sections:
            depth = len(section.path) - 1
            label = section.path[-1] if depth else "(text before the first heading)"
            click.echo(safe(f"{'  ' * (depth + 1)}{label}{_tag(section, doc)}  {section.start_line}-{section.end_line}"))
        for warning in loaded.warnings:
            notice(f"warning: {where}: {warning}")
        click.echo()


@click.command("chunks")
@corpus_option
@skip_bad_option
@click.option(
    "--format", "fmt", type=click.Choice(["jsonl", "json"]), default="jsonl", show_default=True,
    help="jsonl: one object per line; json: one array.",
)
@project_option
def chunks_cmd(corpus_paths, skip_bad, fmt) -> None:
    """Print every chunk (id, document, title, version, section, text, source, lines) as JSON."""
    chunks = _load(corpus_paths, skip_bad).chunks
    if fmt == "json":
        click.echo(json.dumps([c.to_json() for c in chunks], ensure_ascii=False, indent=1))
        return
    for chunk in chunks:
        click.echo(json.dumps(chunk.to_json(), ensure_ascii=False))


COMMANDS = [sections_cmd, chunks_cmd]
