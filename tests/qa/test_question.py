"""A question is read once (``qa.question.read``) into a frozen Question that everything downstream takes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import qa.question.parse
import qa.question.releases
from corpus.versions import VERSION
from qa.cli import cli
from qa.question import Question, read
from qa.question.releases import RELEASE_NUMBER
from tests.support.fakes import fake_engine
from tests.support.tui_fakes import FakeBackend

CORPUS = {"fingerprint": "g0", "inputs": ["<test>"], "documents": {"d": {"source": "x", "sha256": "0"}}}
GIZMO = """# gizmo changelog

## 1.0.0 (2026-10-01)

### Removed

- The old theming API is removed.

### Changed

- The widget palette is stable.

## 1.0.0-beta.2 (2026-09-01)

### Added

- Beta two adds a widget palette.

### Fixed

- Fix the sprocket cache warmup.

## 0.9.0 (2026-08-01)

### Changed

- The sprocket cache is stable and evicts the oldest entries first.

## 0.9.0.dev3 (2026-07-01)

### Added

- A developer preview of the sprocket cache with a new eviction policy.
"""
GADGET = """# gadget changelog

## 3.0.0 (2026-10-02)

### Added

- Gadgets learn to fold.
"""


def spy(monkeypatch, original):
    """Count the calls of ``original`` from every module that imported it, keeping what they see."""
    calls: list[tuple] = []

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "") or ""
        if not name.startswith(("qa", "tests")):
            continue
        for attr, value in list(vars(module).items()):
            if value is original:
                monkeypatch.setattr(module, attr, counting)
    return calls


@pytest.fixture(scope="module")
def gizmo(tmp_path_factory: pytest.TempPathFactory):
    from corpus import load_chunks

    folder = tmp_path_factory.mktemp("gizmo-notes")
    for name, text in (("gizmo", GIZMO), ("gadget", GADGET)):
        (folder / name).mkdir()
        (folder / name / "CHANGELOG.md").write_text(text, encoding="utf-8")
    chunks = load_chunks([folder])
    assert {(c.product, c.version) for c in chunks if c.version} >= {("gizmo", "1.0.0-beta.2"), ("gizmo", "0.9.0.dev3")}
    return fake_engine(chunks, tmp_path_factory.mktemp("gizmo") / "idx", CORPUS)


def test_the_version_grammar_is_the_corpus_one() -> None:
    assert RELEASE_NUMBER is VERSION


@pytest.mark.parametrize(("question", "release"), [
    ("what changed in gizmo 1.0.0-beta.2?", "1.0.0-beta.2"),
    ("what is new in gizmo 0.9.0.dev3?", "0.9.0.dev3"),
    ("what changed in gizmo 1.0.0?", "1.0.0"),
])
def test_pre_releases_are_read_as_the_corpus_reads_them(gizmo, question: str, release: str) -> None:
    asked = read(question, gizmo.catalogue)
    assert asked.releases == (release,) and asked.shape.name == "release"
    answer = gizmo.answer(asked, mode="bm25")
    assert answer.releases == (release,) and answer.confident
    assert answer.digest is not None and [r.version for r in answer.digest.releases] == [release]
    assert {p.citation.version for p in answer.passages} == {release}


def test_a_question_is_a_frozen_value_with_everything_downstream_needs(gizmo) -> None:
    asked = read("how do I warm the sprocket cache up in gizmo 0.9?", gizmo.catalogue)
    assert isinstance(asked, Question) and asked.howto and asked.products == ("gizmo",)
    assert asked.releases == ("0.9",) and asked.shape.name == "search" and "sprocket" in asked.topic
    with pytest.raises(AttributeError):
        asked.releases = ()  # frozen
    which = read("which gizmo release removed the old theming API?", gizmo.catalogue)
    assert which.shape.name == "which" and which.kind == "removed"


def test_a_chat_question_is_read_once(monkeypatch) -> None:
    from qa.conversation import Conversation

    backend = FakeBackend()
    talk = Conversation(backend)
    talk.ask("what changed for MPS in 2.14?")
    reads = spy(monkeypatch, qa.question.parse.read)
    scans = spy(monkeypatch, qa.question.releases.find_releases)
    follow, answer = talk.ask("and in 2.13?")
    assert answer.asked_as == "what changed for MPS in 2.13" and follow.how == "release"
    assert len(reads) == 1, reads
    typed = [c for c in scans if c[0] == "and in 2.13?"]
    assert len(typed) == 1, scans  # the typed words are scanned once, the rewritten question once more
    assert len(scans) <= 3, scans  # and the previous question's topic once


async def test_a_question_in_the_chat_app_is_read_once(monkeypatch) -> None:
    from qa.tui.app import make_app
    from tests.support.pilot import ask

    backend = FakeBackend()
    app = make_app(lambda notify: backend)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "native metal kernels for MPS in 2.14")
        reads = spy(monkeypatch, qa.question.parse.read)
        card = await ask(app, pilot, "and in 2.13?")
        assert len(reads) == 1, reads
        assert card.answer is not None and card.answer.releases == ("2.13",)


def test_ask_follow_up_reads_the_question_once(bundled_index: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RELNOTES_HISTORY", str(tmp_path / "history.jsonl"))
    index = ("--index", str(bundled_index), "--mode", "bm25")
    assert CliRunner().invoke(cli, ["ask", "what changed for MPS in 2.14?", *index]).exit_code == 0
    reads = spy(monkeypatch, qa.question.parse.read)
    result = CliRunner().invoke(cli, ["ask", "--follow-up", "and in 2.13?", *index, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["asked_as"] == "what changed for MPS in 2.13"
    assert len(reads) == 1, reads


def test_a_product_named_otherwise_is_no_word_of_the_topic() -> None:
    from qa.question import read

    class Held:
        products = ("build", "pytest-cov")
        releases = ("1.3.0", "1.2.0", "6.3.0")

    question = read("when did python-build drop python 3.8", Held())
    assert question.products == ("build",) and "python-build" not in question.topic and question.specifics == ("3.8",)
    which = read("which version of pypa/build lets me install the build dependencies with uv?", Held())
    assert which.shape.name == "which" and "pypa" not in which.topic
    assert read("when did pytest cov add markdown coverage reports", Held()).topic == "markdown coverage reports"


def test_context_and_punctuation_are_no_part_of_what_is_asked() -> None:
    from qa.question import read
    from qa.question.vocabulary import specifics

    class Held:
        products = ("typeguard",)
        releases = ("4.5.0", "3.0.0", "2.0.0")

    question = read("when did typeguard bring back check_argument_types() after removing it in 3.0?", Held())
    assert question.releases == () and question.shape.name == "which" and question.change == "restored"
    assert question.kind is None
    assert specifics("keeping flow style sets like !!set {a, b}") == ("!!set",)
    assert specifics("when was @app.before_first_request removed?") == ("@app.before_first_request",)
    assert specifics("my check started warning - in which version was it deprecated") == ()
