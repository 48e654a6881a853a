"""The data the engine returns: citations, passages, extractive sentences and answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, get_args

from corpus.versions import after, up_to, version_key, version_matches

if TYPE_CHECKING:  # pragma: no cover
    from corpus.model import Chunk


@dataclass(frozen=True, slots=True)
class ReleaseRange:
    """Releases after ``since`` up to ``until`` (inclusive unless ``until_inclusive`` is False);
    a missing bound is open. A bound of one or two parts stands for its series: (1.10, 2.0]
    holds 2.0.2 but not 1.10.13."""

    since: str | None = None
    until: str | None = None
    until_inclusive: bool = True
    since_inclusive: bool = False  # "does httpx follow redirects since 0.20?": 0.20 itself too

    def __post_init__(self) -> None:
        if self.since is None and self.until is None:
            raise ValueError("a range needs a lower or an upper bound")
        for bound in (self.since, self.until):
            if bound is not None:
                version_key(bound)  # ValueError names a bound that is no version

    @classmethod
    def between(cls, since: str, until: str) -> "ReleaseRange":
        """(since, until], where ``since`` stands for one release when ``until`` is in its series:
        "from 0.28 to 0.28.1" is after 0.28.0, not after the whole 0.28 series."""
        if since.count(".") < 2 and version_matches(until, since) and not version_matches(since, until):
            since = since + ".0"
        return cls(since, until)

    def contains(self, version: str | None) -> bool:
        """Whether release ``version`` is in the range."""
        if not version:
            return False
        try:
            return ((self.since is None or after(version, self.since)
                     or (self.since_inclusive and version_matches(version, self.since)))
                    and (self.until is None or up_to(version, self.until, self.until_inclusive)))
        except ValueError:
            return False

    def empty(self) -> bool:
        """A range no release can be in (its upper bound at or before its lower one)."""
        if self.since is None or self.until is None:
            return False
        return not after(self.until, self.since) and not (self.until_inclusive and after(self.until + ".9999", self.since))

    def describe(self) -> str:
        """"after 1.10 up to 2.0", "after 1.70", "before 2.0"."""
        parts = []
        if self.since:
            parts.append(f"{'from' if self.since_inclusive else 'after'} {self.since}")
        if self.until:
            parts.append(f"{'up to' if self.until_inclusive else 'before'} {self.until}")
        return " ".join(parts)

    def to_json(self) -> dict:
        return {"since": self.since, "until": self.until, "until_inclusive": self.until_inclusive,
                "since_inclusive": self.since_inclusive}


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a passage comes from, precisely enough for a person to check it."""

    document: str
    title: str
    product: str | None
    version: str | None
    section: tuple[str, ...]
    source: str
    lines: tuple[int, int]
    url: str | None = None
    body_field: str | None = None
    kind: str | None = None  # the kind of change of its section ("fixed"), where the section names one

    def __post_init__(self) -> None:
        if self.lines[0] < 1 or self.lines[1] < self.lines[0]:
            raise ValueError(f"bad line range {self.lines}")

    @classmethod
    def from_json(cls, obj: dict) -> "Citation":
        """The citation a batch-schema object holds (``to_json``'s inverse)."""
        return cls(document=obj["document"], title=obj["title"], product=obj.get("product"), version=obj.get("version"),
                   section=tuple(obj.get("section") or ()), source=obj["source"], lines=tuple(obj["lines"]),
                   url=obj.get("url"), body_field=obj.get("body_field"), kind=obj.get("kind"))

    def to_json(self) -> dict:
        """The citation object of the batch schema."""
        return {
            "document": self.document,
            "title": self.title,
            "product": self.product,
            "version": self.version,
            "section": list(self.section),
            "source": self.source,
            "lines": list(self.lines),
            "url": self.url,
            "kind": self.kind,
            "body_field": self.body_field,  # a JSON record's lines count in this decoded field (cite.location)
        }


def citation_of(chunk: Chunk) -> Citation:
    """The citation of a retrieved chunk; the URL gets a #heading anchor where the source has one."""
    url = chunk.url
    if url and chunk.anchor and "#" not in url:
        url = f"{url}#{chunk.anchor}"
    return Citation(document=chunk.document, title=chunk.title, product=chunk.product, version=chunk.version,
                    section=chunk.section, source=chunk.source, lines=chunk.lines, url=url,
                    body_field=chunk.body_field, kind=chunk.kind)


NoteKind = Literal[
    "not_confident", "no_match", "earliest_release", "product_not_held", "release_not_held", "range_empty",
    "release_outside_range", "range_off_topic", "upgrade_none", "upgrade_some", "range_more", "topic_none",
    "products_not_covered", "not_released", "from_pin", "dense_pending", "dense_building", "last_release",
    "release_unsaid",
]
NOTE_KINDS: tuple[str, ...] = get_args(NoteKind)


