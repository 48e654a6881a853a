"""Query-time encoder in numpy alone: the model's BERT forward pass on its own safetensors weights.

A cold ``relnotes ask`` spent about 0.3 s opening onnxruntime (its import and the inference
session) to embed one short question; numpy, already loaded for the search, does the few dozen
matrix products of all-MiniLM-L6-v2 in milliseconds. This module memory-maps the float32 tensors
of the model folder's ``model.safetensors`` (an 8-byte little-endian header length, a JSON header
of dtype, shape and data offsets, then the raw data: no library needed), tokenizes in Python with
``index.encode.wordpiece`` (the `tokenizers` library's ids from the same ``tokenizer.json``, without
loading the library; a file declaring another pipeline gets the library, as the ONNX path does),
and runs BERT: embeddings and their layer norm, post-norm transformer layers (exact-erf GELU, the
config's ``layer_norm_eps``), then mean pooling over real tokens and L2 normalisation. Its vectors
agree with the ONNX export and with sentence-transformers (cosine >= 0.9999, tested). Which index
may use it is ``index.encode.choice``'s to say (docs/decisions/0015-questions-embedded-in-numpy.md;
the tokenizer: 0018-questions-tokenized-in-python.md).

The map reads the file as it is on disk, pages on first use: model folders are never rewritten
in place (pip and ``relnotes index --adapt`` write new files), and mapping spares reading 90 MB
of which a question touches the layers and a few embedding rows.
"""

from __future__ import annotations

import json
import math
import mmap
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import QueryEncoderUnavailable
from ..runtime import configure_runtime, one_blas_thread
from .encoders import TextEncoder
# why: the attention scores of a pass are heads x width^2 floats; the ONNX path's budget of padded
# tokens keeps a pass of long texts near 13 MB here too (docs/decisions/0101-onnx-token-budget.md).
from .onnx_query import TOKEN_BUDGET, mean_pooled, padded, passes
from .wordpiece import load_query_tokenizer

WEIGHTS_FILE = "model.safetensors"
_HEADER_LIMIT = 100 << 20  # a safetensors header is a few KB; more is not a weights file
# Abramowitz & Stegun 7.1.26: erfc(z) = t * poly(t) * exp(-z^2), t = 1 / (1 + p z), z >= 0;
# absolute error below 1.5e-7 (tested against math.erf).
_P = np.float32(0.3275911)
_A = tuple(np.float32(a) for a in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592))
_SQRT_HALF = np.float32(math.sqrt(0.5))


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The float32 tensors of a safetensors file by name, memory-mapped read-only (others left out).

    Raises:
        OSError: the file cannot be read.
        ValueError: it is not a safetensors file, or a tensor lies outside it.
    """
    with open(path, "rb") as fh:
        head = fh.read(8)
        if len(head) != 8:
            raise ValueError(f"{path} is too short for a safetensors file")
        (size,) = struct.unpack("<Q", head)
        if size > _HEADER_LIMIT:
            raise ValueError(f"{path} has no safetensors header")
        header = json.loads(fh.read(size))
        data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)  # the map outlives the file object
    tensors = {}
    for name, spec in header.items():
        if name == "__metadata__" or spec.get("dtype") != "F32":
            continue
        start, end = (int(x) for x in spec["data_offsets"])
        shape = tuple(int(n) for n in spec["shape"])
        if not 0 <= start <= end <= len(data) - 8 - size or end - start != 4 * math.prod(shape):
            raise ValueError(f"tensor {name} of {path} lies outside the file")
        tensors[name] = np.frombuffer(data, dtype="<f4", count=math.prod(shape), offset=8 + size + start).reshape(shape)
    return tensors


@dataclass(frozen=True, slots=True)
class _Layer:
    """One transformer layer's weights (``torch.nn.Linear`` layout: out x in)."""

    query: tuple[np.ndarray, np.ndarray]
    key: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]
    attention_out: tuple[np.ndarray, np.ndarray]
    attention_norm: tuple[np.ndarray, np.ndarray]
    intermediate: tuple[np.ndarray, np.ndarray]
    out: tuple[np.ndarray, np.ndarray]
    out_norm: tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True, slots=True)
