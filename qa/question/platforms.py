"""Where a question names another thing's versions, not the product's releases: a platform's ("Python 3.8
and 3.9", "CUDA 12.4"), a known product's ("Django 4.2"), an acronym's ("TLS 1.1 and 1.2"), or the minimum
Python a release raised ("raised the minimum python to 3.9")."""

from __future__ import annotations

import re

from corpus.regex import lazy_compile
from corpus.versions import VERSION


# "Python 3.8 and 3.9", "CUDA 12.4, 12.6 or 12.8": the numbers after a platform's are the platform's
_PLATFORM_RUN = lazy_compile(
    r"\b([A-Za-z][\w.+-]*)\s+v?" + VERSION + r"(?:\s*(?:,|/|\band\b|\bor\b|\bto\b|-|–|\bthrough\b|\bvs\.?"
    r"|\(\s*(?:and|or)?)\s*v?"  # "python 3.8 (and 3.6/3.7 along with it)"
    + VERSION + r")*", re.IGNORECASE)


def platform_spans(text: str, names: frozenset[str] = frozenset()) -> list[tuple[int, int]]:
    """Where ``text`` names a platform's versions ("Python 3.8 and 3.9"), or another thing's (a known
    product's, "Django 4.2 and 5.0", or an acronym's, "TLS 1.1 and 1.2"), or a minimum Python raised to one:
    no release of the product (``names``: the words that call the corpus's products, ``called.called``)."""
    found = [m for m in _PLATFORM_RUN.finditer(text)]
    raised = [m.span() for m in _RAISED_TO.finditer(text)]  # "raised the minimum python to 3.9"
    if not found:
        return raised
    from .products import is_platform, known

    return raised + [m.span() for m in found if is_platform(m.group(1).lower()) or (
        m.group(1).lower() not in names and (known(m.group(1).lower()) or _ACRONYM.fullmatch(m.group(1))))]


_ACRONYM = lazy_compile(r"[A-Z]{2,6}")  # "TLS", "HTTP", "SSL"
_RAISED_TO = lazy_compile(r"\b(?:rais|bump|requir)\w*\s+(?:the\s+)?(?:minimum\s+|required\s+|supported\s+)?(?:python|py|node(?:js)?"
                        r"|java|ruby|php|rustc?|msrv)(?:\s+version)?\s+to\s+v?" + VERSION, re.IGNORECASE)
