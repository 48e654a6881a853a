"""``relnotes add``: fetch the release notes of packages, or of a project's dependencies, from the
package index the user already uses, into the user cache (``corpus.packages``)."""

from __future__ import annotations

from pathlib import Path

import click

from .progress import notice


@click.command("add")
@click.argument("packages", nargs=-1, metavar="[NAME[==VERSION] | npm:NAME | PATH]...")
@click.option("--project", "project_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              metavar="DIR", help="Fetch the notes of every dependency of the project in DIR and remember them "
                                  "as its corpus (--project DIR on ask, deps, chat, ...).")
@click.option("--index-url", default=None, metavar="URL",
              help="The Python package index (simple API URL). Default: pip's (PIP_INDEX_URL, pip.conf, pip's default).")
@click.option("--registry", default=None, metavar="URL",
              help="The npm registry. Default: npm's (npm_config_registry, .npmrc, npm config get registry).")
def add_cmd(packages, project_dir, index_url, registry) -> None:
    """Fetch the release notes of packages from where each keeps them, tried in order: the source
    archive on the index your pip or npm uses (hash-checked), the index's metadata, the GitHub
    repository's changelog files and Releases (GITHUB_TOKEN optional), the changelog web page.
    Kept in the user cache with their source; nothing fetched is run.

    A package already fetched at its newest version is not fetched again; after fetching, every
    question works offline.

    \b
    Examples:
      relnotes add httpx                  # the newest release's notes
      relnotes add django==5.1.2 npm:vite
      relnotes add --project .            # every dependency of the project here
      relnotes ask "what breaks if I upgrade urllib3?" --project .
    """
    if bool(packages) == bool(project_dir):
        raise click.UsageError("give packages (NAME, NAME==VERSION, npm:NAME, a local archive or folder) or "
                               "--project DIR, not both and not neither")
    from corpus.packages import Indexes, add_packages, add_project, parse_spec

    for spec in packages:
        if not Path(spec).expanduser().exists():
            if "/" in spec or spec.endswith((".tar.gz", ".tgz", ".zip", ".whl")):
                raise click.BadParameter(f"{spec}: no such file or folder; give an existing archive or folder, "
                                         "or a package NAME", param_hint="'PACKAGES'")
            try:
                parse_spec(spec)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="'PACKAGES'") from None
    indexes = Indexes(index_url, registry, project_dir)
    if project_dir:
        _, outcomes = add_project(project_dir, indexes, _progress)
    else:
        outcomes = add_packages(list(packages), indexes, _progress)
    from ..present.deps import fetch_summary, next_steps

    click.echo(fetch_summary(outcomes))
    for line in next_steps(outcomes, project_dir):
        click.echo(line)
    if any(o.action == "failed" for o in outcomes):
        raise click.exceptions.Exit(1)


def _progress(outcome, number: int, total: int) -> None:
    from ..present.deps import fetch_line

    notice(f"[{number}/{total}] {fetch_line(outcome)}")


COMMANDS = [add_cmd]
