"""``relnotes index`` and ``relnotes status``: build the index of a corpus, and say whether it is fresh."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .common import corpus_option, index_option, load, model_option, project_option, skip_bad_option, skipped


@click.command("index")
@corpus_option
@index_option
@model_option
@skip_bad_option
@click.option("--rebuild", is_flag=True, help="Re-embed everything, even chunks that did not change.")
@click.option("--adapt/--no-adapt", default=None,
              help="Adapt the embedding model to this corpus's list items first (changelogs; about 4 min "
                   "on 2 cores, then every question uses it), or go back to the base model. Default: "
                   "as the index was built.")
@click.option("--quantize/--no-quantize", default=None,
              help="Embed through int8 weights (about 2x the texts a second), kept only if every --check "
                   "question set loses at most 0.005 MRR@10; or go back to full precision. Default: as the "
                   "index was built.")
@click.option("--check", "checks", multiple=True, type=click.Path(path_type=Path, dir_okay=False),
              metavar="QUESTIONS", help="A question set (relnotes eval's JSONL) --quantize must answer as well "
                                        "as full precision does (repeatable; required with --quantize).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or notices.")
@project_option
def index_cmd(corpus_paths, index_dir, model_path, skip_bad, rebuild, adapt, quantize, checks, quiet) -> None:
    """Build or update the hybrid index (BM25 + embeddings) for a corpus.

    Only text that changed is embedded again (a chunk is embedded as one or more
    windows); an index that is already fresh is left alone.
    """
    if quantize and not checks:
        raise click.UsageError("--quantize needs --check QUESTIONS.jsonl: int8 vectors are kept only when they "
                               "answer your question sets within 0.005 MRR@10 of full precision")
    if checks and not quantize:
        raise click.UsageError("--check goes with --quantize")
    if quantize and (adapt is not None or rebuild or skip_bad):
        raise click.UsageError("--quantize goes alone: run relnotes index with --adapt, --rebuild or --skip-bad "
                               "first, then --quantize --check (the int8 trial keeps the index's model)")
    if quantize:
        _quantize(corpus_paths, index_dir, model_path, checks, quiet)
        return
    loaded, report = load(corpus_paths, index_dir, model_path, skip_bad=skip_bad, quiet=quiet, rebuild=rebuild,
                          adapt=adapt, quantize=quantize)
    adapted = loaded.manifest.model.get("adapted")
    if adapted:
        click.echo(f"Embedding model: {(adapted.get('base') or {}).get('name', 'the model')} adapted to this corpus "
                   f"({adapted.get('pairs') or 0:,} item pairs, {adapted.get('batches')} batches, "
                   f"{adapted.get('seconds') or 0:.0f} s, {adapted.get('created')})")
    if loaded.manifest.model.get("quantized"):
        click.echo("Vectors: int8 (relnotes index --no-quantize goes back to full precision)")
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
    if report.shared:  # embedded before, for another index holding the same texts
        click.echo(f"Took {report.shared:,} texts' vectors from the shared vector store (embedded for another index "
                   "before)")
    if report.resumed:  # an interrupted build had embedded these: kept, not embedded again
        click.echo(f"Resumed an interrupted build: {report.resumed} texts kept, {report.texts_embedded} embedded now")


def _quantize(corpus_paths, index_dir, model_path, checks, quiet) -> None:
    """Build the int8 trial index and keep it only if every question set holds (qa.eval.quantcheck)."""
    from ..eval.quantcheck import MAX_DROP, quantize_checked
    from .progress import embedding_progress, notice

    with embedding_progress(quiet) as progress:
        result = quantize_checked(list(corpus_paths), index_dir, model_path, checks,
                                  notify=None if quiet else notice, progress=progress)
    for s in result.sets:
        click.echo(f"{s.name}: {s.questions} questions, hybrid MRR@10 full precision {s.full:.4f}, int8 "
                   f"{s.int8:.4f} ({s.int8 - s.full:+.4f}){'' if s.passed else f'  more than {MAX_DROP} lost'}")
    if result.already:
        click.echo(f"Index at {result.directory} is int8 already (relnotes index --no-quantize goes back)")
    elif result.kept_int8:
        click.echo(f"Index at {result.directory} is int8 now (relnotes index --no-quantize goes back)")
    elif result.sets:
        click.echo(f"Kept full precision at {result.directory}: int8 lost more than {MAX_DROP} MRR@10 on "
                   f"{sum(not s.passed for s in result.sets)} of {len(result.sets)} question sets")
    else:
        click.echo(f"Kept full precision at {result.directory}: nothing to quantize")


@click.command("status")
@corpus_option
@index_option
@model_option
@skip_bad_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@project_option
def status_cmd(corpus_paths, index_dir, model_path, skip_bad, as_json) -> None:
    """Show where the index is, what built it and whether it is stale."""
    from index import index_status

    info = index_status(list(corpus_paths) or None, index_dir, model_path, skip_bad=skip_bad, on_skip=skipped)
    if as_json:
        click.echo(json.dumps(info.to_json(), indent=2))
        return
    click.echo(f"index:     {info.index}")
    click.echo(f"corpus:    {', '.join(info.corpus)} ({info.documents} documents)")
    if info.exists:
        click.echo(f"built:     {info.created} with {info.model.get('name')} (dim {info.model.get('dim')})")
        click.echo(f"chunks:    {info.chunks}")
        click.echo(f"search:    {'approximate, ' + info.model['search'] if info.model.get('search') else 'exact'}")
    if info.embedded is not None:  # a first stage: BM25 answers until relnotes index builds the vectors
        done, total = info.embedded
        counted = f": {done:,} of {total:,} texts embedded" if total else ""
        from ..staging import index_command
        from .common import current_project

        command = index_command(() if current_project() else corpus_paths, current_project(), index_dir, model_path)
        click.echo(f"vectors:   not built yet{counted} (questions are answered by BM25); build them with: {command}")
    state = "stale: " + "; ".join(info.reasons) if info.stale else "up to date"
    click.echo(f"state:     {state}")


COMMANDS = [index_cmd, status_cmd]
