"""``relnotes serve``: the HTTP API (and MCP over streamable HTTP) for a team, on uvicorn."""

from __future__ import annotations

import os

import click

from ..http import is_loopback
from .common import corpus_option, current_project, index_option, model_option, no_update_option, project_option
from .common import leave_if_building, skip_bad_corpus_option, skip_bad_given, skipped
from .progress import notice

TOKEN_ENV = "RELNOTES_TOKEN"


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind; anything but loopback needs --token.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option("--token", default=None, metavar="TOKEN", help=f"Bearer token every request must send (or ${TOKEN_ENV}).")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Answering threads (default: one a core).")
@click.option("--exit-after", type=click.FloatRange(0, min_open=True), default=None, hidden=True,
              help="Stop after this many seconds (tests and benchmarks: a server that stops by itself).")
@corpus_option
@skip_bad_corpus_option
@index_option
@model_option
@no_update_option
@project_option
def serve_cmd(host, port, token, workers, exit_after, corpus_paths, index_dir, model_path, no_update) -> None:
    """Serve the answers over HTTP: a web page for people at /, the API (/v1/ask, /v1/search,
    /v1/releases, /v1/changes, /v1/batch, /v1/show, /v1/health), the OpenAPI document at /docs,
    and the MCP tools at /mcp (streamable HTTP).

    An index rebuilt meanwhile by `relnotes index` is picked up without a restart.

    \b
    Examples:
      relnotes serve --corpus ~/notes/
      RELNOTES_TOKEN=s3cret relnotes serve --host 0.0.0.0 --corpus ~/notes/
      curl -s localhost:8765/v1/ask -d '{"question": "what changed for MPS in 2.14?"}'
      open http://127.0.0.1:8765/?q=what%20changed%20for%20MPS%3F   # the page, asking on load
    """
    token = token or os.environ.get(TOKEN_ENV) or None
    if not is_loopback(host) and not token:
        raise click.UsageError(f"--host {host} is reachable from other machines: pass --token TOKEN "
                               f"(or set {TOKEN_ENV}) so requests must authenticate")
    from corpus import check_corpus

    check_corpus(corpus_paths)  # a bad --corpus is one line and exit 1, before the server starts

    import uvicorn

    from ..http.app import make_app
    from ..serving.reloading import ReloadingService

    project = current_project()
    skip_bad = skip_bad_given()

    def opener(update: bool):
        from ..service import AnswerService

        service = AnswerService.open(corpus_paths, index_dir, model_path, update=update and not no_update, warm=True,
                                     notify=notice, skip_bad=skip_bad, on_skip=skipped, project=project, staged=True)
        if update and not no_update:  # a new corpus answers by BM25 at once; hybrid once its vectors are built here
            service.build_vectors(notice)
        return service

    app = make_app(ReloadingService(opener).start(), token=token, host=host, workers=workers,
                   dependencies=project is not None)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    if exit_after is not None:
        import threading

        timer = threading.Timer(exit_after, lambda: setattr(server, "should_exit", True))
        timer.daemon = True
        timer.start()
    click.echo(f"relnotes serve on http://{host}:{port} (the page at /, docs at /docs, MCP at /mcp)", err=True)
    server.run()
    leave_if_building("serve")


COMMANDS = [serve_cmd]
