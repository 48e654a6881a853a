"""The data the engine returns: citations, passages, extractive sentences and answers."""

from __future__ import annotations

from dataclasses import dataclass, field


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
        }


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
    """One sentence quoted verbatim from passage number ``passage`` (1-based rank)."""

    text: str
    passage: int
    score: float = 0.0


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
    note: str | None = None
    earliest_release: str | None = None
    timings_ms: dict = field(default_factory=dict)
    products: tuple[str, ...] = ()  # the products the question named, when they restricted the search
    kinds: tuple[str, ...] = ()  # the kinds of change the search was restricted to (--kind)

    @property
    def text(self) -> str:
        """The extractive answer with [n] markers, or None-like empty string when not confident."""
        return " ".join(f"{s.text} [{s.passage}]" for s in self.sentences)
