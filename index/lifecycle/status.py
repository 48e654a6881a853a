"""What ``relnotes status`` says of a corpus's index: where it is, what built it, and whether (and
why) it is stale, without building or loading it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from corpus import CorpusInput

from ..encode.choice import choose_encoder
from ..errors import IndexCorrupt, IndexMissing
from ..store.layout import OPTIONAL_FILES
from ..store.manifest import read_manifest, verify_files
from .freshness import default_index_dir, describe_corpus, reason, stale_reasons
from .skips import load_skipping


@dataclass(frozen=True, slots=True)
class IndexStatus:
    """Where the index of a corpus is, what built it, and whether (and why) it is stale."""

    index: str  # the index directory
    corpus: tuple[str, ...]  # the corpus inputs, as given ("<bundled>" for the bundled notes)
    documents: int  # documents the corpus holds now
    exists: bool  # an index (a readable manifest) is there
    stale: bool
    reasons: tuple[str, ...] = ()  # why it is stale, or why there is none
    created: str | None = None  # when it was built (ISO 8601), when it exists
    model: dict | None = None  # {"name", "path", "dim", ...} of the model that built it
    chunks: int | None = None
    format_version: int | None = None

    def to_json(self) -> dict:
        """The object ``relnotes status --json`` prints (no build facts when there is no index)."""
        out: dict = {"index": self.index, "corpus": list(self.corpus), "documents": self.documents,
                     "exists": self.exists}
        if self.exists:
            out.update(created=self.created, model=self.model, chunks=self.chunks,
                       format_version=self.format_version)
        return {**out, "stale": self.stale, "reasons": list(self.reasons)}


def index_status(paths: Sequence[Path | CorpusInput] | None, index_dir: Path | None, model_path: Path | None, **load) -> IndexStatus:
    """Where the index for a corpus is, what built it and whether (and why) it is stale.

    ``load`` goes to ``corpus.load_documents`` (``skip_bad``, ``on_skip``).

    Raises:
        CorpusError: an input file is bad (and skip_bad is off).
    """
    from ..retrieve.bm25 import DEFAULT_PARAMS

    directory = Path(index_dir) if index_dir else default_index_dir(paths, model_path)
    documents, _ = load_skipping(paths, directory, **load)
    corpus = describe_corpus(documents, paths)
    where = {"index": str(directory), "corpus": tuple(corpus["inputs"]), "documents": len(documents)}
    try:
        manifest = read_manifest(directory)
    except (IndexMissing, IndexCorrupt) as exc:
        return IndexStatus(**where, exists=False, stale=True, reasons=(str(exc),))
    encoder = choose_encoder(directory, model_path, lambda: [], corpus["fingerprint"])
    reasons = stale_reasons(manifest, corpus, encoder, DEFAULT_PARAMS.to_json())
    try:  # every file but the optional ONNX export, whose damage only costs speed
        verify_files(directory, manifest, [n for n in manifest.files if n not in OPTIONAL_FILES])
    except IndexCorrupt as exc:
        reasons.append(reason(exc))
    return IndexStatus(
        **where,
        exists=True,
        stale=bool(reasons),
        reasons=tuple(reasons),
        created=manifest.created,
        model=manifest.model,
        chunks=manifest.counts.get("chunks"),
        format_version=manifest.format_version,
    )
