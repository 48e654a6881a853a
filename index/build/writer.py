"""Writing a new index into its temporary directory: the chunks, the embedded window and sentence
vectors (``index.build.embedding``), BM25, the faiss file and the manifest."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from corpus.chunking import CHUNKER_VERSION, embedding_windows
from corpus.model import Chunk

from ..errors import DenseIndexFileError
from ..retrieve import dense
from ..retrieve.sentence_vectors import corpus_sentences, sentence_key, write_sentence_vectors
from ..retrieve.tokenizer import TOKENIZER_VERSION, tokenize, tokenizer_settings
from ..store.atomic import fsync_tree
from ..store.chunks import write_chunks
from ..store.layout import CHUNKS, LEXICAL_FILES, SENTENCE_VECTORS, VECTORS
from ..store.manifest import INDEX_FORMAT_VERSION, Manifest, sha256_file, write_manifest
from ..store.stores import open_store
from .embedding import Progress, Stream, document_label, embed, plan

_WINDOWS_SCRATCH = ".windows.npy"  # the window vectors while building; the faiss file replaces it


def embed_key(text: str, encoder) -> str:
    """Content hash of an embedded text and the model: equal keys may reuse a stored vector."""
    model = f"{encoder.name}\0{encoder.path}\0{encoder.dim}"
    return hashlib.sha256(f"{model}\0{text}".encode("utf-8")).hexdigest()[:24]


@dataclass(frozen=True)
class Texts:
    """What a build embeds: each chunk's windows (their keys per chunk, and flat: text, key, owner
    chunk), then the distinct sentences of the chunks (keys, and the chunk -> sentence pairs)."""

    keys: list[tuple[str, ...]]
    owners: np.ndarray
    windows: list[str]
    window_keys: list[str]
    sentences: list[str] = field(default_factory=list)
    sentence_keys: list[str] = field(default_factory=list)
    sentence_map: np.ndarray | None = None

    @classmethod
    def windows_of(cls, chunks: Sequence[Chunk], encoder) -> Texts:
        """The windows of ``chunks``, keyed for ``encoder``."""
        windows = [embedding_windows(chunk) for chunk in chunks]
        keys = [tuple(embed_key(text, encoder) for text in texts) for texts in windows]
        owners = np.repeat(np.arange(len(chunks)), [len(texts) for texts in windows])
        return cls(keys, owners, [text for texts in windows for text in texts],
                   [key for chunk_keys in keys for key in chunk_keys])

    def sample(self, count: int = 32) -> list[str]:
        """The first ``count`` windows, then sentences (an embedder's check; embedded or not)."""
        return [*self.windows[:count], *self.sentences[:count]][:count]

    def with_sentences(self, chunks: Sequence[Chunk]) -> Texts:
        """These windows and the sentences of ``chunks``."""
        sentences, sentence_map = corpus_sentences(c.text for c in chunks)
        return replace(self, sentences=sentences, sentence_keys=[sentence_key(s) for s in sentences],
                       sentence_map=sentence_map)


@dataclass(frozen=True)
class BuildSettings:
    """How one build embeds and what it records (``index.encode.choice.build_encoders``'s answer)."""

    encoder: Any
    embedder: Any
    query: dict | None
    quantized: dict | None
    todo: int
    corpus: dict
    params: Any
    progress: Progress | None
    notify: Callable[[str], None] | None
    keep: Callable[[str, list, np.ndarray], None] | None = None  # (kind, keys, vectors) of each piece embedded
    lexical_from: Path | None = None  # a first stage of the same chunks whose BM25 files are taken as they are
    # (streams, int8 recipe or None) once every vector is written: the texts given to the shared store
    share: Callable[[Sequence[Stream], dict | None], None] | None = None


def write_index(tmp: Path, chunks: Sequence[Chunk], texts: Texts, build: BuildSettings, previous: dict,
                previous_sentences: dict) -> list[int]:
    """Write every file of the new index into ``tmp`` (fsynced, ready to swap in); the distinct
    windows and sentences computed."""
    from ..retrieve.lexical import LexicalIndex

    write_chunks(tmp / CHUNKS, chunks, texts.keys)
    # Vectors go straight into files of the new index as they are made (memory maps): a
    # build holds the window vectors once (faiss's copy) and the sentence vectors not at all.
    dim = build.encoder.dim
    window_store = open_store(tmp / _WINDOWS_SCRATCH, len(texts.window_keys), dim, VECTORS)
    sentence_store = open_store(tmp / SENTENCE_VECTORS, len(texts.sentence_keys), dim, SENTENCE_VECTORS)
    streams = (
        Stream(window_store, texts.windows, texts.window_keys, [chunks[i].document for i in texts.owners], previous),
        Stream(sentence_store, texts.sentences, texts.sentence_keys,
               _sentence_documents(chunks, texts.sentence_map, len(texts.sentences)), previous_sentences),
    )
    embedded, quantized = _embed(streams, chunks, build)
    if build.share is not None:
        build.share(streams, quantized)
    model = model_record(build.encoder, quantized, build.query)
    if build.lexical_from is not None:  # written by the first stage moments ago: not built (nor its memory held) twice
        for name in LEXICAL_FILES:
            shutil.copy2(build.lexical_from / name, tmp / name)
        lexical_files = list(LEXICAL_FILES)
    else:
        lexical_files = LexicalIndex.build((tokenize(c.index_text) for c in chunks), build.params).save(tmp)
    n = len(texts.window_keys)
    if build.notify and n >= dense.approximate_from():
        build.notify(f"Training the approximate search of {n:,} window vectors ({dense.lists(n):,} cells)")
    approximate = _write_vectors(tmp / VECTORS, window_store, texts.owners)
    if approximate:  # from index.retrieve.dense.approximate_from() windows
        model["search"] = approximate
    if isinstance(window_store, np.memmap):  # its pages stay valid until the build returns
        os.unlink(tmp / _WINDOWS_SCRATCH)
    mapped = isinstance(sentence_store, np.memmap)  # else an empty array, written now
    if mapped:
        sentence_store.flush()
    sentence_files = write_sentence_vectors(tmp, texts.sentence_keys, None if mapped else sentence_store,
                                            texts.sentence_map)
    names = [CHUNKS, VECTORS, *lexical_files, *sentence_files]
    write_manifest(tmp, Manifest(
        format_version=INDEX_FORMAT_VERSION,
        created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        model=model,
        chunker_version=CHUNKER_VERSION,
        tokenizer={"version": TOKENIZER_VERSION, **tokenizer_settings()},
        bm25=build.params.to_json(),
        corpus=build.corpus,
        counts={"documents": len(build.corpus.get("documents", {})), "chunks": len(chunks), "vectors": n,
                "sentences": len(texts.sentence_keys)},
        files={name: sha256_file(tmp / name) for name in names},
    ))
    fsync_tree(tmp)
    return embedded


def _embed(streams: tuple[Stream, ...], chunks: Sequence[Chunk], build: BuildSettings) -> tuple[list[int], dict | None]:
    """Embed the windows and sentences (now, so answers need no model pass; the map makes them a
    retriever too), document by document: the window vectors computed, and the int8 recipe
    when the vectors came through the int8 export (None when sentence-transformers made them)."""
    encoder, embedder, quantized, notify = build.encoder, build.embedder, build.quantized, build.notify
    order = list(dict.fromkeys(chunk.document for chunk in chunks))
    labels = {chunk.document: document_label(chunk.source) for chunk in chunks}
    blocks = plan(streams, order, labels)
    by_float = bool(build.todo) and embedder is encoder  # sentence-transformers embeds: no int8 vector
    keep = None
    if build.keep is not None:
        def keep(s: int, rows) -> None:
            build.keep(("windows", "sentences")[s], [streams[s].keys[i] for i in rows], streams[s].out[list(rows)])
    try:
        embedded = embed(streams, blocks, embedder, build.progress, keep)
    except Exception as exc:  # noqa: BLE001 - the export failed mid-way: sentence-transformers instead
        if embedder is encoder or isinstance(exc, OSError):
            raise
        if notify:
            notify(f"The ONNX export failed while embedding ({type(exc).__name__}); using sentence-transformers")
        embedded, by_float = embed(streams, blocks, encoder, build.progress, keep), True
    if quantized and by_float:
        quantized = None  # not recorded as int8: the next open rebuilds at full precision
        if notify:
            notify("Embedded at full precision (the int8 export was not usable); not quantized")
    return embedded, quantized


def model_record(encoder, quantized: dict | None, query: dict | None) -> dict:
    """The manifest's ``model``: what embedded the vectors, and the query encoder that asks them."""
    model = {"name": encoder.name, "path": str(encoder.path), "dim": int(encoder.dim)}
    if getattr(encoder, "adapted", None):
        model["adapted"] = encoder.adapted
    if quantized and query is not None:
        model["quantized"] = quantized
    if query is not None:
        model["query_encoder"] = query
    return model


def _sentence_documents(chunks: Sequence[Chunk], sentence_map: np.ndarray, count: int) -> list[str]:
    """The document of each distinct sentence: that of the first chunk holding it."""
    owner = np.full(count, -1, dtype=np.int64)
    if len(sentence_map):  # pairs are in chunk order: a sentence's first pair is its first chunk's
        rows, first = np.unique(sentence_map[:, 1], return_index=True)
        owner[rows] = sentence_map[first, 0]
    return [chunks[i].document if i >= 0 else "" for i in owner.tolist()]


def _write_vectors(path: Path, vectors: np.ndarray, owners: np.ndarray) -> str | None:
    """Write the faiss file and read it back: faiss reports some failed writes on stderr only.

    ``vectors`` holds one row per window and ``owners[row]`` its chunk; the file holds only the
    window vectors, so it is checked against the window count. Returns how a large index is
    searched approximately ("IVF 2,190 cells, 24 probed"), None for exact search.
    """
    from ..retrieve.dense import DenseIndex

    try:
        DenseIndex.build(vectors, owners).save(path)
    except RuntimeError as exc:  # faiss's own write errors end with "(strerror)"
        found = re.search(r"\(([^()]+)\)\s*$", str(exc).splitlines()[0] if str(exc) else "")
        reason = found.group(1) if found else "write error"
        code = errno.ENOSPC if reason == os.strerror(errno.ENOSPC) else errno.EIO
        raise OSError(code, f"{path.name}: {reason}") from None
    try:
        written = DenseIndex.load(path)  # without owners: a short file is "incomplete", below
    except DenseIndexFileError:
        raise OSError(errno.EIO, f"{path.name} came back unreadable") from None
    if (written.n_vectors, written.dim) != vectors.shape:
        raise OSError(errno.EIO, f"{path.name} came back incomplete")
    return written.approximate
