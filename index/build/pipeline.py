"""The build pipeline: chunks in, an index directory out (BM25 statistics, window and sentence
vectors, manifest), reusing the vectors of unchanged texts; written atomically (``index.store.atomic``)."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from corpus.chunking import CHUNKER_VERSION, embedding_windows
from corpus.model import Chunk

from ..retrieve import dense
from ..store.atomic import build_lock, fsync_tree, make_tmp, recover, sigterm_as_interrupt, swap_into_place
from .embedding import Progress, Stream, document_label, embed, plan
from ..errors import DenseIndexFileError, IndexWriteError
from ..store.layout import CHUNKS, SENTENCE_VECTORS, VECTORS
from ..store.manifest import FORMAT_VERSION, Manifest, sha256_file, write_manifest
from ..retrieve.sentence_vectors import corpus_sentences, sentence_key, write_sentence_vectors
from ..store.stores import open_store
from ..retrieve.tokenizer import TOKENIZER_VERSION, tokenize, tokenizer_settings



@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build did, for the one-line summary the CLI prints."""

    directory: Path
    documents: int
    chunks: int
    embedded: int  # window vectors computed (a chunk has one or more windows)
    reused: int  # window vectors kept from the previous index (a text repeated in this build is neither)
    seconds: float


def embed_key(text: str, encoder) -> str:
    """Content hash of an embedded text and the model: equal keys may reuse a stored vector."""
    model = f"{encoder.name}\0{encoder.path}\0{encoder.dim}"
    return hashlib.sha256(f"{model}\0{text}".encode("utf-8")).hexdigest()[:24]


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


def _write_chunks(path: Path, chunks: Sequence[Chunk], keys: Sequence[Sequence[str]]) -> None:
    """Write chunks as JSONL, one object per line, with the embedding keys of its windows."""
    with open(path, "w", encoding="utf-8") as fh:
        for chunk, chunk_keys in zip(chunks, keys):
            fh.write(json.dumps({**chunk.to_json(), "embed_keys": list(chunk_keys)}, ensure_ascii=False) + "\n")


_WINDOWS_SCRATCH = ".windows.npy"  # the window vectors while building; the faiss file replaces it


