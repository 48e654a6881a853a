"""``qa.api``: the records agents get, fitted to a budget, and arguments an agent can correct."""

from __future__ import annotations

import json

import pytest

from qa import api


def record(passages: int, text: str = "word " * 200) -> dict:
    citation = {"source": "/n.md", "lines": [1, 2], "title": "T", "version": "1.0", "section": ["T"], "url": None}
    return {"answer": None, "note": None, "timings_ms": {"x": 1.0},
            "passages": [{"rank": i + 1, "text": text, "citation": citation} for i in range(passages)],
            "digest": {"releases": [{"version": "1.0", "items": [{"text": text, "kind": "added", "citation": citation}] * 5}]}}


def test_cards_cut_texts_and_the_budget_drops_from_the_end() -> None:
    full = api.fit(record(10), api.MOST_MAX_CHARS, "full")
    assert len(full["passages"]) == 10 and "omitted" not in full and "timings_ms" not in full
    cards = api.fit(record(10), api.MOST_MAX_CHARS, "cards")
    assert all(len(p["text"]) <= api.CARD_CHARS + 2 and p["truncated"] for p in cards["passages"])
    small = api.fit(record(10), 3000, "cards")
    assert len(json.dumps(small, ensure_ascii=False)) <= 3000
    assert [p["rank"] for p in small["passages"]] == list(range(1, len(small["passages"]) + 1))  # the best kept
    assert small["omitted"] == 10 + 5 - len(small["passages"]) - len(small["digest"]["releases"][0]["items"])


@pytest.mark.parametrize(("call", "needle"), [
    (lambda: api.check_top_k(0), "top_k must be a whole number from 1 to 50"),
    (lambda: api.check_top_k(True), "top_k must be a whole number"),
    (lambda: api.check_budget(10, "cards"), "max_chars must be a whole number from 1000"),
    (lambda: api.check_budget(5000, "all"), "detail must be one of cards, full"),
    (lambda: api.check_kinds(["added", "bugs"]), "unknown kind 'bugs'"),
    (lambda: api.check_range("2.0", "1.10"), "until 1.10 is not after since 2.0"),
    (lambda: api.check_range("soon", "2.0"), "since 'soon' is not a release"),
])
def test_bad_arguments_say_how_to_retry(call, needle) -> None:
    with pytest.raises(api.BadArgument, match=needle):
        call()


def test_a_range_is_its_series() -> None:
    span = api.check_range("v1.10", "2.0")
    assert (span.since, span.until) == ("1.10", "2.0") and span.contains("2.0.3") and not span.contains("1.10.13")
