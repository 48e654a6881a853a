"""The index manifest: what built an index, from which inputs, and the checksums of its files."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..errors import IndexCorrupt, IndexMissing
from .layout import MANIFEST

# The index directory's format (its files and what each holds), recorded in manifest.json; the BM25
# files carry their own (index.retrieve.lexical.LEXICAL_FORMAT_VERSION).
INDEX_FORMAT_VERSION = 2  # 2: chunks.jsonl holds embed_keys, one per embedded window


STAGE_COMPLETE, STAGE_LEXICAL = "complete", "lexical"
_OPTIONAL = {"stage"}  # fields a manifest may lack (written before they existed)


@dataclass(frozen=True, slots=True)
class Manifest:
    """Everything needed to decide whether an index still answers for a corpus."""

    format_version: int
    created: str
    model: dict  # {"name", "path", "dim"}
    chunker_version: str
    tokenizer: dict
    bm25: dict
    corpus: dict  # {"fingerprint", "inputs", "documents": {id: {"source", "sha256"}}}
    counts: dict
    files: dict = field(default_factory=dict)  # file name -> sha256
    # "complete", or "lexical": chunks and BM25 only, the vectors still to come (index.build.staged)
    stage: str = STAGE_COMPLETE

    @property
    def complete(self) -> bool:
        """Whether the index holds its vectors (else only chunks and BM25: a staged first build)."""
        return self.stage != STAGE_LEXICAL

    def to_json(self) -> dict:
        """The manifest as a JSON-ready dict."""
        return asdict(self)


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_manifest(directory: Path, manifest: Manifest) -> None:
    """Write manifest.json into ``directory`` (which is still a temporary build directory)."""
    path = directory / MANIFEST
    path.write_text(json.dumps(manifest.to_json(), indent=2, sort_keys=True) + "\n", encoding="utf-8")


def generation(directory: str | Path) -> tuple[int, int] | None:
    """A value that changes whenever a build swaps a new index into ``directory`` (the manifest's
    inode and mtime); None while there is none (mid-swap, or no index yet)."""
    import os

    try:
        st = os.stat(Path(directory) / MANIFEST)
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


def read_manifest(directory: Path) -> Manifest:
    """Read and validate manifest.json; raise IndexMissing or IndexCorrupt with the fix."""
    path = directory / MANIFEST
    if not directory.exists():
        raise IndexMissing(f"No index at {directory}; build it with: relnotes index")
    if not path.is_file():
        raise IndexCorrupt(f"Index at {directory} has no {MANIFEST}; rebuild it with: relnotes index --rebuild")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise IndexCorrupt(f"Unreadable {path} ({exc}); rebuild it with: relnotes index --rebuild") from None
    if not isinstance(raw, dict):
        raise IndexCorrupt(f"{path} is not a JSON object; rebuild it with: relnotes index --rebuild")
    names = Manifest.__dataclass_fields__.keys()
    missing = [name for name in names if name not in raw and name not in _OPTIONAL]
    if missing and raw.get("format_version") == INDEX_FORMAT_VERSION:
        raise IndexCorrupt(f"{path} lacks {', '.join(missing)}; rebuild it with: relnotes index --rebuild")
    if missing:  # another format: let the staleness check name the version difference
        raw = {**_EMPTY, **{k: v for k, v in raw.items() if k in names}}
    wrong = [k for k, v in _EMPTY.items() if not isinstance(raw.get(k), type(v))]
    if wrong:
        raise IndexCorrupt(f"{path} has damaged fields ({', '.join(wrong)}); rebuild it with: relnotes index --rebuild")
    stage = raw.get("stage", STAGE_COMPLETE)
    if stage not in (STAGE_COMPLETE, STAGE_LEXICAL):
        raise IndexCorrupt(f"{path} has an unknown stage {stage!r}; rebuild it with: relnotes index --rebuild")
    return Manifest(**{k: raw[k] for k in names if k not in _OPTIONAL}, stage=stage)


_EMPTY = {
    "format_version": -1,
    "created": "",
    "model": {},
    "chunker_version": "",
    "tokenizer": {},
    "bm25": {},
    "corpus": {},
    "counts": {},
    "files": {},
}


def verify_files(directory: Path, manifest: Manifest, names: list[str]) -> None:
    """Check that each named file exists and matches its checksum in the manifest."""
    for name in names:
        expected = manifest.files.get(name)
        path = directory / name
        if expected is None or not path.is_file():
            raise IndexCorrupt(f"Index file {path} is missing; rebuild it with: relnotes index --rebuild")
        if sha256_file(path) != expected:
            raise IndexCorrupt(
                f"Index file {path} fails its checksum (truncated or edited); "
                "rebuild it with: relnotes index --rebuild"
            )
