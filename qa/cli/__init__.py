"""The ``relnotes`` command line: ``main`` is the console script; one module per command."""

from .main import cli, main

__all__ = ["cli", "main"]
