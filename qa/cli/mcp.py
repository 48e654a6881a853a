"""``relnotes mcp``: a Model Context Protocol server on stdio, for coding agents."""

from __future__ import annotations

import click

from .common import corpus_option, current_project, index_option, model_option, no_update_option, project_option
from .common import leave_if_building, skip_bad_corpus_option, skip_bad_given, skipped
from .progress import notice


@click.command("mcp")
@corpus_option
@skip_bad_corpus_option
@index_option
@model_option
@no_update_option
@project_option
def mcp_cmd(corpus_paths, index_dir, model_path, no_update) -> None:
    """Serve the release notes to an agent over MCP (stdio): tools ask_release_notes,
    search_release_notes, list_releases, release_changes and resources relnotes://PRODUCT/VERSION.

    The handshake is answered at once, before the MCP SDK has loaded (RELNOTES_MCP_EARLY=0 leaves
    it to the SDK); the index opens (or is built) in the background and the first tool call waits
    for it. Logs go to stderr; stdout carries only the protocol.

    \b
    Examples:
      claude mcp add relnotes -- relnotes mcp --corpus ~/notes/
      relnotes mcp --corpus pydantic=HISTORY.md
    """
    from corpus import check_corpus

    check_corpus(corpus_paths)  # a bad --corpus is one line and exit 1, before the server starts

    from ..mcp.startup import serve_stdio
    from ..serving.background import BackgroundService

    project = current_project()
    skip_bad = skip_bad_given()

    def opener():
        from ..service import AnswerService

        service = AnswerService.open(corpus_paths, index_dir, model_path, update=not no_update, warm=True,
                                     notify=notice, skip_bad=skip_bad, on_skip=skipped, project=project, staged=True)
        if not no_update:  # a new corpus answers by BM25 at once; hybrid once its vectors are built here
            service.build_vectors(notice)
        return service

    serve_stdio(BackgroundService(opener), dependencies=project is not None)
    leave_if_building("mcp")


COMMANDS = [mcp_cmd]
