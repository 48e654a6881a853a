"""A digest as lines a person reads: one block a release, items grouped under their kind, each
with its citation; shared by the terminal, the Markdown report and the chat."""

from __future__ import annotations

from dataclasses import dataclass

from corpus.items import item_words

from ..model import Digest, DigestItem, ReleaseDigest

ITEM_LINES = 3  # lines of an item shown; the rest is counted
KIND_TITLES = {
    "removed": "Breaking / removed", "deprecated": "Deprecated", "security": "Security", "added": "Added",
    "changed": "Changed", "performance": "Performance", "fixed": "Fixed", "docs": "Documentation",
    "other": "Other", None: "Notes",
}
SHAPE_TITLES = {"release": "Release digest", "upgrade": "Upgrade digest", "range": "Changes in range",
                "history": "History"}


@dataclass(frozen=True, slots=True)
class Group:
    """The items of one kind within one release."""

    kind: str | None
    title: str
    items: tuple[DigestItem, ...]


def title(digest: Digest) -> str:
    """"Upgrade digest: after 1.10 up to 2.0 (3 releases, 12 items)"."""
    parts = [SHAPE_TITLES.get(digest.shape, "Digest")]
    what = digest.range.describe() if digest.range else ""
    if digest.topic:
        what = f"{digest.topic!r} {what}".strip()
    count = f"{len(digest.releases)} release{'s' if len(digest.releases) != 1 else ''}, {len(digest.items)} items"
    return f"{parts[0]}{': ' + what if what else ''} ({count})"


def release_title(r: ReleaseDigest) -> str:
    """"textual 8.2.7: 12 of 40 items"."""
    name = f"{r.product} {r.version}" if r.product else r.version
    shown = len(r.items)
    return f"{name}: {shown} item{'s' if shown != 1 else ''}" + (f" of {r.total}" if r.total > shown else "")


def groups(r: ReleaseDigest) -> list[Group]:
    """The release's items in runs of one kind, in digest order."""
    out: list[Group] = []
    for item in r.items:
        if out and out[-1].kind == item.kind:
            out[-1] = Group(item.kind, out[-1].title, out[-1].items + (item,))
        else:
            out.append(Group(item.kind, KIND_TITLES.get(item.kind, str(item.kind)), (item,)))
    return out


def omitted(r: ReleaseDigest) -> str | None:
    """"and 28 more: 10 added, 18 fixed", or None when nothing was left out."""
    if not r.omitted:
        return None
    total = sum(n for _, n in r.omitted)
    return f"and {total} more: " + ", ".join(f"{n} {kind}" for kind, n in r.omitted)


def item_lines(item: DigestItem, most: int = ITEM_LINES) -> tuple[list[str], int]:
    """The item's words (bullet and leading issue link dropped) as at most ``most`` lines, and
    how many lines were left out."""
    lines = [" ".join(line.split()) for line in item_words(item.text).splitlines() if line.strip()]
    return lines[:most], max(0, len(lines) - most)
