"""The command list: every command a module defines is listed once, imported only when used, and
``relnotes --help`` shows each on one line."""

from __future__ import annotations

import importlib
import pkgutil

import click
from click.testing import CliRunner

import qa.cli
from qa.cli.main import COMMANDS, cli


def _defined() -> dict[str, str]:
    """Every command the modules of qa.cli define -> its module's name in the package."""
    found = {}
    for info in pkgutil.iter_modules(qa.cli.__path__):
        if info.name == "main":  # the list itself
            continue
        for command in getattr(importlib.import_module(f"qa.cli.{info.name}"), "COMMANDS", ()):
            assert command.name not in found, f"{command.name} defined twice"
            found[command.name] = info.name
    return found


def test_every_command_defined_is_listed_with_its_module() -> None:
    assert {name: module for name, (module, _) in COMMANDS.items()} == _defined()


def test_each_name_gives_the_command_of_that_name() -> None:
    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert isinstance(command, click.Command) and command.name == name
    assert cli.get_command(ctx, "nope") is None and cli.list_commands(ctx) == sorted(COMMANDS)


def test_help_lists_each_command_on_one_line_with_its_summary() -> None:
    result = CliRunner().invoke(cli, ["--help"], terminal_width=80)
    assert result.exit_code == 0
    listed = result.output.split("Commands:\n", 1)[1].splitlines()
    assert listed == [f"  {name:<9} {summary}" for name, (_, summary) in sorted(COMMANDS.items())]
    assert all(len(line) <= 80 for line in listed)


def test_a_command_runs_and_its_own_help_is_whole() -> None:
    runner = CliRunner()
    assert "Answer QUESTION with ranked passages" in runner.invoke(cli, ["ask", "--help"]).output
    assert "cache [OPTIONS] COMMAND" in runner.invoke(cli, ["cache", "--help"]).output


def test_an_unknown_command_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["aks", "what changed?"])
    assert result.exit_code == 2 and "No such command 'aks'" in result.output
