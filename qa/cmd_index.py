"""``relnotes index``, ``relnotes status`` and ``relnotes search``: build, inspect and query the index."""

from __future__ import annotations

import json
from pathlib import Path

import click

from index.modes import MODES

from .options import corpus_option, index_option, model_option, skip_bad_option
from .progress import embedding_progress, notice
from .text import safe



def load(corpus_paths, index_dir, model_path, *, skip_bad=False, quiet=False, rebuild=False, update=True,
         dense=True):
    """Open (building if needed) the index, with notices and progress on stderr.

    ``dense``: the vectors will be searched, so a damaged vectors file is rebuilt now (False
    for bm25, which never loads faiss).
    """
    from index.service import open_index

    with embedding_progress(quiet) as progress:
        return open_index(
            list(corpus_paths) or None,
            index_dir=index_dir,
            model_path=model_path,
            rebuild=rebuild,
            update=update,
            skip_bad=skip_bad,
            on_skip=lambda exc: notice(f"skipped: {exc}"),
            notify=None if quiet else notice,
            progress=progress,
            dense=dense,
        )


@click.command("index")
@corpus_option
@index_option
@model_option
@skip_bad_option
@click.option("--rebuild", is_flag=True, help="Re-embed everything, even chunks that did not change.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or notices.")
def index_cmd(corpus_paths, index_dir, model_path, skip_bad, rebuild, quiet) -> None:
    """Build or update the hybrid index (BM25 + embeddings) for a corpus.

    Only text that changed is embedded again (a chunk is embedded as one or more
    windows); an index that is already fresh is left alone.
    """
    loaded, report = load(corpus_paths, index_dir, model_path, skip_bad=skip_bad, quiet=quiet, rebuild=rebuild)
    if report is None:
        counts = loaded.manifest.counts
        click.echo(
            f"Index at {loaded.directory} is up to date: {counts.get('documents')} documents, "
            f"{counts.get('chunks')} chunks"
        )
        return
    click.echo(
        f"Indexed {report.documents} documents, {report.chunks} chunks "
        f"({report.embedded} windows embedded, {report.reused} reused) in {report.seconds:.1f} s at {report.directory}"
    )


@click.command("status")
@corpus_option
@index_option
@model_option
@skip_bad_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def status_cmd(corpus_paths, index_dir, model_path, skip_bad, as_json) -> None:
    """Show where the index is, what built it and whether it is stale."""
    from index.service import index_status

    info = index_status(list(corpus_paths) or None, index_dir, model_path, skip_bad=skip_bad,
                        on_skip=lambda exc: notice(f"skipped: {exc}"))
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    click.echo(f"index:     {info['index']}")
    click.echo(f"corpus:    {', '.join(info['corpus'])} ({info['documents']} documents)")
    if info["exists"]:
        click.echo(f"built:     {info['created']} with {info['model'].get('name')} (dim {info['model'].get('dim')})")
        click.echo(f"chunks:    {info['chunks']}")
    state = "stale: " + "; ".join(info["reasons"]) if info["stale"] else "up to date"
    click.echo(f"state:     {state}")


@click.command("search")
@click.argument("query")
@corpus_option
@index_option
@model_option
@click.option("--mode", type=click.Choice(MODES), default="hybrid", show_default=True)
@click.option("--top-k", "-k", "top_k", type=click.IntRange(1, 1000), default=10, show_default=True)
@click.option("--release", "releases", multiple=True, help="Only this release (repeatable), e.g. 2.14.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hit.")
@click.option("--no-update", is_flag=True, help="Fail instead of rebuilding a stale index.")
def search_cmd(query, corpus_paths, index_dir, model_path, mode, top_k, releases, as_json, no_update) -> None:
    """Show the top chunks for QUERY (raw retrieval, no answer extraction)."""
    from index.search import Searcher

    loaded, _ = load(corpus_paths, index_dir, model_path, update=not no_update, dense=mode != "bm25")
    hits = Searcher(loaded).search(query, k=top_k, mode=mode, versions=list(releases) or None)
    for rank, hit in enumerate(hits, 1):
        c = hit.chunk
        if as_json:
            click.echo(json.dumps({"rank": rank, "score": round(hit.score, 6), "bm25_rank": hit.bm25_rank,
                                   "dense_rank": hit.dense_rank, "sentence_rank": hit.sentence_rank,
                                   **c.to_json()}, ensure_ascii=False))
        else:
            where = " > ".join(c.section)
            click.echo(safe(f"{rank:>2}. {hit.score:.4f}  [{c.version or '-'}] {where}  {c.source}:{c.lines[0]}-{c.lines[1]}"))


COMMANDS = [index_cmd, status_cmd, search_cmd]
