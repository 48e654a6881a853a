"""Opening the index of a corpus, building or updating it first when it is missing, stale or
damaged (``index.lifecycle.freshness`` says which), under the build lock."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from corpus import CorpusInput, corpus_stamp

from ..encode.choice import choose_encoder, restore_query_encoder
from ..errors import IndexCorrupt, IndexMissing, IndexStale
from ..retrieve.reader import LoadedIndex
from ..store.atomic import build_lock, recover
from .freshness import NO_INDEX, NO_VECTORS, REBUILD, check, default_index_dir, describe_corpus
from .skips import load_skipping
from .unchanged import keep_stamp, unchanged_corpus

if TYPE_CHECKING:  # pragma: no cover - the build's and the readers' modules load when needed, not on every open
    from corpus import Document

    from ..build.pipeline import BuildReport, Progress

Notify = Callable[[str], None]


def open_index(paths: Sequence[Path | CorpusInput] | None = None, **options) -> tuple[LoadedIndex, BuildReport | None]:
    """Load the index for a corpus, (re)building it when missing, stale, corrupt or asked to, stamped
    as in use by this process (``index.housekeeping.usage``: ``relnotes cache prune`` keeps it). A
    corpus unchanged since it was last read is not read again (``unchanged``).

    Args:
        paths: corpus files or folders (a CorpusInput names their product); None for the
            bundled release notes.
        index_dir, model_path: where the index lives (default_index_dir() when None); a local
            sentence-transformers model (the bundled model when None).
        rebuild: build from scratch even when the index is fresh.
        update: when False, a stale or missing index raises instead of being rebuilt.
        skip_bad: report bad input files through ``on_skip`` and go on without them (recorded: a later
            open without it skips them too while they are unchanged).
        notify: called with a one-line notice when the index is rebuilt and why.
        progress: called with (done, total, what) while embedding (``index.build.embedding``).
        dense: the caller will search the vectors: check them now (a damaged file is rebuilt, not a failed query).
        adapt: True embeds with the model adapted to this corpus (``index.encode.adapt``: trained now
            unless the cache holds it), False with the base model; None keeps what the index was
            built with.
        quantize: True embeds through the int8 export (``index.encode.quantize``; the caller checks the
            answers, as ``qa.eval.quantcheck`` does), False at full precision; None keeps what the
            index was built with.
        staged: with no index with vectors (none, a damaged one, a first stage), build or keep its chunks
            and BM25 only (``index.build.staged``; ``LoadedIndex.complete`` False): an open without it builds them.

    Returns:
        The loaded index and the build report (None when nothing was built).

    Raises:
        CorpusError: an input file is bad (and skip_bad is off, and the index was not built without it).
        IndexMissing: there is no index and update is False.
        IndexStale: the index is stale or damaged and update is False.
        IndexWriteError, IndexBusy, ModelNotFound: as raised by the build.
        AdaptError: ``adapt`` on a corpus with too few list items.
    """
    from ..housekeeping.usage import mark_used

    index_dir = options.get("index_dir")
    directory = Path(index_dir) if index_dir else default_index_dir(paths, options.get("model_path"))
    mark_used(directory)  # before reading it
    return _open_index(paths, **{**options, "index_dir": directory})


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
    staged: bool = False,
) -> tuple[LoadedIndex, BuildReport | None]:
    """``open_index`` (its arguments and errors) for the index directory chosen."""
    directory = Path(index_dir) if index_dir else default_index_dir(paths, model_path)
    stamp = corpus_stamp(paths)  # before reading: a file changed meanwhile changes it
    if not rebuild and adapt is None and quantize is None:  # as built, and unchanged since last read: not read again
        fresh = _unchanged(directory, model_path, stamp, dense=dense, update=update, staged=staged, notify=notify)
        if fresh is not None:
            return fresh, None
    documents, skipped = load_skipping(paths, directory, skip_bad=skip_bad, on_skip=on_skip)
    corpus = {**describe_corpus(documents, paths), **({"skipped": skipped} if skipped else {})}
    chunks = _LazyChunks(documents)
    del documents  # the chunks hold their text: a large corpus's files are not kept beside them
    encoder = choose_encoder(directory, model_path, chunks, corpus["fingerprint"], adapt=adapt, quantize=quantize,
                             notify=notify)
    current, reasons = (None, [REBUILD]) if rebuild else check(directory, corpus, encoder, dense)
    first_stage = reasons == [NO_INDEX] or (current is not None and not current.complete)  # a damaged one: rebuilt
    if _answering(current, reasons, encoder, staged=staged, update=update, notify=notify) is not None:
        keep_stamp(directory, stamp, corpus)
        return current, None
    reasons = reasons or [NO_VECTORS]
    if not update:
        _refuse(directory, reasons)

    def as_built_now():
        """The encoder once the lock is ours: as the index is built now (an --adapt may have landed), unless asked."""
        if adapt is None and quantize is None:
            return choose_encoder(directory, model_path, chunks, corpus["fingerprint"], notify=notify)
        return encoder

    if first_stage and not rebuild and (staged or current is None):  # BM25 first: others answer by it meanwhile
        first, report = _first_stage(directory, corpus, chunks, encoder, notify, reasons, keep=not staged)
        if staged:
            keep_stamp(directory, stamp, corpus)
            return first, report
        current, reasons = None, [NO_VECTORS]  # its chunks are not held through the build: they are ours
    found, current = [encoder, current, reasons], None  # _update lets go of the index it replaces
    opened = _update(directory, corpus, chunks, found, again=None if rebuild else as_built_now,
                     dense=dense, notify=notify, progress=progress)
    keep_stamp(directory, stamp, corpus)
    return opened


def _unchanged(directory: Path, model_path: Path | None, stamp: str | None, *, dense: bool, update: bool,
               staged: bool, notify: Notify | None) -> LoadedIndex | None:
    """The index, when its corpus is unchanged since last read (``unchanged``) and it is fresh
    and usable as ``_open_index`` asks; None sends the open the long way (reading the corpus)."""
    corpus = unchanged_corpus(directory, stamp)
    if corpus is None:
        return None
    encoder = choose_encoder(directory, model_path, _unread, corpus["fingerprint"], notify=notify)
    current, reasons = check(directory, corpus, encoder, dense)
    return _answering(current, reasons, encoder, staged=staged, update=update, notify=notify)


def _answering(current: LoadedIndex | None, reasons: list[str], encoder, *, staged: bool, update: bool,
               notify: Notify | None) -> LoadedIndex | None:
    """``current`` when it answers as it is (fresh, and complete or a first stage a staged open
    takes), its query encoder's export restored first when updates are allowed (for a staged open,
    one that answers, only where numpy cannot embed the questions); else None."""
    if reasons or not (current.complete or staged):
        return None
    if update and current.complete:  # a question needs the export only where numpy cannot serve it
        restore_query_encoder(current, encoder, notify, for_questions=staged)
    return current


def _unread() -> list:
    raise RuntimeError("the corpus was not read: an encoder as built needs no chunks")


def _refuse(directory: Path, reasons: list[str]) -> None:
    """Raise IndexMissing or IndexStale: the index would have to be built (``update`` is off)."""
    if reasons == [NO_INDEX]:
        raise IndexMissing(f"No index at {directory}; build it with: relnotes index")
    raise IndexStale(f"Index at {directory} is stale ({'; '.join(reasons)}); update it with: relnotes index")


def _first_stage(directory: Path, corpus: dict, chunks: _LazyChunks, encoder, notify: Notify | None,
                 why: list[str], keep: bool = False) -> tuple[LoadedIndex, BuildReport | None]:
    """Build the chunks and BM25 of a corpus with no vectors yet (``why``: the reasons found), under
    the lock (unless another process built them while we waited); ``keep`` the chunks for the
    vectors' build that follows."""
    from ..build.staged import build_lexical

    waiting = (lambda: notify(f"Waiting for another relnotes process that is building {directory} ...")) if notify else None
    with build_lock(directory, on_wait=waiting):
        recover(directory)
        current, reasons = check(directory, corpus, encoder)
        if not reasons:
            return current, None
        if notify and why == [NO_INDEX]:
            part = "" if keep else "the BM25 part of "
            notify(f"Building {part}the index at {directory} (the first use of this corpus) ...")
        elif notify:  # damaged (a first stage is never stale in its vectors): as any rebuild says it
            notify(f"Rebuilding index at {directory}: {'; '.join(why)}")
        report = build_lexical(directory, chunks(), encoder=encoder, corpus=corpus, lock=False)
    if keep:  # the vectors' build follows: nothing is read back (100k chunks twice over is 1 GB)
        return None, report
    chunks.drop()
    return LoadedIndex(directory), report


