"""``relnotes chat``: the Textual chat over the same engine ``relnotes ask`` uses."""

from __future__ import annotations

from pathlib import Path

import click

from index import ASKED_MODES

from .common import corpus_option, current_project, index_option, kind_option, model_option, project_option
from .common import leave_if_building, leave_now, skip_bad_corpus_option, skip_bad_given

TOP_K_CHOICES = click.IntRange(1, 50)


@click.command("chat")
@corpus_option
@skip_bad_corpus_option
@index_option
@model_option
@click.option("--mode", type=click.Choice(ASKED_MODES), default="auto", show_default=True,
              help="Start in this mode (F2 switches): auto is hybrid once the vectors are in, BM25 until then; "
                   "hybrid or dense waits for them.")
@click.option("--top-k", "-k", "top_k", type=TOP_K_CHOICES, default=5, show_default=True, help="Passages per answer (F3 switches).")
@click.option("--release", "releases", multiple=True, metavar="V", help="Start with this release filter (repeatable).")
@kind_option
@click.option("--no-update", is_flag=True, help="Show an error instead of rebuilding a missing or stale index.")
@click.option("--export-dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Where Ctrl+S writes the transcript. Default: transcripts/ in the user data folder "
                   "(~/.local/share/relnotes-qa/ on Linux).")
@project_option
def chat_cmd(corpus_paths, index_dir, model_path, mode, top_k, releases, kinds, no_update, export_dir) -> None:
    """Ask questions one after another and read cited answers, in the terminal.

    The window opens at once; the model and index load in the background (a
    missing or stale index is built first). F1 shows the keys.

    \b
    Examples:
      relnotes chat
      relnotes chat --corpus ~/notes/ --release 2.14
    """
    from corpus import check_corpus

    check_corpus(corpus_paths)  # a bad --corpus is one line and exit 1, before the window opens
    app = chat_app(corpus_paths, index_dir, model_path, mode=mode, top_k=top_k, releases=releases, kinds=kinds,
                   update=not no_update, export_dir=export_dir, skip_bad=skip_bad_given(), project=current_project())
    app.run()
    if not app.wait_for_loading():  # quit while the index opened, and it is still at a step that reports nothing
        leave_now()
    leave_if_building("chat")


def chat_app(corpus_paths=(), index_dir=None, model_path=None, *, mode="auto", top_k=5, releases=(), kinds=(),
             update=True, export_dir=None, skip_bad=False, project=None):
    """The chat app as ``relnotes chat`` runs it (benchmarks/startup.py drives it headless)."""
    from ..question import release_name
    from ..service import AnswerService
    from ..tui.app import make_app

    def factory(opening):  # the chat searches the vectors: a damaged vectors file is rebuilt, not a failed question
        service = AnswerService.open(corpus_paths, index_dir, model_path, update=update, dense=True, warm=True,
                                     notify=opening, progress=_progress(opening, opening.check), skip_bad=skip_bad,
                                     on_skip=lambda exc: opening(f"skipped: {exc}"), project=project, staged=True)
        if update:  # a new corpus answers by BM25 at once; its vectors are built here, then answers are hybrid
            service.build_vectors()
        return service

    return make_app(factory, mode=mode, top_k=top_k, releases=tuple(release_name(r) for r in releases),
                    kinds=tuple(kinds), export_dir=export_dir)


def _progress(notify, check=None):
    """A (done, total, what) callback that notifies at every quarter of an embedding run and calls
    ``check`` at every step (``qa.tui.loading.Opening.check``: it stops the build once the chat quit)."""
    shown = set()

    def update(done: int, total: int, what: str | None = None) -> None:
        if check is not None:
            check()
        if not total:
            return
        quarter = 4 * done // total
        if quarter not in shown:
            shown.add(quarter)
            notify(f"Embedding: {done:,}/{total:,} texts" + (f", {what}" if what else ""))

    return update


COMMANDS = [chat_cmd]
