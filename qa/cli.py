"""The ``relnotes`` command line: a click group whose commands live in small modules.

Heavy libraries (torch, sentence-transformers, faiss) are imported inside the commands
that need them, so ``relnotes --help`` starts at once.
"""

from __future__ import annotations

import sys

import click

from corpus.errors import CorpusError
from index.errors import RelnotesIndexError

from .errors import QAError
from .text import one_line

USER_ERRORS = (CorpusError, RelnotesIndexError, QAError)


class RelnotesGroup(click.Group):
    """A group that turns our errors into one line on stderr and exit code 1."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except USER_ERRORS as exc:
            click.echo(f"error: {one_line(str(exc))}", err=True)
            ctx.exit(1)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)


@click.group(cls=RelnotesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="relnotes-qa", prog_name="relnotes")
def cli() -> None:
    """Ask software release notes questions and get cited passages, offline.

    \b
    Examples:
      relnotes sections                      # the bundled PyTorch notes, as a tree
      relnotes chunks --format jsonl         # retrieval units, one JSON per line
      relnotes index --corpus notes/         # build the hybrid index for your files
      relnotes search "MPS lu_factor speedup" --release 2.14
    """


def _register() -> None:
    from . import cmd_ask, cmd_chat, cmd_corpus, cmd_eval, cmd_index

    for module in (cmd_corpus, cmd_index, cmd_ask, cmd_eval, cmd_chat):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="relnotes")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
