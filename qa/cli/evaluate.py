"""``relnotes eval``: retrieval quality of each mode on a question set (hit@k, MRR@10, nDCG@10)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from index import MODES

from .common import corpus_option, index_option, model_option, open_service, project_option, skip_bad_corpus_option


def _csv_of(kind, valid=None):
    def convert(ctx, param, value):
        items = [v.strip() for v in value.split(",") if v.strip()]
        try:
            items = [kind(v) for v in items]
        except ValueError:
            raise click.BadParameter(f"{value!r} is not a comma-separated list of {kind.__name__}") from None
        bad = [v for v in items if valid is not None and v not in valid]
        if bad or not items:
            raise click.BadParameter(f"{value!r}: use a comma-separated list of {', '.join(map(str, valid or ()))}")
        return tuple(items)

    return convert


@click.command("eval")
@click.argument("questions", type=click.Path(path_type=Path, dir_okay=False), required=False)
@click.option("--beir", "beir_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Evaluate on a BEIR-format folder (corpus.jsonl, queries.jsonl, qrels/) instead.")
@click.option("--split", default="test", show_default=True, help="The BEIR qrels split (qrels/SPLIT.tsv).")
@click.option("--mode", "modes", default="bm25,dense,hybrid", show_default=True,
              callback=_csv_of(str, MODES), help="Modes to compare, comma-separated.")
@click.option("--k", "ks", default="1,5,10", show_default=True, callback=_csv_of(int),
              help="The k of each hit@k column.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@click.option("--plot", type=click.Path(path_type=Path, dir_okay=False), help="Write a PNG of hit@k, k=1..20.")
@click.option("--min-mrr", type=float, help="Exit 1 when the last mode listed scores below this MRR@10.")
@click.option("--min-hit1", type=float, help="Exit 1 when the last mode listed scores below this hit@1.")
@corpus_option
@skip_bad_corpus_option
@index_option
@model_option
@project_option
def eval_cmd(questions, beir_dir, split, modes, ks, as_json, plot, min_mrr, min_hit1, corpus_paths, index_dir,
             model_path) -> None:
    """Evaluate retrieval on a QUESTIONS JSONL file (id, question, version, answer, section, kind).

    A passage is relevant when its release equals the question's version and its text
    contains the answer (whitespace, case, backticks, asterisks and curly quotes
    normalised); without an answer, when its heading path contains the section.

    With --beir DIR the dataset's own corpus is indexed (in its own cached index) and
    judged by its qrels: hit@k, MRR@10, nDCG@10 and Recall@100 over documents.
    """
    from ..eval.questions import load_questions
    from ..eval.run import evaluate, service_retrieve

    if any(k < 1 for k in ks):
        raise click.BadParameter("every k must be >= 1", param_hint="--k")
    if (questions is None) == (beir_dir is None):
        raise click.UsageError("give a QUESTIONS file or --beir DIR (one of them)")
    if beir_dir is not None:
        _eval_beir(beir_dir, split, modes, ks, as_json, min_mrr, min_hit1, index_dir, model_path)
        return
    qs = load_questions(questions)
    service = open_service(corpus_paths, index_dir, model_path, no_update=False)
    depth = max(20, *ks)
    results = evaluate(qs, service.chunks, service_retrieve(service), modes, ks=ks, depth=depth)
    if as_json:
        click.echo(json.dumps({
            "questions": len(qs),
            "modes": {r.mode: {"metrics": dict(r.metrics), "per_kind": {k: dict(m) for k, m in r.per_kind.items()},
                               "misses": [{"id": q, "first_relevant_rank": rank} for q, rank in r.misses]}
                      for r in results},
            "unjudgeable": list(results[0].unjudgeable),
        }, indent=2))
    else:
        _print_table(qs, results)
    if plot:
        _plot(results, plot)
    _check_floors(results[-1].mode, results[-1].metrics, min_mrr, min_hit1)


def _check_floors(mode: str, metrics, min_mrr, min_hit1) -> None:
    """Exit 1 (ClickException) when the last mode falls below a requested floor."""
    if min_mrr is not None and metrics["MRR@10"] < min_mrr:
        raise click.ClickException(f"MRR@10 {metrics['MRR@10']:.3f} of {mode} is below --min-mrr {min_mrr}")
    if min_hit1 is not None and metrics["hit@1"] < min_hit1:
        raise click.ClickException(f"hit@1 {metrics['hit@1']:.3f} of {mode} is below --min-hit1 {min_hit1}")


def _eval_beir(directory: Path, split: str, modes, ks, as_json, min_mrr, min_hit1, index_dir, model_path) -> None:
    """``eval --beir``: the dataset's corpus in its own index, judged by its qrels."""
    from ..eval.beir import evaluate_beir

    results, n = evaluate_beir(
        directory, split, modes, ks,
        open_service=lambda paths: open_service(paths, index_dir, model_path, no_update=False),
    )
    if as_json:
        click.echo(json.dumps({"dataset": str(directory), "split": split, "queries": n,
                               "modes": {r.mode: {"metrics": dict(r.metrics)} for r in results}}, indent=2))
    else:
        click.echo(f"{directory} ({split} split): {n} judged queries")
        click.echo("| metric | " + " | ".join(r.mode for r in results) + " |")
        click.echo("|---|" + "---:|" * len(results))
        for col in results[0].metrics:
            click.echo(f"| {col} | " + " | ".join(f"{r.metrics[col]:.4f}" for r in results) + " |")
    _check_floors(results[-1].mode, results[-1].metrics, min_mrr, min_hit1)


