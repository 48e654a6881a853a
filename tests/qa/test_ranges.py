"""The range parser and the question shapes, on many wordings and on what is no range."""

from __future__ import annotations

import pytest

from qa.question.releases import find_releases
from qa.question.ranges import find_range
from qa.errors import BadQuestion
from qa.question.shapes import kinds_named, shape_of, topic_of
from qa.model import ReleaseRange

KNOWN = ("0.24.0", "0.28.0", "1.5.0", "1.10", "1.10.13", "1.70.0", "1.80.0", "2.0", "2.9", "2.13", "2.14")
PRODUCTS = ("pydantic", "Rust", "httpx", "PyTorch")


@pytest.mark.parametrize(("question", "since", "until", "inclusive"), [
    ("what changed between 2.9 and 2.14?", "2.9", "2.14", True),
    ("what breaks if I upgrade pydantic from 1.10 to 2.0?", "1.10", "2.0", True),
    ("upgrading pydantic from 1.10 to 2.0", "1.10", "2.0", True),
    ("upgrading to 2.0 from 1.10", "1.10", "2.0", True),
    ("what's new since 1.70", "1.70", None, True),
    ("cargo changes since Rust 1.70.0", "1.70.0", None, True),
    ("anything after 0.24?", "0.24", None, True),
    ("does httpx follow redirects automatically since 0.24?", "0.24", None, True),  # since_inclusive below
    ("what was deprecated before 2.0", None, "2.0", False),
    ("fixes up to 2.0", None, "2.0", True),
    ("moving httpx 0.24 -> 0.28", "0.24", "0.28", True),
    ("2.9 → 2.14 migration", "2.9", "2.14", True),
    ("flex attention release:2.10..2.14", "2.10", "2.14", True),
    ("what changed in cargo's lockfile handling between 1.70 and 1.80", "1.70", "1.80", True),
    ("between pydantic 5.0 and 6.0", "5.0", "6.0", True),  # a product name vouches for both bounds
    ("we're stuck on pydantic 1.10, anything that'll break if we jump to 2.0?", "1.10", "2.0", True),
    ("we pinned 2.9, what breaks if we move to 2.14?", "2.9", "2.14", True),
    ("From V1.10 To V2.0", "1.10", "2.0", True),
    ("what changed in pydantic after 1.10 but before 2.0?", "1.10", "2.0", False),  # both bounds, apart
    ("since 0.24 and before 0.28", "0.24", "0.28", False),
])
def test_ranges(question: str, since: str | None, until: str | None, inclusive: bool) -> None:
    found = find_range(question, KNOWN, PRODUCTS)
    assert found is not None, question
    assert found.range == ReleaseRange(since, until, inclusive, since_inclusive=question.startswith("does"))
    start, end = found.span
    assert question[start:end].strip()  # where it is, so its bounds are not read as releases as well


@pytest.mark.parametrize("question", [
    "2.9 vs 2.14 speed",  # a comparison of two releases
    "python 3.10 support",  # another thing's version
    "since python 3.10, is the wheel smaller?",
    "since when is FlexAttention supported?",
    "what is new in 2.14",
    "set threads from 1.5x to 2.5x",  # quantities
    "from 2.14 to 2.9",  # backwards: two releases, no range
    "we use python 3.8, can we move to 3.12?",  # no release of the corpus
    "what changed in 2.14 and 2.13",
    "I am on python 2.8 and want to upgrade pydantic to 2.0, what breaks?",  # Python's version, not a bound
    "does pydantic 2.0 work with python 2.10 up to 2.13?",
    "cuda 2.9 to 2.13 upgrade",
])
def test_not_ranges(question: str) -> None:
    assert find_range(question, KNOWN, PRODUCTS) is None


