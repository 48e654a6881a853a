"""The first stage of a new index: its chunks and BM25 statistics, written and swapped in as a
whole index is (``index.store.atomic``), so a corpus never indexed answers by BM25 in seconds;
the vectors follow in a full build (``index.build.pipeline``), which resumes from what an
interrupted one embedded (``index.store.shards``)."""

from __future__ import annotations

import contextlib
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from corpus.chunking import CHUNKER_VERSION
from corpus.model import Chunk

from ..retrieve.tokenizer import TOKENIZER_VERSION, tokenize, tokenizer_settings
from ..store.atomic import build_lock, fsync_tree, recover, sigterm_as_interrupt, written_in_place
from ..store.chunks import write_chunks
from ..store.layout import CHUNKS
from ..store.manifest import INDEX_FORMAT_VERSION, STAGE_LEXICAL, Manifest, sha256_file, write_manifest
from .pipeline import BuildReport
from .writer import model_record


def build_lexical(directory: Path, chunks: Sequence[Chunk], *, encoder, corpus: dict, bm25_params=None,
                  lock: bool = True) -> BuildReport:
    """Write the chunks and BM25 statistics of ``chunks`` as the index at ``directory`` (its
    manifest's stage "lexical": no vectors yet), replacing what is there atomically.

    Args:
        directory: the index directory.
        chunks: every chunk of the corpus, in corpus order.
        encoder: the model the vectors will be built with (recorded, so the index is fresh for it).
        corpus: the corpus description for the manifest.
        bm25_params: ``index.retrieve.bm25.BM25Params``; the measured default when None.
        lock: take the build lock (False when the caller holds it).

    Raises:
        IndexWriteError: the directory is not writable or the disk is full; the old index stays.
        IndexBusy: another process kept the build lock too long.
    """
    from ..retrieve.bm25 import DEFAULT_PARAMS
    from ..retrieve.lexical import LexicalIndex

    started = time.perf_counter()
    directory, params = Path(directory), bm25_params or DEFAULT_PARAMS
    with build_lock(directory) if lock else contextlib.nullcontext(), sigterm_as_interrupt():
        recover(directory)
        with written_in_place(directory) as tmp:
            write_chunks(tmp / CHUNKS, chunks, [() for _ in chunks])  # embedding keys come with the vectors
            names = [CHUNKS, *LexicalIndex.build((tokenize(c.index_text) for c in chunks), params).save(tmp)]
            write_manifest(tmp, Manifest(
                format_version=INDEX_FORMAT_VERSION,
                created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                model=model_record(encoder, None, None),
                chunker_version=CHUNKER_VERSION,
                tokenizer={"version": TOKENIZER_VERSION, **tokenizer_settings()},
                bm25=params.to_json(),
                corpus=corpus,
                counts={"documents": len(corpus.get("documents", {})), "chunks": len(chunks), "vectors": 0,
                        "sentences": 0},
                files={name: sha256_file(tmp / name) for name in names},
                stage=STAGE_LEXICAL,
            ))
            fsync_tree(tmp)
    return BuildReport(directory=directory, documents=len(corpus.get("documents", {})), chunks=len(chunks),
                       embedded=0, reused=0, seconds=time.perf_counter() - started)
