"""A corpus known unchanged without reading it: the index keeps, beside its manifest, the corpus
stamp (``corpus.corpus_stamp``: the files' metadata, the reader's code) under which the corpus was
last read and found as the manifest records it. An open whose stamp is the same takes the
manifest's record of the corpus as it is; any other open reads the files, as before.

``inputs.json`` holds the stamp and a digest of the manifest it vouches for: a rebuild swaps in a
new manifest, and the stamp no longer counts. It is written when a read found the corpus as
indexed (or built the index from it), best effort: a read-only index is only ever read the long way.
It never says an index is fresh on its own: the model, chunker, tokenizer, BM25 settings and file
checksums are checked on every open (``freshness.check``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path

from ..store.layout import MANIFEST

STAMP_FILE = "inputs.json"
# The form of the corpus record a stamp vouches for (``freshness.describe_corpus``): a change to how
# that record or its fingerprint is made must bump it, or a matching stamp would keep the old record.
RECORD_VERSION = 2  # 2: a document's other names (Document.other_names) in its record


def unchanged_corpus(directory: Path, stamp: str | None) -> dict | None:
    """The manifest's record of the corpus (fingerprint, inputs, documents) when ``stamp`` is the
    one kept for this manifest and no input was left out as bad (that is said on every open);
    else None."""
    if stamp is None:
        return None
    try:
        kept = json.loads((directory / STAMP_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    recorded = _recorded(directory)
    if recorded is None or not isinstance(kept, dict) or kept.get("stamp") != stamp \
            or kept.get("manifest") != _digest(recorded[0]) or kept.get("record") != RECORD_VERSION:
        return None
    corpus = recorded[1]
    if not all(k in corpus for k in ("fingerprint", "documents")):
        return None
    return {"fingerprint": corpus["fingerprint"], "inputs": corpus.get("inputs"), "documents": corpus["documents"]}


def keep_stamp(directory: Path, stamp: str | None, corpus: dict) -> None:
    """Record that the corpus under ``stamp``, read as ``corpus`` (``freshness.describe_corpus``,
    with the bad files this read left out as ``skipped``), is the one the index at ``directory``
    records; nothing when the manifest records another, when this read or the index left a file out
    (said on every open: a plain open must still stop at a new bad file), or when the folder is read-only."""
    if stamp is None or corpus.get("skipped"):
        return
    recorded = _recorded(directory)
    if recorded is None or recorded[1].get("fingerprint") != corpus["fingerprint"]:
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{STAMP_FILE}.", dir=directory)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"stamp": stamp, "manifest": _digest(recorded[0]), "record": RECORD_VERSION}, fh)
        os.replace(tmp, directory / STAMP_FILE)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _recorded(directory: Path) -> tuple[bytes, dict] | None:
    """The manifest's bytes (what a stamp vouches for) and its corpus record; None when it cannot
    be read, has no record, or records files left out as bad (no stamp vouches for such an index)."""
    try:
        manifest = (directory / MANIFEST).read_bytes()
        corpus = json.loads(manifest).get("corpus")
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(corpus, dict) or corpus.get("skipped"):
        return None
    return manifest, corpus


def _digest(manifest: bytes) -> str:
    return hashlib.sha256(manifest).hexdigest()
