"""What the commands share: the corpus/index/model options, the retrieval options, and opening
the index or the answering service with notices and a progress bar on stderr."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import click
from click.shell_completion import CompletionItem

from index import ASKED_MODES

from .progress import embedding_progress, notice


class CorpusArgument(click.ParamType):
    """``PATH``, or ``NAME=PATH`` to name the product of every document under PATH (a path
    with "=" in it that exists is a path)."""

    name = "[NAME=]PATH"

    def convert(self, value, param, ctx):
        from corpus import CorpusInput

        if isinstance(value, (Path, CorpusInput)):
            return value
        text = os.fsdecode(value)
        whole = os.path.expanduser(text)  # "--corpus=~/notes.md": no shell expanded the ~
        name, sep, path = text.partition("=")
        if not sep or os.path.lexists(whole):
            return Path(whole)
        path = os.path.expanduser(path)
        name = name.strip(" ")
        try:
            if not path:
                raise ValueError("no path")
            return CorpusInput(Path(path), name)
        except ValueError:
            self.fail(f"expected PATH or NAME=PATH (a product name without control characters, '=', "
                      f"then a file or folder), not {text!r}", param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        return [CompletionItem(incomplete, type="file")]


corpus_option = click.option(
    "--corpus",
    "corpus_paths",
    multiple=True,
    type=CorpusArgument(),
    help="File or folder of release notes, or NAME=PATH: every document under PATH is product NAME "
         "(repeatable). Default: the bundled PyTorch notes.",
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
SKIP_BAD_HELP = ("Report bad input files on stderr and go on without them (an index built so leaves them out "
                 "later too, while they are unchanged).")
skip_bad_option = click.option("--skip-bad", is_flag=True, help=SKIP_BAD_HELP)


def _remember_skip_bad(ctx, param, value):
    if value:
        ctx.meta["relnotes.skip_bad"] = True
    return value


# --skip-bad on the commands that answer (ask, search, changes, chat, eval, mcp, serve): the
# opening of the index reads it (``skip_bad_given``), the command takes no argument for it.
skip_bad_corpus_option = click.option("--skip-bad", is_flag=True, expose_value=False, callback=_remember_skip_bad,
                                      help=SKIP_BAD_HELP)


def skip_bad_given() -> bool:
    """Whether this command was given --skip-bad."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx and ctx.meta.get("relnotes.skip_bad"))
MODE_HELP = ("auto: hybrid when the index has its vectors, else BM25 (the answer says so and names the command that "
             "builds them); hybrid or dense: builds the vectors first if they are missing (progress on stderr); "
             "bm25: BM25 alone. Every answer's record says the mode that served it.")
mode_option = click.option("--mode", type=click.Choice(ASKED_MODES), default="auto", show_default=True, help=MODE_HELP)


def staged_for(mode: str) -> bool:
    """Whether a command asking in ``mode`` opens a corpus with no vectors on its BM25 part alone
    (auto and bm25), rather than building the vectors first (hybrid and dense asked by name)."""
    from index import needs_vectors

    return not needs_vectors(mode)


def _kinds(ctx, param, values):
    from corpus.kinds import check_kinds

    try:
        return check_kinds(values)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


kind_option = click.option(
    "--kind", "kinds", multiple=True, metavar="KIND", callback=_kinds,
    help="Only sections of this kind of change (repeatable): added, changed, deprecated, removed "
         "(or breaking), fixed, security, performance, docs, other.",
)
no_update_option = click.option("--no-update", is_flag=True,
                                help="Fail instead of rebuilding a missing or stale index.")


def release_range(since: str | None, until: str | None, names: tuple[str, str] = ("--since", "--until")):
    """``--since``/``--until`` (or ``changes``' FROM and TO, named by ``names``) as a
    ``qa.model.ReleaseRange``, None when neither is given; click's usage error names a value
    that is no release, or a range that runs backwards."""
    from ..question import BadBound, range_of

    try:
        return range_of(since, until, names)
    except BadBound as exc:
        raise click.BadParameter(str(exc), param_hint=f"'{exc.name}'") from None


since_option = click.option("--since", metavar="V", default=None,
                            help="Only releases after V (as in 'upgrading from V'), e.g. --since 1.10.")
until_option = click.option("--until", metavar="V", default=None,
                            help="Only releases up to and including V, e.g. --until 2.0.")


