"""The ``relnotes`` click group: our errors as one line on stderr (exit 1), a closed pipe quietly
(exit 141), the commands found in ``COMMANDS``.

A command's module is imported when the command runs or its own help is asked, never for
``relnotes --help``, which lists the commands by the one-line summaries below. Heavy libraries
(torch, sentence-transformers, faiss) are imported inside the commands that need them. Commands
never import each other: what they share is in ``common``, ``progress`` and ``qa.service``.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

PIPE_CLOSED = 141  # 128 + SIGPIPE: what a shell reports for a program whose reader stopped reading

# Each command: the module of qa.cli that defines it (in its COMMANDS), and the line
# ``relnotes --help`` lists it with (the command's own --help has the whole text).
COMMANDS = {
    "add": ("add", "Fetch the release notes packages ship, from your pip or npm index."),
    "ask": ("ask", "Answer a question with ranked passages and their citations."),
    "batch": ("batch", "Answer every question of a file, in JSONL, CSV, TREC or Markdown."),
    "cache": ("cache", "List or prune the cached indexes."),
    "changes": ("changes", "What changed after one release up to another, cited."),
    "chat": ("chat", "Ask questions one after another in the terminal."),
    "chunks": ("sections", "Print every chunk (the retrieval units) as JSON."),
    "deps": ("deps", "What upgrading each dependency of a project brings."),
    "eval": ("evaluate", "Evaluate retrieval on a question set or a BEIR folder."),
    "index": ("indexing", "Build or update the hybrid index (BM25 + embeddings)."),
    "mcp": ("mcp", "Serve the release notes to an agent over MCP (stdio)."),
    "search": ("search", "Show the top chunks for a query (no answer extraction)."),
    "sections": ("sections", "Show each document with its version and section tree."),
    "serve": ("serve", "Serve the answers over HTTP: a web page, the API and MCP."),
    "show": ("show", "Print the lines a citation points at."),
    "status": ("indexing", "Show where the index is, what built it and whether it is stale."),
}


class RelnotesGroup(click.Group):
    """A group whose commands are imported when used, and that turns our errors into one line on
    stderr and exit code 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(f".{COMMANDS[cmd_name][0]}", __package__)
        return next(command for command in module.COMMANDS if command.name == cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary) in sorted(COMMANDS.items())])

    def invoke(self, ctx: click.Context):
        from ..errors import USER_ERRORS

        try:
            return super().invoke(ctx)
        except USER_ERRORS as exc:
            from ..text import one_line

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


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="relnotes")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
