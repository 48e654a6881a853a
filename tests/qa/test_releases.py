"""Release mentions in questions: what counts as a release and what never does."""

from __future__ import annotations

import pytest

from qa.question.releases import find_releases

KNOWN = ("2.9", "2.13", "2.14")
PRODUCTS = ("PyTorch",)

CASES = {
    "what changed for MPS in 2.13": ("2.13",),
    "what changed in v2.13": ("2.13",),
    "PyTorch 2.13 highlights": ("2.13",),
    "pytorch 2.13 highlights": ("2.13",),
    "2.13's flexattention changes": ("2.13",),
    "nccl2 backend release:2.14": ("2.14",),
    "compare 2.13 and 2.14 flexattention": ("2.14",),  # bare "compare 2.13" has no cue word; "and 2.14" does
    "between 2.9 and 2.13 what changed": ("2.9", "2.13"),
    "release 2.9 symmetric memory": ("2.9",),
    "version 2.14 python support": ("2.14",),
    "what is new in 2.11": ("2.11",),  # not held by the corpus: the engine says so
    "cuBLASLt default with CUDA 13.2 or later": (),
    "prefill attention on macOS 26.2": (),
    "torch.compile on Python 3.15": (),
    "lu_factor speedup 1.2x to 2.8x": (),
    "fp16 and bf16 on M5": (),
    "targets sm_107 and cu130": (),
    "torchvision 0.29 ABI": (),
    "speedup of 2.5x in 2.14": ("2.14",),
    "how many commits went into 2.14": ("2.14",),
    "as of 2.13 does flexattention run on mps": ("2.13",),
    "deprecated by 2.9": ("2.9",),
    "2.14: what changed for MPS": ("2.14",),
    "2.14 mps changes": ("2.14",),
    "2.11 mps changes": (),  # opening a question, only a release the corpus holds counts
    "2.5x faster matmul": (),
    "at 2.5 GHz": (),  # not this corpus's major version
    "what cudnn version does 2.14 use": ("2.14",),
    "torch 2.13 flexattention": ("2.13",),  # PyTorch's import name
    "torchvision 0.29 with torch 2.14": ("2.14",),
    "is 2.5x faster": (),
}


@pytest.mark.parametrize("question", CASES, ids=list(CASES))
def test_release_mentions(question: str) -> None:
    assert find_releases(question, KNOWN, PRODUCTS).releases == CASES[question]


def test_inline_filter_is_removed_from_the_question() -> None:
    parsed = find_releases("nccl2 backend release:2.14 details", KNOWN, PRODUCTS)
    assert parsed.text == "nccl2 backend details" and parsed.releases == ("2.14",)


@pytest.mark.parametrize("value", ["foo", "", "2.x", "latest"])
def test_garbage_inline_filter_is_reported(value: str) -> None:
    assert find_releases(f"mps release:{value}", KNOWN, PRODUCTS).bad_filters == (value,)


@pytest.mark.parametrize(
    ("question", "which"),
    [
        ("which release added torch.linalg.polar?", True),
        ("what version introduced nccl2", True),
        ("when did flexattention come to apple silicon", True),
        ("since when is cuda 13 the default", True),
        ("in which release was symmetric memory first added", True),
        ("what changed for MPS in 2.14", False),
        ("how do i turn on nvgemm", False),
        ("which pytorch version added flexattention on mps", True),
        ("which torch version added flexattention on mps", True),  # PyTorch's import name
        ("what version of pytorch added nvgemm", True),
        ("what cudnn version does 2.14 use", False),  # another thing's version
        ("which python version does 2.13 need", False),
        ("what version of python is supported", False),
        ("which nccl release is bundled", False),
    ],
)
def test_which_release_questions(question: str, which: bool) -> None:
    assert find_releases(question, KNOWN, PRODUCTS).which_release is which


def test_a_cut_py_prefix_names_no_product_in_release_cues() -> None:
    """One list of product names (corpus.versions.product_names): "dantic 2.0" is no pydantic release,
    as "test" names no pytest; "torch 2.13" still names PyTorch's."""
    assert find_releases("what changed in dantic 2.0", known=("2.0",), products=("pydantic",)).releases == ()
    assert not find_releases("which dantic version added it", products=("pydantic",)).which_release
    assert find_releases("what changed in pydantic 2.0", known=("2.0",), products=("pydantic",)).releases == ("2.0",)
    assert find_releases("torch 2.13 compile", known=("2.13",), products=("PyTorch",)).releases == ("2.13",)


def test_a_foreign_product_is_one_the_wording_names_and_the_corpus_lacks() -> None:
    from types import SimpleNamespace

    from qa.question import read

    def foreign(question: str, products: tuple[str, ...] = ("PyTorch",)) -> tuple[str, ...]:
        return read(question, SimpleNamespace(releases=("2.0", "2.13", "5.1"), products=products)).foreign

    assert foreign("what's new in Django 5.1?") == ("Django",)
    assert foreign("what changed in pydantic 2.0", ("Rust", "pydantic")) == ()  # held
    assert foreign("does pydantic 2.0 validate faster", ("Rust",)) == ("pydantic",)  # any naming wording, not only overviews
    assert foreign("what is new in Python 3.13") == ()  # a platform, not a product here
    assert foreign("what is new in Django 5", ()) == ()  # a corpus naming no product: nothing to say
