"""``relnotes index`` and ``relnotes status``: build the index of a corpus, and say whether it is fresh."""

from __future__ import annotations

import json

import click

from .common import corpus_option, index_option, load, model_option, skip_bad_option, skipped


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
              help="Embed through int8 weights (about 2x faster) when a quality check on the corpus "
                   "passes (else full precision, said why), or go back to full precision. Default: as "
                   "the index was built.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or notices.")
def index_cmd(corpus_paths, index_dir, model_path, skip_bad, rebuild, adapt, quantize, quiet) -> None:
    """Build or update the hybrid index (BM25 + embeddings) for a corpus.

    Only text that changed is embedded again (a chunk is embedded as one or more
    windows); an index that is already fresh is left alone.
    """
    loaded, report = load(corpus_paths, index_dir, model_path, skip_bad=skip_bad, quiet=quiet, rebuild=rebuild,
                          adapt=adapt, quantize=quantize)
    adapted = loaded.manifest.model.get("adapted")
    if adapted:
        click.echo(f"Embedding model: {adapted['base']['name']} adapted to this corpus "
                   f"({adapted['pairs']:,} item pairs, {adapted['batches']} batches, {adapted['seconds']:.0f} s, "
                   f"{adapted['created']})")
    quantized = loaded.manifest.model.get("quantized")
    if quantized:
        check = quantized["check"]
        click.echo(f"Vectors: int8 (checked on {check['queries']} questions from the corpus: MRR@10 "
                   f"{check['int8']:.4f}, full precision {check['float']:.4f})")
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
    state = "stale: " + "; ".join(info.reasons) if info.stale else "up to date"
    click.echo(f"state:     {state}")


COMMANDS = [index_cmd, status_cmd]
