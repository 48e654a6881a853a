"""The index's life: where it lives (the user cache), whether it is stale, and opening it,
building or updating it first when it is missing, stale or damaged."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from corpus import CorpusInput, Document, as_input, chunk_sections, load_documents, parse_sections
from corpus.chunking import CHUNKER_VERSION

from ..errors import IndexCorrupt, IndexMissing, IndexStale
from ..store.atomic import build_lock, recover
from ..build.pipeline import BuildReport, Progress, build_index
from ..encode.choice import choose_encoder, restore_query_encoder
from ..store.layout import INDEXES, OPTIONAL_FILES, SENTENCE_CHUNKS, SENTENCE_VECTORS, cache_home
from ..store.manifest import FORMAT_VERSION, Manifest, read_manifest, verify_files
from ..retrieve.reader import LoadedIndex
from ..retrieve.tokenizer import TOKENIZER_VERSION, tokenizer_settings

Notify = Callable[[str], None]


def cache_root() -> Path:
    """The user cache directory for indexes (platformdirs)."""
    return cache_home() / INDEXES


def default_index_dir(paths: Sequence[Path | CorpusInput] | None, model_path: Path | None = None) -> Path:
    """One cache directory per corpus (its resolved input paths, and the products named) and model."""
    inputs = ["<bundled>"] if not paths else sorted(as_input(p).cache_key() for p in paths)
    key = json.dumps({"inputs": inputs, "model": str(Path(model_path).resolve()) if model_path else None})
    return cache_root() / hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def describe_corpus(documents: Sequence[Document], paths: Sequence[Path | CorpusInput] | None) -> dict:
    """Fingerprint and per-document content hashes of the loaded corpus, for the manifest."""
    docs = {
        d.id: {
            "source": d.source,
            "title": d.title,
            "version": d.version,
            "product": d.product,  # every chunk carries it: a renamed product is a changed document
            "sha256": hashlib.sha256(d.text.encode("utf-8")).hexdigest(),
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
    if manifest.format_version != FORMAT_VERSION:
        reasons.append(f"index format {manifest.format_version}, this relnotes writes {FORMAT_VERSION}")
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
    if SENTENCE_VECTORS not in manifest.files:
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


def _open_index(
    paths: Sequence[Path | CorpusInput] | None = None,
    *,
    index_dir: Path | None = None,
    model_path: Path | None = None,
    rebuild: bool = False,
    update: bool = True,
    skip_bad: bool = False,
    on_skip: Notify | None = None,
    notify: Notify | None = None,
    progress: Progress | None = None,
    dense: bool = False,
    adapt: bool | None = None,
    quantize: bool | None = None,
) -> tuple[LoadedIndex, BuildReport | None]:
    """Load the index for a corpus, (re)building it when missing, stale, corrupt or asked to.

    Args:
        paths: corpus files or folders (a CorpusInput names their product); None for the
            bundled release notes.
        index_dir: where the index lives; default_index_dir() when None.
        model_path: a local sentence-transformers model; the bundled model when None.
        rebuild: build from scratch even when the index is fresh.
        update: when False, a stale or missing index raises instead of being rebuilt.
        skip_bad: report bad input files through ``on_skip`` and go on without them.
        notify: called with a one-line notice when the index is rebuilt and why.
        progress: called with (done, total, what) while embedding (``index.build.embedding``).
        dense: the caller will search the vectors: check them now, so a damaged vectors file
            is rebuilt like any other instead of failing the first query.
        adapt: True embeds with the model adapted to this corpus (``index.encode.adapt``: trained now
            unless the cache holds it), False with the base model; None keeps what the index was
            built with.
        quantize: True embeds through the int8 export (``index.encode.quantize``; the caller checks the
            answers, as ``qa.quantcheck`` does), False at full precision; None keeps what the
            index was built with.

    Returns:
        The loaded index and the build report (None when nothing was built).

    Raises:
        CorpusError: an input file is bad (and skip_bad is off).
        IndexMissing: there is no index and update is False.
        IndexStale: the index is stale or damaged and update is False.
        IndexWriteError, IndexBusy, ModelNotFound: as raised by the build.
        AdaptError: ``adapt`` on a corpus with too few list items.
    """
    documents = load_documents(paths, skip_bad=skip_bad, on_skip=on_skip)
    corpus = describe_corpus(documents, paths)
    directory = Path(index_dir) if index_dir else default_index_dir(paths, model_path)
    chunks = _LazyChunks(documents)
    del documents  # the chunks hold their text: a large corpus's files are not kept beside them
    encoder = choose_encoder(directory, model_path, chunks, corpus["fingerprint"], adapt=adapt, quantize=quantize,
                             notify=notify)
    current, reasons = (None, [REBUILD]) if rebuild else _check(directory, corpus, encoder, dense)
    if not reasons:
        if update:
            restore_query_encoder(current, encoder, notify)
        return current, None
    if not update:
        if reasons == [NO_INDEX]:
            raise IndexMissing(f"No index at {directory}; build it with: relnotes index")
        raise IndexStale(f"Index at {directory} is stale ({'; '.join(reasons)}); update it with: relnotes index")
    waiting = (lambda: notify(f"Waiting for another relnotes process that is building {directory} ...")) if notify else None
    with build_lock(directory, on_wait=waiting):
        recover(directory)  # a build killed mid-swap left the index beside its place: put it back
        if not rebuild:  # another process may have rebuilt it while we waited for the lock
            if adapt is None and quantize is None:  # as it is built now (an --adapt may just have landed)
                encoder = choose_encoder(directory, model_path, chunks, corpus["fingerprint"], notify=notify)
            current, reasons = _check(directory, corpus, encoder, dense)
            if not reasons:
                restore_query_encoder(current, encoder, notify)
                return current, None
        if notify and reasons == [NO_INDEX]:  # a first build takes a while: say so, terminal or not
            notify(f"Building the index at {directory} (the first use of this corpus) ...")
        elif notify and reasons != [REBUILD]:  # a rebuild asked for is known already
            notify(f"Rebuilding index at {directory}: {'; '.join(reasons)}")
        previous, previous_sentences = {}, {}
        if current is not None:
            try:
                previous = current.previous_vectors()
            except IndexCorrupt:
                previous = {}
            try:  # sentence keys name the text, not the model: reuse only under the same model
                model = current.manifest.model
                same_model = (model.get("name"), model.get("path"), model.get("dim")) == (
                    encoder.name, str(encoder.path), encoder.dim)
                previous_sentences = current.previous_sentence_vectors() if same_model else {}
            except IndexCorrupt:
                previous_sentences = {}
        report = build_index(
            directory,
            chunks(),
            encoder=encoder,
            corpus=corpus,
            previous=previous,
            previous_sentences=previous_sentences,
            progress=progress,
            lock=False,
            notify=notify,
        )
    chunks.drop()  # the index reads its own from disk
    loaded = LoadedIndex(directory)
    loaded.set_encoder(encoder)
    return loaded, report


class _LazyChunks:
    """Every chunk of the corpus, in corpus order, made on the first call (a fresh index needs none)."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self._documents, self._chunks = documents, None

    def __call__(self) -> list:
        if self._chunks is None:
            if self._documents is None:
                raise RuntimeError("the chunks were dropped after the build")
            self._chunks = [c for d in self._documents for c in chunk_sections(d, parse_sections(d))]
            self._documents = None  # what the build needs of them is in the chunks now
        return self._chunks

    def drop(self) -> None:
        """Forget the chunks (and the documents, if they were never chunked)."""
        self._documents = self._chunks = None


