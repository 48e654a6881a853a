"""An upgrade question read from the project's pin: with ``--project``, "what breaks if I upgrade
pydantic?" asks about the releases after the version the project is on, and "upgrading pydantic to
2.10" about those after it up to 2.10. Only an upgrade question naming no from-release of its own
about one product the project pins is read so; every other question keeps its own range.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from corpus.regex import lazy_compile
from corpus.versions import version_key

from ..model import ReleaseRange

# Words of a person about to upgrade (narrower than an upgrade digest's wording: "removed" alone
# asks what was removed, not what lies ahead of the pin).
_UPGRADING = lazy_compile(
    r"\bupgrad|\bbump|\bmigrat|\bbr(?:eak|oke)|\bincompatib|\bsafe\s+to\b|\bgotchas?\b|\bwatch\s+out\b"
    r"|\bwhat(?:'s|\s+is)\s+new\s+since\b|\bmove\s+to\s+the\s+(?:latest|newest)\b"
    r"|\b(?:since|after|from)\s+(?:our|my|the\s+(?:current|pinned))\s+(?:version|pin|release)\b"
    r"|\b(?:since|after|from)\s+(?:what|the\s+version)\s+(?:we|i)\s+(?:use|have|run|pin)",
    re.IGNORECASE,
)


def from_pin(text: str, span: ReleaseRange | None, releases: Sequence[str], products: Sequence[str],
             pins: Mapping[str, str]) -> tuple[ReleaseRange, str] | None:
    """The range an upgrade question asks about from the project's pin, and the pin; None when
    the question is no upgrade, names a from-release, names no one pinned product, or the pin is
    not before the release it upgrades to.

    Args:
        text: the question's words.
        span: the range it names or was given (None for none).
        releases: the releases it names outside a range.
        products: the one product it is about (more, or none, and there is no pin to read).
        pins: each product's pin (``corpus.packages.Project``), e.g. {"pydantic": "2.5.3"}.
    """
    if len(products) != 1 or not _UPGRADING.search(text):
        return None
    pin = pins.get(products[0])
    if not pin or (span is None and releases) or (span is not None and span.since is not None):
        return None
    try:
        if span is not None and span.until is not None and version_key(pin) >= version_key(span.until):
            return None
        return ReleaseRange(pin, span.until if span else None, span.until_inclusive if span else True), pin
    except ValueError:  # a pin that is no version ("latest", a git ref): no range from it
        return None
