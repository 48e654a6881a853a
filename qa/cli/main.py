"""The ``relnotes`` click group: our errors as one line on stderr (exit 1), a closed pipe quietly
(exit 141), the commands registered.

Heavy libraries (torch, sentence-transformers, faiss) are imported inside the commands that
need them, so ``relnotes --help`` starts at once. Commands never import each other: what they
share is in ``common``, ``progress`` and ``qa.service``.
"""

from __future__ import annotations

import os
import sys

import click

from ..errors import USER_ERRORS
from ..text import one_line

PIPE_CLOSED = 141  # 128 + SIGPIPE: what a shell reports for a program whose reader stopped reading


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
        except BrokenPipeError:  # "relnotes ask ... | head": the reader has what it wanted
            _quiet_stdout()
            ctx.exit(PIPE_CLOSED)


def _quiet_stdout() -> None:
    """Send what is still buffered for stdout to /dev/null, so the flush at exit finds no closed
    pipe (Python would print "Exception ignored ... BrokenPipeError" there)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor (a test runner's stdout): nothing to flush
        pass


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
    from . import add, ask, batch, cache, changes, chat, deps, evaluate, indexing, mcp, search, sections, serve, show

    for module in (sections, indexing, search, ask, batch, changes, show, evaluate, chat, mcp, serve, cache, add, deps):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="relnotes")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
