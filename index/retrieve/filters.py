"""Which chunks a search may return: masks by release, product and kind of change, and the stub
chunks (no words of their own) that are never returned."""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from corpus.model import Chunk
from corpus.regex import lazy_compile
from corpus.textform import DEFINITION, index_form
from corpus.versions import version_key, version_matches


def release_mask(chunks: Sequence[Chunk], versions: Sequence[str]) -> np.ndarray:
    """Bool mask of the chunks whose release matches any of ``versions`` (each release the
    chunks hold is looked at once: a range passes hundreds of versions)."""
    wanted = set(versions)
    held = {c.version for c in chunks}
    series = [w for w in wanted if w.count(".") < 2]  # "2.13" holds 2.13.1: compared one by one
    exact = {_key(w) for w in wanted if w.count(".") >= 2} - {None}  # "2.13.0" is 2.13, trailing zeros aside
    matches = {v: v in wanted or (v is not None and _key(v) in exact) or any(version_matches(v, w) for w in series)
               for v in held}
    return np.fromiter((matches[c.version] for c in chunks), dtype=bool, count=len(chunks))


def _key(version: str) -> tuple | None:
    try:
        return version_key(version)
    except ValueError:
        return None


# What a chunk holds that is not words of its own: HTML tags and comments (anchors such as
# <a id="1.85.0-Language"></a>), lines that are nothing but one link ("[GitHub release](...)")
# and reference definitions ("[71269]: https://...").
_MARKUP = lazy_compile(r"<!--.*?-->|</?[A-Za-z][^<>]*>|^[ \t]*!?\[[^\]\n]*\]\([^)\n]*\)[ \t]*$", re.DOTALL | re.MULTILINE)


def stub_mask(chunks: Sequence[Chunk]) -> np.ndarray:
    """Bool mask of the chunks with no words of their own: only HTML anchors or comments, a
    lone link line ("[GitHub release](...)" under each pydantic release heading), or only
    reStructuredText markup (".. currentmodule:: numpy"). They stay in the index (no text is
    lost) but are never returned: their heading path names a release while they hold nothing
    that answers. Only short texts are looked at, so this is cheap."""
    return np.fromiter((len(c.text) < 400 and _no_words(c.text) for c in chunks), dtype=bool, count=len(chunks))


_WORD_CHAR = lazy_compile(r"[^\W_]")


def _no_words(text: str) -> bool:
    """No letter or digit outside markup: as Markdown sees it, or in the form the retrievers read."""
    return not _WORD_CHAR.search(_MARKUP.sub(" ", DEFINITION.sub(" ", text))) or not _WORD_CHAR.search(index_form(text))


def kind_mask(chunks: Sequence[Chunk], kinds: Sequence[str]) -> np.ndarray:
    """Bool mask of the chunks whose section is of any of ``kinds`` (``corpus.kinds``)."""
    wanted = set(kinds)
    return np.fromiter((c.kind in wanted for c in chunks), dtype=bool, count=len(chunks))


def product_mask(chunks: Sequence[Chunk], products: Sequence[str]) -> np.ndarray:
    """Bool mask of the chunks of any of ``products``, and of those whose product is unknown."""
    wanted = set(products)
    return np.fromiter((not c.product or c.product in wanted for c in chunks), dtype=bool, count=len(chunks))
