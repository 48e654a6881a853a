"""Query-time encoder on onnxruntime: the model's transformer exported at index time, no torch.

all-MiniLM-L6-v2 is a BERT transformer followed by mean pooling and L2 normalisation. The index
build exports the transformer to ``query_encoder.onnx`` and copies the model's ``tokenizer.json``,
once per model, into the user cache (``index.encode.encoder_cache``); this module tokenizes with the
``tokenizers`` library, runs the graph with onnxruntime and pools in numpy, which gives the
sentence-transformers vectors (cosine >= 0.9999) in a fraction of a second instead of the ~5 s
torch import.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .encoders import TextEncoder
from ..errors import QueryEncoderUnavailable
from ..store.layout import QUERY_ENCODER as ONNX_FILE
from ..store.layout import QUERY_TOKENIZER as TOKENIZER_FILE
from ..runtime import configure_runtime, cpu_count

EXPORT_VERSION = 1
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_SUPPORTED_MODEL_TYPES = ("bert",)
# why: onnxruntime keeps the memory of its largest pass, so a pass holds at most this many padded
# tokens (docs/decisions/0101-onnx-token-budget.md).
TOKEN_BUDGET = 1024


def _json(path: Path) -> Any:
    """A JSON file's content."""
    return json.loads(path.read_text(encoding="utf-8"))


def export_spec(model_path: Path | str | None) -> dict | None:
    """What to record for a model the ONNX path reproduces exactly, or None for any other model.

    Only a plain BERT sentence-transformers model qualifies: Transformer -> Pooling (mean only)
    -> Normalize, cased input left to the tokenizer, a ``tokenizer.json`` and a fixed
    ``max_seq_length``. Reads config files only (no torch).
    """
    if model_path is None:
        return None
    path = Path(model_path)
    try:
        modules = _json(path / "modules.json")
        kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
        if kinds != ["Transformer", "Pooling", "Normalize"] or modules[0].get("path", "") != "":
            return None
        pooling = _json(path / modules[1]["path"] / "config.json")
        # sentence-transformers before 6 sets one flag a mode; 6 writes "pooling_mode": "mean"
        modes = {k for k, v in pooling.items() if k.startswith("pooling_mode_") and v}
        if (modes != {"pooling_mode_mean_tokens"}) if modes else pooling.get("pooling_mode") != "mean":
            return None
        dim = pooling.get("word_embedding_dimension", pooling.get("embedding_dimension"))
        if _json(path / "config.json").get("model_type") not in _SUPPORTED_MODEL_TYPES:
            return None
        settings = _json(path / "sentence_bert_config.json")
        length = settings.get("max_seq_length")
        if length is None and (path / "tokenizer_config.json").is_file():
            # 6 keeps it in the tokenizer's config (a model it saved, e.g. relnotes index --adapt)
            length = _json(path / "tokenizer_config.json").get("model_max_length")
        if settings.get("do_lower_case") or not isinstance(length, int) or not isinstance(dim, int):
            return None
        if not (path / "tokenizer.json").is_file():
            return None
        return {
            "version": EXPORT_VERSION,
            "file": ONNX_FILE,
            "tokenizer": TOKENIZER_FILE,
            "inputs": list(INPUTS),
            "pooling": "mean",
            "normalize": True,
            "max_seq_length": length,
            "dim": dim,
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None


class OnnxQueryEncoder(TextEncoder):
    """Embeds texts like the sentence-transformers Encoder, from the model's exported ONNX graph."""

    def __init__(self, directory: Path, info: dict, *, name: str, path: str) -> None:
        """Open the ONNX session and the tokenizer now (about 0.3 s).

        Args:
            directory: the folder holding the exported files (a cache entry; the index directory
                itself for an index built before the cache).
            info: the manifest's ``model["query_encoder"]`` record (see export_spec).
            name: the model name the vectors were built with.
            path: the model folder the vectors were built with.

        Raises:
            QueryEncoderUnavailable: onnxruntime or tokenizers is missing, or a file cannot be read.
        """
        self.name = name
        self.path = path
        self.directory = Path(directory)
        try:
            self.dim = int(info["dim"])
            self._max_length = int(info["max_seq_length"])
            onnx_path = self.directory / str(info["file"])
            tokenizer_path = self.directory / str(info["tokenizer"])
        except (KeyError, TypeError, ValueError):
            raise QueryEncoderUnavailable(f"The ONNX query encoder record in {directory} is damaged") from None
        configure_runtime()  # TOKENIZERS_PARALLELISM=false and friends, before tokenizers loads
        try:
            import onnxruntime
            import tokenizers  # noqa: F401 - load_tokenizer's; a missing one is said here, as onnxruntime
        except ImportError as exc:
            raise QueryEncoderUnavailable(f"Cannot use the ONNX query encoder ({exc})") from None
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3  # errors only: no graph-optimisation chatter on stderr
        options.intra_op_num_threads = cpu_count()
        options.inter_op_num_threads = 1
        # Idle workers sleep instead of spinning, as OMP_WAIT_POLICY=PASSIVE does for faiss/torch.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self._session = onnxruntime.InferenceSession(
                str(onnx_path), options, providers=["CPUExecutionProvider"]
            )
            self._tokenizer, self._pad_id = load_tokenizer(tokenizer_path, self._max_length)
        except Exception as exc:  # noqa: BLE001 - both libraries raise bare Exception subclasses here
            raise QueryEncoderUnavailable(
                f"Cannot load the ONNX query encoder from {directory} ({type(exc).__name__}: "
                f"{str(exc).splitlines()[0] if str(exc) else 'no detail'})"
            ) from None
        self._inputs = [i.name for i in self._session.get_inputs()]

    def __repr__(self) -> str:
        return f"OnnxQueryEncoder(name={self.name!r}, directory={str(self.directory)!r})"

    def _embed_slice(self, texts: list[str], batch_size: int) -> np.ndarray:
        """Tokenize, run the graph, mean-pool over real tokens, normalise: ``batch_size`` texts a
        pass, fewer when they are long (at most ``TOKEN_BUDGET`` padded tokens a pass)."""
        out = [self._run(batch) for batch in passes(self._tokenizer.encode_batch(texts), batch_size, TOKEN_BUDGET)]
        return np.concatenate(out) if out else np.zeros((0, self.dim), dtype=np.float32)

    def _run(self, encodings: list) -> np.ndarray:
        """One forward pass over tokenized texts: their unit vectors."""
        feed = padded(encodings, self._pad_id)
        tokens = self._session.run(None, {name: feed[name] for name in self._inputs})[0]
        return mean_pooled(tokens, feed["attention_mask"])


