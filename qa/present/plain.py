"""A short text rendering of an ``qa.serving.api`` record, for MCP clients that show only text (the record's
note already says the earliest release: it is not said again)."""

from __future__ import annotations

from ..model import Citation
from . import cite

MOST_LINES = 60


def _citation(c: dict) -> str:
    """A record's citation as one plain line, by the one citation formatter (``qa.cite``)."""
    return cite.plain(Citation.from_json(c))


def render(record: dict) -> str:
    """The answer, note, digest items and passages of a record, one line each; or the release list."""
    if "dependencies" in record:
        return "\n".join(
            f"{d['product']}: pinned {d['pinned'] or 'nowhere'}, newest {d['newest'] or 'unknown'}, "
            f"{d['releases_between'] if d['releases_between'] is not None else '?'} releases between, "
            + (", ".join(f"{n} {k}" for k, n in d["counts"].items()) or "nothing listed")
            + "".join(f"\n- [{i['kind']}] {i['text'].splitlines()[0] if i['text'] else ''} ({_citation(i['citation'])})"
                      for i in d["items"])
            for d in record["dependencies"]
        ) or "The project has no dependencies."
    if "products" in record and "passages" not in record:
        return "\n".join(
            f"{p['product'] or '(no product)'}: {p['count']} releases, newest "
            + ", ".join(r["version"] + (f" ({r['date']})" if r.get("date") else "") for r in p["releases"][:10])
            for p in record["products"]
        ) or "The corpus holds no release."
    lines: list[str] = []
    if record.get("answer"):
        lines.append("Answer: " + record["answer"]["text"])
    if record.get("note"):
        lines.append("Note: " + record["note"])
    for release in (record.get("digest") or {}).get("releases", []):
        lines.append(f"Release {release.get('product') or ''} {release['version']}".replace("  ", " "))
        lines += [f"- [{item['kind']}] {item['text'].splitlines()[0] if item['text'] else ''} ({_citation(item['citation'])})"
                  for item in release.get("items", [])]
    for p in record.get("passages", []):
        lines.append(f"[{p['rank']}] {_citation(p['citation'])}")
    if record.get("omitted"):
        lines.append(f"({record['omitted']} more left out to fit max_chars; ask with a larger max_chars or a narrower question)")
    if len(lines) > MOST_LINES:
        lines = lines[:MOST_LINES] + [f"... {len(lines) - MOST_LINES} more lines in the structured result"]
    return "\n".join(lines) or "Nothing found."
