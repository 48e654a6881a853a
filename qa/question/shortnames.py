"""The shorter names people give a held plugin or namespace package: "xdist" for pytest-xdist,
"ruamel" for ruamel.yaml, and its name with spaces for its separators ("pytest cov").

A plugin named ``A-B`` (or ``A_B``) goes by ``B`` where ``A`` is a product the lists know (pytest,
flask, sphinx); a namespace package ``A.B`` by ``A`` (ruamel for ruamel.yaml). The part must be
its own: four letters or more, no product of its own ("mock" of pytest-mock is the mock
package), no platform, word of questions, common English word or word packages are named with
("extensions" of typing-extensions, "login" of flask-login). Two held products claiming one name
lose it.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from .names import common, vocabulary
from .vocabulary import NOT_NAMES

_SEPARATORS = re.compile(r"[-_.]")
MIN_LETTERS = 4
# words packages are named with: a plugin's part that is one of them names no one package
_GENERIC = frozenset("""extension extensions plugin plugins utils util tools tool helpers helper compat types stubs
    client server api sdk cli core lib libs ext contrib backend backends login auth admin cache mock mocks test tests
    testing async asyncio rest json yaml http html docs theme themes""".split())


def short_names(products: Sequence[str], taken: Mapping[str, str] = {}) -> dict[str, str]:
    """Lower-case shorter names -> held product, none a name ``taken`` already holds."""
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
    return {name: next(iter(held)) for name, held in claimed.items() if len(held) == 1 and name not in taken}


def _distinctive(part: str) -> bool:
    """Whether ``part`` could name only its package: no product, platform, question word or common word."""
    from .products import is_platform

    return (len(part) >= MIN_LETTERS and part.isalpha() and part not in NOT_NAMES and part not in _GENERIC
            and not is_platform(part) and not _known(part) and not common(part))


def _known(part: str) -> bool:
    """Whether the lists know ``part`` as a product (or an alias of one)."""
    from .products import known

    sources, aliases = vocabulary()
    return known(part) or part in sources or part in aliases