class Bert:
    """A BERT encoder's weights and shape, read from a model folder."""

    words: np.ndarray
    positions: np.ndarray
    token_types: np.ndarray
    embedding_norm: tuple[np.ndarray, np.ndarray]
    layers: tuple[_Layer, ...]
    heads: int
    eps: float

    @classmethod
    def load(cls, model_path: Path) -> Bert:
        """The weights of the BERT model in ``model_path`` (config.json and model.safetensors).

        Raises:
            QueryEncoderUnavailable: not a plain post-norm BERT with exact GELU and absolute
                positions, or its weights file is missing, unreadable or lacks a float32 tensor.
        """
        try:
            config = json.loads((model_path / "config.json").read_text(encoding="utf-8"))
            hidden, heads, layers = (int(config[k]) for k in ("hidden_size", "num_attention_heads", "num_hidden_layers"))
            inner, eps = int(config["intermediate_size"]), float(config["layer_norm_eps"])
            if (config.get("model_type") != "bert" or config.get("hidden_act") != "gelu" or hidden % heads
                    or config.get("position_embedding_type", "absolute") != "absolute"):
                raise ValueError("not a plain BERT with exact GELU and absolute positions")
            tensors = read_safetensors(model_path / WEIGHTS_FILE)
            prefix = "" if "embeddings.word_embeddings.weight" in tensors else "bert."

            def get(name: str, *shape: int) -> np.ndarray:
                found = tensors[prefix + name]
                if found.shape != shape:
                    raise ValueError(f"{name} has shape {found.shape}")
                return found

            def linear(name: str, n_out: int, n_in: int) -> tuple[np.ndarray, np.ndarray]:
                return get(f"{name}.weight", n_out, n_in), get(f"{name}.bias", n_out)

            def norm(name: str) -> tuple[np.ndarray, np.ndarray]:
                return get(f"{name}.weight", hidden), get(f"{name}.bias", hidden)

            words = tensors[prefix + "embeddings.word_embeddings.weight"]
            if words.ndim != 2 or words.shape[1] != hidden:
                raise ValueError(f"word embeddings have shape {words.shape}")
            return cls(
                words=words,
                positions=get("embeddings.position_embeddings.weight", int(config["max_position_embeddings"]), hidden),
                token_types=get("embeddings.token_type_embeddings.weight", int(config.get("type_vocab_size", 2)), hidden),
                embedding_norm=norm("embeddings.LayerNorm"),
                layers=tuple(
                    _Layer(
                        query=linear(f"encoder.layer.{i}.attention.self.query", hidden, hidden),
                        key=linear(f"encoder.layer.{i}.attention.self.key", hidden, hidden),
                        value=linear(f"encoder.layer.{i}.attention.self.value", hidden, hidden),
                        attention_out=linear(f"encoder.layer.{i}.attention.output.dense", hidden, hidden),
                        attention_norm=norm(f"encoder.layer.{i}.attention.output.LayerNorm"),
                        intermediate=linear(f"encoder.layer.{i}.intermediate.dense", inner, hidden),
                        out=linear(f"encoder.layer.{i}.output.dense", hidden, inner),
                        out_norm=norm(f"encoder.layer.{i}.output.LayerNorm"),
                    )
                    for i in range(layers)
                ),
                heads=heads,
                eps=eps,
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise QueryEncoderUnavailable(f"Cannot embed in numpy with the model at {model_path} ({exc})") from None

    def token_embeddings(self, input_ids: np.ndarray, attention_mask: np.ndarray,
                         token_type_ids: np.ndarray) -> np.ndarray:
        """The last hidden state (batch, length, hidden) of padded int inputs (batch, length)."""
        batch, length = input_ids.shape
        hidden = self.words.shape[1]
        x = self.words[input_ids] + self.positions[:length] + self.token_types[token_type_ids]
        x = _layer_norm(x.reshape(batch * length, hidden), self.embedding_norm, self.eps)
        # Padded keys get the lowest float before the softmax, as transformers' extended mask does.
        mask = np.where(attention_mask[:, None, None, :] > 0, 0, np.finfo(np.float32).min).astype(np.float32)
        for layer in self.layers:
            x = self._layer(x, layer, mask, batch, length)
        return x.reshape(batch, length, hidden)

    def _layer(self, x: np.ndarray, layer: _Layer, mask: np.ndarray, batch: int, length: int) -> np.ndarray:
        """One post-norm transformer layer over x (batch * length, hidden)."""
        hidden = x.shape[1]
        size = hidden // self.heads

        def heads(part: tuple[np.ndarray, np.ndarray]) -> np.ndarray:  # (batch, heads, length, size)
            return _linear(x, part).reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

        scores = (heads(layer.query) * np.float32(1 / math.sqrt(size))) @ heads(layer.key).transpose(0, 1, 3, 2)
        scores += mask
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ heads(layer.value)).transpose(0, 2, 1, 3).reshape(batch * length, hidden)
        x = _layer_norm(_linear(context, layer.attention_out) + x, layer.attention_norm, self.eps)
        return _layer_norm(_linear(_gelu(_linear(x, layer.intermediate)), layer.out) + x, layer.out_norm, self.eps)


