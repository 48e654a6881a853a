"""Progress and notices on stderr: a rich bar on a terminal, silence otherwise."""

from __future__ import annotations

import contextlib
import sys
from typing import Callable, Iterator

import click

from ..text import one_line

Progress = Callable[..., None]  # (done, total[, what])


_LIVE: list = []  # the progress bar drawn now, if any: notices go above it, on lines of their own


def notice(message: str) -> None:
    """Print a one-line notice on stderr (control characters from file names shown, not sent);
    while a progress bar is drawn, on its own line above the bar."""
    if _LIVE:
        from rich.text import Text

        _LIVE[-1].console.print(Text(one_line(message)))
        return
    click.echo(one_line(message), err=True)


@contextlib.contextmanager
def embedding_progress(quiet: bool = False, label: str = "Embedding") -> Iterator[Progress | None]:
    """Yield a (done, total[, what]) callback that draws a rich progress bar on stderr, or None
    when quiet; ``what`` (the document a build is embedding) follows the label."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeRemainingColumn

    with Bar(
        TextColumn("{task.description}", markup=False),  # file names are not rich markup
        BarColumn(),
        MofNCompleteColumn(),
        rate_column(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)
        _LIVE.append(bar)

        def update(done: int, total: int, what: str | None = None) -> None:
            bar.update(task, completed=done, total=total, **({"description": f"{label} {one_line(what)}"} if what else {}))

        try:
            yield update
        finally:
            _LIVE.remove(bar)


def rate_column():
    """A rich column with the texts embedded a second ("1,204 texts/s")."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} texts/s" if speed else "- texts/s", style="progress.data.speed")

    return Rate()

