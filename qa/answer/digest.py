"""Digests: the items of one release grouped by kind, the breaking items of each release in a
range, a range's items on a topic, and the releases that changed a feature, each item cited.

Items (``corpus.items``) come with their chunks; a digest never returns a chunk, only items, in
the order a reader wants: breaking / removed and deprecated first, then security, added,
changed, performance, fixed, docs and the rest; releases oldest first. A long release is
summarised (every kind keeps some items, the breaking ones first) with a count of the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from corpus.headings import release_line
from corpus.items import item_words
from corpus.model import Chunk, Item
from corpus.regex import lazy_compile
from corpus.sentences import ATTRIBUTION
from corpus.textform import index_form
from corpus.versions import version_key

from ..model import Digest, DigestItem, Note, ReleaseDigest, ReleaseRange, citation_of
from .evidence import says_something

KIND_ORDER = ("removed", "deprecated", "security", "added", "changed", "performance", "fixed", "docs", "other", None)
LEAD = ("removed", "deprecated")  # what an upgrade must know first
RELEASE_ITEMS = 25  # items shown of one release; the rest are counted
PER_KIND = 3  # a long release still shows this many of each kind it has
UPGRADE_ITEMS = 60  # breaking / removed / deprecated items shown across a range
CHANGED_PER_RELEASE = 5  # and changes of behaviour of each release that has breaking items
RANGE_PER_RELEASE = 4  # items of each release in a range with no topic; fewer in a long range
RANGE_ITEMS = 60  # items (and releases) a range digest shows at most
TOPIC_ITEMS = 15  # items on a topic shown across a range
TOPIC_KEEP = 0.45  # an item on the topic scores at least this share of the best one
TOPIC_FLOOR = 0.3  # and at least this
HISTORY_STEPS = 12
HISTORY_KEEP = 0.75
# Sections that list people or links, not changes.
_NOT_CHANGES = lazy_compile(r"contributor|acknowledg|thank|full changelog|checksums?|sha256", re.IGNORECASE)

_UPCOMING = lazy_compile(r"\bunreleased\b|\bnot\s+(?:yet\s+)?released\b|\bupcoming\b", re.IGNORECASE)  # changes to come
_HIGHLIGHTS = lazy_compile(r"\bhighlights?\b|\bwhat'?s new\b|\bsummary\b", re.IGNORECASE)
# "(PR #174813 by ...)", "See [Cargo release notes](url)."
_ATTRIBUTION = lazy_compile(ATTRIBUTION.pattern + r"|^see\s+(?:the\s+)?\[[^\]]*\]\([^)]*\)\W*$", re.IGNORECASE)
_API = lazy_compile(r"^\[`[^`\]]+`\]\([^)]*\)\s*$")  # Rust's "[`Vec::pop_if`](url)": a stabilized API is a change


@dataclass(frozen=True, slots=True)
class Entry:
    """An item of a chunk: what a digest ranks and cites."""

    chunk: Chunk
    item: Item

    @property
    def text(self) -> str:
        return self.chunk.item_text(self.item)

    @property
    def release(self) -> tuple[str | None, str]:
        return (self.chunk.product, self.chunk.version or "")

    def shown(self, score: float = 0.0) -> DigestItem:
        citation = replace(citation_of(self.chunk), lines=self.item.lines, kind=self.item.kind)
        return DigestItem(self.text, self.item.kind, citation, score, self.chunk.id)


def entries_of(chunks: Iterable[Chunk], upcoming: bool = False) -> list[Entry]:
    """The items of ``chunks`` worth showing, each once (neighbouring chunks can repeat one), in order.; with ``upcoming``, the items of a
    section of changes not released yet ("[UNRELEASED]") too."""
    out: dict[tuple[str, int], Entry] = {}
    for chunk in chunks:
        if (not chunk.version and not (upcoming and _UPCOMING.search(" ".join(chunk.section)))) or (
                chunk.section and _NOT_CHANGES.search(chunk.section[-1])):
            continue
        for item in chunk.items:
            if not worth_showing(chunk, item):
                continue
            key = (chunk.document, item.lines[0])
            if key not in out or len(out[key].text) < len(chunk.item_text(item)):
                out[key] = Entry(chunk, item)
    return _whole(list(out.values()))


def worth_showing(chunk: Chunk, item: Item) -> bool:
    """Whether an item says something: not a bare link ("(gh-18658)"), a thanks or a release line."""
    words = item_words(chunk.item_text(item))
    plain = index_form(words)  # Rust's items are links: "[Stabilize lockfile v4](url)" says something
    return not (_ATTRIBUTION.match(words) or release_line(words.strip())) and bool(
        _API.match(words) or (len(plain.split()) >= 2 and says_something(plain)))


def _whole(entries: list[Entry]) -> list[Entry]:
    """Without the tail of an item a chunk starts inside of (its lines within the whole item's)."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for e in entries:
        spans.setdefault(e.chunk.document, []).append(e.item.lines)
    return [e for e in entries if not any(a <= e.item.lines[0] and e.item.lines[1] <= b and (a, b) != e.item.lines
                                          for a, b in spans[e.chunk.document])]


def _kind_rank(kind: str | None) -> int:
    return KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER) - 2


