"""``qa.serving.api``: the records agents get, fitted to a budget, and arguments an agent can correct."""

from __future__ import annotations

import json

import pytest

from qa.serving import api


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


def answered(passages: int, cited: tuple[int, ...], text: str = "word " * 60) -> dict:
    base = record(passages, text)
    base.pop("timings_ms")  # a search record has none to absorb the count
    sentences = [{"text": f"Sentence {n}.", "passage": n} for n in cited]
    base["answer"] = {"text": " ".join(f"{s['text']} [{s['passage']}]" for s in sentences), "sentences": sentences}
    return base


@pytest.mark.parametrize("budget", [1000, 1500, 2500, 4000, 8000])
def test_the_budget_holds_and_the_answer_keeps_the_passages_it_cites(budget: int) -> None:
    fitted = api.fit(answered(20, (4, 5)), budget, "cards")
    assert len(json.dumps(fitted, ensure_ascii=False)) <= budget
    ranks = {p["rank"] for p in fitted["passages"]}
    cited = {s["passage"] for s in (fitted["answer"] or {}).get("sentences", [])}
    assert cited <= ranks  # never an answer pointing at a passage left out
    if fitted["answer"]:
        assert fitted["answer"]["text"] == " ".join(f"Sentence {n}. [{n}]" for n in sorted(cited))


def test_what_cannot_fit_is_said_within_the_budget() -> None:
    long = answered(3, (1,))
    long["question"] = "q" * 1900
    long["note"] = "n" * 1900
    fitted = api.fit(long, 1000, "cards")
    assert len(json.dumps(fitted)) <= 1000 and "does not fit max_chars=1000" in fitted["note"]


def test_the_release_list_fits_however_many_products() -> None:
    class Many:
        products = tuple(f"p{i}" for i in range(100))
        chunks = ()

        def release_groups(self):
            return tuple((p, ("1.0", "2.0")) for p in self.products)

    fitted = api.releases(Many(), max_chars=1000)
    assert len(json.dumps(fitted)) <= 1000 and fitted["products_omitted"] == 100 - len(fitted["products"])


@pytest.mark.parametrize(("kinds", "expected"), [("Fixed", ["fixed"]), (["breaking", "added"], ["removed", "added"]),
                                                 (None, [])])
def test_kinds_are_read_as_the_cli_reads_them(kinds, expected) -> None:
    assert api.check_kinds(kinds) == expected


@pytest.mark.parametrize("kinds", [5, {"added": 1}, ["added", 3]])
def test_kinds_of_the_wrong_type_are_bad_arguments(kinds) -> None:
    with pytest.raises(api.BadArgument, match="kinds must be a kind or a list of kinds"):
        api.check_kinds(kinds)


@pytest.mark.parametrize(("name", "value"), [("release", 2.10), ("product", ["x"]), ("topic", 5)])
def test_a_number_or_list_where_text_belongs_is_a_bad_argument(name, value) -> None:
    with pytest.raises(api.BadArgument, match=f"{name} must be a string or null"):
        api.check_text(name, value)


def test_a_record_citation_reads_back_for_the_one_formatter() -> None:
    from qa.present import cite
    from qa.model import Citation

    c = Citation("d", "T", "PyTorch", "2.14", ("T", "Distributed"), "/n.md", (3, 9), "https://x.org/#d", None, "added")
    assert Citation.from_json(c.to_json()) == c
    assert cite.plain(Citation.from_json(c.to_json())) == "T · 2.14 · added · T > Distributed · /n.md:3-9 · https://x.org/#d"


@pytest.mark.parametrize(("host", "loopback"), [("127.0.0.1", True), ("127.0.0.2", True), ("::1", True),
                                                ("[::1]", True), ("localhost", True), ("0.0.0.0", False),
                                                ("192.168.1.5", False), ("example.org", False)])
def test_what_binds_to_this_machine_only(host: str, loopback: bool) -> None:
    from qa.http import is_loopback

    assert is_loopback(host) is loopback
