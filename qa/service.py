"""The one way every front end gets answers: the index opened (built or updated when allowed), the
engine over it, and the facts a front end shows about the index (the follow-up state is ``qa.conversation``).

    service = AnswerService.open(corpus_paths, notify=print)   # the CLI and the chat alike
    answer = service.ask("what changed for MPS in 2.14?")
    talk = Conversation(service)                                # follow-ups, as in a chat (qa.conversation)
    follow, answer = talk.ask("and in 2.13?")
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from .errors import BadQuestion
from .model import Answer, Passage, ReleaseRange
from .info import IndexInfo
from .question import Question, read
from .opening import open_corpus_index, project_corpus  # noqa: F401 (front ends import them from here)
from .staging import Retrieval, VectorsToCome, index_command

if TYPE_CHECKING:  # pragma: no cover
    from corpus import CorpusInput
    from corpus.model import Chunk
    from corpus.packages import Project
    from index import BuildReport, LoadedIndex

    from .answer.catalogue import Catalogue
    from .answer.engine import Engine
    from .answer.section import SectionView
    from .conversation import Conversation

Notify = Callable[[str], None]
Progress = Callable[[int, int, str], None]  # done, total, the document(s) being embedded
BUNDLED_LABEL = "bundled PyTorch notes"


class AnswerService:
    """Answers over one opened index; safe to call from worker threads (one question at a time)."""

    def __init__(self, engine: Engine, info: IndexInfo, corpus_paths: Sequence[Path | CorpusInput] = (),
                 model_path: Path | None = None, project: Project | None = None, *, index_dir: Path | None = None,
                 notify: Notify | None = None) -> None:
        self.engine = engine
        self.project = project  # opened with --project: the dependencies, their pins and notes
        self.info = info
        self.corpus_paths = tuple(corpus_paths)
        self.model_path = model_path
        self.releases: tuple[str, ...] = engine.releases
        self.products: tuple[str, ...] = engine.products
        self._lock = threading.Lock()  # the engine's caches are not shared between threads
        self.pins = {d.product: d.pin for d in project.dependencies if d.pin} if project else {}
        self.coming: VectorsToCome | None = None  # the vectors, while the index has none (``build_vectors``)
        self.notify = notify  # said while a question that asked for hybrid by name waits for the vectors
        # the command that builds this corpus's vectors, named in the note of a BM25 answer
        self.index_command = index_command(() if project else self.corpus_paths, project, index_dir, model_path)
        if not engine.index.complete:
            self.coming = VectorsToCome(info.directory, lambda progress: open_corpus_index(
                self.corpus_paths, Path(info.directory), model_path, progress=progress))

    @classmethod
    def open(
        cls,
        corpus_paths: Sequence[Path | CorpusInput] = (),
        index_dir: Path | None = None,
        model_path: Path | None = None,
        *,
        update: bool = True,
        dense: bool = True,
        warm: bool = False,
        notify: Notify | None = None,
        progress: Progress | None = None,
        quantize: bool | None = None,
        project: Project | None = None,
        skip_bad: bool = False,
        on_skip: Notify | None = None,
        staged: bool = False,
    ) -> AnswerService:
        """Open (building or updating when ``update``) the index of a corpus and the engine over it.

        Args:
            corpus_paths: release-note files and folders (a ``corpus.CorpusInput`` names their
                product); empty for the bundled notes.
            index_dir: the index directory; default one per corpus in the user cache.
            model_path: a local sentence-transformers folder; default the bundled model.
            update: build a missing or stale index (else IndexMissing / IndexStale).
            dense: the vectors will be searched, so a damaged vectors file is rebuilt now
                (False for bm25 questions, which never load faiss).
            warm: load the query encoder now rather than on the first question (the chat).
            notify: one-line notices (rebuilding and why, a skipped export).
            progress: (done, total, what) while embedding.
            quantize: build through the int8 export (True), at full precision (False), or as
                the index was built (None); see ``qa.eval.quantcheck``.
            project: a project's dependencies (``corpus.packages.open_project``): its notes are the
                corpus (``corpus_paths`` must be empty), and ``service.project`` holds the pins.
            skip_bad: leave bad input files out (each reported through ``on_skip``); files an
                index was built without are left out again while unchanged, even without it.
            staged: a corpus with no vectors yet gets its chunks and BM25 only, at once; answers
                are BM25 with a "dense_pending" note until the vectors are built (``index.open_index``).

        Raises:
            CorpusError, RelnotesIndexError: as ``index.open_index``.
            NothingFetched: ``project`` has no dependency with notes.
        """
        from corpus import as_input

        from .answer.engine import Engine

        if project is not None:
            corpus_paths = project_corpus(project)

        loaded, _ = open_corpus_index(corpus_paths, index_dir, model_path, update=update, dense=dense,
                                      notify=notify, progress=progress, quantize=quantize, skip_bad=skip_bad,
                                      on_skip=on_skip, staged=staged)
        counts = loaded.manifest.counts
        info = IndexInfo(
            corpus=", ".join(as_input(p).label for p in corpus_paths) if corpus_paths else BUNDLED_LABEL,
            documents=int(counts.get("documents", 0)),
            chunks=int(counts.get("chunks", len(loaded.chunks))),
            created=loaded.manifest.created or None,
            directory=str(loaded.directory),
        )
        if project is not None:
            info = replace(info, corpus=f"the dependencies of {project.directory}")
        service = cls(Engine(loaded), info, corpus_paths, model_path, project, index_dir=index_dir, notify=notify)
        if warm and loaded.complete:
            service.engine.warm_up()
        return service

    @property
    def chunks(self) -> tuple[Chunk, ...]:
        """Every chunk of the index, in corpus order."""
        return self.engine.index.chunks

    @property
    def catalogue(self) -> Catalogue:
        """The releases and products the corpus holds (what a question is read against)."""
        return self.engine.catalogue

    def read(self, question: str, releases: Sequence[str] = (), *, products: Sequence[str] = (),
             span: ReleaseRange | None = None, conversation: Conversation | None = None) -> Question:
        """``question`` read once against this corpus (``qa.question.read``)."""
        return read(question, self.engine.catalogue, conversation, releases=releases, products=products, span=span,
                    pins=self.pins)

    def ask(self, question: str | Question, top_k: int = 5, mode: str = "auto", releases: Sequence[str] = (), *,
            products: Sequence[str] = (), kinds: Sequence[str] = (), span: ReleaseRange | None = None) -> Answer:
        """Answer ``question`` with ranked, cited passages (``Engine.answer``), one question at a time.

        Args:
            question: the question as typed (read here), or as read (``read``, ``Conversation.read``).
            top_k: how many passages.
            mode: "auto" (hybrid once the index has its vectors, else BM25 with a note naming
                ``index_command``), "hybrid", "bm25" or "dense"; hybrid and dense asked by name
                wait for the vectors (built now on a thread when none is under way), never
                BM25 in their name. The answer's ``mode`` is the mode that served it.
            releases: restrict to these releases (added to those the question names); with a typed question only.
            products: restrict to these products; with a typed question only.
            kinds: restrict to sections of these kinds of change ("fixed", "breaking").
            span: restrict to a range of releases (``--since``/``--until``); with a typed question only.

        Raises:
            BadQuestion: the question is empty, too long, holds control characters, a bad ``release:``
                or an unknown kind.
            UnknownMode: ``mode`` is not one of auto, bm25, dense, hybrid.
            RelnotesIndexError: a vectors file found damaged on the first dense search (IndexCorrupt).
            VectorsNotBuilt: hybrid or dense asked by name, and the vectors' build failed.
        """
        from index import AUTO, check_asked_mode, needs_vectors

        if not isinstance(question, Question):
            question = self.read(question, releases, products=products, span=span)
        asked = check_asked_mode(mode)
        coming = self.coming
        if needs_vectors(asked) and coming is not None:  # by name: wait for the vectors, outside the lock
            coming.wait(self.notify)
        with self._lock:
            coming = self._switch()
            if needs_vectors(asked) and coming is not None:  # the build ended without a complete index
                from .errors import VectorsNotBuilt

                raise VectorsNotBuilt(f"The vectors of this corpus are not built; build them with: {self.index_command}")
            answer = self.engine.answer(question, top_k=top_k, mode="hybrid" if asked == AUTO else asked, kinds=kinds)
        if coming is not None:
            return coming.said(answer, self.engine.index, self.index_command)
        return self._with_command(answer)

    def _with_command(self, answer: Answer) -> Answer:
        """``answer`` with its BM25 note naming the command that builds this corpus's vectors."""
        if not any(n.kind == "dense_pending" and not n.command for n in answer.notes):
            return answer
        return replace(answer, notes=tuple(replace(n, command=self.index_command) if n.kind == "dense_pending" else n
                                           for n in answer.notes))

    def build_vectors(self, notify: Notify | None = None) -> None:
        """Build the index's vectors on a thread of this process, if it has none yet (the chat and
        the servers; answers are BM25, then hybrid once they are in, ``qa.staging``)."""
        if self.coming is not None:
            self.coming.start(notify)

    def retrieval(self) -> Retrieval:
        """What answers now: hybrid, or BM25 while the vectors are to come (and how far they are)."""
        if self._lock.acquire(blocking=False):  # a question under way: look again next time
            try:
                self._switch()
            finally:
                self._lock.release()
        coming, index = self.coming, self.engine.index
        return coming.status(index) if coming is not None and not index.complete else Retrieval("hybrid")

    def _switch(self) -> VectorsToCome | None:
        """Answer from the complete index once its vectors are in place (call under the lock);
        what is still to come, if anything."""
        from .answer.engine import Engine

        loaded = self.coming.landed() if self.coming is not None else None
        if loaded is not None:
            self.engine, self.coming = Engine(loaded), None
            self.info = replace(self.info, created=loaded.manifest.created or None)
        return self.coming

    def changes(self, span: ReleaseRange, product: str | None = None, *, kinds: Sequence[str] = (),
                topic: str = "", top_k: int = 5, mode: str = "auto") -> Answer:
        """What changed in the range ``span`` (of ``product``): the upgrade digest (breaking,
        removed and deprecated items of each release, or those of ``kinds``), or with ``topic``
        the range's items on that topic (as "what changed in TOPIC between FROM and TO?" gets them).

        Raises:
            BadQuestion: ``product`` is not one the corpus holds, or ``topic`` is not a good question.
        """
        products = []
        if product is not None:
            products = [self.product(product)]
        elif len(self.products) > 1:
            raise BadQuestion(f"The corpus holds several products ({', '.join(self.products)}); name one: "
                              "relnotes changes PRODUCT FROM TO")
        asked = read(f"{topic.strip() or 'changes'} ({span.describe()})", self.engine.catalogue,
                     products=products, span=span, text=topic if topic.strip() else "what breaks")
        return self.ask(asked, top_k=top_k, mode=mode, kinds=kinds)

    def product(self, name: str) -> str:
        """``name`` as the corpus spells it (in any case, spaces around it ignored; an alias or
        another name its metadata gives it: "torch", "pyca/cryptography").

        Raises:
            BadQuestion: the corpus holds no such product (the message names those it holds).
        """
        from .question.products import held_names

        known = {p.lower(): p for p in self.products}
        for other, product in held_names(self.products, getattr(self.engine.catalogue, "other_names", None)).items():
            known.setdefault(other, product)
        if name.strip().lower() not in known:
            raise BadQuestion(f"The corpus holds no product {name!r}; it has: {', '.join(self.products) or 'none named'}")
        return known[name.strip().lower()]

    def held(self, release: str, products: Sequence[str] = ()) -> bool:
        """Whether the corpus holds ``release`` (2.13 covers 2.13.1), of one of ``products`` when given."""
        return self.engine.held(release, products)

    def release_groups(self) -> tuple[tuple[str | None, tuple[str, ...]], ...]:
        """Each product (None: documents of no known product) with its releases, oldest first (the chat's picker)."""
        return self.engine.catalogue.groups()

    def section(self, passage: Passage) -> SectionView:
        """The whole section ``passage`` comes from."""
        from .answer.section import section_view

        return section_view(self.chunks, passage)

    def refresh(self) -> IndexInfo:
        """Re-check the corpus against the index (a file edited or added meanwhile makes it stale)."""
        from corpus.errors import CorpusError
        from index import index_status

        try:
            status = index_status(list(self.corpus_paths) or None, Path(self.info.directory), self.model_path)
        except CorpusError:
            return replace(self.info, stale=True)
        self.info = replace(self.info, stale=status.stale)
        return self.info
