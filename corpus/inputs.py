"""A corpus input: a file or folder of release notes, optionally with the product the user names."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .products import valid_product


@dataclass(frozen=True, slots=True)
class CorpusInput:
    """A file or folder to load; ``product``, when given, is every document's product under it
    (``--corpus httpx=notes/``). Two products for one path are two corpora. ``other_names``: the
    other names that product goes by, from its package's metadata (``relnotes add`` keeps them:
    ``corpus.metadata``)."""

    path: Path
    product: str | None = None
    other_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", Path(self.path))
        object.__setattr__(self, "other_names", tuple(self.other_names))
        if self.product is not None and not valid_product(self.product):
            raise ValueError(f"a product name must be non-empty, unpadded text without control characters, "
                             f"not {self.product!r}")
        if self.other_names and self.product is None:
            raise ValueError("other names need the product they name")
        bad = next((n for n in self.other_names if not isinstance(n, str) or not valid_product(n)), None)
        if bad is not None:
            raise ValueError(f"a product's other name must be non-empty, unpadded text, not {bad!r}")

    def __str__(self) -> str:
        return str(self.path) if self.product is None else f"{self.product}={self.path}"

    @property
    def label(self) -> str:
        """A short name to show (the file or folder name, with the product when one was named)."""
        return self.path.name if self.product is None else f"{self.product}={self.path.name}"

    def cache_key(self) -> str:
        """The input as part of an index's cache key: the resolved path (a plain input keeps
        the key it always had), or ``["product", "path"]`` when a product was named."""
        resolved = str(self.path.resolve())
        return resolved if self.product is None else json.dumps([self.product, resolved])


def as_input(item: Path | str | CorpusInput) -> CorpusInput:
    """A path (a plain input) or a CorpusInput, as a CorpusInput."""
    return item if isinstance(item, CorpusInput) else CorpusInput(Path(item))
