"""Open a built index directory: manifest, chunks and BM25 at once, vectors and model lazily."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from corpus.model import Chunk

from .errors import DenseIndexFileError, IndexCorrupt
from .manifest import Manifest, read_manifest, verify_files
from .store import CHUNKS, VECTORS

_REBUILD = "rebuild it with: relnotes index --rebuild"


def _read_chunks(path: Path) -> tuple[tuple[Chunk, ...], tuple[str, ...]]:
    """Parse chunks.jsonl; a truncated or edited line is reported as corruption."""
    chunks: list[Chunk] = []
    keys: list[str] = []
    try:
        with open(path, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                try:
                    obj = json.loads(line)
                    chunks.append(Chunk.from_json(obj))
                    keys.append(str(obj["embed_key"]))
                except (json.JSONDecodeError, KeyError, TypeError, ValueError, IndexError):
                    raise IndexCorrupt(f"{path} line {number} is damaged; {_REBUILD}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise IndexCorrupt(f"Cannot read {path} ({exc}); {_REBUILD}") from None
    return tuple(chunks), tuple(keys)


class LoadedIndex:
    """An index directory opened for search; the dense half loads on first use."""

    def __init__(self, directory: Path, *, verify: bool = True) -> None:
        """Read the manifest, chunks and BM25 statistics, checking their checksums.

        Raises:
            IndexMissing: there is no index at ``directory``.
            IndexCorrupt: a file is missing, truncated, fails its checksum or is out of step.
        """
        from .lexical import LexicalIndex

        self.directory = Path(directory)
        self.manifest: Manifest = read_manifest(self.directory)
        names = [name for name in self.manifest.files if name != VECTORS]
        if verify:
            verify_files(self.directory, self.manifest, names)
        self.chunks, self.embed_keys = _read_chunks(self.directory / CHUNKS)
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
        self._dense = None
        self._encoder = None

    @property
    def model_path(self) -> str:
        """The model folder that built the vectors."""
        return str(self.manifest.model.get("path", ""))

    def dense(self):
        """The faiss index, loaded (and checksum-verified) on first use."""
        if self._dense is None:
            from .dense import DenseIndex

            if self._verify:
                verify_files(self.directory, self.manifest, [VECTORS])
            try:
                dense = DenseIndex.load(self.directory / VECTORS)
            except DenseIndexFileError as exc:
                raise IndexCorrupt(f"{exc}") from None
            if dense.n != len(self.chunks) or dense.dim != self.manifest.model.get("dim"):
                raise IndexCorrupt(
                    f"Vectors in {self.directory} are out of step with the chunks "
                    f"({dense.n} vectors x {dense.dim}, {len(self.chunks)} chunks); {_REBUILD}"
                )
            self._dense = dense
        return self._dense

    def encoder(self):
        """The query encoder: the same model that built the vectors."""
        if self._encoder is None:
            from .dense import Encoder

            self._encoder = Encoder(self.model_path or None)
        return self._encoder

    def set_encoder(self, encoder) -> None:
        """Use an already-loaded encoder (the one that just built this index)."""
        self._encoder = encoder

    def previous_vectors(self) -> dict[str, np.ndarray]:
        """Embedding key -> stored vector, for reuse by an incremental rebuild."""
        vectors = self.dense().vectors()
        return {key: vectors[row] for row, key in enumerate(self.embed_keys)}
