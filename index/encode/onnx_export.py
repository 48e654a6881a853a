"""Build-time export of the model's transformer to ONNX, so queries can skip importing torch.

Runs inside ``build_index`` where the sentence-transformers model is (or will anyway be) loaded,
and in ``open_index`` when an index's export was pruned from the cache. The export goes to the
user cache once per model (``index.encode.encoder_cache``); an index only records its key. It is an
optimisation: when it is not possible or fails, the build goes on without it and queries keep
using sentence-transformers.
"""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Callable
from pathlib import Path

from .encoder_cache import ensure_entry, model_key
from ..errors import IndexBusy, IndexWriteError, QueryEncoderUnavailable
from .onnx_query import OnnxQueryEncoder, export_spec

OPSET = 17
MIN_COSINE = 0.9999
# The last probe is longer than any model's max_seq_length here: a wrong truncation length shows.
_PROBES = ("hello", "How do I turn on NVGEMM in Inductor?", "torch.compile " * 40,
           " ".join(f"release {n} fixed item {n}" for n in range(120)))
# What torch.onnx.export, onnx and onnxruntime raise when the export cannot be done here, and
# what the cache raises when its folder is not writable or stays locked.
_EXPORT_ERRORS = (ImportError, OSError, RuntimeError, ValueError, TypeError, AttributeError, KeyError,
                  IndexError, QueryEncoderUnavailable, IndexWriteError, IndexBusy)


def cached_query_encoder(encoder, *, notify: Callable[[str], None] | None = None,
                         expected: dict | None = None) -> dict | None:
    """The manifest record of the model's ONNX export in the user cache, exporting it if missing.

    A complete entry already in the cache (another index of the same model, or another process
    that just wrote it) is reused; otherwise the transformer is exported, checked against
    sentence-transformers and renamed into the cache.

    Args:
        encoder: the build's ``index.encode.encoders.Encoder``; any other encoder gets no export.
        notify: called with a one-line notice when the export fails.
        expected: an index's record to restore: nothing is exported unless the model still
            hashes to its key (a changed model folder needs a rebuild, not this export).

    Returns:
        ``{**export_spec, "key": ...}`` for the manifest, or None when there is no usable export.
    """
    if not callable(getattr(encoder, "sentence_transformer", None)):  # not a sentence-transformers Encoder
        return None
    spec = export_spec(encoder.path)
    if spec is None:
        return None
    try:
        key = model_key(encoder.path, export_recipe(spec))
        if expected is not None and expected != {**spec, "key": key}:
            if notify:
                notify(f"The model at {encoder.path} changed since the index was built; queries will load "
                       "sentence-transformers until it is rebuilt with: relnotes index --rebuild")
            return None
        ensure_entry(key, spec, lambda tmp: _export_into(encoder, tmp, spec),
                     about={"model": {"name": encoder.name, "path": str(encoder.path)}})
    except _EXPORT_ERRORS as exc:
        if notify:
            detail = str(exc).splitlines()[0] if str(exc) else "no detail"
            notify(f"Skipped the ONNX query encoder ({type(exc).__name__}: {detail}); "
                   "queries will load sentence-transformers")
        return None
    return {**spec, "key": key}


def export_recipe(spec: dict) -> dict:
    """What ``model_key`` hashes with the model's files for the export of ``spec``."""
    return {"spec": spec, "opset": OPSET}


def _export_into(encoder, tmp: Path, spec: dict) -> None:
    """Write the exported transformer and the model's tokenizer into ``tmp``, then check them."""
    shutil.copyfile(Path(encoder.path) / "tokenizer.json", tmp / spec["tokenizer"])
    _export(encoder, tmp / spec["file"])
    _check(encoder, tmp, spec)


def _export(encoder, path: Path) -> None:
    """Trace the transformer (token embeddings out) into an ONNX file with dynamic batch and length."""
    import torch

    model = encoder.sentence_transformer()  # the build's own model, loaded once per process
    transformer = model[0].auto_model

    class TokenEmbeddings(torch.nn.Module):
        """The transformer with positional inputs and the last hidden state as the only output."""

        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            )[0]

    batch = model.tokenizer(list(_PROBES[:2]), padding=True, return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {name: {0: "batch", 1: "sequence"} for name in [*names, "token_embeddings"]}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer and deprecation warnings are not the user's concern
        torch.onnx.export(
            TokenEmbeddings(transformer).eval(),
            tuple(batch[name] for name in names),
            str(path),
            input_names=names,
            output_names=["token_embeddings"],
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,
        )


def _check(encoder, tmp: Path, spec: dict) -> None:
    """Compare the exported path with sentence-transformers on a few texts; raise if they differ."""
    onnx = OnnxQueryEncoder(tmp, spec, name=encoder.name, path=str(encoder.path))
    cosines = (onnx.encode(list(_PROBES)) * encoder.encode(list(_PROBES))).sum(axis=1)
    if float(cosines.min()) < MIN_COSINE:
        raise ValueError(f"exported model disagrees with sentence-transformers (cosine {cosines.min():.6f})")
