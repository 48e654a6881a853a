"""Options shared by every command that reads the corpus or the index."""

from __future__ import annotations

from pathlib import Path

import click

corpus_option = click.option(
    "--corpus",
    "corpus_paths",
    multiple=True,
    type=click.Path(path_type=Path),
    help="File or folder of release notes (repeatable). Default: the bundled PyTorch notes.",
)
index_option = click.option(
    "--index",
    "index_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Index directory. Default: the user cache, one per corpus.",
)
model_option = click.option(
    "--model",
    "model_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Local sentence-transformers model folder. Default: the bundled all-MiniLM-L6-v2.",
)
skip_bad_option = click.option(
    "--skip-bad", is_flag=True, help="Report bad input files on stderr and go on without them."
)
