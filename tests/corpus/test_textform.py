"""What the retrievers read: link targets, reference definitions and bare URLs gone, link text kept."""

from __future__ import annotations

import pytest

from corpus.textform import index_form


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Add skills in [#13193](https://github.com/p/p/pull/13193)", "Add skills in #13193"),
        ("- [Out of range float to int conversions using `as` has been defined as a saturating\n"
         "  conversion.][71269] This was previously undefined behaviour.",
         "- Out of range float to int conversions using `as` has been defined as a saturating\n"
         "  conversion. This was previously undefined behaviour."),
        ("see [the docs][docs] now", "see the docs now"),
        ("[71269]: https://github.com/rust-lang/rust/pull/71269/\n[70705]: https://example.org \"Title\"\n", "\n\n"),
        ("x[0][1] stays an index", "x[0][1] stays an index"),  # code, not a reference link
        ("- [`Vec::pop_if`]", "- [`Vec::pop_if`]"),  # a shortcut reference keeps its brackets
        ("a [1]: b", "a [1]: b"),  # a definition only starts a line
        ("visit https://pytorch.org today", "visit  today"),
    ],
)
def test_index_form(text: str, expected: str) -> None:
    assert index_form(text) == expected


def test_unclosed_brackets_do_not_make_it_quadratic() -> None:
    """A file of unclosed '[' once took 10 s here (the reference pattern crossed lines); now linear."""
    import time

    started = time.perf_counter()
    assert index_form("[\n" * 40_000) == "[\n" * 40_000
    assert index_form("- interval [i, i+1) is open\n" * 20_000).count("\n") == 20_000
    assert time.perf_counter() - started < 2.0  # a guard against the quadratic pattern, not a speed goal
