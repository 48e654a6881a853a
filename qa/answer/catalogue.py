"""The releases and products a corpus holds, and what to say when a question asks for one it lacks."""

from __future__ import annotations

from typing import Sequence

from corpus.model import Chunk
from corpus.versions import version_key, version_matches


class Catalogue:
    """Which releases of which products the chunks hold (a product of None: documents of no known product)."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        by_product: dict[str | None, set[str]] = {}  # product (None: unknown) -> its releases
        products: set[str] = set()
        self.chunks = chunks
        self._rows: dict[str, list[int]] = {}  # release -> the rows of its chunks
        for row, c in enumerate(chunks):
            if c.product:
                products.add(c.product)
            if c.version:
                by_product.setdefault(c.product, set()).add(c.version)
                self._rows.setdefault(c.version, []).append(row)
        self._releases_of = {p: tuple(sorted(v, key=version_key)) for p, v in by_product.items()}
        self.releases: tuple[str, ...] = tuple(sorted(set().union(*by_product.values()), key=version_key))
        self.products: tuple[str, ...] = tuple(sorted(products))

    def held(self, wanted: str, products: Sequence[str] = ()) -> bool:
        """Whether the corpus holds release ``wanted`` (of one of ``products``, when given)."""
        return any(version_matches(v, wanted) for v in self.releases_of(products))

    def releases_of(self, products: Sequence[str] = ()) -> tuple[str, ...]:
        """The releases the corpus holds of ``products`` (and of documents of no known product);
        every release when ``products`` is empty."""
        if not products:
            return self.releases
        held = {v for p in (*products, None) for v in self._releases_of.get(p, ())}
        return tuple(sorted(held, key=version_key))

    def groups(self) -> tuple[tuple[str | None, tuple[str, ...]], ...]:
        """Each product with its releases, oldest first; products in name order, no product last."""
        keys = sorted(self._releases_of, key=lambda p: (p is None, p or ""))
        return tuple((p, self._releases_of[p]) for p in keys)

    def matching(self, wanted: Sequence[str], products: Sequence[str] = ()) -> tuple[str, ...]:
        """The releases held (of ``products``) that answer for any of ``wanted`` ("2.13" -> 2.13.0, 2.13.1)."""
        return tuple(v for v in self.releases_of(products) if any(version_matches(v, w) for w in wanted))

    def in_range(self, span, products: Sequence[str] = ()) -> tuple[str, ...]:
        """The releases held (of ``products``) in the range ``span`` (a ``qa.model.ReleaseRange``), oldest first."""
        return tuple(v for v in self.releases_of(products) if span.contains(v))

    def chunks_of(self, versions: Sequence[str], products: Sequence[str] = ()) -> list[Chunk]:
        """The chunks of exactly these releases (of ``products`` and of no known product, when given), in order."""
        rows = sorted(r for v in set(versions) for r in self._rows.get(v, ()))
        wanted = set(products)
        return [self.chunks[r] for r in rows if not wanted or not self.chunks[r].product or self.chunks[r].product in wanted]

    def range_note(self, span, products: Sequence[str] = ()) -> str:
        """The refusal for a range that holds no release of the corpus (of ``products``)."""
        of = f" of {' or '.join(products)}" if products else ""
        held = self.releases_of(products)
        return (f"The corpus holds no release{of} {span.describe()} "
                f"({_holding(held, [span.since or span.until or ''])}).")

    def foreign_note(self, product: str) -> str:
        """The refusal for a product the corpus does not hold ("The corpus holds no Django; it has: PyTorch")."""
        return f"The corpus holds no {product}; {_products_note(self.products)}. Not answering from another product."

    def missing_note(self, missing: Sequence[str], products: Sequence[str] = ()) -> str:
        """The refusal for releases the corpus does not hold, saying what it has instead."""
        of = f" of {' or '.join(products)}" if products else ""
        return (
            f"The corpus holds no release {', '.join(missing)}{of} ({_holding(self.releases_of(products), missing)}); "
            "not answering from another release."
        )


def _products_note(products: Sequence[str]) -> str:
    return f"it has: {', '.join(products)}" if products else "its documents name no product"


def _holding(held: Sequence[str], missing: Sequence[str], most: int = 12) -> str:
    """What the corpus has instead: every release when few, else the count, the range and the
    releases on either side of the first one asked for."""
    if not held:
        return "it has no releases"
    if len(held) <= most:
        return f"it has: {', '.join(held)}"
    try:
        key = version_key(missing[0])
        at = sum(1 for v in held if version_key(v) < key)
    except ValueError:
        at = len(held)
    near = held[max(0, min(at - 2, len(held) - 4)) :][:4]
    return f"it has {len(held)} releases, {held[0]} to {held[-1]}; nearest: {', '.join(near)}"