def _print_table(qs, results) -> None:
    cols = list(results[0].metrics)
    click.echo(f"{len(qs)} questions" + (f", {len(results[0].unjudgeable)} with no relevant passage in the corpus"
                                        if results[0].unjudgeable else ""))
    click.echo("| metric | " + " | ".join(r.mode for r in results) + " |")
    click.echo("|---|" + "---:|" * len(results))
    for col in cols:
        click.echo(f"| {col} | " + " | ".join(f"{r.metrics[col]:.3f}" for r in results) + " |")
    kinds = list(results[0].per_kind)
    if len(kinds) > 1 or kinds != ["-"]:
        click.echo("\nMRR@10 per kind:")
        click.echo("| kind | n | " + " | ".join(r.mode for r in results) + " |")
        click.echo("|---|---:|" + "---:|" * len(results))
        counts = {}
        for q in qs:
            counts[q.kind or "-"] = counts.get(q.kind or "-", 0) + 1
        for kind in kinds:
            click.echo(f"| {kind} | {counts[kind]} | " + " | ".join(f"{r.per_kind[kind]['MRR@10']:.3f}" for r in results) + " |")
    last = results[-1]
    if last.misses:
        text = {q.id: q.question for q in qs}
        click.echo(f"\nMissed at rank 1 by {last.mode} (first relevant rank, or - beyond the depth):")
        for qid, rank in last.misses:
            click.echo(f"  {qid}  {rank if rank is not None else '-':>2}  {text[qid]}")


def _plot(results, path: Path) -> None:
    """hit@k for k = 1..20, one line per mode, from the rankings the evaluation already made."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise click.ClickException("--plot needs matplotlib; install it with: .venv/bin/pip install matplotlib") from None
    from ..eval.metrics import hit_at

    fig, ax = plt.subplots(figsize=(6, 4))
    ks = list(range(1, 21))
    for r in results:
        ax.plot(ks, [hit_at(r.rankings, k) for k in ks], marker="o", markersize=3, label=r.mode)
    ax.set_xlabel("k")
    ax.set_ylabel("hit@k")
    ax.set_ylim(0, 1)
    ax.set_xticks([1, 5, 10, 15, 20])
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=120)
    except OSError as exc:
        raise click.ClickException(f"Cannot write {path}: {exc.strerror}; choose another --plot path") from None
    click.echo(f"wrote {path}", err=True)


COMMANDS = [eval_cmd]
