"""The product vocabulary files (qa/question/data/*.tsv) parse, hold no duplicates, and agree with
the hand lists refresh.py builds them from."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "qa" / "question" / "data"
SOURCES = {"platform", "tool", "pypi", "npm", "crates"}


def rows(name: str, width: int) -> list[list[str]]:
    """The tab-separated fields of ``name`` in DATA, each line checked to have ``width`` of them."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    fields = [line.split("\t") for line in lines]
    bad = [line for line, f in zip(lines, fields) if len(f) != width or not all(f)]
    assert not bad, f"{name}: lines without {width} non-empty fields: {bad[:5]}"
    return fields


@pytest.fixture(scope="module")
def products() -> list[tuple[str, str, int]]:
    out = []
    for name, source, rank in rows("products.tsv", 3):
        assert rank.isdigit(), f"{name}\t{source}: rank {rank!r} is not a whole number"
        out.append((name, source, int(rank)))
    return out


@pytest.fixture(scope="module")
def refresh():
    """refresh.py loaded from its file (it is not part of the package)."""
    spec = importlib.util.spec_from_file_location("vocabulary_refresh", DATA / "refresh.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_products_parse(products: list[tuple[str, str, int]]) -> None:
    assert {s for _, s, _ in products} == SOURCES
    assert all(name == name.lower() == name.strip() and len(name) > 1 for name, _, _ in products)
    pairs = [(n, s) for n, s, _ in products]
    assert len(pairs) == len(set(pairs)), "a (name, source) pair is listed twice"


def test_ranks_count_up_within_a_ranked_source(products: list[tuple[str, str, int]]) -> None:
    for source in ("pypi", "npm"):
        ranks = [r for _, s, r in products if s == source]
        assert ranks == list(range(1, len(ranks) + 1)), source


def test_registry_names_are_as_registries_spell_them(products: list[tuple[str, str, int]]) -> None:
    pypi = [n for n, s, _ in products if s == "pypi"]
    assert all("_" not in n and "." not in n and "--" not in n for n in pypi), "PyPI names must be PEP 503 normal"
    assert not [n for n, s, _ in products if s == "npm" and n.startswith("@")]
    assert not [n for n, s, _ in products if s != "tool" and n.isdigit()]


def test_aliases_point_at_products(products: list[tuple[str, str, int]]) -> None:
    names = {n for n, _, _ in products}
    aliases = rows("aliases.tsv", 2)
    assert [a for a, _ in aliases] == sorted({a for a, _ in aliases}), "aliases sorted, each once"
    assert not [(a, n) for a, n in aliases if n not in names]
    assert not [a for a, n in aliases if a == n or a != a.lower()]
    assert ("torch", "pytorch") in [tuple(x) for x in aliases]
    assert not {("pydantic", "pydantic-core"), ("pydantic-core", "pydantic")} & {tuple(x) for x in aliases}


@pytest.mark.parametrize("name", ["python", "cuda", "macos", "windows", "linux", "mps", "rocm", "aarch64"])
def test_platforms(products: list[tuple[str, str, int]], name: str) -> None:
    assert (name, "platform") in {(n, s) for n, s, _ in products}


@pytest.mark.parametrize(("name", "source"), [
    ("numpy", "pypi"), ("pandas", "pypi"), ("requests", "pypi"), ("django", "pypi"), ("torch", "pypi"),
    ("react", "npm"), ("express", "npm"), ("serde", "crates"), ("tokio", "crates"),
    ("kubernetes", "tool"), ("tensorflow", "tool"), ("jax", "tool"), ("pytorch", "tool"), ("node.js", "tool"),
])
def test_well_known_products(products: list[tuple[str, str, int]], name: str, source: str) -> None:
    assert (name, source) in {(n, s) for n, s, _ in products}


def test_files_stay_small() -> None:
    assert sum(p.stat().st_size for p in DATA.glob("*.tsv")) < 300_000


def test_tsv_files_match_the_hand_lists(products: list[tuple[str, str, int]], refresh) -> None:
    """The hand-listed lines are the hand lists, so nobody edited the .tsv files instead."""
    assert [n for n, s, _ in products if s == "platform"] == refresh.read_hand("platforms")
    assert [n for n, s, _ in products if s == "tool"] == refresh.read_hand("tools")
    assert {tuple(x) for x in rows("aliases.tsv", 2)} == set(refresh.read_aliases())


def test_refresh_helpers(refresh) -> None:
    assert refresh.pep503("Ruamel.YAML") == "ruamel-yaml"
    assert refresh.pep503("typing_extensions") == "typing-extensions"
    assert refresh.interleave([["a1", "a2", "x"], ["x", "b2"]]) == ["a1", "x", "a2", "b2"]
    assert not refresh.keep("7") and not refresh.keep("123") and refresh.keep("ms")


def test_common_words_are_names_of_the_vocabulary() -> None:
    """common.txt: the names and aliases that are also common English words, each one of them."""
    data = Path(__file__).resolve().parents[2] / "qa" / "question" / "data"
    names = {line.split("\t")[0] for line in (data / "products.tsv").read_text(encoding="utf-8").splitlines()}
    aliases = {line.split("\t")[0] for line in (data / "aliases.tsv").read_text(encoding="utf-8").splitlines()}
    common = (data / "common.txt").read_text(encoding="utf-8").split()
    assert common == sorted(set(common)) and set(common) <= names | aliases
    assert {"click", "rich", "black", "requests", "select", "next"} <= set(common)
    assert not {"numpy", "pandas", "kubernetes", "urllib3", "tensorflow"} & set(common)


def test_every_listed_name_is_found_with_all_its_sources(products) -> None:
    """The vocabulary looks names up in the file's text when asked (``names._Listed``): every
    name gives exactly the sources of its lines, and a part or an extension of a name gives none."""
    from qa.question.names import vocabulary

    listed = vocabulary()[0]
    expected: dict[str, set[str]] = {}
    for name, source, _ in products:
        expected.setdefault(name, set()).add(source)
    assert {name: set(listed.get(name)) for name in expected} == expected
    assert "numpy" in listed and listed.get("nump") == () and listed.get("numpyx", ("none",)) == ("none",)
    assert listed.get("") == () and listed.get("numpy\tpypi") == () and 3 not in listed
