"""An upgrade question read from the project's pin (``qa.question.pins``)."""

from __future__ import annotations

import pytest

from qa.model import ReleaseRange
from qa.question.pins import from_pin

PINS = {"pydantic": "2.5.3", "odd": "latest"}


@pytest.mark.parametrize("text, span, releases, products, expected", [
    ("what breaks if I upgrade pydantic?", None, (), ("pydantic",), (ReleaseRange("2.5.3"), "2.5.3")),
    ("is it safe to move to the latest pydantic?", None, (), ("pydantic",), (ReleaseRange("2.5.3"), "2.5.3")),
    ("what changed in pydantic since our version?", None, (), ("pydantic",), (ReleaseRange("2.5.3"), "2.5.3")),
    ("what's different since the version we use?", None, (), ("pydantic",), (ReleaseRange("2.5.3"), "2.5.3")),
    ("upgrading pydantic to 2.10, what breaks?", ReleaseRange(until="2.10"), (), ("pydantic",),
     (ReleaseRange("2.5.3", "2.10"), "2.5.3")),
    ("upgrading pydantic to 2.4", ReleaseRange(until="2.4"), (), ("pydantic",), None),  # the pin is already past it
    ("upgrading pydantic from 2.1 to 2.10", ReleaseRange("2.1", "2.10"), (), ("pydantic",), None),  # its own from
    ("what breaks in pydantic 2.9?", None, ("2.9",), ("pydantic",), None),  # one release asked
    ("what was removed in pydantic?", None, (), ("pydantic",), None),  # no upgrade wording
    ("what breaks if I upgrade flask?", None, (), ("flask",), None),  # not pinned
    ("what breaks if I upgrade?", None, (), ("pydantic", "odd"), None),  # which product is not said
    ("what breaks if I upgrade odd?", None, (), ("odd",), None),  # a pin that is no version
])
def test_from_pin(text, span, releases, products, expected) -> None:
    assert from_pin(text, span, releases, products, PINS) == expected