def test_range_membership_and_series() -> None:
    span = ReleaseRange("1.10", "2.0")
    assert [v for v in ("1.9.2", "1.10", "1.10.13", "2.0a1", "2.0", "2.0.3", "2.1.0") if span.contains(v)] == [
        "2.0a1", "2.0", "2.0.3"]
    assert not ReleaseRange(None, "2.0", until_inclusive=False).contains("2.0b1")
    assert ReleaseRange(None, "2.0", until_inclusive=False).contains("1.10.13")
    assert ReleaseRange("2.14", "2.9").empty() and ReleaseRange("2.9", "2.9.1").empty()  # 2.9 is its series
    assert not ReleaseRange("2.9.0", "2.9.1").empty()
    assert span.describe() == "after 1.10 up to 2.0" and ReleaseRange(None, "2.0", False).describe() == "before 2.0"
    assert ReleaseRange("0.20", None, since_inclusive=True).contains("0.20.0")
    assert not ReleaseRange("0.20", None).contains("0.20.0")
    assert ReleaseRange("0.20", None, since_inclusive=True).describe() == "from 0.20"
    with pytest.raises(ValueError):
        ReleaseRange(None, None)


def shape(question: str, known=KNOWN, products=PRODUCTS):
    found = find_range(question, known, products)
    rest = question if found is None else question[: found.span[0]] + " " + question[found.span[1]:]
    parsed = find_releases(rest, known, products)
    return shape_of(question, topic_text=parsed.topic, releases=parsed.releases, ranged=found is not None,
                    which=parsed.which_release and not parsed.releases, products=products)


@pytest.mark.parametrize(("question", "name", "topic"), [
    ("what changed in 2.14?", "release", ""),
    ("what's new in PyTorch 2.14", "release", ""),
    ("2.14 release notes", "release", ""),
    ("what did pydantic 2.0 bring? heard it got faster validation", "release", "faster validation"),
    ("summarize the 2.13 release", "release", ""),
    ("what changed for MPS in 2.14?", "search", "MPS"),
    ("how many commits went into 2.14", "search", "many commits"),
    ("what breaks if I upgrade pydantic from 1.10 to 2.0?", "upgrade", ""),
    ("is it safe to upgrade from 2.9 to 2.14?", "upgrade", ""),
    ("going from 2.9 to 2.14, anything I need to fix in my test suite?", "upgrade", ""),
    ("what changed between 2.9 and 2.14", "range", ""),
    ("pytorch 2.9 -> 2.14, what broke?", "upgrade", ""),
    ("is 2.9 -> 2.14 a safe bump?", "upgrade", ""),
    ("what changed in cargo's lockfile handling between 1.70 and 1.80", "range", "cargo's lockfile handling"),
    ("history of FlexAttention", "history", "FlexAttention"),
    ("how has torch.compile changed over time?", "history", "torch.compile"),
    ("when did the fetcher change?", "history", "fetcher"),
    ("which release added deterministic FlexAttention backward?", "which", "deterministic FlexAttention backward"),
    ("when did pydantic drop python 3.7?", "which", "python 3.7"),
    ("first release with FlexAttention on MPS", "which", "FlexAttention MPS"),
    ("how do I enable NVGEMM?", "search", "enable NVGEMM"),
])
def test_shapes(question: str, name: str, topic: str) -> None:
    got = shape(question)
    assert (got.name, got.topic) == (name, topic)


def test_kinds_named_and_topics() -> None:
    assert kinds_named("what was removed or deprecated in 2.0?") == ("removed", "deprecated")
    assert kinds_named("which bugs were fixed") == ("fixed",)
    assert kinds_named("what did numpy 2.1.0 add and deprecate?") == ("added", "deprecated")
    assert kinds_named("anything I need to fix or remove?") == ()  # what the person must do
    assert topic_of("pytest 8.2.0 release notes pls", ("pytest",)) == "8.2.0"
    assert topic_of("what do I need to update in my code", ()) == ""


def test_an_upgrade_inside_one_series() -> None:
    found = find_range("what changed in pydantic from 2.0 to 2.0.3?", KNOWN + ("2.0.3",), PRODUCTS)
    assert found.range == ReleaseRange("2.0.0", "2.0.3") and found.range.contains("2.0.1")
    assert not found.range.contains("2.0") and ReleaseRange.between("1.10", "2.0") == ReleaseRange("1.10", "2.0")


@pytest.mark.parametrize(("question", "message"), [
    ("flask release:2.0..1.0", "'release:2.0..1.0' runs backwards; write the older release first"),
    ("release:0.1..0.2 and release:0.20..0.22", "'release:0.20..0.22' is a second range"),
])
def test_bad_inline_ranges(question: str, message: str) -> None:
    with pytest.raises(BadQuestion, match=message):
        find_range(question, KNOWN, PRODUCTS)
