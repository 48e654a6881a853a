"""An answering service whose index has no vectors yet (a corpus opened staged: chunks and BM25
only): the vectors built on a thread of the same process (the chat, ``relnotes serve``,
``relnotes mcp``), how far they are, and the complete index once it is in place, for the
service to switch to hybrid without a restart.

    coming = VectorsToCome(directory, build=lambda progress: open_corpus_index(..., progress=progress))
    coming.start(notify)        # the chat and the servers; the CLI never starts one
    loaded = coming.landed()    # the complete index once a build (this one or another process's) swapped it in
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .errors import USER_ERRORS, VectorsNotBuilt
from .model import Answer, Note

Notify = Callable[[str], None]
Progress = Callable[[int, int, str], None]
_STARTED: weakref.WeakSet = weakref.WeakSet()  # every VectorsToCome that started a build


def building_now() -> bool:
    """Whether a thread of this process is building an index's vectors (the process should end
    with ``os._exit`` then: finalising the interpreter under onnxruntime or torch aborts)."""
    return any(coming.building for coming in list(_STARTED))


@dataclass(frozen=True, slots=True)
class Retrieval:
    """What answers now: "hybrid" once the index has its vectors, else "bm25" with how far they
    are (``embedded`` of ``total`` texts; total 0 when no build has counted them yet)."""

    mode: str
    embedded: int = 0
    total: int = 0
    building: bool = False  # a thread of this process is embedding them
    failed: str = ""  # why that build stopped (a user error's message), if it did

    def __post_init__(self) -> None:
        if self.mode not in ("hybrid", "bm25"):
            raise ValueError(f"retrieval mode must be hybrid or bm25, not {self.mode!r}")

    def to_json(self) -> dict:
        """The object the HTTP health route shows."""
        if self.mode == "hybrid":
            return {"mode": "hybrid"}
        return {"mode": "bm25", "embedded": self.embedded, "total": self.total, "building": self.building,
                **({"failed": self.failed} if self.failed else {})}


class VectorsToCome:
    """The vectors of one index directory, still to come."""

    def __init__(self, directory: Path | str, build: Callable[[Progress], object]) -> None:
        """``build(progress)`` builds the vectors (``index.open_index`` without ``staged``) and returns when they are in place."""
        from index import generation

        self.directory = Path(directory)
        self._build = build
        self._marker = generation(self.directory)
        self._thread: threading.Thread | None = None
        self._done, self._total, self._base = 0, 0, 0
        self.failed = ""

    def start(self, notify: Notify | None = None) -> None:
        """Build the vectors on a daemon thread (it ends with the process; what it embedded is
        kept for the next build, ``index.store.shards``), saying progress at each quarter."""
        if self._thread is not None:
            return
        from index import LoadedIndex

        try:
            pending = LoadedIndex(self.directory).pending()
        except USER_ERRORS:
            pending = None
        self._base = pending.embedded if pending is not None else 0
        self._thread = threading.Thread(target=self._run, args=(notify,), name="relnotes-vectors", daemon=True)
        _STARTED.add(self)
        self._thread.start()

    def _run(self, notify: Notify | None) -> None:
        said: set[int] = set()

        def progress(done: int, total: int, what: str = "") -> None:
            self._done, self._total = self._base + done, self._base + total
            quarter = 4 * done // total if total else 0
            if notify is not None and quarter not in said:
                said.add(quarter)
                notify(f"Building the vectors in the background: {self._done:,}/{self._total:,} texts "
                       "(answers are BM25 until they are in)")

        try:
            self._build(progress)
        except USER_ERRORS as exc:
            self.failed = str(exc)
            if notify is not None:
                notify(f"The vectors could not be built ({exc}); answers stay BM25")
            return
        if notify is not None:
            notify("The vectors are built: answers are hybrid now")

    def wait(self, notify: Notify | None = None) -> None:
        """Build the vectors now (on the thread ``start`` makes, if none runs yet) and return when
        that build has ended: for a question that asked for hybrid or dense by name.

        Raises:
            VectorsNotBuilt: the build stopped on a user error (its message is said).
        """
        self.start(notify)
        if self._thread is not None:
            self._thread.join()
        if self.failed:
            raise VectorsNotBuilt(f"The vectors could not be built ({self.failed}); ask with --mode bm25 or auto, "
                                  "or fix that and ask again")

    @property
    def building(self) -> bool:
        """Whether a thread of this process is embedding the vectors now."""
        return self._thread is not None and self._thread.is_alive()

    def landed(self):
        """The complete index once one is in place at the directory (a new manifest, complete), else None."""
        from index import LoadedIndex, RelnotesIndexError, generation

        marker = generation(self.directory)
        if marker is None or marker == self._marker:
            return None
        self._marker = marker
        try:
            loaded = LoadedIndex(self.directory)
        except RelnotesIndexError:
            return None  # mid-swap or damaged: looked at again once the manifest changes
        return loaded if loaded.complete else None

    def status(self, index) -> Retrieval:
        """How far the vectors of ``index`` (the incomplete one answering now) are."""
        if self.building and self._total:
            return Retrieval("bm25", self._done, self._total, building=True)
        pending = index.pending()
        done, total = (pending.embedded, pending.total) if pending is not None else (0, 0)
        return Retrieval("bm25", done, total, building=self.building, failed=self.failed)

    def said(self, answer: Answer, index, command: str = "") -> Answer:
        """``answer`` with its note on the vectors brought up to date, and saying they are being built
        here when a thread of this process builds them (no "run relnotes index" then)."""
        from dataclasses import replace

        if not any(n.kind == "dense_pending" for n in answer.notes):
            return answer
        now = self.status(index)
        kind = "dense_building" if now.building else "dense_pending"
        notes = tuple(Note(kind, count=now.embedded, total=now.total, command=command) if n.kind == "dense_pending"
                      else n for n in answer.notes)
        return replace(answer, notes=notes)


def with_pending(*notes: Note | None, pending=None) -> tuple[Note, ...]:
    """The notes of an answer and, last, when the vectors are still to come (``pending``, an
    ``index`` DenseProgress), that BM25 answered and how far the vectors are."""
    waiting = (Note("dense_pending", count=pending.embedded, total=pending.total),) if pending is not None else ()
    return (*filter(None, notes), *waiting)


def index_command(corpus_paths=(), project=None, index_dir: Path | str | None = None, model_path=None) -> str:
    """The ``relnotes index`` command that builds the vectors of this corpus: with its --project,
    or its --corpus inputs, and the --index and --model it was opened with."""
    import shlex

    words = ["relnotes", "index"]
    if project is not None:
        words += ["--project", str(project.directory)]
    else:
        for path in corpus_paths:
            words += ["--corpus", str(path)]  # a CorpusInput prints as NAME=PATH
    if index_dir is not None:
        words += ["--index", str(index_dir)]
    if model_path is not None:
        words += ["--model", str(model_path)]
    return " ".join(shlex.quote(w) for w in words)
