"""A question naming a product of a corpus of several searches that product's notes only."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from index.retrieve.reader import LoadedIndex
from qa.cli import cli
from qa.answer.engine import Engine
from qa.question.releases import find_releases, named_products
from tests.support.fakes import fake_engine, make_chunk
from qa.present.notes import joined

CORPUS = {"fingerprint": "f0", "inputs": ["<test>"], "documents": {"d": {"source": "x", "sha256": "0"}}}
NOTES = [  # (product, version, text): both products have a 1.5 and talk about the same things
    ("Rust", "1.5.0", "Cargo install now caches the registry index for faster builds."),
    ("Rust", "1.10.0", "The standard library sort became a stable merge sort with better speed."),
    ("pydantic", "1.5", "Validators now cache compiled schemas for faster model builds."),
    ("pydantic", "1.10", "Settings read several dotenv files; the sort of fields is stable."),
    (None, None, "Notes about how these changelogs were collected for the faster builds page."),
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    chunks = [
        replace(make_chunk(i, text, version or "1.0"), product=product, version=version,
                title=f"{product or 'Other'} changelog", document=f"doc-{product}")
        for i, (product, version, text) in enumerate(NOTES)
    ]
    return fake_engine(chunks, tmp_path_factory.mktemp("products") / "idx", CORPUS)


def test_a_shortened_name_is_not_the_product() -> None:
    products = ("Pyright", "pytest", "PyYAML", "Pylint", "PyTorch")
    for question in ("the right way to enable strict mode", "how do I test async validators",
                     "is yaml output supported", "run lint on save"):
        assert named_products(question, products) == ()
    assert named_products("pytest fixtures and torch.compile", products) == ("pytest", "PyTorch")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("what changed in pydantic 1.5", ("pydantic",)),
        ("Rust's new lint", ("Rust",)),
        ("PYDANTIC v2 speed", ("pydantic",)),
        ("pydantic-core speedups", ()),  # another product (issue 28), not pydantic
        ("pydantic's validators and pydantic-core", ("pydantic",)),
        ("torch.compile with pydantic models", ("PyTorch", "pydantic")),
        ("what's new in rustacean tooling", ()),  # a word that starts with a product's name is not the product
        ("what's new in rustdoc", ("Rust",)),  # a part of Rust's toolchain, written up in its notes
        ("trust the cache", ()),
    ],
)
def test_named_products(question: str, expected: tuple[str, ...]) -> None:
    products = ("PyTorch", "Rust", "pydantic")
    assert named_products(question, products) == expected
    assert find_releases(question, known=("1.5",), products=products).products == expected


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_a_named_product_restricts_every_retriever(engine: Engine, mode: str) -> None:
    answer = engine.ask("pydantic faster builds", top_k=5, mode=mode)
    assert answer.products == ("pydantic",)
    products = {p.citation.product for p in answer.passages}
    assert "pydantic" in products and "Rust" not in products  # notes of no known product may stay
    unnamed = engine.ask("faster builds", top_k=5, mode=mode)
    assert unnamed.products == () and {"Rust", "pydantic"} <= {p.citation.product for p in unnamed.passages}


def test_a_product_and_a_release_together(engine: Engine) -> None:
    answer = engine.ask("what changed in pydantic 1.5", top_k=5)
    assert answer.releases == ("1.5",) and answer.products == ("pydantic",)
    assert [(p.citation.product, p.citation.version) for p in answer.passages] == [("pydantic", "1.5")]
    both = engine.ask("what changed in 1.5", top_k=5)  # no product named: both products' 1.5
    assert {(p.citation.product, p.citation.version) for p in both.passages} == {("pydantic", "1.5"), ("Rust", "1.5.0")}


def test_a_release_the_named_product_lacks_is_said_not_answered(engine: Engine) -> None:
    # Both named, both held; the two filters apply each on its own (either product, either release).
    answer = engine.ask("what changed in pydantic 1.5.0 and rust 1.10", top_k=5)
    assert {(p.citation.product, p.citation.version) for p in answer.passages} == {
        ("pydantic", "1.5"), ("Rust", "1.10.0"), ("Rust", "1.5.0"), ("pydantic", "1.10")}
    held = engine.ask("pydantic 1.10.0 sort", top_k=5)  # 1.10.0 is 1.10, trailing zeros aside
    assert [(p.citation.product, p.citation.version) for p in held.passages] == [("pydantic", "1.10")]
    missing = engine.ask("what is new in pydantic 1.9", top_k=5)
    assert not missing.passages
    assert joined(missing.notes) == ("The corpus holds no release 1.9 of pydantic (it has: 1.5, 1.10); "
                            "not answering from another release.")


def test_one_product_corpora_are_not_filtered(bundled_index: Path) -> None:
    """The bundled corpus is all PyTorch: naming it changes nothing."""
    bundled = Engine(LoadedIndex(bundled_index))
    named = bundled.ask("pytorch MPS lu_solve speedup", top_k=5, mode="bm25")
    assert named.products == () and named.passages


def test_many_releases_are_summarised_in_the_missing_release_note(tmp_path: Path) -> None:
    chunks = [make_chunk(i, f"Release {i} notes about sorting and caching things.", f"1.{i}.0") for i in range(30)]
    note = joined(fake_engine(chunks, tmp_path / "idx", CORPUS).ask("what changed in version 1.15.1", mode="bm25").notes)
    assert note == ("The corpus holds no release 1.15.1 (it has 30 releases, 1.0.0 to 1.29.0; "
                    "nearest: 1.14.0, 1.15.0, 1.16.0, 1.17.0); not answering from another release.")


def test_json_and_markdown_name_the_products(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "rust.md").write_text("# Rust 1.5.0\n\nCargo caches the registry index now, which makes builds faster.\n")
    (notes / "pydantic.md").write_text("# pydantic 1.5\n\nValidators cache compiled schemas, which makes builds faster.\n")
    runner = CliRunner()
    args = ["--corpus", str(notes), "--index", str(tmp_path / "idx"), "--mode", "bm25"]
    result = runner.invoke(cli, ["ask", "pydantic faster builds", "--json", *args])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["products"] == ["pydantic"]
    assert {p["citation"]["product"] for p in record["passages"]} == {"pydantic"}
    text = runner.invoke(cli, ["ask", "pydantic faster builds", *args])
    assert text.exit_code == 0 and "products: pydantic" in text.stdout


def test_a_follow_up_keeps_the_product_unless_it_names_another(engine: Engine) -> None:
    from qa.conversation import Conversation

    talk = Conversation(engine)
    first = talk.ask("what changed in pydantic 1.10 sort", top_k=5)[1]
    assert first.products == ("pydantic",)
    follow, answer = talk.ask("is the sort stable now?")
    assert follow.products == ("pydantic",) and answer.products == ("pydantic",)
    # its own topic: every release of pydantic (and notes of no known product), not just 1.10
    assert "pydantic" in {p.citation.product for p in answer.passages} <= {"pydantic", None}
    _, other = talk.ask("and in rust?")
    assert other.products == ("Rust",)
    assert engine.ask("faster builds", products=["NotAProduct"]).products == ()  # only products the corpus holds


def test_the_history_keeps_products_and_reads_older_lines(tmp_path: Path) -> None:
    from qa.history import Entry

    entry = Entry("pydantic 1.10 sort", "pydantic 1.10 sort", ("1.10",), "2026-11-29T10:00:00+00:00", ("pydantic",))
    assert Entry.from_json(entry.to_json()) == entry and entry.turn().products == ("pydantic",)
    older = {"question": "q", "asked_as": "q", "releases": [], "time": ""}
    assert Entry.from_json(older).products == () and "products" not in Entry.from_json(older).to_json()


def test_one_product_check_for_the_cli_the_agents_and_the_service(engine: Engine) -> None:
    """``AnswerService.product``: ``relnotes changes``, the MCP tools and the HTTP routes check a
    product the same way (in any case), with the same message; the agents get it as a BadArgument."""
    from qa.errors import BadQuestion
    from qa.model import ReleaseRange
    from qa.service import AnswerService, IndexInfo
    from qa.serving import api

    service = AnswerService(engine, IndexInfo("test", 1, len(NOTES)))
    assert service.product("PYDANTIC") == service.product(" pydantic ") == "pydantic"
    assert api.check_product(service, "rust") == ["Rust"] and api.check_product(service, " ") == []
    message = "The corpus holds no product 'flask'; it has: Rust, pydantic"
    with pytest.raises(BadQuestion) as refused:
        service.product("flask")
    with pytest.raises(api.BadArgument) as bad:
        api.check_product(service, "flask")
    with pytest.raises(BadQuestion) as in_changes:
        service.changes(ReleaseRange("1.5", "1.10"), "flask")
    assert str(refused.value) == str(bad.value) == str(in_changes.value) == message
