"""The names a question may call a held product by: its own ("pydantic"), and before its version or
"release" the other names that are part of it ("dateutil" of python-dateutil, "xdist" of pytest-xdist)."""

from __future__ import annotations

import re
from functools import lru_cache

from corpus.versions import product_names


def product_words(products: tuple[str, ...]) -> set[str]:
    """Every word that names one of ``products`` (``corpus.versions.product_names``), lower-cased."""
    return {name for p in products if p for name in product_names(p)}


@lru_cache(maxsize=8)
def called(products: tuple[str, ...]) -> frozenset[str]:
    """Every name a question may call a held product by before its version or "release": its own and
    the other names that are part of it (``products.held_names``: "which dateutil release", "dateutil
    2.8.1" of python-dateutil, "xdist" of pytest-xdist, "rustc" of Rust), not a tool of it with versions
    of its own ("cargo 0.72", "clippy 0.1.70" are no Rust releases)."""
    from .products import held_names  # the well-known names' lists, read only when a question is

    def part_of(name: str, product: str) -> bool:
        bare, whole = re.sub(r"[-_. ]", "", name), re.sub(r"[-_. ]", "", product.lower())
        return bare in whole or whole in bare

    return frozenset(product_words(products)) | frozenset(n for n, p in held_names(products).items() if part_of(n, p))
