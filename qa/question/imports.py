"""An import that fails after an upgrade, asked as which release took the name away: "`from natsort import
versorted` raises ImportError after an upgrade. Which release got rid of it?" asks which natsort release
removed ``versorted``, and nothing of imports, errors or upgrades the notes would have to say too."""

from __future__ import annotations

import re
from typing import Sequence

from corpus.regex import lazy_compile

from .asking import asking_sentence
from .changes import asked_kind

# the import failing: "raises ImportError", "ModuleNotFoundError", "cannot import name", "no longer imports"
_FAILED = lazy_compile(r"\b(?:ImportError|ModuleNotFoundError)\b|\bcan(?:not|['\u2019]t)\s+(?:be\s+)?import"
                       r"|\b(?:no\s+longer|fails?\s+to|unable\s+to|won['\u2019]t|(?:does|do)(?:n['\u2019]t|\s+not))\s+import"
                       r"|\bimports?\s+(?:now\s+)?(?:fail|broke|break|error)", re.IGNORECASE)
# what was imported: "from natsort import versorted", "cannot import name 'SqliteExtDatabase'", "No module named 'x.y'"
_IMPORTED = (lazy_compile(r"\bfrom\s+[A-Za-z_][\w.]*\s+import\s+\(?\s*([A-Za-z_]\w*)"),
             lazy_compile(r"\bimport\s+name\s+['\"`\u2018\u201c]?([A-Za-z_]\w*)", re.IGNORECASE),
             lazy_compile(r"\bno\s+module\s+named\s+['\"`\u2018\u201c]?([A-Za-z_][\w.]*\w)", re.IGNORECASE))


def import_removed(text: str, products: Sequence[str]) -> str | None:
    """The question a failing import asked as a removal reads as ("Which natsort release removed
    `versorted`?"), the first held product it names (``products``) kept; None when it names no failing
    import of a name, asks of another change ("... ImportError on Python 3.12. Which release fixed it?"), or
    its asking sentence does not point back to it ("Which NumPy release removed np.float?" is asked as it is) or
    asks of another thing: a version or support ("... cannot import name 'Literal' from 'typing'. Which
    itsdangerous release dropped Python 3.6?"), a dependency, the error."""
    if not _FAILED.search(text) or asked_kind(text) != "removed":
        return None
    name = next((m.group(1) for pattern in _IMPORTED if (m := pattern.search(text))), None)
    own = {w for p in products for w in re.split(r"[-_.\s]+", p.lower())}
    if name is None or set(name.lower().split(".")) & own:
        return None  # "No module named 'natsort'", marshmallow-dataclass's "dataclass": the product, not a name
    asking = asking_sentence(text, tuple(products)) or text
    if _OTHER_THING.search(asking) or not _POINTING.search(asking):
        return None  # "Which NumPy release removed np.float?" asks as it is
    product = f"{products[0]} " if products else ""
    return f"Which {product}release removed `{name}`?"


_POINTING = lazy_compile(r"\b(?:it|that|this|them|those|these)\b", re.IGNORECASE)
# an asking sentence of another thing than the name imported: a version, support, a dependency, the error itself
_OTHER_THING = lazy_compile(r"\d\.\d|\b(?:python|py|support\w*|depend\w*|requir\w*|need|error|exception|warning"
                            r"|fallback)\b", re.IGNORECASE)
