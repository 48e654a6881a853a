"""Index-time export of the model's transformer to ONNX, so queries can skip importing torch.

Runs inside ``build_index`` where the sentence-transformers model is (or will anyway be) loaded.
The export is an optimisation: when it is not possible or fails, the build goes on without it
and queries keep using sentence-transformers.
"""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Callable
from pathlib import Path

from .errors import IndexCorrupt, IndexMissing, QueryEncoderUnavailable
from .manifest import read_manifest, verify_files
from .onnx_query import OnnxQueryEncoder, export_spec

OPSET = 17
MIN_COSINE = 0.9999
_PROBES = ("hello", "How do I turn on NVGEMM in Inductor?", "torch.compile " * 40)
# What torch.onnx.export, onnx and onnxruntime raise when the export cannot be done here.
_EXPORT_ERRORS = (ImportError, OSError, RuntimeError, ValueError, TypeError, AttributeError, KeyError,
                  IndexError, QueryEncoderUnavailable)


def write_query_encoder(
    tmp: Path, encoder, *, previous: Path | None = None, notify: Callable[[str], None] | None = None
) -> dict | None:
    """Write ``query_encoder.onnx`` and ``query_tokenizer.json`` into ``tmp`` when the model allows.

    Args:
        tmp: the temporary build directory.
        encoder: the build's ``index.encoders.Encoder``; any other encoder gets no export.
        previous: the index being replaced; its exported files are reused when they still match.
        notify: called with a one-line notice when the export fails.

    Returns:
        The manifest record (``export_spec``) for the written files, or None when nothing was written.
    """
    if not callable(getattr(encoder, "sentence_transformer", None)):  # not a sentence-transformers Encoder
        return None
    spec = export_spec(encoder.path)
    if spec is None:
        return None
    files = (tmp / spec["file"], tmp / spec["tokenizer"])
    try:
        if not _reuse(previous, encoder, spec, tmp):
            shutil.copyfile(Path(encoder.path) / "tokenizer.json", files[1])
            _export(encoder, files[0])
            _check(encoder, tmp, spec)
    except _EXPORT_ERRORS as exc:
        for path in files:
            path.unlink(missing_ok=True)
        if notify:
            detail = str(exc).splitlines()[0] if str(exc) else "no detail"
            notify(f"Skipped the ONNX query encoder ({type(exc).__name__}: {detail}); "
                   "queries will load sentence-transformers")
        return None
    return spec


def _reuse(previous: Path | None, encoder, spec: dict, tmp: Path) -> bool:
    """Copy the exported files of the index being replaced when they were made the same way."""
    if previous is None:
        return False
    try:
        manifest = read_manifest(previous)
        if manifest.model.get("path") != str(encoder.path) or manifest.model.get("query_encoder") != spec:
            return False
        verify_files(previous, manifest, [spec["file"], spec["tokenizer"]])
    except (IndexMissing, IndexCorrupt):
        return False
    for name in (spec["file"], spec["tokenizer"]):
        shutil.copyfile(previous / name, tmp / name)
    return True


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
