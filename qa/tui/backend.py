"""What the chat needs from the engine: answers, the section around a passage, and index facts.

The app talks to a ``ChatBackend``; ``EngineBackend`` is the real one over a loaded index and the
tests pass deterministic fakes with the same shape. No Textual here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Protocol, Sequence

from ..model import Answer, Citation, Passage


@dataclass(frozen=True, slots=True)
class IndexInfo:
    """The facts the status bar shows about the index the chat answers from."""

    corpus: str
    documents: int
    chunks: int
    created: str | None = None
    stale: bool = False
    directory: str = ""

    def age(self, now: datetime | None = None) -> str:
        """How long ago the index was built, for people: "just now", "5 min ago", "3 days ago"."""
        if not self.created:
            return "unknown age"
        try:
            built = datetime.fromisoformat(self.created.replace("Z", "+00:00"))
        except ValueError:
            return "unknown age"
        if built.tzinfo is None:
            built = built.replace(tzinfo=timezone.utc)
        seconds = max(0.0, ((now or datetime.now(timezone.utc)) - built).total_seconds())
        for unit, size in (("day", 86400), ("h", 3600), ("min", 60)):
            if seconds >= size:
                count = int(seconds // size)
                return f"{count} {unit}{'s' if unit == 'day' and count > 1 else ''} ago"
        return "just now"


@dataclass(frozen=True, slots=True)
class SectionView:
    """The whole section a passage comes from, split around the passage so a view can scroll to it."""

    citation: Citation
    before: str
    passage: str
    after: str


class ChatBackend(Protocol):
    """The engine as the chat sees it."""

    releases: tuple[str, ...]
    products: tuple[str, ...]
    info: IndexInfo

    def ask(self, question: str, top_k: int, mode: str, releases: Sequence[str], typed: str | None = None) -> Answer:
        """Answer ``question`` (a resolved follow-up); ``typed`` is what the person typed."""

    def section(self, passage: Passage) -> SectionView:
        """The whole section ``passage`` comes from."""

    def held(self, release: str) -> bool:
        """Whether the corpus holds ``release`` (2.13 covers 2.13.1)."""

    def refresh(self) -> IndexInfo:
        """The index facts again (age, and whether the corpus changed since the build)."""


class EngineBackend:
    """The real backend: the engine over a loaded index; one question at a time."""

    def __init__(self, engine, info: IndexInfo, corpus_paths: Sequence[Path] = (), model_path: Path | None = None) -> None:
        self.engine = engine
        self.info = info
        self.corpus_paths = tuple(corpus_paths)
        self.model_path = model_path
        self.releases = engine.releases
        self.products = engine.products
        self._lock = threading.Lock()  # the engine's caches are not shared between threads

    def ask(self, question: str, top_k: int, mode: str, releases: Sequence[str], typed: str | None = None,
            products: Sequence[str] = ()) -> Answer:
        with self._lock:
            return self.engine.ask(question, top_k=top_k, mode=mode, releases=list(releases), typed=typed,
                                   products=list(products))

    def section(self, passage: Passage) -> SectionView:
        return section_view(self.engine.index.chunks, passage)

    def held(self, release: str) -> bool:
        return self.engine.held(release)

    def refresh(self) -> IndexInfo:
        """Re-check the corpus against the index (a file edited or added during the chat makes it stale)."""
        from dataclasses import replace

        from corpus.errors import CorpusError
        from index.service import index_status

        try:
            status = index_status(list(self.corpus_paths) or None, Path(self.info.directory), self.model_path)
        except CorpusError:
            return replace(self.info, stale=True)
        self.info = replace(self.info, stale=bool(status.get("stale")))
        return self.info


MIN_OVERLAP = 3  # characters, whole words at both ends; shorter matches are coincidences


def overlap(first: str, second: str) -> int:
    """How many characters at the start of ``second`` repeat the end of ``first`` (whole words only).

    The chunker repeats the end of a chunk at the start of the next one when it splits a long
    section, so the passage view must not show that text twice.
    """
    for k in range(min(len(first), len(second)), MIN_OVERLAP - 1, -1):
        starts_word = k == len(first) or first[-k - 1].isspace()
        ends_word = k == len(second) or second[k].isspace() or not second[k - 1].isalnum()
        if starts_word and ends_word and first.endswith(second[:k]):
            return k
    return 0


def section_view(chunks, passage: Passage) -> SectionView:
    """Rebuild the passage's section from its chunks (same document, same heading path, in line order).

    Text repeated between neighbouring chunks is shown once, and the passage always whole.
    Falls back to the passage alone when it is not in ``chunks``.
    """
    c = passage.citation
    siblings = sorted(
        (ch for ch in chunks if ch.document == c.document and ch.section == c.section),
        key=lambda ch: ch.lines,
    )
    ids = [ch.id for ch in siblings]
    if passage.chunk_id not in ids:
        return SectionView(c, "", passage.text, "")
    at = ids.index(passage.chunk_id)
    texts = [ch.text for ch in siblings]
    shared = [overlap(a, b) for a, b in zip(texts, texts[1:])]  # shared[j]: chunk j and j + 1

    before = ""
    for j in range(at):
        text = texts[j][shared[j - 1]:] if j else texts[j]
        if j == at - 1 and shared[j]:
            text = text[: len(text) - shared[j]]  # the passage shows the shared text itself
        before += (text if j and shared[j - 1] else ("\n\n" if before else "") + text)
    if before and not (at and shared[at - 1]):
        before += "\n\n"
    after = ""
    for j in range(at + 1, len(texts)):
        text = texts[j][shared[j - 1]:]
        after += text if shared[j - 1] else "\n\n" + text
    return SectionView(c, before, passage.text, after)


def load_backend(
    corpus_paths: Sequence[Path] = (),
    index_dir: Path | None = None,
    model_path: Path | None = None,
    update: bool = True,
    notify: Callable[[str], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EngineBackend:
    """Open (building or updating when allowed) the index and wrap the engine for the chat.

    Raises the same user errors as ``relnotes ask``: CorpusError, IndexStale, ModelNotFound, ...
    """
    from index.service import open_index

    from ..engine import Engine

    loaded, _ = open_index(
        list(corpus_paths) or None,
        index_dir=index_dir,
        model_path=model_path,
        update=update,
        notify=notify,
        progress=progress,
        dense=True,  # the chat searches the vectors: a damaged vectors file is rebuilt, not a failed question
    )
    manifest = loaded.manifest
    label = ", ".join(Path(p).name for p in corpus_paths) if corpus_paths else "bundled PyTorch notes"
    info = IndexInfo(
        corpus=label,
        documents=int(manifest.counts.get("documents", 0)),
        chunks=int(manifest.counts.get("chunks", len(loaded.chunks))),
        created=manifest.created or None,
        stale=False,
        directory=str(loaded.directory),
    )
    engine = Engine(loaded)
    engine.index.encoder().encode_query("warm up")  # load the query encoder now, not on the first question
    return EngineBackend(engine, info, corpus_paths, model_path)
