"""Honest scope: a product the corpus does not hold is said, never answered from another product."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from qa.cli import cli
from qa.model import Note
from qa.present.notes import joined
from qa.question import read
from qa.question.products import named
from tests.support.fakes import fake_engine
from tests.support.paths import ZOO as ZOO_NOTES

BUNDLED = ("PyTorch",)
ZOO = ("NumPy", "flask", "httpx", "pytest", "textual")


def foreign(question: str, products: tuple[str, ...] = BUNDLED) -> tuple[str, ...]:
    return tuple(n.typed for n in named(question, products) if not n.held)


def held(question: str, products: tuple[str, ...] = BUNDLED) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n.product for n in named(question, products) if n.held))


@pytest.mark.parametrize(("question", "names"), [
    ("how do I set a proxy in urllib3?", ("urllib3",)),  # "in X" at the end
    ("does numpy 2.0 support MPS?", ("numpy",)),  # "X 2.0"
    ("what is new in rich 14?", ("rich",)),  # a whole-number version
    ("does jax support FlexAttention?", ("jax",)),  # "does X support"
    ("is Django's ORM async now?", ("Django",)),  # possessive
    ("upgrading pandas from 2.1 to 2.2, anything breaking?", ("pandas",)),  # "upgrade X from"
    ("which scikit-learn release dropped Python 3.8?", ("scikit-learn",)),  # "X release"
    ("pandas: how do I read parquet?", ("pandas",)),  # at the start
    ("anything new for GPUs in Kubernetes 1.30?", ("Kubernetes",)),
    ("ONNX Runtime 1.18 GPU support on Windows", ("ONNX Runtime",)),  # a name of two words
    ("what's new in PyTorch Lightning 2.3?", ("PyTorch Lightning",)),  # not PyTorch
    ("what changed in pydantic-core 2.27?", ("pydantic-core",)),  # not pydantic
    ("what's new in Go 1.22?", ("Go",)),  # a word of questions written as a name, with a version
    ("does the next release of flask support it?", ("flask",)),  # "release of X"
])
def test_a_product_is_named_where_the_wording_names_one(question: str, names: tuple[str, ...]) -> None:
    assert foreign(question) == names and held(question) == ()


@pytest.mark.parametrize(("question", "products"), [
    ("can I put rich text into a textual OptionList?", ZOO),  # a "rich" text
    ("do click handlers fire on a double click in textual?", ZOO),  # "click" handlers
    ("we serve thousands of requests per second; can httpx pool connections?", ZOO),  # "requests" per second
    ("grabbed a flask of coffee to read the 2.14 notes", BUNDLED),  # a "flask" of coffee
    ("my terminal turned black on windows after importing colorama, did pytest fix that?", ZOO),  # black, a colour
    ("which release renamed TextLog to RichLog?", ZOO),  # "which" and "next" are npm packages, not names here
    ("is the next version faster on MPS?", BUNDLED),
    ("when did textual add double click to select?", ZOO),  # "select" is a crate, and a common word
    ("does httpx retry failed requests?", ZOO),
])
def test_words_that_are_also_names_name_nothing_outside_a_naming_position(question: str, products) -> None:
    assert foreign(question, products) == ()


@pytest.mark.parametrize("question", [
    "does 2.14 support Python 3.15?", "CUDA 13 wheels", "macOS 26.2 attention speedups",
    "is ROCm 7.1 still supported?", "2.9: do ROCm wheels work on Windows?", "Linux aarch64 wheels in 2.13",
])
def test_platforms_a_release_supports_are_never_foreign(question: str) -> None:
    assert foreign(question) == ()


@pytest.mark.parametrize(("question", "products", "expected"), [
    ("torch 2.14 MPS speedups", BUNDLED, "PyTorch"),
    ("what's new in pytorch 2.14", BUNDLED, "PyTorch"),
    ("PyTorch 2.14 highlights", BUNDLED, "PyTorch"),
    ("does torch.compile support python 3.15?", BUNDLED, "PyTorch"),
    ("sklearn 1.5 new estimators", ("scikit-learn",), "scikit-learn"),
    ("does PIL 11 read AVIF?", ("Pillow",), "Pillow"),
    ("when did cargo stabilize the config include key?", ("Rust", "pydantic"), "Rust"),  # a part of Rust's releases
])
def test_aliases_and_parts_reach_the_held_product(question: str, products, expected: str) -> None:
    assert held(question, products) == (expected,) and foreign(question, products) == ()


def test_pydantic_and_pydantic_core_are_two_products() -> None:
    products = ("Rust", "pydantic")
    assert held("was pydantic-core merged into the pydantic repo?", products) == ("pydantic",)
    assert foreign("was pydantic-core merged into the pydantic repo?", products) == ("pydantic-core",)
    assert held("pydantic-core 2.27 speedups", products) == ()


def test_the_question_says_what_it_names() -> None:
    catalogue = SimpleNamespace(releases=("0.27.0", "0.28.0", "8.0.0"), products=("httpx", "textual"))
    asked = read("httpx vs requests timeouts", catalogue)
    assert asked.named == ("httpx",) and asked.foreign == ("requests",) and asked.products == ("httpx",)
    none = SimpleNamespace(releases=("1.0",), products=())
    assert read("what is new in Django 5?", none).foreign == ()  # documents of no product: nothing to compare


def test_a_foreign_product_is_refused_before_retrieval(engine) -> None:
    answer = engine.ask("does numpy 2.0 support MPS?", top_k=5)
    assert answer.passages == () and answer.sentences == () and answer.digest is None
    assert answer.notes == (Note("product_not_held", products=("numpy",), held=("PyTorch",)),)
    assert joined(answer.notes).startswith("The corpus holds no numpy; it has: PyTorch.")
    assert "--corpus" in joined(answer.notes) and answer.nearby  # how to add it; the nearest, as not an answer
    overview = engine.ask("what's new in pandas 3.0 for GPUs", top_k=5)
    assert overview.passages == () and overview.notes[0].kind == "product_not_held"


def test_a_held_and_a_foreign_product_are_answered_from_the_held_one(engine) -> None:
    answer = engine.ask("does torch 2.14 work with numpy 2.0?", top_k=5)
    assert answer.passages and {p.citation.version for p in answer.passages} == {"2.14"}
    assert answer.notes[0] == Note("products_not_covered", products=("numpy",), held=("PyTorch",))
    assert joined(answer.notes).startswith("The corpus holds no numpy; this answers about PyTorch only.")


def test_ask_and_batch_refuse_with_exit_0(bundled_index: Path) -> None:
    index = ("--index", str(bundled_index), "--mode", "bm25")
    asked = CliRunner().invoke(cli, ["ask", "how do I enable nccl2 in TensorFlow?", *index, "--no-history"])
    assert asked.exit_code == 0, asked.output
    assert asked.output.startswith("The corpus holds no TensorFlow; it has: PyTorch.")
    assert "Nearest passages (not an answer):" in asked.output and "Answer:" not in asked.output
    batch = CliRunner().invoke(cli, ["batch", "-", *index, "--format", "jsonl"],
                               input="which scikit-learn release dropped Python 3.8?\nwhat changed for MPS in 2.14?\n")
    assert batch.exit_code == 0, batch.output
    refused, answered = (json.loads(line) for line in batch.stdout.splitlines())
    assert refused["passages"] == [] and refused["answer"] is None and refused["not_an_answer"]
    assert refused["notes"] == [{"kind": "product_not_held", "products": ["scikit-learn"], "held": ["PyTorch"]}]
    assert answered["passages"] and answered["notes"] == []


def test_the_agents_api_refuses_as_ask_does(engine) -> None:
    from qa.serving import api

    class Service:
        products = engine.products

        def ask(self, question, mode="auto", **kwargs):  # auto served as AnswerService serves it
            return engine.ask(question, mode="hybrid" if mode == "auto" else mode, **kwargs)

    record = api.ask(Service(), "does jax support FlexAttention?")
    assert record["passages"] == [] and record["note"].startswith("The corpus holds no jax; it has: PyTorch.")


@pytest.mark.skipif(not ZOO_NOTES.is_dir(), reason="needs ../shared/data/zoo")
def test_over_the_zoo_a_foreign_product_is_refused_and_a_held_word_stays_reachable(tmp_path_factory) -> None:
    from corpus import load_chunks

    service = fake_engine(load_chunks([ZOO_NOTES]), tmp_path_factory.mktemp("zoo") / "idx")  # bm25 only: quick
    rich = service.ask("what is new in rich 14?", mode="bm25")
    assert rich.passages == () and rich.notes[0].kind == "product_not_held"
    proxy = service.ask("how do I set a proxy in urllib3?", mode="bm25")
    assert proxy.passages == () and proxy.notes[0].products == ("urllib3",)
    text = service.ask("can I put rich text into a textual OptionList?", mode="bm25")
    assert text.passages and {p.citation.product for p in text.passages} == {"textual"} and not text.notes
    versus = service.ask("httpx vs requests timeouts", mode="bm25")
    assert versus.passages and {p.citation.product for p in versus.passages} == {"httpx"}
    assert versus.notes[0].kind == "products_not_covered"


@pytest.mark.parametrize(("question", "names"), [
    ("what triton version is pinned in 2.13", ()),  # what PyTorch uses: a question about PyTorch
    ("nvshmem plugin for triton", ()),
    ("how can i load a safetensors file without installing the safetensors package", ()),
    ("Triton 3.7 release notes - what changed in the compiler?", ("Triton",)),  # Triton's own release
    ("does triton support FP8 on Blackwell?", ("triton",)),  # its own workings
    ("how do I set a proxy in urllib3?", ("urllib3",)),  # a how-to in it
])
def test_a_dependency_the_notes_use_is_a_product_only_where_the_question_is_about_it(question, names) -> None:
    """The corpus's notes use these names (``mentions``): what the held product uses is its topic."""
    used = {"triton", "safetensors", "urllib3", "nvshmem"}
    found = tuple(n.typed for n in named(question, BUNDLED, lambda word: word.lower() in used) if not n.held)
    assert found == names


@pytest.mark.parametrize(("question", "names"), [
    ("cupy 13 changelog", ("cupy",)),  # the notes use the name, with a release they do not hold
    ("prompt_toolkit 3.0.47 changes", ("prompt_toolkit",)),  # no list holds it
    ("zzyzx 2.0 release notes", ("zzyzx",)),
    ("MPS 2.14 changes", ()),  # the notes use it, and 2.14 is held: PyTorch's MPS
    ("what about prompt_toolkit 3.0 changes", ()),  # not opening the question
    ("prompt_toolkit 3.0 speed", ()),  # not asked as its release notes
    ("latest 2.0 changes", ()),  # a word of questions
])
def test_a_name_no_list_holds_is_a_product_only_as_its_own_release_notes(question, names) -> None:
    used = {"cupy", "mps"}
    found = tuple(n.typed for n in named(question, BUNDLED, lambda word: word.lower() in used, ("2.9", "2.13", "2.14"))
                  if not n.held)
    assert found == names
