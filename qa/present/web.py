"""Answers for the web page (``relnotes serve`` at /): a record with the words and citation parts
the page shows, made here by the one citation formatter and the digest words the terminal and
the chat use, so the page's script only lays them out and never formats or words anything."""

from __future__ import annotations

from ..model import Citation, Digest, DigestItem, ReleaseDigest, ReleaseRange
from . import cite, digest_text

VIEWS = ("record", "page")  # what /v1/ask and /v1/show return: the record as is, or with the page's parts


def citation(c: dict) -> dict:
    """The parts of a record's citation the page shows: product, release (and kind), heading
    path, ``file:lines`` (the citation /show takes) and URL."""
    parsed = Citation.from_json(c)
    return {"title": parsed.title, "product": parsed.product, "release": cite.release_kind(parsed),
            "heading": cite.heading(parsed), "location": cite.location(parsed), "url": parsed.url}


def page(record: dict) -> dict:
    """``record`` (of ``qa.serving.api.ask``) with what the page shows besides: each passage's
    ``cite``, the range in words (``range_text``) and the digest as titled groups (``view``)."""
    out = dict(record)
    for key in ("passages", "not_an_answer"):
        out[key] = [{**p, "cite": citation(p["citation"])} for p in record.get(key) or []]
    span = _range(record.get("range"))
    out["range_text"] = span.describe() if span is not None else None
    if record.get("digest"):
        out["digest"] = {**record["digest"], "view": digest_view(record["digest"])}
    return out


def shown(record: dict) -> dict:
    """``record`` (of ``qa.serving.cited.show``) with each section's citation parts (``cite``)."""
    return {**record, "sections": [{**s, "cite": citation(s["citation"])} for s in record["sections"]]}


def digest_view(digest: dict) -> dict:
    """A record's digest as the page shows it: its title, then each release's title, its items
    in runs of one kind under the kind's title (each item's lines and citation) and what was left out."""
    value = _digest(digest)
    releases = []
    for r in value.releases:
        groups = []
        for group in digest_text.groups(r):
            items = []
            for item in group.items:
                lines, more = digest_text.item_lines(item)
                items.append({"lines": lines, "more": more, "chunk_id": item.chunk_id,
                              "cite": citation(item.citation.to_json())})
            groups.append({"title": group.title, "items": items})
        releases.append({"title": digest_text.release_title(r), "groups": groups, "more": digest_text.omitted(r)})
    return {"title": digest_text.title(value), "releases": releases}


def _digest(digest: dict) -> Digest:
    """The Digest a record's digest holds (what ``digest_text`` words)."""
    releases = tuple(
        ReleaseDigest(r.get("product"), r["version"],
                      tuple(DigestItem(i["text"], i.get("kind"), Citation.from_json(i["citation"]), i.get("score", 0.0),
                                       i.get("chunk_id", "")) for i in r.get("items") or ()),
                      tuple((r.get("omitted") or {}).items()))
        for r in digest.get("releases") or ())
    return Digest(digest.get("shape", ""), releases, digest.get("topic") or "", _range(digest.get("range")),
                  tuple(digest.get("kinds") or ()))


def _range(span: dict | None) -> ReleaseRange | None:
    if not span:
        return None
    return ReleaseRange(span.get("since"), span.get("until"), span.get("until_inclusive", True),
                        span.get("since_inclusive", False))
