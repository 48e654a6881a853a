"""The mentions in one text of a question: the range of releases it names, the releases it names
outside that range, and the products of the corpus it names. Each text is scanned once (twice when
it names a product by another name its metadata gives: then as named by its own)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from corpus.regex import lazy_compile

from .ranges import RangeMention, find_range
from .othernames import metadata_names, short_names
from .products import Named, held_names, named
from .releases import ReleaseQuery, find_releases


class Catalogue(Protocol):
    """What reading needs of a corpus: the releases and products it holds."""

    releases: tuple[str, ...]
    products: tuple[str, ...]
    # optional: ``mentions(name)``, whether the corpus's notes use a word (``products.named``), and
    # ``other_names``, product -> the other names its metadata gives it (``products.held_names``)


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
    typed: tuple[str, ...] = ()  # the words naming a held product as typed ("python-build" for build)

    @property
    def rest(self) -> str:
        """The text without its range mention."""
        return self.outside(self.text, self.mention)

    @staticmethod
    def outside(text: str, mention: RangeMention | None) -> str:
        """``text`` without the range ``mention`` (a space where it was)."""
        return text if mention is None else text[: mention.span[0]] + " " + text[mention.span[1]:]


def scan(text: str, catalogue: Catalogue) -> Scan:
    """The mentions of ``text`` (a range, then releases outside it, then products, ``products.named``).

    A held product named by another name its metadata gives ("which pyca/cryptography release
    ...", ``othernames``) is read as named by its own ("which cryptography release
    ..."): the releases after it, the topic without it and retrieval then go as for its own name,
    and ``Scan.text`` is the question so read."""
    others = getattr(catalogue, "other_names", None)
    mentions = getattr(catalogue, "mentions", None)
    written, writers = getattr(catalogue, "writes", None), getattr(catalogue, "writers", None)
    products = named(text, catalogue.products, mentions, catalogue.releases, others, written, writers)
    # a shorter name ("xdist") or a metadata's is read as the product's own
    own = held_names(catalogue.products, short=False)
    renamed = _own_names(text, products, {**short_names(catalogue.products, own),
                                          **metadata_names(catalogue.products, others, own)})
    if renamed != text:
        text = renamed
        products = named(text, catalogue.products, mentions, catalogue.releases, others, written, writers)
    mention = find_range(text, catalogue.releases, catalogue.products)
    rest = Scan.outside(text, mention)
    parsed = find_releases(rest, known=catalogue.releases, products=catalogue.products)
    held = {n.product for n in products if n.held}
    return Scan(text, mention, parsed, tuple(p for p in catalogue.products if p in held),
                tuple(dict.fromkeys(n.typed for n in products if not n.held)),
                # not an API named by its product ("torch.compile"): that is what the question is about
                tuple(dict.fromkeys(w for n in products if n.held and "." not in n.typed for w in _typed(text, n))))


def _typed(text: str, name: Named) -> list[str]:
    """The words naming a held product as typed, with the owner of a repository's name ("pypa" of "pypa/build")
    or the owner named before it ("mrab" of "the mrab `regex` module")."""
    owner = _OWNER.search(text, 0, name.span[0])
    if owner is None and _WHAT_IT_IS.match(text, name.span[1]):
        owner = _OWNED.search(text, 0, name.span[0])
    return [*name.typed.lower().split(), *([owner.group(1).lower()] if owner else [])]


_OWNER = lazy_compile(r"(?<![\w./-])([\w.-]+)/$")
_OWNED = lazy_compile(r"\bthe\s+([\w.-]+)\s+[`'\"]?$", re.IGNORECASE)  # "the mrab `regex` module"
_WHAT_IT_IS = lazy_compile(r"[`'\"]?\s+(?:package|module|library|project)\b", re.IGNORECASE)


def _own_names(text: str, products: tuple[Named, ...], others: dict[str, str]) -> str:
    """``text`` with each held product named by one of its metadata's names (``others``) named by its own."""
    for n in sorted(products, key=lambda n: n.span, reverse=True):
        if n.held and n.typed.lower() in others:
            text = text[: n.span[0]] + n.product + text[n.span[1]:]
    return text
