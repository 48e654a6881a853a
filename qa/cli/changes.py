"""``relnotes changes``: what changed across a range of releases, breaking items first, each cited."""

from __future__ import annotations

import click

from .common import corpus_option, index_option, kind_option, mode_option, model_option, no_update_option
from .common import open_service, project_option, release_range, skip_bad_corpus_option, staged_for


@click.command("changes")
@click.argument("args", nargs=-1, required=True, metavar="[PRODUCT] FROM TO")
@kind_option
@click.option("--topic", default="", metavar="TEXT", help="Only the range's items on this topic, best first.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the batch schema, with its digest).")
@click.option("--format", "fmt", type=click.Choice(("text", "markdown")), default="text", show_default=True)
@mode_option
@no_update_option
@corpus_option
@skip_bad_corpus_option
@index_option
@model_option
@project_option
def changes_cmd(args, kinds, topic, as_json, fmt, mode, no_update, corpus_paths, index_dir, model_path) -> None:
    """What changed after release FROM up to and including TO (of PRODUCT, needed in a corpus of several).

    Without --kind and --topic: the breaking, removed and deprecated items of every release in
    the range, oldest release first, with a count of each release's other changes. With
    --kind: the items of those kinds. With --topic: the range's items on that topic. A range
    the corpus does not hold is said (exit 0, as ask does).

    \b
    Examples:
      relnotes changes pydantic 1.10 2.0 --corpus HISTORY.md
      relnotes changes 2.9 2.14 --kind added
      relnotes changes Rust 1.70.0 1.80.0 --topic "lockfile" --corpus RELEASES.md
    """
    if len(args) not in (2, 3):
        raise click.UsageError(f"expected [PRODUCT] FROM TO, got {len(args)} argument(s): {' '.join(args)}")
    product = args[0] if len(args) == 3 else None
    span = release_range(args[-2], args[-1], names=("FROM", "TO"))
    service = open_service(corpus_paths, index_dir, model_path, no_update, dense=mode != "bm25",
                           staged=staged_for(mode))
    answer = service.changes(span, product, kinds=kinds, topic=topic, mode=mode)
    if as_json:
        from ..present.formats import answer_record, to_jsonl

        click.echo(to_jsonl(answer_record(answer, "1")))
        return
    if fmt == "markdown":
        from ..present.formats import markdown_report

        click.echo(markdown_report([("1", answer)]), nl=False)
        return
    from ..present.terminal import console, render_changes

    render_changes(answer, console())


COMMANDS = [changes_cmd]
