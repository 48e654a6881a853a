"""The mentions in one text of a question: the range of releases it names, the releases it names
outside that range, and the products of the corpus it names. Each text is scanned once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .ranges import RangeMention, find_range
from .products import named
from .releases import ReleaseQuery, find_releases


class Catalogue(Protocol):
    """What reading needs of a corpus: the releases and products it holds."""

    releases: tuple[str, ...]
    products: tuple[str, ...]
    # optional: ``mentions(name)``, whether the corpus's notes use a word (``products.named``)


@dataclass(frozen=True, slots=True)
class Scan:
    """One text's mentions: the range it names and where, its releases and topic outside that
    range, the products of the corpus it names anywhere, and the products it names that the
    corpus does not hold (as typed)."""

    text: str
    mention: RangeMention | None
    parsed: ReleaseQuery
    named: tuple[str, ...]
    foreign: tuple[str, ...] = ()

    @property
    def rest(self) -> str:
        """The text without its range mention."""
        return self.outside(self.text, self.mention)

    @staticmethod
    def outside(text: str, mention: RangeMention | None) -> str:
        """``text`` without the range ``mention`` (a space where it was)."""
        return text if mention is None else text[: mention.span[0]] + " " + text[mention.span[1]:]


def scan(text: str, catalogue: Catalogue) -> Scan:
    """The mentions of ``text`` (a range, then releases outside it, then products, ``products.named``)."""
    mention = find_range(text, catalogue.releases, catalogue.products)
    rest = Scan.outside(text, mention)
    parsed = find_releases(rest, known=catalogue.releases, products=catalogue.products)
    products = named(text, catalogue.products, getattr(catalogue, "mentions", None), catalogue.releases)
    held = {n.product for n in products if n.held}
    return Scan(text, mention, parsed, tuple(p for p in catalogue.products if p in held),
                tuple(dict.fromkeys(n.typed for n in products if not n.held)))
