"""``relnotes ask`` and ``relnotes batch``: cited answers for one question or a file of them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from index.modes import MODES

from .cmd_index import load
from .formats import FORMATS, answer_record, csv_rows, markdown_report, to_jsonl, trec_lines
from .options import corpus_option, index_option, model_option, skip_bad_option
from .progress import notice



def retrieval_options(func):
    """--top-k, --mode, --release, --no-update, --corpus, --index, --model."""
    for option in reversed([
        click.option("--top-k", "-k", "top_k", type=click.IntRange(1, 100), default=5, show_default=True,
                     help="How many passages."),
        click.option("--mode", type=click.Choice(MODES), default="hybrid", show_default=True),
        click.option("--release", "releases", multiple=True, metavar="V",
                     help="Only this release (repeatable), e.g. --release 2.14."),
        click.option("--no-update", is_flag=True, help="Fail instead of rebuilding a missing or stale index."),
        corpus_option, index_option, model_option,
    ]):
        func = option(func)
    return func


def open_engine(corpus_paths, index_dir, model_path, no_update, quiet=False, dense=True):
    """The engine over the (built or updated) index; notices and progress on stderr.

    ``dense=False`` (bm25 questions) leaves the vectors unchecked and faiss unloaded.
    """
    from .engine import Engine

    loaded, _ = load(corpus_paths, index_dir, model_path, update=not no_update, quiet=quiet, dense=dense)
    return Engine(loaded)


@click.command("ask")
@click.argument("question")
@retrieval_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the batch schema).")
@click.option("--follow-up", "follow_up", is_flag=True,
              help="Read QUESTION as a follow-up to the last question in the history.")
@click.option("--no-history", is_flag=True, help="Do not record this question in the history.")
def ask_cmd(question, top_k, mode, releases, no_update, corpus_paths, index_dir, model_path, as_json,
            follow_up, no_history) -> None:
    """Answer QUESTION with ranked passages and their citations.

    Every question is recorded in the history ($RELNOTES_HISTORY, or history.jsonl in the
    user data folder) unless --no-history. With --follow-up, a question naming no release
    keeps the last question's release filter, and a short one ("and in 2.13?", "what about
    ROCm?", "how do I enable it?") is asked in the context of the last question; the
    output shows it as "asked as: ...".

    \b
    Examples:
      relnotes ask "which release added deterministic FlexAttention backward?"
      relnotes ask "what changed for MPS?" --release 2.14
      relnotes ask "nccl2 backend release:2.14" --mode bm25 --json
      relnotes ask "what changed for MPS in 2.14?" && relnotes ask --follow-up "and in 2.13?"
    """
    from .history import Entry, History

    history = History(warn=notice) if follow_up or not no_history else None
    engine = open_engine(corpus_paths, index_dir, model_path, no_update, dense=mode != "bm25")
    if follow_up:
        last = history.last()
        if last is None:
            notice("No earlier question in the history; asking this one on its own.")
        follow, answer = engine.follow_up(last.turn() if last else None, question, top_k=top_k, mode=mode,
                                          releases=list(releases))
        if follow.inherited:
            notice(f"{follow.chip} (from the previous question; name a release or pass --release to change it)")
    else:
        answer = engine.ask(question, top_k=top_k, mode=mode, releases=list(releases))
    if not no_history:
        history.append(Entry.from_answer(answer))
    if as_json:
        click.echo(to_jsonl(answer_record(answer, "1")))
        return
    from .render import console, render_answer

    render_answer(answer, console())


@click.command("batch")
@click.argument("source", type=click.Path(path_type=Path, allow_dash=True, dir_okay=False), default="-")
@retrieval_options
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="jsonl", show_default=True)
@skip_bad_option
def batch_cmd(source, top_k, mode, releases, no_update, corpus_paths, index_dir, model_path, fmt, skip_bad) -> None:
    """Answer every question in SOURCE (a file, or - for stdin), in input order.

    Each line is a question, or a JSON object with "question" and optional "id"
    (other fields are ignored); blank lines are skipped; ids default to the line number.
    """
    from .batchinput import read_questions

    name = "stdin" if str(source) == "-" else str(source)
    try:
        stream = sys.stdin if str(source) == "-" else open(source, encoding="utf-8", newline="")
        with stream:
            lines = stream.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"Cannot read {name}: {exc}; pass a readable UTF-8 file or -") from None
    questions = read_questions(lines, name, skip_bad=skip_bad, report=notice)
    engine = open_engine(corpus_paths, index_dir, model_path, no_update, dense=mode != "bm25")
    from .progress import embedding_progress

    records = []
    with embedding_progress(len(questions) < 20, label="Answering") as progress:
        for done, q in enumerate(questions, 1):
            answer = engine.ask(q.question, top_k=top_k, mode=mode, releases=list(releases))
            record = answer_record(answer, q.id)
            if fmt == "jsonl":
                click.echo(to_jsonl(record))
            elif fmt == "trec":
                for line in trec_lines(record, f"relnotes-{mode}"):
                    click.echo(line)
            else:
                records.append(record)
            if progress:
                progress(done, len(questions))
    if fmt == "json":
        click.echo(json.dumps(records, ensure_ascii=False, indent=1))
    elif fmt == "csv":
        click.echo(csv_rows(records), nl=False)
    elif fmt == "markdown":
        click.echo(markdown_report(records), nl=False)


COMMANDS = [ask_cmd, batch_cmd]