def _update(directory: Path, corpus: dict, chunks: _LazyChunks, found: list, *, again: Callable | None,
            dense: bool, notify: Notify | None, progress: Progress | None) -> tuple[LoadedIndex, BuildReport | None]:
    """Build the index under its lock, reusing what ``found`` (encoder, current index, reasons;
    emptied here, so the caller holds no index through the build) holds; ``again`` gives the
    encoder to check the index with once more after the lock is taken (None for a rebuild asked
    for)."""
    from ..build.pipeline import build_index

    encoder, current, reasons = found
    found.clear()
    waiting = (lambda: notify(f"Waiting for another relnotes process that is building {directory} ...")) if notify else None
    with build_lock(directory, on_wait=waiting):
        recover(directory)  # a build killed mid-swap left the index beside its place: put it back
        if again is not None:  # another process may have rebuilt it while we waited for the lock
            encoder = again()
            current, reasons = check(directory, corpus, encoder, dense)
            if not reasons and current.complete:
                restore_query_encoder(current, encoder, notify)
                return current, None
            reasons = reasons or [NO_VECTORS]
        if notify and reasons == [NO_INDEX]:  # a first build takes a while: say so, terminal or not
            notify(f"Building the index at {directory} (the first use of this corpus) ...")
        elif notify and reasons == [NO_VECTORS]:
            notify(f"Building the vectors of the index at {directory} (what an interrupted build embedded is kept) ...")
        elif notify and reasons != [REBUILD]:  # a rebuild asked for is known already
            notify(f"Rebuilding index at {directory}: {'; '.join(reasons)}")
        previous, previous_sentences = _reusable(current, encoder)
        # a first stage of this corpus, found fresh above (checksums verified): its BM25 is taken as it is
        first_stage = again is not None and current is not None and not current.complete and reasons == [NO_VECTORS]
        current = None  # the index being replaced: its chunks and BM25 are not held through the build
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
            lexical_from=directory if first_stage else None,
        )
    chunks.drop()  # the index reads its own from disk
    loaded = LoadedIndex(directory)
    # A model the build loaded asks at once; one it never loaded (it embedded through the export) is
    # left to query_encoder, numpy's path, not a sentence-transformers import (~15 s cold).
    if getattr(encoder, "loaded", True):
        loaded.set_encoder(encoder)
    return loaded, report


def _reusable(current: LoadedIndex | None, encoder) -> tuple[dict, dict]:
    """The window vectors and the sentence vectors of the index being replaced, by key, that the
    build may reuse (none from a damaged file)."""
    previous, previous_sentences = {}, {}
    if current is not None and current.complete:
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
    return previous, previous_sentences


class _LazyChunks:
    """Every chunk of the corpus, in corpus order, made on the first call (a fresh index needs none)."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self._documents, self._chunks = documents, None

    def __call__(self) -> list:
        if self._chunks is None:
            if self._documents is None:
                raise RuntimeError("the chunks were dropped after the build")
            from corpus import chunk_sections, parse_sections

            self._chunks = [c for d in self._documents for c in chunk_sections(d, parse_sections(d))]
            self._documents = None  # what the build needs of them is in the chunks now
        return self._chunks

    def drop(self) -> None:
        """Forget the chunks (and the documents, if they were never chunked)."""
        self._documents = self._chunks = None
