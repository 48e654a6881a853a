"""``relnotes cache list`` / ``prune``: the cached indexes, their corpora, sizes and last use."""

from __future__ import annotations

import json

import click

from corpus.regex import lazy_compile

_AGE = lazy_compile(r"^\s*(\d+(?:\.\d+)?)\s*([hdw])\s*$")
_UNIT_DAYS = {"h": 1 / 24, "d": 1.0, "w": 7.0}


def parse_age(value: str) -> float:
    """"30d", "12h", "2w" -> days."""
    m = _AGE.match(value or "")
    if not m:
        raise click.BadParameter(f"{value!r} is no age; write it like 30d, 12h or 2w", param_hint="'--older-than'")
    return float(m.group(1)) * _UNIT_DAYS[m.group(2)]


def _when(stamp: float | None) -> str:
    from ..service import IndexInfo

    if stamp is None:
        return "never"
    from datetime import datetime, timezone

    return IndexInfo("", 0, 0, datetime.fromtimestamp(stamp, timezone.utc).isoformat(), "").age()


@click.group("cache")
def cache_group() -> None:
    """The cached indexes (one a corpus and model) and shared vector stores (one a model), in the user cache folder."""


@cache_group.command("list")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per index, then one per adapted model (those have a \"model\" key), then "
                   "one per shared vector store (a \"vector_store\" key).")
def list_cmd(as_json: bool) -> None:
    """Each cached index: its corpus inputs, chunks, size, when it was last used, and whether a
    process has it open now."""
    from index import cache_root, in_use, list_indexes, list_models

    entries = list_indexes()
    if not entries and not as_json:
        click.echo(f"No index in {cache_root()}.")
    total = 0
    for e in entries:
        total += e.bytes
        busy = in_use(e.directory)
        if as_json:
            click.echo(json.dumps({"directory": str(e.directory), "inputs": list(e.inputs), "chunks": e.chunks,
                                   "bytes": e.bytes, "built": e.built, "last_used": e.last_used, "in_use": busy,
                                   "problem": e.problem}, ensure_ascii=False))
            continue
        inputs = ", ".join("bundled notes" if i == "<bundled>" else i for i in e.inputs) or f"({e.problem})"
        click.echo(f"{e.directory.name}  {e.bytes / 1e6:7.1f} MB  {e.chunks:>7} chunks  used {_when(e.last_used):<14}"
                   f"{'  IN USE' if busy else ''}  {inputs}")
    if entries and not as_json:
        click.echo(f"{len(entries)} indexes, {total / 1e6:.1f} MB in {cache_root()}")
    for m in list_models(entries):
        if as_json:
            click.echo(json.dumps({"model": str(m.directory), "base": m.base, "created": m.created, "bytes": m.bytes,
                                   "used_by": [str(p) for p in m.used_by]}, ensure_ascii=False))
            continue
        users = ", ".join(p.name for p in m.used_by) or "no index (removed by prune)"
        click.echo(f"adapted model {m.directory.name}  {m.bytes / 1e6:7.1f} MB  from {m.base}, {m.created}; "
                   f"used by {users}")
    _list_stores(as_json)


def _list_stores(as_json: bool) -> None:
    """The shared vector stores: one per model, every index built with it takes its texts' vectors there."""
    from index import list_stores

    for s in list_stores():
        model = s.model.get("name") or "?"
        if as_json:
            click.echo(json.dumps({"vector_store": str(s.directory), "model": model, "texts": s.texts,
                                   "pieces": s.pieces, "bytes": s.bytes, "last_used": s.last_used},
                                  ensure_ascii=False))
            continue
        click.echo(f"vectors {s.directory.name}  {s.bytes / 1e6:7.1f} MB  {s.texts:,} texts in {s.pieces} pieces  "
                   f"used {_when(s.last_used):<14}  {model}{' int8' if s.model.get('quantized') else ''} "
                   "(shared by every index of this model)")


@cache_group.command("prune")
@click.option("--older-than", "older_than", default=None, metavar="AGE",
              help="Remove indexes not used for longer than AGE (30d, 12h, 2w).")
@click.option("--all", "everything", is_flag=True, help="Remove every index not in use.")
@click.option("--dry-run", is_flag=True, help="Say what would be removed, remove nothing.")
def prune_cmd(older_than: str | None, everything: bool, dry_run: bool) -> None:
    """Remove cached indexes not used for a while (or all of them), and the pieces of the shared
    vector stores not used as long (or the stores). An index another process has open or is
    building is kept and named; the next question rebuilds a removed one, and embeds again the
    texts whose vectors were pruned."""
    from index import prune, prune_models, prune_stores

    if older_than is None and not everything:
        raise click.UsageError("say what to remove: --older-than 30d, or --all")
    removed, busy = prune(parse_age(older_than) if older_than is not None else None, everything=everything,
                          dry_run=dry_run)
    verb = "Would remove" if dry_run else "Removed"
    for e in removed:
        click.echo(f"{verb} {e.directory}  ({e.bytes / 1e6:.1f} MB, used {_when(e.last_used)})")
    for e in busy:
        click.echo(f"Kept {e.directory}: another relnotes process has it open or is building it "
                   "(or it could not be deleted)", err=True)
    models = prune_models(parse_age(older_than) if older_than is not None else None, everything=everything,
                          dry_run=dry_run)
    for m in models:
        click.echo(f"{verb} {m.directory}  (adapted model no index uses, {m.bytes / 1e6:.1f} MB)")
    stores, held = prune_stores(parse_age(older_than) if older_than is not None else None, everything=everything,
                                dry_run=dry_run)
    for p in stores:
        what = "the whole store" if p.whole else f"{p.pieces} pieces unused for longer than {older_than}"
        click.echo(f"{verb} {what} of {p.store.directory}  ({p.bytes / 1e6:.1f} MB, shared vectors of "
                   f"{p.store.model.get('name')})")
    for info in held:
        click.echo(f"Kept {info.directory}: a relnotes build is reading or writing it", err=True)
    click.echo(f"{verb} {len(removed)} indexes, {sum(e.bytes for e in removed) / 1e6:.1f} MB"
               + (f" and {len(models)} adapted models, {sum(m.bytes for m in models) / 1e6:.1f} MB" if models else "")
               + (f" and {sum(p.bytes for p in stores) / 1e6:.1f} MB of shared vectors" if stores else "")
               + (f"; {len(busy)} in use kept" if busy else ""))


COMMANDS = [cache_group]
