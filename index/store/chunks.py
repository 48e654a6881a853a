"""chunks.jsonl: one chunk a line, each with the embedding keys of its windows (written by a build,
read when an index is opened)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from corpus.model import Chunk

from ..errors import IndexCorrupt

_REBUILD = "rebuild it with: relnotes index --rebuild"


def write_chunks(path: Path, chunks: Sequence[Chunk], keys: Sequence[Sequence[str]]) -> None:
    """Write chunks as JSONL, one object per line, with the embedding keys of its windows."""
    with open(path, "w", encoding="utf-8") as fh:
        for chunk, chunk_keys in zip(chunks, keys):
            fh.write(json.dumps({**chunk.to_json(), "embed_keys": list(chunk_keys)}, ensure_ascii=False) + "\n")


def read_chunks(path: Path, keyed: bool = True) -> tuple[tuple[Chunk, ...], tuple[tuple[str, ...], ...]]:
    """Parse chunks.jsonl (each chunk with its windows' embedding keys; none before the vectors are
    built, ``keyed`` False); a damaged line is corruption."""
    chunks: list[Chunk] = []
    keys: list[tuple[str, ...]] = []
    try:
        with open(path, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                try:
                    obj = json.loads(line)
                    chunks.append(Chunk.from_json(obj))
                    chunk_keys = obj["embed_keys"]
                    if not isinstance(chunk_keys, list) or (keyed and not chunk_keys):
                        raise ValueError("a chunk needs at least one embedding key")
                    keys.append(tuple(str(k) for k in chunk_keys))
                except (json.JSONDecodeError, KeyError, TypeError, ValueError, IndexError):
                    raise IndexCorrupt(f"{path} line {number} is damaged; {_REBUILD}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise IndexCorrupt(f"Cannot read {path} ({exc}); {_REBUILD}") from None
    return tuple(chunks), tuple(keys)
