"""Which index answers for a corpus: where it lives, what the corpus is (the manifest's record of
it), and why an index no longer answers (stale) or cannot be read."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Sequence

from corpus import CorpusInput, Document, as_input
from corpus.model import CHUNKER_VERSION
from corpus.regex import lazy_compile

from ..errors import IndexCorrupt, IndexMissing
from ..retrieve.reader import LoadedIndex
from ..retrieve.tokenizer import TOKENIZER_VERSION, tokenizer_settings
from ..store.layout import SENTENCE_CHUNKS, SENTENCE_VECTORS, cache_root
from ..store.manifest import INDEX_FORMAT_VERSION, Manifest, read_manifest


def default_index_dir(paths: Sequence[Path | CorpusInput] | None, model_path: Path | None = None) -> Path:
    """One cache directory per corpus (its resolved input paths, and the products named) and model."""
    inputs = ["<bundled>"] if not paths else sorted(as_input(p).cache_key() for p in paths)
    key = json.dumps({"inputs": inputs, "model": str(Path(model_path).resolve()) if model_path else None})
    return cache_root() / hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def describe_corpus(documents: Sequence[Document], paths: Sequence[Path | CorpusInput] | None) -> dict:
    """Fingerprint and per-document content hashes of the loaded corpus, for the manifest (a change
    here bumps ``unchanged.RECORD_VERSION``: stamps kept for the old record must not vouch for it)."""
    docs = {
        d.id: {
            "source": d.source,
            "title": d.title,
            "version": d.version,
            "product": d.product,  # every chunk carries it: a renamed product is a changed document
            "sha256": hashlib.sha256(d.text.encode("utf-8")).hexdigest(),
            # and its other names, said only where there are some (a corpus without keeps its fingerprint)
            **({"other_names": list(d.other_names)} if d.other_names else {}),
        }
        for d in documents
    }
    blob = json.dumps(docs, sort_keys=True).encode("utf-8")
    return {
        "fingerprint": hashlib.sha256(blob).hexdigest(),
        "inputs": ["<bundled>"] if not paths else [str(as_input(p)) for p in paths],
        "documents": docs,
    }


def stale_reasons(manifest: Manifest, corpus: dict, encoder, bm25: dict) -> list[str]:
    """Why an index no longer answers for this corpus and model (empty when it is fresh)."""
    reasons = []
    if manifest.format_version != INDEX_FORMAT_VERSION:
        reasons.append(f"index format {manifest.format_version}, this relnotes writes {INDEX_FORMAT_VERSION}")
        return reasons
    if manifest.model.get("name") != encoder.name or manifest.model.get("path") != str(encoder.path):
        if manifest.model.get("name") == encoder.name:  # another copy of it (another install): say where
            reasons.append(f"built with model {encoder.name!r} at {manifest.model.get('path')}, asked for {encoder.path}")
        else:
            reasons.append(f"built with model {manifest.model.get('name')!r}, asked for {encoder.name!r}")
    if manifest.chunker_version != CHUNKER_VERSION:
        reasons.append(f"chunker {manifest.chunker_version} -> {CHUNKER_VERSION}")
    if manifest.tokenizer != {"version": TOKENIZER_VERSION, **tokenizer_settings()}:
        reasons.append("tokenizer settings changed")
    if manifest.bm25 != bm25:
        reasons.append("BM25 parameters changed")
    if not manifest.complete:
        pass  # a first stage (chunks and BM25): its vectors are to come, not out of date
    elif SENTENCE_VECTORS not in manifest.files:
        reasons.append("no sentence vectors (built by an older relnotes)")
    elif SENTENCE_CHUNKS not in manifest.files:
        reasons.append("no sentence map (built by an older relnotes)")
    if manifest.corpus.get("fingerprint") != corpus["fingerprint"]:
        old, new = manifest.corpus.get("documents", {}), corpus["documents"]
        added = len(new.keys() - old.keys())
        removed = len(old.keys() - new.keys())
        changed = sum(1 for k in new.keys() & old.keys() if new[k] != old[k])
        reasons.append(f"corpus changed ({added} added, {removed} removed, {changed} changed documents)")
    return reasons


NO_INDEX = "no index yet"
REBUILD = "rebuild requested"
NO_VECTORS = "its vectors are not built yet"
_FIX = lazy_compile(r"; rebuild it with: relnotes index( --rebuild)?$")


def reason(exc: Exception) -> str:
    """A corruption message as a staleness reason: the rebuild it asks for is what happens next."""
    return _FIX.sub("", str(exc))


def check(directory: Path, corpus: dict, encoder, dense: bool = False) -> tuple[LoadedIndex | None, list[str]]:
    """The index at ``directory`` (None if unusable) and why it is stale (empty when fresh).

    With ``dense`` the vectors are loaded (and checksum-verified) too; otherwise they are
    checked on first use.
    """
    from ..retrieve.bm25 import DEFAULT_PARAMS

    try:
        manifest = read_manifest(directory)
        reasons = stale_reasons(manifest, corpus, encoder, DEFAULT_PARAMS.to_json())
        if manifest.format_version != INDEX_FORMAT_VERSION:
            return None, reasons
        loaded = LoadedIndex(directory)
        if dense and not reasons and loaded.complete:
            loaded.dense()
            loaded.sentence_vectors()
        return loaded, reasons
    except IndexMissing:
        return None, [NO_INDEX]
    except IndexCorrupt as exc:
        return None, [reason(exc)]
