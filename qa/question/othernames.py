"""The other names a held product goes by, besides its own and the lists' aliases:

- ``metadata_names``: those its distribution's metadata gives ("pyca/cryptography",
  "Python-Markdown", "dateutil": ``corpus.metadata``);
- ``short_names``: those people give a plugin or a namespace package: its name with spaces for its
  separators ("pytest cov"), a plugin ``A-B`` (or ``A_B``) of a product the lists know by ``B``
  ("xdist" for pytest-xdist), a namespace package ``A.B`` by ``A`` ("ruamel" for ruamel.yaml).
  Such a part must be its own: four letters or more, no English word ("socket" of pytest-socket,
  "settings" of pydantic-settings), no product of its own ("mock" of pytest-mock), platform,
  word of questions or word packages are named with ("timeout", "login"). A plugin's part named
  beside its parent ("which pytest version added a socket check?") is no name (``beside_parent``).

Two held products claiming one name lose it, and a name another product holds or goes by
(``taken``) is never one.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from corpus.regex import lazy_compile

from .names import common, english, is_platform, known, vocabulary
from .vocabulary import NOT_NAMES

_SEPARATORS = lazy_compile(r"[-_.]")
MIN_LETTERS = 4
# words packages are named with that the model's vocabulary lacks: a part that is one names no one package
_GENERIC = frozenset("""extensions plugins utils helpers compat stubs api sdk cli lib libs ext contrib backends
    login auth admin timeout timeouts backports benchmark asyncio async json yaml toml http html docs env dotenv
    cors jwt oauth orm sql db cache""".split())


def metadata_names(products: Sequence[str], other_names: Mapping[str, Sequence[str]] | None,
                   taken: Mapping[str, str] | None = None) -> dict[str, str]:
    """The other names of held ``products`` their metadata gives (``corpus.metadata``: "pyca/cryptography",
    "Python-Markdown", "dateutil"), lower case -> the product, that a question may name them by:
    not a name another product holds or goes by (``taken``, the well-known lists), nor one two
    products claim, nor a platform, a word of questions or (a name of one word) a common English word."""
    if not other_names:
        return {}
    taken = taken or {}
    sources, aliases = vocabulary()
    claimed: dict[str, set[str]] = {}
    for product in products:
        for other in other_names.get(product, ()):
            name = other.lower()
            if name in taken or name in NOT_NAMES or is_platform(name) or len(name) < 3:
                continue
            if "/" not in name and (common(name) or name in sources or name in aliases):
                continue  # "opencv" for opencv-python is OpenCV's own name, "core" anybody's
            claimed.setdefault(name, set()).add(product)
    return {name: next(iter(held)) for name, held in claimed.items() if len(held) == 1}


def short_names(products: Sequence[str], taken: Mapping[str, str] | None = None) -> dict[str, str]:
    """Lower-case shorter names of held ``products`` -> the product (see the module docstring)."""
    claimed: dict[str, set[str]] = {}
    for product in products:
        name = product.lower()
        parts = _SEPARATORS.split(name)
        if len(parts) < 2 or not all(parts):
            continue
        claimed.setdefault(" ".join(parts), set()).add(product)  # "pytest cov", "ruamel yaml"
        if len(parts) != 2:
            continue
        dotted = "." in name and not re.search(r"[-_]", name)
        own, other = (parts[0], parts[1]) if dotted else (parts[1], parts[0])
        if _distinctive(own) and (dotted or _known(other)):
            claimed.setdefault(own, set()).add(product)
    taken = taken or {}
    return {name: next(iter(held)) for name, held in claimed.items() if len(held) == 1 and name not in taken}


def beside_parent(typed: str, product: str, text: str) -> bool:
    """Whether ``typed``, a plugin's own part ("socket" of pytest-socket), stands in ``text`` beside
    the product it plugs into ("pytest"): then it is a word of the question about that product."""
    parts = _SEPARATORS.split(product.lower())
    if len(parts) != 2 or typed.lower() != parts[1] or "." in product:
        return False
    if is_platform(parts[0]) or not _known(parts[0]):
        return False  # "does dateutil support Python 3.13?" names python-dateutil
    return re.search(r"(?<![\w.-])" + re.escape(parts[0]) + r"(?![\w-])", text, re.IGNORECASE) is not None


def _distinctive(part: str) -> bool:
    """Whether ``part`` could name only its package: no English word, product, platform or question word."""
    return (len(part) >= MIN_LETTERS and part.isalpha() and part not in NOT_NAMES and part not in _GENERIC
            and not english(part) and not is_platform(part) and not _known(part))


def _known(part: str) -> bool:
    """Whether the lists know ``part`` as a product (or an alias of one)."""
    sources, aliases = vocabulary()
    return known(part) or part in sources or part in aliases