@dataclass(frozen=True, slots=True)
class Note:
    """Something an answer says beside its passages, as data (``qa.present.notes`` words it per medium).

    ``kind`` says which; the other fields are what it is about: the releases (the earliest one,
    those missing, the first and last left out), the products (the one not held, those asked),
    what the corpus holds instead (``held``), the range, the topic, the kinds of change, and
    counts (releases with items ``count`` of ``total``; later releases ``count`` with ``total`` items).
    """

    kind: NoteKind
    releases: tuple[str, ...] = ()
    products: tuple[str, ...] = ()
    held: tuple[str, ...] = ()
    range: ReleaseRange | None = None
    topic: str = ""
    kinds: tuple[str, ...] = ()
    count: int = 0
    total: int = 0
    command: str = ""  # the command that fixes what the note says (``relnotes index --project DIR``)

    def __post_init__(self) -> None:
        if self.kind not in NOTE_KINDS:
            raise ValueError(f"note kind must be one of {', '.join(NOTE_KINDS)}, not {self.kind!r}")

    def to_json(self) -> dict:
        """The note's data (its words are ``qa.present.notes.text``)."""
        out = {"kind": self.kind}
        for name in ("releases", "products", "held", "kinds"):
            if getattr(self, name):
                out[name] = list(getattr(self, name))
        if self.range is not None:
            out["range"] = self.range.to_json()
        if self.topic:
            out["topic"] = self.topic
        if self.count or self.total:
            out.update(count=self.count, total=self.total)
        if self.command:
            out["command"] = self.command
        return out


@dataclass(frozen=True, slots=True)
class Passage:
    """A ranked chunk: its verbatim text, its citation and its score."""

    rank: int
    chunk_id: str
    text: str
    score: float
    citation: Citation

    def __post_init__(self) -> None:
        if self.rank < 1:
            raise ValueError(f"rank must be >= 1, got {self.rank}")


@dataclass(frozen=True, slots=True)
class AnswerSentence:
    """One sentence (or an item's paragraph) quoted verbatim from passage number ``passage``
    (1-based rank), with where it is: its passage's citation with the lines of its own item
    (``qa.answer.quoting.item_cited``; None until the engine sets it)."""

    text: str
    passage: int
    score: float = 0.0
    citation: Citation | None = None


@dataclass(frozen=True, slots=True)
class DigestItem:
    """One item of a release (a list item or paragraph), verbatim, with its kind and citation."""

    text: str
    kind: str | None
    citation: Citation  # its lines are the item's own
    score: float = 0.0  # how well it answers the question's topic (0 when the digest has none)
    chunk_id: str = ""  # the chunk it is an item of (to show it in its section)

    def to_json(self) -> dict:
        return {"text": self.text, "kind": self.kind, "score": round(self.score, 4), "chunk_id": self.chunk_id,
                "citation": self.citation.to_json()}

    def as_passage(self, rank: int = 1) -> "Passage":
        """The item as a passage, to open in its section like one."""
        return Passage(rank, self.chunk_id, self.text, self.score, self.citation)


@dataclass(frozen=True, slots=True)
class ReleaseDigest:
    """The items shown of one release, grouped by kind, and how many of each kind were left out."""

    product: str | None
    version: str
    items: tuple[DigestItem, ...]
    omitted: tuple[tuple[str, int], ...] = ()  # (kind, count) of the items not shown; kind "other" for none

    @property
    def total(self) -> int:
        return len(self.items) + sum(n for _, n in self.omitted)

    def to_json(self) -> dict:
        return {"product": self.product, "version": self.version, "total": self.total,
                "items": [i.to_json() for i in self.items], "omitted": dict(self.omitted)}


@dataclass(frozen=True, slots=True)
class Digest:
    """What a release question gets besides passages: the items of one release ("release"), of
    each release in a range ("upgrade", "range"), or each release that changed a feature
    ("history"), oldest release first."""

    shape: str
    releases: tuple[ReleaseDigest, ...]
    topic: str = ""
    range: ReleaseRange | None = None
    kinds: tuple[str, ...] = ()  # the kinds it leads with or is restricted to
    notes: tuple[Note, ...] = ()

    @property
    def items(self) -> tuple[DigestItem, ...]:
        return tuple(i for r in self.releases for i in r.items)


@dataclass(frozen=True, slots=True)
class Answer:
    """What ``ask`` returns: the question as understood, passages and an extractive answer."""

    question: str
    asked_as: str
    releases: tuple[str, ...]
    mode: str
    passages: tuple[Passage, ...]
    sentences: tuple[AnswerSentence, ...]
    confident: bool
    notes: tuple[Note, ...] = ()  # what it says beside its passages (a release not held, no confident answer)
    earliest_release: str | None = None
    timings_ms: dict = field(default_factory=dict)
    products: tuple[str, ...] = ()  # the products the question named, when they restricted the search
    kinds: tuple[str, ...] = ()  # the kinds of change the search was restricted to (--kind)
    shape: str = "search"  # what the question asks (``qa.question.shapes``): search, release, upgrade, ...
    range: ReleaseRange | None = None  # the range of releases searched, when the question or --since/--until gave one
    digest: Digest | None = None  # the grouped items of a release, range or feature history
    nearby: tuple[Passage, ...] = ()  # when the corpus lacks the product or release asked: the nearest, not an answer

    @property
    def text(self) -> str:
        """The extractive answer with [n] markers, or None-like empty string when not confident."""
        return " ".join(f"{s.text} [{s.passage}]" for s in self.sentences)
