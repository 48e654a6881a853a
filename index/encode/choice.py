"""Which encoder an index is built, embedded and asked with: the one place that decides.

- ``choose_encoder``: the model given, or the model adapted to the corpus (``index.encode.adapt``),
  at full precision or through the int8 export (``index.encode.quantize``); what an index was built
  with is kept unless told otherwise.
- ``build_encoders``: what a build records as the query encoder (the model's ONNX export in the
  cache, float or int8) and what embeds its texts (that export, else sentence-transformers).
- ``query_encoder``: what an opened index asks with: the model in numpy when its vectors came from
  the float export and the model folder is still that model, else its export from the cache when
  it verifies, else sentence-transformers.
- ``restore_query_encoder``: a fresh index's export put back when it was pruned from the cache.

``RELNOTES_ONNX=0`` keeps every one of them on sentence-transformers (the reference: no export and
no numpy forward pass either).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import IndexCorrupt, IndexMissing, QueryEncoderUnavailable
from ..store.layout import QUERY_ENCODER, QUERY_TOKENIZER
from ..store.manifest import Manifest, read_manifest, verify_files

ONNX_ENV = "RELNOTES_ONNX"  # "0" keeps queries and builds on sentence-transformers


def onnx_allowed() -> bool:
    """Whether the ONNX exports may be used (``RELNOTES_ONNX`` is not "0")."""
    return os.environ.get(ONNX_ENV, "").strip() != "0"


Notify = Callable[[str], None]


def choose_encoder(directory: Path, model_path: Path | None, chunks: Callable[[], list], fingerprint: str, *,
                   adapt: bool | None = None, quantize: bool | None = None, notify: Notify | None = None):
    """The encoder for the index at ``directory``.

    Args:
        directory: the index directory (its manifest, when there is one, says what built it).
        model_path: the model asked for; the bundled model when None.
        chunks: gives every chunk of the corpus (called only to adapt).
        fingerprint: the corpus fingerprint (part of an adapted model's key).
        adapt: True adapts (or reuses the cached adaptation to this corpus), False the model
            itself, None as the index was built.
        quantize: True through the int8 export (the caller checks the answers: qa.eval.quantcheck),
            False full precision, None as built.
        notify: one-line notices (training, a refused int8, a pruned adapted model).

    Raises:
        AdaptError: ``adapt`` on a corpus with too few list items.
    """
    from .encoders import Encoder

    base = Encoder(model_path)
    manifest = _manifest(directory)
    model = manifest.model if manifest is not None else {}
    # index.encode.adapt and index.encode.quantize are imported only when asked for or recorded: not on the
    # question path of a plain index.
    if adapt:
        from .adapt import adapt as adapt_model
        from .adapt import adapted_encoder

        encoder = adapted_encoder(adapt_model(base, chunks(), fingerprint, notify=notify))
    elif adapt is None and "adapted" in model:
        from .adapt import kept_encoder

        encoder = kept_encoder(manifest, base, notify)
    else:
        encoder = base
    if quantize is False or (not quantize and "quantized" not in model):
        return encoder
    from .quantize import kept, mark, quantized_encoder

    previous = kept(manifest, encoder)
    if previous is not None:  # built quantized: kept (the check ran when it was first asked for)
        return mark(encoder, previous)
    if not quantize:
        return encoder
    if not onnx_allowed():
        if notify:
            notify(f"Not quantized ({ONNX_ENV}=0 keeps sentence-transformers, which has no int8 path); "
                   "built at full precision")
        return encoder
    return quantized_encoder(encoder, notify)


def _manifest(directory: Path) -> Manifest | None:
    """The index's manifest, or None when there is no readable one."""
    try:
        return read_manifest(directory)
    except (IndexMissing, IndexCorrupt):
        return None


def restore_query_encoder(loaded, encoder, notify: Notify | None, *, for_questions: bool = False) -> None:
    """Export the ONNX query encoder again when a fresh index's entry is gone from the cache.

    The check is a few stats and a small JSON read (the question path stays fast); only a
    missing or incomplete entry costs the export (torch, the model and the export: about 8 s).
    ``for_questions`` (an index opened to answer) skips it when the questions can be embedded in
    numpy (that encoder made, and handed to ``loaded``): a build that embeds exports it again.
    A failed export leaves queries on sentence-transformers, as at build time.
    """
    from .encoder_cache import entry_present

    info = loaded.manifest.model.get("query_encoder")
    if not isinstance(info, dict) or "key" not in info or not onnx_allowed():
        return
    if entry_present(info):
        return
    if for_questions:  # the model folder hashed once (~0.12 s) and stamped; the encoder asks at once
        found = _numpy_query_encoder(loaded.manifest, str(loaded.manifest.model.get("path", "")), verify=True)
        if found is not None:
            loaded.set_encoder(found)
            return
    from .onnx_export import cached_query_encoder

    if notify:
        notify(f"Exporting the ONNX query encoder of {encoder.name} again (missing from the cache)")
    if "quantized" in info:  # the int8 export is made from the float one
        from .quantize import quantized_record

        record = cached_query_encoder(encoder, notify=notify)
        if record is not None and quantized_record(record) != info and notify:
            notify(f"The int8 export of {encoder.name} came out different; rebuild with: relnotes index --rebuild")
        return
    cached_query_encoder(encoder, notify=notify, expected=info)


def build_encoders(encoder, todo: int, notify: Notify | None = None,
                   sample: Sequence[str] = ()) -> tuple[dict | None, dict | None, object]:
    """What a build records and embeds with: (the query encoder's manifest record, the int8 recipe
    when it embeds through the int8 export, the embedder of its ``todo`` texts).

    The torch-free path (``index.encode.onnx_query``) is exported once per model into the user
    cache, reused by every index of that model (the manifest records only its key), and is the
    embedder of windows and sentences too, but on a CPU with bf16 arithmetic, where a large build
    (``index.encode.bf16``) embeds in bf16 once its vectors of ``sample`` (some of the texts to
    embed) agree with the export's. The int8 export (``encoder.quantized``) serves documents and
    questions; when it fails, the float export does.
    """
    from .encoder_cache import stamp_model
    from .onnx_export import cached_query_encoder

    state = _state_before_hashing(encoder)
    query = cached_query_encoder(encoder, notify=notify)
    if query is not None and state is not None:  # the export hashed the folder to this key: questions need not
        stamp_model(query["key"], encoder.path, state)
    quantized = getattr(encoder, "quantized", None)
    if quantized and query is not None:
        from .quantize import quantized_record

        try:
            query = quantized_record(query)
        except Exception as exc:  # noqa: BLE001 - the float export serves instead
            quantized = None
            if notify:
                notify(f"The int8 export failed ({type(exc).__name__}); embedding at full precision")
    if not todo:
        return query, quantized, encoder
    embedder = document_encoder(encoder, query, notify)
    if embedder is not encoder and not quantized:
        from . import bf16

        if bf16.wanted(query, todo):
            faster = bf16.bf16_encoder(encoder, query, embedder, sample, notify)
            if faster is not None:
                if notify:
                    notify(f"Embedding {todo:,} texts in bf16 arithmetic (this CPU has it; {bf16.BF16_ENV}=0 for fp32)")
                embedder = faster
    return query, quantized, embedder


def _state_before_hashing(encoder) -> dict | None:
    """The model folder's file sizes and times, taken before the export hashes it (None: no folder)."""
    from .encoder_cache import folder_state

    path = getattr(encoder, "path", None)
    try:
        return folder_state(path) if path is not None and Path(path).is_dir() else None
    except OSError:
        return None


def document_encoder(encoder, record: dict | None, notify: Notify | None = None):
    """What embeds the build's windows and sentences: the model's ONNX export (``record``, from
    ``cached_query_encoder``) when there is one, faster than sentence-transformers and no torch
    import when the export is cached (docs/decisions/0103-int8-checked-on-questions.md has the
    texts a second of each); else ``encoder`` itself. Its vectors
    agree with sentence-transformers (cosine >= MIN_COSINE, checked at export), so an index may mix
    both. ``RELNOTES_ONNX=0`` keeps sentence-transformers."""
    from .encoder_cache import open_entry
    from .onnx_query import OnnxQueryEncoder

    if record is None or not onnx_allowed():
        return encoder
    try:
        return OnnxQueryEncoder(open_entry(record), record, name=encoder.name, path=str(encoder.path))
    except Exception as exc:  # noqa: BLE001 - any trouble with the export: the build goes on without it
        if notify:
            notify(f"{exc}; embedding with sentence-transformers")
        return encoder


def query_encoder(manifest: Manifest, directory: Path, *, verify: bool, notify: Notify):
    """The encoder an opened index asks with: the same model that built its vectors.

    In order: the model in numpy (``index.encode.numpy_query``: no onnxruntime, no torch) when the
    vectors came from its float export and the folder still hashes to the export's key; the
    model's ONNX export in the user cache (found by the key in the manifest) when there is one and
    it verifies (no torch import); otherwise, or with RELNOTES_ONNX=0, the sentence-transformers
    Encoder. An unusable export is said through ``notify``; a model the numpy path cannot take
    (an int8 index, another architecture, no safetensors) is not a fault and says nothing.
    """
    model_path = str(manifest.model.get("path", ""))
    found = _numpy_query_encoder(manifest, model_path, verify) if onnx_allowed() else None
    if found is None:
        found = _onnx_query_encoder(manifest, directory, model_path, verify, notify)
    if found is not None:
        return found
    from .encoders import Encoder

    return Encoder(model_path or None)


def _onnx_query_encoder(manifest: Manifest, directory: Path, model_path: str, verify: bool, notify: Notify):
    """The OnnxQueryEncoder of the index's model, or None (with a notice when it is unusable)."""
    info = manifest.model.get("query_encoder")
    if not onnx_allowed() or not isinstance(info, dict):
        return None
    from .encoder_cache import open_entry
    from .onnx_query import OnnxQueryEncoder

    try:
        if "key" in info:  # the export shared by every index of this model (index.encode.encoder_cache)
            entry = open_entry(info, verify=verify)
        elif QUERY_ENCODER in manifest.files:  # built before the cache: the export is inside
            if verify:
                verify_files(directory, manifest, [QUERY_ENCODER, QUERY_TOKENIZER])
            entry = directory
        else:
            return None
        return OnnxQueryEncoder(entry, info, name=str(manifest.model.get("name", "")), path=model_path)
    except (IndexCorrupt, QueryEncoderUnavailable) as exc:
        notify(f"{exc}; using sentence-transformers for queries")
        return None


def _numpy_query_encoder(manifest: Manifest, model_path: str, verify: bool):
    """The NumpyQueryEncoder of the index's model, or None when the ONNX path must serve.

    Only for vectors made by the model's float export (an int8 index keeps its int8 export), of a
    model folder that still qualifies (``export_spec``, the same spec) and still hashes to the
    export's key (``encoder_cache.model_matches``: a stamp, or one hash), with a
    ``model.safetensors`` holding every expected tensor (``numpy_query.Bert.load``).
    """
    info = manifest.model.get("query_encoder")
    if not isinstance(info, dict) or "quantized" in info or not isinstance(info.get("key"), str) or not model_path:
        return None
    from .encoder_cache import model_matches
    from .numpy_query import WEIGHTS_FILE, NumpyQueryEncoder
    from .onnx_export import export_recipe
    from .onnx_query import export_spec

    spec = {k: v for k, v in info.items() if k != "key"}
    if export_spec(model_path) != spec or not (Path(model_path) / WEIGHTS_FILE).is_file():
        return None
    if not model_matches(info["key"], model_path, export_recipe(spec), verify=verify):
        return None
    try:
        return NumpyQueryEncoder(model_path, info, name=str(manifest.model.get("name", "")))
    except QueryEncoderUnavailable:
        return None