def _sentence_documents(chunks: Sequence[Chunk], sentence_map: np.ndarray, count: int) -> list[str]:
    """The document of each distinct sentence: that of the first chunk holding it."""
    owner = np.full(count, -1, dtype=np.int64)
    if len(sentence_map):  # pairs are in chunk order: a sentence's first pair is its first chunk's
        rows, first = np.unique(sentence_map[:, 1], return_index=True)
        owner[rows] = sentence_map[first, 0]
    return [chunks[i].document if i >= 0 else "" for i in owner.tolist()]


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
) -> BuildReport:
    """Build (or incrementally rebuild) the index for ``chunks`` at ``directory``.

    Args:
        directory: the index directory; replaced atomically.
        chunks: every chunk of the corpus, in corpus order.
        encoder: an ``index.encode.encoders.Encoder`` (its ``name``, ``path``, ``dim``, ``encode``).
        corpus: the corpus description for the manifest (fingerprint, inputs, documents).
        previous: embedding key -> vector from the index being replaced (incremental).
        previous_sentences: sentence key -> vector from the index being replaced.
        progress: called with (done, total, what) while embedding: texts encoded, texts to
            encode, and the document(s) being embedded.
        bm25_params: ``index.retrieve.lexical.BM25Params``; the measured default when None.
        lock: take the build lock (False when the caller already holds it).
        notify: called with a one-line notice when the ONNX query encoder cannot be exported.

    Returns:
        A BuildReport with counts and the time taken.

    Raises:
        IndexWriteError: the directory is not writable or the disk is full; the old index stays.
        IndexBusy: another process kept the build lock too long.
    """
    from ..retrieve.lexical import DEFAULT_PARAMS, LexicalIndex
    from ..encode.onnx_export import cached_query_encoder, document_encoder

    started = time.perf_counter()
    params = bm25_params or DEFAULT_PARAMS
    directory = Path(directory)
    windows = [embedding_windows(chunk) for chunk in chunks]
    keys = [tuple(embed_key(text, encoder) for text in texts) for texts in windows]
    owners = np.repeat(np.arange(len(chunks)), [len(texts) for texts in windows])
    flat_texts = [text for texts in windows for text in texts]
    flat_keys = [key for chunk_keys in keys for key in chunk_keys]
    with build_lock(directory) if lock else contextlib.nullcontext(), sigterm_as_interrupt():
        recover(directory)
        sentences, sentence_map = corpus_sentences(c.text for c in chunks)
        sentence_keys = [sentence_key(s) for s in sentences]
        todo = sum(k not in (previous or {}) for k in flat_keys)
        todo += sum(k not in (previous_sentences or {}) for k in sentence_keys)
        # The torch-free path (index.encode.onnx_query): exported once per model into the user cache,
        # reused by every index of that model (the manifest records only its key), and the
        # faster embedder of windows and sentences too.
        query = cached_query_encoder(encoder, notify=notify)
        quantized = getattr(encoder, "quantized", None)
        if quantized and query is not None:  # the int8 export (index.encode.quantize), for documents and questions
            from ..encode.quantize import quantized_record

            try:
                query = quantized_record(query)
            except Exception as exc:  # noqa: BLE001 - the float export serves instead
                quantized = None
                if notify:
                    notify(f"The int8 export failed ({type(exc).__name__}); embedding at full precision")
        embedder = document_encoder(encoder, query, notify) if todo else encoder
        tmp = make_tmp(directory)
        try:
            _write_chunks(tmp / CHUNKS, chunks, keys)
            # Vectors go straight into files of the new index as they are made (memory maps): a
            # build holds the window vectors once (faiss's copy) and the sentence vectors not at all.
            window_store = open_store(tmp / _WINDOWS_SCRATCH, len(flat_keys), encoder.dim, VECTORS)
            sentence_store = open_store(tmp / SENTENCE_VECTORS, len(sentence_keys), encoder.dim, SENTENCE_VECTORS)

            streams = (
                Stream(window_store, flat_texts, flat_keys, [chunks[i].document for i in owners], previous or {}),
                Stream(sentence_store, sentences, sentence_keys, _sentence_documents(chunks, sentence_map, len(sentences)),
                       previous_sentences or {}),
            )
            order = list(dict.fromkeys(chunk.document for chunk in chunks))
            labels = {chunk.document: document_label(chunk.source) for chunk in chunks}
            blocks = plan(streams, order, labels)

            def embed_all(by) -> int:
                """Windows and sentences (embedded now, so answers need no model pass; the map
                makes them a retriever too), document by document; the window vectors computed."""
                return embed(streams, blocks, by, progress)[0]

            by_float = bool(todo) and embedder is encoder  # sentence-transformers embeds: no int8 vector
            try:
                embedded = embed_all(embedder)
            except Exception as exc:  # noqa: BLE001 - the export failed mid-way: sentence-transformers instead
                if embedder is encoder or isinstance(exc, OSError):
                    raise
                if notify:
                    notify(f"The ONNX export failed while embedding ({type(exc).__name__}); using sentence-transformers")
                embedded, by_float = embed_all(encoder), True
            if quantized and by_float:
                quantized = None  # not recorded as int8: the next open rebuilds at full precision
                if notify:
                    notify("Embedded at full precision (the int8 export was not usable); not quantized")
            model = {"name": encoder.name, "path": str(encoder.path), "dim": int(encoder.dim)}
            if getattr(encoder, "adapted", None):
                model["adapted"] = encoder.adapted
            if quantized and query is not None:
                model["quantized"] = quantized
            if query is not None:
                model["query_encoder"] = query
            lexical_files = LexicalIndex.build((tokenize(c.index_text) for c in chunks), params).save(tmp)
            if notify and len(flat_keys) >= dense.approximate_from():
                notify(f"Training the approximate search of {len(flat_keys):,} window vectors "
                       f"({dense.lists(len(flat_keys)):,} cells)")
            approximate = _write_vectors(tmp / VECTORS, window_store, owners)
            if approximate:  # from index.retrieve.dense.approximate_from() windows
                model["search"] = approximate
            if isinstance(window_store, np.memmap):  # its pages stay valid until the build returns
                os.unlink(tmp / _WINDOWS_SCRATCH)
            mapped = isinstance(sentence_store, np.memmap)  # else an empty array, written now
            if mapped:
                sentence_store.flush()
            sentence_files = write_sentence_vectors(tmp, sentence_keys, None if mapped else sentence_store,
                                                    sentence_map)
            names = [CHUNKS, VECTORS, *lexical_files, *sentence_files]
            manifest = Manifest(
                format_version=FORMAT_VERSION,
                created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                model=model,
                chunker_version=CHUNKER_VERSION,
                tokenizer={"version": TOKENIZER_VERSION, **tokenizer_settings()},
                bm25=params.to_json(),
                corpus=corpus,
                counts={"documents": len(corpus.get("documents", {})), "chunks": len(chunks), "vectors": len(flat_keys),
                        "sentences": len(sentence_keys)},
                files={name: sha256_file(tmp / name) for name in names},
            )
            write_manifest(tmp, manifest)
            fsync_tree(tmp)
            swap_into_place(tmp, directory)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            reason = "disk full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
            raise IndexWriteError(
                f"Could not write the index at {directory} ({reason}); the previous index is unchanged. "
                "Free space or choose another place with --index DIR"
            ) from None
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return BuildReport(
        directory=directory,
        documents=len(corpus.get("documents", {})),
        chunks=len(chunks),
        embedded=embedded,
        reused=sum(key in (previous or {}) for key in flat_keys),
        seconds=time.perf_counter() - started,
    )
