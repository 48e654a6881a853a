"""``relnotes show``: the lines a citation points at, from any folder."""

from __future__ import annotations

import click

from .common import corpus_option, index_option, model_option, no_update_option, project_option


@click.command("show")
@click.argument("citation")
@corpus_option
@index_option
@model_option
@no_update_option
@project_option
def show_cmd(citation, corpus_paths, index_dir, model_path, no_update) -> None:
    """Print the lines CITATION points at: PATH:START-END as relnotes printed it (for a JSON
    record, lines of its decoded body, with the record named), or a chunk id from --json.

    Without --corpus, a path the bundled notes do not hold is read from its file: the path
    itself when it is a file here, else the document of an index in the cache it names.

    \b
    Examples:
      relnotes show corpus/data/pytorch-2.14-release-blog.json:304-318
      relnotes show ../notes/CHANGELOG.md:24-26 --corpus ../notes
      relnotes show 2733c7e6b3ad165f
    """
    from rich.text import Text

    from .. import show
    from ..text import safe
    from ..present.terminal import console

    out = console()
    if show.CHUNK_ID.match(citation.strip()):
        from .common import load

        loaded, _ = load(corpus_paths, index_dir, model_path, update=not no_update, dense=False, staged=True)
        blocks, more = [show.by_chunk(loaded.chunks, citation.strip())], 0
    else:
        blocks, more = show.by_path(_documents(citation, corpus_paths), citation)
    for i, block in enumerate(blocks):
        if i:
            out.print()
        out.print(Text(safe(block.header), style="bold"))
        width = len(str(block.lines[-1][0])) if block.lines else 1
        for number, line in block.lines:
            out.print(Text.assemble((f"{number:>{width}} │ ", "dim"), safe(line)))
    if more:
        out.print(Text(f"… {more} more records of this file cite these lines; give the chunk id to pick one",
                       style="dim"))


def _documents(citation: str, corpus_paths):
    """The documents a path citation is looked up in: the corpus given; without --corpus the
    bundled notes, else the file the citation names (on disk here, or a document of an index in
    the cache), else CitationNotFound saying what to pass."""
    from corpus import load_documents
    from index import indexed_sources

    from .. import show
    from ..errors import CitationNotFound

    documents = load_documents(corpus_paths or None)
    if corpus_paths or show.names_any(documents, citation):
        return documents
    found = show.cited_file(citation, indexed_sources())
    if found is None:
        path = show.parse(citation)[0]
        raise CitationNotFound(f"{path}: neither the bundled notes nor any index in the cache hold this file, and it "
                               f"is not here; pass the corpus it came from: relnotes show {citation!r} --corpus PATH")
    return load_documents([found])


COMMANDS = [show_cmd]