def _linear(x: np.ndarray, part: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """x @ W.T + b, with W in ``torch.nn.Linear`` layout (the transpose is a view BLAS reads as is)."""
    weight, bias = part
    return x @ weight.T + bias


def _layer_norm(x: np.ndarray, part: tuple[np.ndarray, np.ndarray], eps: float) -> np.ndarray:
    """Layer normalisation over the last axis."""
    weight, bias = part
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(variance + np.float32(eps)) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU, x * Phi(x) = x * erfc(-x / sqrt 2) / 2, with erfc by A&S 7.1.26 (numpy has no erf)."""
    z = np.abs(x) * _SQRT_HALF
    t = 1 / (1 + _P * z)
    poly = _A[0]
    for a in _A[1:]:
        poly = poly * t + a
    tail = np.float32(0.5) * t * poly * np.exp(-z * z)  # Phi(-|x|)
    return x * np.where(x >= 0, 1 - tail, tail)


class NumpyQueryEncoder(TextEncoder):
    """Embeds texts like the sentence-transformers Encoder, in numpy from the model's safetensors."""

    def __init__(self, model_path: Path | str, info: dict, *, name: str) -> None:
        """Map the weights and read the tokenizer (a few ms; no onnxruntime, no torch, and for a
        BERT ``tokenizer.json`` such as the bundled model's no `tokenizers` either).

        Args:
            model_path: the model folder the vectors were built with (``model.safetensors``,
                ``config.json``, ``tokenizer.json``).
            info: the manifest's ``model["query_encoder"]`` record (``dim``, ``max_seq_length``).
            name: the model name the vectors were built with.

        Raises:
            QueryEncoderUnavailable: the tokenizer cannot be read (or, for a file
                ``index.encode.wordpiece`` leaves to it, tokenizers is missing), or the model folder
                is not a BERT this module reproduces (see ``Bert.load``).
        """
        self.name = name
        self.path = str(model_path)
        folder = Path(model_path)
        try:
            self.dim = int(info["dim"])
            self._max_length = int(info["max_seq_length"])
        except (KeyError, TypeError, ValueError):
            raise QueryEncoderUnavailable(f"The query encoder record of the model at {folder} is damaged") from None
        self._bert = Bert.load(folder)
        if self._bert.words.shape[1] != self.dim or self._max_length > len(self._bert.positions):
            raise QueryEncoderUnavailable(f"The model at {folder} does not match its index's query encoder record")
        configure_runtime()  # TOKENIZERS_PARALLELISM=false and friends, before tokenizers loads
        try:
            self._tokenizer, self._pad_id = load_query_tokenizer(folder / "tokenizer.json", self._max_length)
        except Exception as exc:  # noqa: BLE001 - tokenizers raises bare Exception subclasses here
            raise QueryEncoderUnavailable(f"Cannot load the tokenizer of the model at {folder} ({exc})") from None

    def __repr__(self) -> str:
        return f"NumpyQueryEncoder(name={self.name!r}, path={self.path!r})"

    def _embed_slice(self, texts: list[str], batch_size: int) -> np.ndarray:
        """Tokenize, run BERT, mean-pool over real tokens, normalise: at most ``batch_size`` texts
        and ``TOKEN_BUDGET`` padded tokens a pass."""
        out = [self._run(batch) for batch in passes(self._tokenizer.encode_batch(texts), batch_size, TOKEN_BUDGET)]
        return np.concatenate(out) if out else np.zeros((0, self.dim), dtype=np.float32)

    def _run(self, encodings: list) -> np.ndarray:
        """One forward pass over tokenized texts: their unit vectors."""
        feed = padded(encodings, self._pad_id)
        with one_blas_thread():
            tokens = self._bert.token_embeddings(feed["input_ids"], feed["attention_mask"], feed["token_type_ids"])
        return mean_pooled(tokens, feed["attention_mask"])
