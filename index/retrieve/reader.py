"""Open a built index directory: manifest, chunks and BM25 at once, vectors and model lazily."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

import numpy as np

from ..errors import DenseIndexFileError, IndexCorrupt, IndexMissing
from ..store.chunks import read_chunks
from ..store.layout import CHUNKS, LAZY_FILES, OPTIONAL_FILES, SENTENCE_CHUNKS, SENTENCE_FILES, SENTENCE_VECTORS, VECTORS
from ..store.manifest import Manifest, read_manifest, verify_files
from ..store.shards import DenseProgress, Shards
from .sentence_vectors import SentenceVectors

_REBUILD = "rebuild it with: relnotes index --rebuild"


def _stderr_line(message: str) -> None:
    """Write a one-line notice to stderr."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


class LoadedIndex:
    """An index directory opened for search; the dense half loads on first use."""

    def __init__(
        self, directory: Path, *, verify: bool = True, notify: Callable[[str], None] | None = None
    ) -> None:
        """Read the manifest, chunks and BM25 statistics, checking their checksums.

        The dense files (vectors, the ONNX query encoder in the cache) are checked when first
        used. ``notify`` gets a one-line notice when the ONNX query encoder is unusable (default:
        stderr).

        Raises:
            IndexMissing: there is no index at ``directory``.
            IndexCorrupt: a file is missing, truncated, fails its checksum or is out of step.
        """
        from .lexical import LexicalIndex

        self.directory = Path(directory)
        self.manifest: Manifest = read_manifest(self.directory)
        lazy = (*LAZY_FILES, *OPTIONAL_FILES)
        names = [name for name in self.manifest.files if name not in lazy]
        if verify:
            verify_files(self.directory, self.manifest, names)
        self.chunks, self.embed_keys = read_chunks(self.directory / CHUNKS, keyed=self.manifest.complete)
        try:
            self.lexical = LexicalIndex.load(self.directory)
        except (OSError, ValueError, KeyError) as exc:
            raise IndexCorrupt(f"BM25 statistics in {self.directory} are unreadable ({exc}); {_REBUILD}") from None
        expected = self.manifest.counts.get("chunks")
        if not (len(self.chunks) == self.lexical.n_docs == expected):
            raise IndexCorrupt(
                f"Index at {self.directory} is out of step ({len(self.chunks)} chunks, "
                f"{self.lexical.n_docs} BM25 rows, manifest says {expected}); {_REBUILD}"
            )
        self._verify = verify
        self._notify = notify or _stderr_line
        self._dense = None
        self._encoder = None
        self._sentences: SentenceVectors | None = None

    @property
    def complete(self) -> bool:
        """Whether the vectors are built (else chunks and BM25 only: ``index.build.staged``)."""
        return self.manifest.complete

    def pending(self) -> DenseProgress | None:
        """How many of the texts the vectors need are embedded so far; None when they are built."""
        if self.complete:
            return None
        model = {k: self.manifest.model.get(k) for k in ("name", "path", "dim")}
        return Shards(self.directory).progress(model)

    @property
    def model_path(self) -> str:
        """The model folder that built the vectors."""
        return str(self.manifest.model.get("path", ""))

    def dense(self):
        """The faiss index, loaded (and checksum-verified) on first use."""
        if self._dense is None:
            from .dense import DenseIndex

            if not self.complete:
                raise IndexMissing(f"The vectors of the index at {self.directory} are not built yet; "
                                   "build them with: relnotes index")
            if self._verify:
                verify_files(self.directory, self.manifest, [VECTORS])
            owners = np.repeat(np.arange(len(self.chunks)), [len(keys) for keys in self.embed_keys])
            try:
                dense = DenseIndex.load(self.directory / VECTORS, owners)
            except DenseIndexFileError as exc:
                raise IndexCorrupt(f"{exc}") from None
            if dense.n != len(self.chunks) or dense.dim != self.manifest.model.get("dim"):
                raise IndexCorrupt(
                    f"Vectors in {self.directory} are out of step with the chunks "
                    f"({dense.n_vectors} vectors x {dense.dim}, {len(self.chunks)} chunks); {_REBUILD}"
                )
            self._dense = dense
        return self._dense

    def encoder(self):
        """The query encoder: the same model that built the vectors (``index.encode.choice.query_encoder``:
        the model in numpy or its ONNX export when usable, else sentence-transformers)."""
        if self._encoder is None:
            from ..encode.choice import query_encoder

            self._encoder = query_encoder(self.manifest, self.directory, verify=self._verify, notify=self._notify)
        return self._encoder

    def sentence_vectors(self) -> SentenceVectors | None:
        """The answer sentences' vectors made at build time (checked on first use); None if the
        index has none (then the engine embeds sentences per question)."""
        if self._sentences is None and self.complete and SENTENCE_VECTORS in self.manifest.files:
            mapped = SENTENCE_CHUNKS in self.manifest.files  # an index from before the map has none
            if self._verify:
                verify_files(self.directory, self.manifest, [f for f in SENTENCE_FILES if f in self.manifest.files])
            self._sentences = SentenceVectors.load(self.directory, n_chunks=len(self.chunks) if mapped else None)
        return self._sentences

    def previous_sentence_vectors(self) -> dict[str, np.ndarray]:
        """Sentence key -> stored vector, for reuse by an incremental rebuild."""
        stored = self.sentence_vectors()
        return stored.by_key() if stored is not None else {}

    def set_encoder(self, encoder) -> None:
        """Use an already-loaded encoder (the one that just built this index)."""
        self._encoder = encoder

    def previous_vectors(self) -> dict[str, np.ndarray]:
        """Embedding key -> stored vector, for reuse by an incremental rebuild."""
        vectors = self.dense().vectors()
        keys = [key for chunk_keys in self.embed_keys for key in chunk_keys]
        return {key: vectors[row] for row, key in enumerate(keys)}
