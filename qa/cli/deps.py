"""``relnotes deps``: each dependency of a project, its pin, the newest release its notes hold, the
releases between and their breaking / removed / deprecated items, what needs attention first."""

from __future__ import annotations

import click

from .common import current_project, index_option, mode_option, model_option, no_update_option, open_service, staged_for
from .common import project_option


@click.command("deps")
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object a dependency.")
@mode_option
@no_update_option
@index_option
@model_option
@project_option
def deps_cmd(names, as_json, mode, no_update, index_dir, model_path, corpus_paths=()) -> None:
    """What upgrading each dependency of a project brings: from its pin (lockfile, exact pin, or
    the version in the project's .venv) to the newest release in its notes, the breaking,
    removed and deprecated items among them, cited. NAMEs restrict it to those dependencies.

    \b
    Examples:
      relnotes add --project . && relnotes deps --project .
      relnotes deps urllib3 --project . --json
    """
    project = current_project()
    if project is None:
        raise click.UsageError("give the project: relnotes deps --project DIR")
    from ..deps import report
    from ..present.deps import report_record, report_text

    service = open_service(corpus_paths, index_dir, model_path, no_update, dense=mode != "bm25",
                           staged=staged_for(mode))
    reports = report(service, tuple(names), mode)
    if as_json:
        import json

        click.echo(json.dumps([report_record(r) for r in reports], ensure_ascii=False, indent=1))
        return
    click.echo(report_text(reports, project.directory), nl=False)


COMMANDS = [deps_cmd]