def load_tokenizer(path: Path, max_length: int) -> tuple[Any, int]:
    """The model's ``tokenizer.json``, truncating at ``max_length`` and padding nothing (each pass
    pads to its longest text: the file may pin a fixed length), and the id it pads with."""
    import tokenizers

    tokenizer = tokenizers.Tokenizer.from_file(str(path))
    pad_id = int((tokenizer.padding or {}).get("pad_id", 0))
    tokenizer.enable_truncation(max_length=max_length)
    tokenizer.no_padding()
    return tokenizer, pad_id


def passes(encodings: list, batch_size: int, budget: int) -> list[list]:
    """Tokenized texts grouped into forward passes, in order: at most ``batch_size`` texts and
    ``budget`` padded tokens a pass (a text longer than the budget goes alone)."""
    out, batch, width = [], [], 0
    for e in encodings:
        wider = max(width, len(e.ids))
        if batch and (len(batch) == batch_size or (len(batch) + 1) * wider > budget):
            out.append(batch)
            batch, wider = [], len(e.ids)
        batch.append(e)
        width = wider
    if batch:
        out.append(batch)
    return out


def padded(encodings: list, pad_id: int) -> dict[str, np.ndarray]:
    """The model's int64 inputs (``INPUTS``) for one pass, padded to its longest text."""
    width = max(len(e.ids) for e in encodings)
    feed = {name: np.zeros((len(encodings), width), dtype=np.int64) for name in INPUTS}
    feed["input_ids"][:] = pad_id
    for row, e in enumerate(encodings):
        n = len(e.ids)
        feed["input_ids"][row, :n] = e.ids
        feed["attention_mask"][row, :n] = e.attention_mask
        feed["token_type_ids"][row, :n] = e.type_ids
    return feed


def mean_pooled(tokens: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
    """Token embeddings (batch, length, dim) averaged over real tokens, as float32 unit vectors."""
    mask = attention_mask[..., None].astype(np.float32)
    pooled = (tokens * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
