"""The build pipeline: chunks in, an index directory out (BM25 statistics, window and sentence
vectors, manifest), reusing the vectors of unchanged texts; written atomically (``index.store.atomic``)."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from corpus.model import Chunk

from ..store.atomic import build_lock, recover, sigterm_as_interrupt, written_in_place
from ..store.shards import Shards, model_identity
from ..store.shared import SharedVectors
from .embedding import Progress
from .sharing import give_shared, take_shared
from .writer import BuildSettings, Texts, write_index

__all__ = ["BuildReport", "Progress", "build_index"]  # Progress: the type open_index passes on


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build did, for the one-line summary the CLI prints."""

    directory: Path
    documents: int
    chunks: int
    embedded: int  # window vectors computed (a chunk has one or more windows)
    reused: int  # window vectors kept from the previous index (a text repeated in this build is neither)
    seconds: float
    texts_embedded: int = 0  # distinct windows and sentences encoded by this build
    resumed: int = 0  # distinct texts an interrupted build had embedded (``index.store.shards``), not encoded again
    shared: int = 0  # distinct texts whose vectors came from the shared store (``index.store.shared``)
    given: int = 0  # distinct texts this build added to the shared store


def build_index(
    directory: Path,
    chunks: Sequence[Chunk],
    *,
    encoder,
    corpus: dict,
    previous: dict[str, np.ndarray] | None = None,
    previous_sentences: dict[str, np.ndarray] | None = None,
    progress: Progress | None = None,
    bm25_params=None,
    lock: bool = True,
    notify: Callable[[str], None] | None = None,
    lexical_from: Path | None = None,
) -> BuildReport:
    """Build (or incrementally rebuild) the index for ``chunks`` at ``directory``.

    Args: ``directory`` (replaced atomically); ``chunks``, every chunk in corpus order; ``encoder``,
    an ``index.encode.encoders.Encoder``; ``corpus``, the manifest's corpus description;
    ``previous`` / ``previous_sentences``, key -> vector of the index being replaced;
    ``progress(done, total, what)`` while embedding; ``bm25_params`` (the measured default when
    None); ``lock``: take the build lock (False when the caller holds it); ``notify``, one-line
    notices (no ONNX query encoder); ``lexical_from``, an index whose BM25 files are these chunks'
    (a fresh first stage, ``index.build.staged``), taken as they are.

    Returns a BuildReport with counts and the time taken.

    Raises:
        IndexWriteError: the directory is not writable or the disk is full; the old index stays.
        IndexBusy: another process kept the build lock too long.
    """
    from ..encode.choice import build_encoders
    from ..retrieve.bm25 import DEFAULT_PARAMS

    started = time.perf_counter()
    directory = Path(directory)
    texts = Texts.windows_of(chunks, encoder)
    with build_lock(directory) if lock else contextlib.nullcontext(), sigterm_as_interrupt():
        recover(directory)
        texts = texts.with_sentences(chunks)
        shards = Shards(directory)
        identity = {**model_identity(encoder), "quantized": bool(getattr(encoder, "quantized", None))}
        stored = shards.vectors(identity)  # what an interrupted build embedded: never encoded again
        previous, previous_sentences = {**stored["windows"], **(previous or {})}, {
            **stored["sentences"], **(previous_sentences or {})}
        needed = set(texts.window_keys), set(texts.sentence_keys)
        resumed = len(needed[0] & stored["windows"].keys()) + len(needed[1] & stored["sentences"].keys())
        own = set(previous), set(previous_sentences)  # before the shared store adds its own
        store = SharedVectors.for_model(identity)
        held = take_shared(store, texts.windows, texts.window_keys, texts.sentence_keys, previous, previous_sentences)
        shared = len((needed[0] & previous.keys()) - own[0]) + len((needed[1] & previous_sentences.keys()) - own[1])
        given: list[int] = []

        def share(streams, quantized) -> None:
            if identity["quantized"] and not quantized:  # int8 asked, float made: not the int8 store's
                return
            given.append(give_shared(store, streams, held, notify))
        todo = sum(k not in previous for k in texts.window_keys)
        todo += sum(k not in previous_sentences for k in texts.sentence_keys)
        if todo:
            shards.set_plan(identity, len(needed[0]) + len(needed[1]))
        query, quantized, embedder = build_encoders(encoder, todo, notify, texts.sample())
        with _closing(embedder), written_in_place(directory) as tmp:
            settings = BuildSettings(encoder, embedder, query, quantized, todo, corpus, bm25_params or DEFAULT_PARAMS,
                                     progress, notify, lambda kind, keys, vectors: shards.save(kind, keys, vectors,
                                                                                               identity),
                                     lexical_from=lexical_from, share=share)
            embedded = write_index(tmp, chunks, texts, settings, previous, previous_sentences)
        shards.clear()  # the index holds every vector now
    return BuildReport(
        directory=directory,
        documents=len(corpus.get("documents", {})),
        chunks=len(chunks),
        embedded=embedded[0],
        reused=sum(key in own[0] and key not in stored["windows"] for key in texts.window_keys),
        seconds=time.perf_counter() - started,
        texts_embedded=sum(embedded),
        resumed=resumed,
        shared=shared,
        given=sum(given),
    )


@contextlib.contextmanager
def _closing(embedder):
    """Close what embedded the build when it is done (the bf16 embedder's worker threads)."""
    try:
        yield
    finally:
        getattr(embedder, "close", lambda: None)()
