"""``relnotes batch``: cited answers for a file of questions, as JSONL, JSON, CSV, TREC or Markdown."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..present import FORMATS
from .common import open_service, release_range, retrieval_options, staged_for
from .progress import notice


@click.command("batch")
@click.argument("source", type=click.Path(path_type=Path, allow_dash=True, dir_okay=False), default="-")
@retrieval_options
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="jsonl", show_default=True)
@click.option("--skip-bad", is_flag=True, help="Report bad question lines and bad input files on stderr and go on "
              "without them (an index built so leaves the files out later too, while they are unchanged).")
def batch_cmd(source, top_k, mode, releases, since, until, kinds, no_update, corpus_paths, index_dir, model_path, fmt, skip_bad) -> None:
    """Answer every question in SOURCE (a file, or - for stdin), in input order.

    Each line is a question, or a JSON object with "question" and optional "id"
    (other fields are ignored); blank lines are skipped; ids default to the line number.
    """
    from ..present.formats import answer_record, csv_rows, markdown_report, to_jsonl, trec_lines
    from .batchinput import read_questions

    span = release_range(since, until)
    name = "stdin" if str(source) == "-" else str(source)
    if str(source) == "-" and sys.stdin.isatty():
        notice("Reading questions from the terminal, one a line; end with Ctrl+D (or pass a FILE).")
    try:
        stream = sys.stdin if str(source) == "-" else open(source, encoding="utf-8", newline="")
        with stream:
            lines = stream.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"Cannot read {name}: {exc}; pass a readable UTF-8 file or -") from None
    questions = read_questions(lines, name, skip_bad=skip_bad, report=notice)
    service = open_service(corpus_paths, index_dir, model_path, no_update, dense=mode != "bm25", skip_bad=skip_bad,
                           staged=staged_for(mode))
    from .progress import embedding_progress

    records, answered = [], []
    with embedding_progress(len(questions) < 20, label="Answering") as progress:
        for done, q in enumerate(questions, 1):
            answer = service.ask(q.question, top_k=top_k, mode=mode, releases=releases, kinds=kinds, span=span)
            record = answer_record(answer, q.id)
            if fmt == "jsonl":
                click.echo(to_jsonl(record))
            elif fmt == "trec":
                for line in trec_lines(record, f"relnotes-{answer.mode}"):  # the mode that served it
                    click.echo(line)
            else:
                records.append(record)
                answered.append((q.id, answer))
            if progress:
                progress(done, len(questions))
    if fmt == "json":
        click.echo(json.dumps(records, ensure_ascii=False, indent=1))
    elif fmt == "csv":
        click.echo(csv_rows(records), nl=False)
    elif fmt == "markdown":
        click.echo(markdown_report(answered), nl=False)


COMMANDS = [batch_cmd]
