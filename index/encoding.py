"""What every text encoder shares: argument checks, longest-first slicing, progress, one query."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np


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
        total = len(texts)
        step = max(self._slice_size(batch_size, total, progress), 1)
        out = np.empty((total, self.dim), dtype=np.float32)
        # Longest first over the whole input, so texts of similar length share a batch and pad little.
        order = sorted(range(total), key=lambda i: -len(texts[i]))
        for start in range(0, total, step):
            rows = order[start : start + step]
            out[rows] = self._embed_slice([texts[i] for i in rows], batch_size)
            if progress is not None:
                progress(start + len(rows), total)
        return out

    def encode_query(self, text: str) -> np.ndarray:
        """Embed one text as a (dim,) float32 unit vector."""
        return self.encode([text], batch_size=1)[0]
