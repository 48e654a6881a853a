"""``relnotes index --quantize``: int8 weights for the model's ONNX export.

Dynamic int8 quantization of the transformer's matrix multiplications (per output channel; the
embeddings and layer norms stay float) embeds faster than the float export, with vectors close to
it. Whether answers hold is a property of the questions, not of the vectors, and no check on the
corpus alone predicted which question sets lose (docs/decisions/0103-int8-checked-on-questions.md).
So an index is built quantized only for a caller that checks the answers on question sets
(``qa.eval.quantcheck``, behind ``relnotes index --quantize --check QUESTIONS``). The quantized
export is a cache entry of its own (``index.encode.encoder_cache``), used for the documents and
the questions.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path

RECIPE = {"version": 1, "weights": "int8", "per_channel": True, "ops": ["MatMul"]}

Notify = Callable[[str], None]


def quantized_record(record: dict) -> dict:
    """The cache record of the int8 export made from the float export ``record`` (written when missing).

    Raises:
        QueryEncoderUnavailable, IndexWriteError, IndexBusy: the float export or the cache is unusable.
        ImportError, OSError, RuntimeError, ValueError: onnxruntime's quantizer failed.
    """
    from .encoder_cache import ensure_entry, open_entry

    source = open_entry(record)
    spec = {k: v for k, v in record.items() if k != "key"} | {"quantized": RECIPE}
    blob = json.dumps({"from": record["key"], "recipe": RECIPE}, sort_keys=True).encode("utf-8")
    key = hashlib.sha256(blob).hexdigest()[:16]

    def write(tmp: Path) -> None:
        import logging

        from onnxruntime.quantization import QuantType, quantize_dynamic

        shutil.copyfile(source / spec["tokenizer"], tmp / spec["tokenizer"])
        logging.disable(logging.WARNING)  # its advice to pre-process goes to the root logger, on stderr
        try:
            quantize_dynamic(str(source / spec["file"]), str(tmp / spec["file"]), weight_type=QuantType.QInt8,
                             per_channel=RECIPE["per_channel"], op_types_to_quantize=list(RECIPE["ops"]))
        finally:
            logging.disable(logging.NOTSET)

    ensure_entry(key, spec, write, about={"quantized_from": record["key"]})
    return {**spec, "key": key}


def quantized_encoder(encoder, notify: Notify | None = None):
    """``encoder`` marked for int8 embedding (``.quantized``: the recipe, for the manifest; the name
    gains " int8", so no vector is reused across precisions), or ``encoder`` itself when there is
    no export to quantize (said in a notice). The caller has the answers checked
    (``qa.eval.quantcheck``: ``relnotes index --quantize --check QUESTIONS``). Whether ONNX may be
    used at all is ``index.encode.choice``'s to say."""
    from .onnx_export import cached_query_encoder

    record = cached_query_encoder(encoder, notify=notify)
    try:
        if record is None:
            raise ValueError("the model has no ONNX export")
        quantized_record(record)
    except Exception as exc:  # noqa: BLE001 - onnxruntime's quantizer or the cache: build at full precision
        if notify:
            notify(f"Not quantized ({type(exc).__name__}: {exc}); built at full precision")
        return encoder
    return mark(encoder, {"recipe": RECIPE})


def mark(encoder, quantized: dict):
    """``encoder`` set to embed through the int8 export (``quantized``: the manifest's record of it)."""
    encoder.name = f"{encoder.name} int8"
    encoder.quantized = quantized
    return encoder


def kept(manifest, encoder) -> dict | None:
    """The manifest's int8 record when that index was built quantized from ``encoder``'s model, else None."""
    info = manifest.model.get("quantized") if manifest is not None else None
    if isinstance(info, dict) and manifest.model.get("name") == f"{encoder.name} int8":
        return info
    return None
