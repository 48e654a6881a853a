"""``relnotes search``: the top chunks for a query, straight from the index (no answer, no re-rank)."""

from __future__ import annotations

import json

import click

from .common import corpus_option, index_option, kind_option, load, mode_option, model_option, no_update_option
from .common import current_project, project_option, skip_bad_corpus_option, staged_for
from .progress import notice


@click.command("search")
@click.argument("query")
@corpus_option
@skip_bad_corpus_option
@index_option
@model_option
@mode_option
@click.option("--top-k", "-k", "top_k", type=click.IntRange(1, 1000), default=10, show_default=True)
@click.option("--release", "releases", multiple=True, help="Only this release (repeatable), e.g. 2.14.")
@kind_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hit.")
@no_update_option
@project_option
def search_cmd(query, corpus_paths, index_dir, model_path, mode, top_k, releases, kinds, as_json, no_update) -> None:
    """Show the top chunks for QUERY (raw retrieval, no answer extraction)."""
    from index import Searcher

    from ..answer.catalogue import Catalogue
    from ..model import Note
    from ..present import cite, notes
    from ..text import safe
    from ..question import release_name

    from ..staging import index_command

    loaded, _ = load(corpus_paths, index_dir, model_path, update=not no_update, dense=mode != "bm25",
                     staged=staged_for(mode))  # hybrid or dense by name: the vectors built first
    waiting = loaded.pending() if mode != "bm25" else None
    if waiting is not None:  # auto, no vectors yet: BM25 ranks, said so
        command = index_command(() if current_project() else corpus_paths, current_project(), index_dir, model_path)
        notice(notes.text(Note("dense_pending", count=waiting.embedded, total=waiting.total, command=command)))
    mode = "hybrid" if mode == "auto" else mode  # Searcher.usable: bm25 while there are no vectors
    releases = [release_name(r) for r in releases]
    catalogue = Catalogue(loaded.chunks)
    missing = [r for r in releases if not catalogue.held(r)]
    if missing:  # say why nothing comes, as ask does
        notice(notes.text(catalogue.missing_note(missing)))
    hits = Searcher(loaded).search(query, k=top_k, mode=mode, versions=releases or None, kinds=kinds or None)
    if not hits and not missing:
        notice("No chunk matches this query" + (" with these filters." if releases or kinds else "."))
    for rank, hit in enumerate(hits, 1):
        c = hit.chunk
        if as_json:
            click.echo(json.dumps({"rank": rank, "score": round(hit.score, 6), "bm25_rank": hit.bm25_rank,
                                   "dense_rank": hit.dense_rank, "sentence_rank": hit.sentence_rank,
                                   **c.to_json()}, ensure_ascii=False))
        else:
            click.echo(safe(f"{rank:>2}. {hit.score:.4f}  [{cite.release_kind(c)}] {cite.heading(c, cite.PLAIN)}  {cite.location(c)}"))


COMMANDS = [search_cmd]