NO_INDEX = "no index yet"
REBUILD = "rebuild requested"
_FIX = re.compile(r"; rebuild it with: relnotes index( --rebuild)?$")


def _reason(exc: Exception) -> str:
    """A corruption message as a staleness reason: the rebuild it asks for is what happens next."""
    return _FIX.sub("", str(exc))


def _check(directory: Path, corpus: dict, encoder, dense: bool = False) -> tuple[LoadedIndex | None, list[str]]:
    """The index at ``directory`` (None if unusable) and why it is stale (empty when fresh).

    With ``dense`` the vectors are loaded (and checksum-verified) too; otherwise they are
    checked on first use.
    """
    from ..retrieve.lexical import DEFAULT_PARAMS

    try:
        manifest = read_manifest(directory)
        reasons = stale_reasons(manifest, corpus, encoder, DEFAULT_PARAMS.to_json())
        if manifest.format_version != FORMAT_VERSION:
            return None, reasons
        loaded = LoadedIndex(directory)
        if dense and not reasons:
            loaded.dense()
            loaded.sentence_vectors()
        return loaded, reasons
    except IndexMissing:
        return None, [NO_INDEX]
    except IndexCorrupt as exc:
        return None, [_reason(exc)]


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
    from ..retrieve.lexical import DEFAULT_PARAMS

    documents = load_documents(paths, **load)
    corpus = describe_corpus(documents, paths)
    directory = Path(index_dir) if index_dir else default_index_dir(paths, model_path)
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
        reasons.append(_reason(exc))
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


def open_index(paths: Sequence[Path | CorpusInput] | None = None, **options) -> tuple[LoadedIndex, BuildReport | None]:
    """The index of a corpus, built or updated first as needed (``_open_index``'s arguments and
    errors), stamped as in use by this process (``index.housekeeping.usage``: ``relnotes cache prune`` keeps it)."""
    from ..housekeeping.usage import mark_used

    index_dir = options.get("index_dir")
    directory = Path(index_dir) if index_dir else default_index_dir(paths, options.get("model_path"))
    mark_used(directory)  # before reading it
    return _open_index(paths, **{**options, "index_dir": directory})