def retrieval_options(func):
    """--top-k, --mode, --release, --since, --until, --kind, --no-update, --corpus, --index, --model."""
    for option in reversed([
        click.option("--top-k", "-k", "top_k", type=click.IntRange(1, 100), default=5, show_default=True,
                     help="How many passages."),
        mode_option,
        click.option("--release", "releases", multiple=True, metavar="V",
                     help="Only this release (repeatable), e.g. --release 2.14."),
        since_option, until_option,
        kind_option,
        no_update_option,
        corpus_option, index_option, model_option,
    ]):
        func = option(func)
    return project_option(func)


PROJECT = "relnotes.project"  # the opened --project, in the click context's meta


def project_option(func):
    """--project DIR: the corpus is the notes of that project's dependencies (fetched by ``relnotes
    add --project DIR``), and the service knows their pins (``current_project``)."""

    @functools.wraps(func)
    def command(*args, project_dir=None, **kwargs):
        if project_dir is not None:
            if kwargs.get("corpus_paths"):
                raise click.UsageError("--project and --corpus cannot be used together: the project's corpus is "
                                       "its dependencies' notes")
            from corpus.packages import open_project

            from ..service import project_corpus

            project = open_project(project_dir)
            kwargs["corpus_paths"] = project_corpus(project)
            click.get_current_context().meta[PROJECT] = project
        return func(*args, **kwargs)

    return click.option("--project", "project_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
                        metavar="DIR", help="Answer from the release notes of DIR's dependencies "
                                            "(fetched with: relnotes add --project DIR).")(command)


def current_project():
    """The project ``--project`` opened for this command, or None."""
    context = click.get_current_context(silent=True)
    return context.meta.get(PROJECT) if context else None


def skipped(exc: Exception) -> None:
    """Report a bad input file that ``--skip-bad`` leaves out."""
    notice(f"skipped: {exc}")


def load(corpus_paths, index_dir, model_path, *, skip_bad=False, quiet=False, rebuild=False, update=True,
         dense=True, adapt=None, quantize=None, staged=False):
    """Open (building if needed) the index, with notices and progress on stderr.

    ``dense``: the vectors will be searched, so a damaged vectors file is rebuilt now (False
    for bm25, which never loads faiss). ``staged``: a corpus with no vectors yet gets its chunks
    and BM25 only (``index.open_index``); ``relnotes index`` builds the vectors.
    """
    from ..service import open_corpus_index

    with embedding_progress(quiet) as progress:
        return open_corpus_index(corpus_paths, index_dir, model_path, rebuild=rebuild, update=update,
                                 skip_bad=skip_bad or skip_bad_given(), on_skip=skipped,
                                 notify=None if quiet else notice, progress=progress, dense=dense, adapt=adapt,
                                 quantize=quantize, staged=staged)


def open_service(corpus_paths, index_dir, model_path, no_update, quiet=False, dense=True, skip_bad=False,
                 staged=False):
    """The answering service over the (built or updated) index; notices and progress on stderr.

    ``dense=False`` (bm25 questions) leaves the vectors unchecked and faiss unloaded; bad input
    files are left out with ``skip_bad`` or --skip-bad (``skip_bad_given``), each one reported.
    ``staged``: a corpus with no vectors yet answers by BM25 (the answer says so) and nothing
    keeps running after the command: ``relnotes index`` builds the vectors.
    """
    from ..service import AnswerService

    with embedding_progress(quiet) as progress:
        return AnswerService.open(corpus_paths, index_dir, model_path, update=not no_update, dense=dense,
                                  notify=None if quiet else notice, progress=progress,
                                  skip_bad=skip_bad or skip_bad_given(), on_skip=skipped,
                                  project=current_project(), staged=staged)


def leave_if_building(command: str) -> None:
    """End the process now (``leave_now``) if a thread of it is building an index's vectors, and
    say so: what it embedded is kept for the next build (``index.store.shards``)."""
    from ..staging import building_now

    if building_now():
        notice(f"relnotes {command}: stopped while the vectors were being built; what was embedded is kept, "
               "and the next relnotes index (or chat, serve, mcp) finishes them")
        leave_now()


def leave_now() -> None:
    """End the process now, leaving the thread that opens the index where it is (loading or
    exporting the model): finalizing the interpreter under it aborts in native code ("terminate
    called without an active exception"). Nothing is lost: the index and the encoder cache are
    written to temporary folders and renamed into place, and their litter is removed by the next build."""
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(0)
