"""The releases and products a corpus holds, and the note for a question asking for one it lacks."""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable, Sequence

from corpus.model import Chunk
from corpus.regex import lazy_compile
from corpus.versions import version_key, version_matches

from ..model import Note

USED_IN = 2  # chunks a word of the notes' prose must be in to mend a slip to it
HOLDING_KEPT = 4096  # names whose chunks ``holding`` keeps found
_PROSE_WORD = lazy_compile(r"(?<![\w`.-])[a-z]{4,}(?![\w`(-])")
_JOINED_NAME = lazy_compile(r"(?<![\w.-])\w+(?:[-_]\w+)+(?![\w-])")  # "mako-render", "lxml_html_clean"


class Catalogue:
    """Which releases of which products the chunks hold (a product of None: documents of no known product)."""

    def __init__(self, chunks: Sequence[Chunk], mentions: Callable[[str], bool] | None = None) -> None:
        """``mentions(word)``: what reading a question asks to tell a dependency the notes talk about
        from a product they never name (``Engine._mentions``)."""
        self.mentions = mentions
        self._counted: dict[str, Counter] = {}  # what ``_in_chunks`` counted, by what it counts
        self._holding: dict[str, tuple[int, ...]] = {}  # what ``holding`` found, by the thing (lower case)
        # joined name -> how many chunks write it, and the products whose notes do (``_joined_names``)
        self._joined: tuple[Counter, dict[str, frozenset[str]]] | None = None
        by_product: dict[str | None, set[str]] = {}  # product (None: unknown) -> its releases
        products: set[str] = set()
        others: dict[str, dict[str, None]] = {}  # product -> the other names its metadata gives it
        self.chunks = chunks
        self._rows: dict[str, list[int]] = {}  # release -> the rows of its chunks
        for row, c in enumerate(chunks):
            if c.product:
                products.add(c.product)
                if c.other_names:
                    others.setdefault(c.product, {}).update(dict.fromkeys(c.other_names))
            if c.version:
                by_product.setdefault(c.product, set()).add(c.version)
                self._rows.setdefault(c.version, []).append(row)
        self._releases_of = {p: tuple(sorted(v, key=version_key)) for p, v in by_product.items()}
        self.releases: tuple[str, ...] = tuple(sorted(set().union(*by_product.values()), key=version_key))
        self.products: tuple[str, ...] = tuple(sorted(products))
        # "pyca/cryptography" for cryptography (``corpus.metadata``; ``qa.question.products.held_names``)
        self.other_names: dict[str, tuple[str, ...]] = {p: tuple(names) for p, names in sorted(others.items())}

    def uses(self, word: str) -> bool:
        """Whether the notes' prose uses ``word`` (lower case, not in code) in USED_IN chunks or more:
        a slip in a question is mended to such a word (``question.typos``)."""
        return self._in_chunks("prose words", _PROSE_WORD)[word] >= USED_IN

    def writes(self, name: str) -> bool:
        """Whether the notes write the joined name ``name`` ("mako-render": mako's command), any case, in
        USED_IN chunks or more (a plugin named once, "a crash when pytest-twisted is installed", is none)."""
        return self._joined_names()[0][name.lower()] >= USED_IN

    def writers(self, name: str) -> frozenset[str]:
        """The products whose notes write the joined name ``name`` (any case): "charset_normalizer" in requests'."""
        return self._joined_names()[1].get(name.lower(), frozenset())

    def holding(self, thing: str) -> tuple[int, ...]:
        """The rows of the chunks holding ``thing`` as written (any case, a whole name: not "model_validate" in
        "model_validate_json"), found on first ask of it (one pass over the notes)."""
        key = thing.lower()
        if key not in self._holding:
            if len(self._holding) >= HOLDING_KEPT:  # a server asked many names keeps the last ones only
                self._holding.clear()
            pattern = re.compile(r"(?<![\w-])" + re.escape(thing) + r"(?![\w-])", re.IGNORECASE)
            self._holding[key] = tuple(row for row, c in enumerate(self.chunks) if pattern.search(c.text))
        return self._holding[key]

    def _joined_names(self) -> tuple[Counter, dict[str, frozenset[str]]]:
        """For ``writes`` and ``writers``, one pass over the notes made on first use: how many chunks write
        each joined name (lower case), and the products whose chunks do ("" for a document of none)."""
        if self._joined is None:
            counts: Counter = Counter()
            by: dict[str, set[str]] = {}
            for chunk in self.chunks:
                names = {m.group(0).lower() for m in _JOINED_NAME.finditer(chunk.text)}
                counts.update(names)
                for name in names:
                    by.setdefault(name, set()).add(chunk.product or "")
            self._joined = (counts, {n: frozenset(p) for n, p in by.items()})
        return self._joined

    def _in_chunks(self, what: str, pattern) -> Counter:
        """How many chunks hold each match of ``pattern`` (lower case), counted on first use: one pass over
        the notes (~0.04 s a MB), made only when a question asks (``what`` names the count)."""
        if what not in self._counted:
            counts: Counter = Counter()
            for chunk in self.chunks:
                counts.update({m.group(0).lower() for m in pattern.finditer(chunk.text)})
            self._counted[what] = counts
        return self._counted[what]

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

    def before(self, version: str, product: str | None) -> str | None:
        """The last final release of ``product`` before ``version`` (not a pre-release: "2.15.0rc1" is no
        release a person stays on), None when ``version`` is its first."""
        held = self._releases_of.get(product, ())
        earlier = held[: held.index(version)] if version in held else ()
        return next((v for v in reversed(earlier) if not _PRE.search(v)), None)

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

    def range_note(self, span, products: Sequence[str] = ()) -> Note:
        """The refusal for a range that holds no release of the corpus (of ``products``)."""
        return Note("range_empty", products=tuple(products), held=self.releases_of(products), range=span)

    def foreign_note(self, products: Sequence[str]) -> Note:
        """The refusal for products the corpus does not hold ("The corpus holds no Django; it has: PyTorch")."""
        return Note("product_not_held", products=tuple(products), held=self.products)

    def missing_note(self, missing: Sequence[str], products: Sequence[str] = ()) -> Note:
        """The refusal for releases the corpus does not hold, with what it has instead."""
        return Note("release_not_held", releases=tuple(missing), products=tuple(products),
                    held=self.releases_of(products))


_PRE = lazy_compile(r"\d[._-]?(?:a|b|c|rc|alpha|beta|pre|preview|dev)\.?\d*$", re.IGNORECASE)
