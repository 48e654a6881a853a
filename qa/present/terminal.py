"""Answers for a person on a terminal: rich text, colour only on a terminal, never markup from data."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..model import Answer, Digest
from ..text import safe
from . import cite, digest_text, notes

PREVIEW_LINES = 6


class _Console(Console):
    """Rich's console, but a closed pipe ("relnotes ask ... | head") is ours to end quietly
    (``qa.cli.main``): rich would exit with status 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def console() -> Console:
    """A stdout console: colour when stdout is a terminal, plain text otherwise; no auto-highlighting."""
    return _Console(highlight=False, soft_wrap=True, emoji=False)


def render_answer(answer: Answer, out: Console) -> None:
    """Print the answer, then each passage with its citation and the start of its text.

    All document and question text goes through ``Text`` objects, so ``[bold]`` or
    ``[link=...]`` inside release notes is printed literally, never interpreted.
    """
    if answer.asked_as != answer.question:
        out.print(Text.assemble(("asked as: ", "dim"), (safe(answer.asked_as), "dim")))
    if answer.releases:
        out.print(Text.assemble(("releases: ", "dim"), (", ".join(answer.releases), "cyan")))
    if answer.products:
        out.print(Text.assemble(("products: ", "dim"), (safe(", ".join(answer.products)), "cyan")))
    if answer.kinds:
        out.print(Text.assemble(("kinds: ", "dim"), (", ".join(answer.kinds), "cyan")))
    if answer.sentences:
        body = Text()
        for i, s in enumerate(answer.sentences):
            if i:
                body.append(" ")
            body.append(safe(s.text))
            body.append(f" [{s.passage}]", style="bold cyan")
        out.print(Text.assemble(("Answer: ", "bold green"), body))
        cited = list(dict.fromkeys(f"[{s.passage}] {cite.location(s.citation)}" for s in answer.sentences if s.citation))
        if cited:  # each quote's own item, by its lines
            out.print(Text.assemble(("Quoted from: ", "dim"), (safe("; ".join(cited)), "green")))
    if answer.notes:
        out.print(Text(safe(notes.joined(answer.notes)), style="yellow"))
    if answer.digest is not None and answer.digest.releases:
        render_digest(answer.digest, out)
        if answer.passages:
            out.print()
            out.print(Text("Passages", style="bold"))
    if answer.nearby:
        out.print()
        out.print(Text("Nearest passages (not an answer):", style="dim"))
        for p in answer.nearby:
            out.print(Text.assemble(("  - ", "dim"), (cite.release(p.citation), "magenta"), " · ",
                                    (safe(cite.heading(p.citation)), ""), " · ", (safe(cite.location(p.citation)), "green")))
    for p in answer.passages:
        c = p.citation
        out.print()
        out.print(Text.assemble(
            (f"[{p.rank}] ", "bold cyan"),
            (cite.release(c), "bold magenta"),
            *((" · ", (c.kind, "magenta")) if c.kind else ()),
            " · ",
            (safe(cite.heading(c)), "bold"),
            " · ",
            (safe(cite.location(c)), "green"),
            (f"  score {p.score:.4f}", "dim"),
        ))
        if c.url:
            out.print(Text(f"    {safe(c.url)}", style="blue"))
        lines = safe(p.text).splitlines()
        for line in lines[:PREVIEW_LINES]:
            out.print(Text("    " + line))
        if len(lines) > PREVIEW_LINES:
            out.print(Text(f"    … {len(lines) - PREVIEW_LINES} more lines", style="dim"))


def render_changes(answer: Answer, out: Console) -> None:
    """Print what ``relnotes changes`` found: its notes, then its digest."""
    if answer.notes:
        out.print(Text(safe(notes.joined(answer.notes)), style="yellow"))
    if answer.digest is not None and answer.digest.releases:
        render_digest(answer.digest, out)


def render_digest(digest: Digest, out: Console) -> None:
    """Print a digest: a block a release, items under their kind, each with its citation."""
    out.print()
    out.print(Text(safe(digest_text.title(digest)), style="bold green"))
    for r in digest.releases:
        out.print()
        out.print(Text(safe(digest_text.release_title(r)), style="bold magenta"))
        for group in digest_text.groups(r):
            out.print(Text(f"  {group.title}", style="bold"))
            for item in group.items:
                lines, more = digest_text.item_lines(item)
                out.print(Text.assemble("    - ", safe(lines[0] if lines else "")))
                for line in lines[1:]:
                    out.print(Text("      " + safe(line)))
                if more:
                    out.print(Text(f"      … {more} more lines", style="dim"))
                out.print(Text("      " + safe(cite.location(item.citation)), style="green"))
        rest = digest_text.omitted(r)
        if rest:
            out.print(Text(f"  {rest}", style="dim"))