def _release_key(release: tuple[str | None, str]) -> tuple:
    product, version = release
    try:
        return (version_key(version), product or "")
    except ValueError:
        return ((), product or "")


def _by_release(entries: Sequence[Entry]) -> dict[tuple[str | None, str], list[Entry]]:
    groups: dict[tuple[str | None, str], list[Entry]] = {}
    for e in entries:
        groups.setdefault(e.release, []).append(e)
    return dict(sorted(groups.items(), key=lambda kv: _release_key(kv[0])))


def summarise(entries: Sequence[Entry], budget: int, scores: dict[int, float] | None = None,
              lead: Sequence[str] = ()) -> tuple[list[Entry], list[Entry]]:
    """(shown, left out) of one release's entries: its highlights (a "Highlights" section) and the
    ``lead`` kinds first, each up to half the budget, then every kind keeps up to PER_KIND items
    (the best scored, else the first of a section, else the first), then the best of the rest.
    Shown by kind, breaking first; with ``scores`` (a topic), the items on the topic first."""
    scores = scores or {}
    heads = _section_starts(entries)
    high = {i for i, e in enumerate(entries) if any(_HIGHLIGHTS.search(h) for h in e.chunk.section[1:])}
    order = sorted(range(len(entries)), key=lambda i: (-scores.get(i, 0.0), i not in high, i not in heads, i))
    chosen: list[int] = [i for i in order if i in high][: budget // 2]  # what the project itself calls its highlights
    chosen += [i for i in order if entries[i].item.kind in lead and i not in chosen][: max(0, budget // 2 - len(chosen))
                                                                                       if high else budget // 2]
    per_kind: dict[str | None, int] = {}
    for i in order:
        kind = entries[i].item.kind
        if len(chosen) < budget and i not in chosen and per_kind.get(kind, 0) < PER_KIND:
            chosen.append(i)
            per_kind[kind] = per_kind.get(kind, 0) + 1
    for i in order:
        if len(chosen) >= budget:
            break
        if i not in chosen:
            chosen.append(i)
    picked = set(chosen)
    best = max(scores.values(), default=0.0)
    on_topic = {i for i in picked if scores.get(i, 0.0) >= max(TOPIC_FLOOR, TOPIC_KEEP * best) > 0}
    # a topic ("what's new in 2.14 for MPS?") leads: its items first, by kind among them
    shown = sorted(picked, key=lambda i: (i not in on_topic, _kind_rank(entries[i].item.kind), i))
    return [entries[i] for i in shown], [e for i, e in enumerate(entries) if i not in picked]


def _section_starts(entries: Sequence[Entry]) -> set[int]:
    """The entries that open their section (numpy's "np.cbrt for floats" is its first paragraph)."""
    seen, out = set(), set()
    for i, e in enumerate(entries):
        key = (e.chunk.document, e.chunk.section)
        if key not in seen:
            seen.add(key)
            out.add(i)
    return out


def _release(release: tuple[str | None, str], shown: Sequence[Entry], left: Sequence[Entry],
             scores: dict[int, float] | None = None, base: Sequence[Entry] = ()) -> ReleaseDigest:
    at = {id(e): i for i, e in enumerate(base)}
    counts: dict[str, int] = {}
    for e in left:
        counts[e.item.kind or "other"] = counts.get(e.item.kind or "other", 0) + 1
    omitted = tuple(sorted(counts.items(), key=lambda kv: _kind_rank(kv[0])))
    items = tuple(e.shown((scores or {}).get(at.get(id(e), -1), 0.0)) for e in shown)
    return ReleaseDigest(release[0], release[1], items, omitted)


def release_digest(entries: Sequence[Entry], kinds: Sequence[str] = (), budget: int = RELEASE_ITEMS, *,
                   asked: str | None = None, topic: str = "", scores: Sequence[float] = ()) -> Digest:
    """The digest of one release: grouped by kind, breaking first; ``kinds`` restricts it.
    A series ("numpy 2.3": 2.3.0 to 2.3.5) gives the release ``asked`` (else the first) the
    whole budget and each other a few items; ``scores`` (the items' relevance to a ``topic``
    the question adds, "something about themes?") chooses which items a long release shows."""
    wanted = [e for e in entries if not kinds or e.item.kind in kinds]
    groups = _by_release(wanted)
    main = _main_release(list(groups), asked)
    at = {id(e): i for i, e in enumerate(entries)}
    ranked = {at[id(e)]: s for e, s in zip(entries, scores)} if scores else None
    releases = []
    for release, group in groups.items():
        local = {k: ranked[at[id(e)]] for k, e in enumerate(group)} if ranked else None
        shown, left = summarise(group, budget if release == main else RANGE_PER_RELEASE, local, lead=LEAD)
        releases.append(_release(release, shown, left, local, group))
    return Digest("release", tuple(releases), topic=topic, kinds=tuple(kinds))


def _main_release(releases: list[tuple[str | None, str]], asked: str | None) -> tuple[str | None, str] | None:
    """The release a question about a series ("numpy 2.3") is mostly about: the one named
    exactly, else the first of the series (2.3.0); its patch releases get a few items each."""
    if not releases:
        return None
    for r in releases:
        if asked and r[1] == asked:
            return r
    return releases[0]


def upgrade_digest(entries: Sequence[Entry], span: ReleaseRange, kinds: Sequence[str] = ()) -> Digest:
    """Every release in ``span`` that has items of the ``kinds`` (default: removed and
    deprecated, then up to CHANGED_PER_RELEASE changes of behaviour), oldest first, with a
    count of each release's other changes."""
    lead = tuple(kinds) or LEAD
    groups = _by_release(entries)
    picked = {}
    for release, group in groups.items():
        shown = [e for e in group if e.item.kind in lead]
        if not kinds and shown:
            shown += [e for e in group if e.item.kind == "changed"][:CHANGED_PER_RELEASE]
        if shown:
            picked[release] = shown
    # a long range shares the room: every release with breaking items keeps some, oldest first
    quota = max(PER_KIND, UPGRADE_ITEMS // len(picked)) if picked and sum(map(len, picked.values())) > UPGRADE_ITEMS else None
    releases = []
    for release, shown in picked.items():
        kept = shown[:quota] if quota else shown
        left = [e for e in groups[release] if e not in kept]
        releases.append(_release(release, sorted(kept, key=lambda e: _kind_rank(e.item.kind)), left))
    held = len(_by_release(entries))
    if not releases:
        notes = (Note("upgrade_none", range=span, kinds=lead, total=held),)
    elif len(releases) < held:
        notes = (Note("upgrade_some", range=span, kinds=lead, count=len(releases), total=held),)
    else:
        notes = ()
    return Digest("upgrade", tuple(releases), range=span, kinds=lead, notes=notes)


def range_digest(entries: Sequence[Entry], span: ReleaseRange, kinds: Sequence[str] = ()) -> Digest:
    """A few items of each release in ``span``, breaking first, with counts of the rest."""
    wanted = [e for e in entries if not kinds or e.item.kind in kinds]
    groups = _by_release(wanted)
    per = max(1, min(RANGE_PER_RELEASE, RANGE_ITEMS // max(1, len(groups))))  # a long range: fewer a release
    releases = []
    for release, group in list(groups.items())[:RANGE_ITEMS]:
        shown, left = summarise(group, per, lead=LEAD)
        releases.append(_release(release, shown, left))
    notes = ()
    if len(groups) > RANGE_ITEMS:
        rest = list(groups)[RANGE_ITEMS:]
        items = sum(len(groups[r]) for r in rest)
        notes = (Note("range_more", releases=(rest[0][1], rest[-1][1]), count=len(rest), total=items),)
    return Digest("range", tuple(releases), range=span, kinds=tuple(kinds), notes=notes)


def topic_digest(shape: str, entries: Sequence[Entry], scores: Sequence[float], topic: str,
                 span: ReleaseRange | None = None, kinds: Sequence[str] = ()) -> Digest:
    """The items on ``topic`` (within TOPIC_KEEP of the best, at least TOPIC_FLOOR), grouped by
    release oldest first; an upgrade leads each release with its breaking items. ``shape``
    "history" keeps the best item of each release that changed the feature."""
    by_score = dict(enumerate(scores))
    best = max(scores, default=0.0)
    keep = HISTORY_KEEP if shape == "history" else TOPIC_KEEP
    good = [i for i, s in by_score.items() if s >= max(TOPIC_FLOOR, keep * best)
            and (not kinds or entries[i].item.kind in kinds)]
    good.sort(key=lambda i: -by_score[i])
    if shape == "history":
        firsts: dict[tuple[str | None, str], int] = {}
        for i in good:
            firsts.setdefault(entries[i].release, i)
        good = sorted(firsts.values(), key=lambda i: -by_score[i])[:HISTORY_STEPS]
    else:
        good = good[:TOPIC_ITEMS]
    lead = LEAD if shape == "upgrade" else ()
    releases = []
    for release, group in _by_release([entries[i] for i in good]).items():
        group.sort(key=lambda e: (e.item.kind not in lead, _kind_rank(e.item.kind) if lead else 0))
        releases.append(_release(release, group, (), by_score, entries))
    notes = () if releases else (Note("topic_none", range=span, topic=topic),)
    return Digest(shape, tuple(releases), topic=topic, range=span, kinds=tuple(kinds) or lead, notes=notes)
