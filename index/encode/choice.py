"""Which encoder an index is built and asked with: the model given, or the model adapted to the
corpus (``index.encode.adapt``), at full precision or through the int8 export (``index.encode.quantize``);
what an index was built with is kept unless told otherwise. And the ONNX export of a fresh
index put back when it was pruned from the cache."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ..errors import IndexCorrupt, IndexMissing
from ..store.manifest import Manifest, read_manifest

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
        quantize: True through the int8 export (the caller checks the answers: qa.quantcheck),
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
    return quantized_encoder(encoder, notify) if quantize else encoder


def _manifest(directory: Path) -> Manifest | None:
    """The index's manifest, or None when there is no readable one."""
    try:
        return read_manifest(directory)
    except (IndexMissing, IndexCorrupt):
        return None


def restore_query_encoder(loaded, encoder, notify: Notify | None) -> None:
    """Export the ONNX query encoder again when a fresh index's entry is gone from the cache.

    The check is a few stats and a small JSON read (the question path stays fast); only a
    missing or incomplete entry costs the export (torch, the model and the export: about 8 s).
    A failed export leaves queries on sentence-transformers, as at build time.
    """
    from .encoder_cache import entry_present
    from ..retrieve.reader import ONNX_ENV

    info = loaded.manifest.model.get("query_encoder")
    if not isinstance(info, dict) or "key" not in info or os.environ.get(ONNX_ENV, "").strip() == "0":
        return
    if entry_present(info):
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
