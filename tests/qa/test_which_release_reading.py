"""Which-release questions that fresh notes tripped (issue 44, second round): a plugin named by its
own part, a typed slip in "which", a fixture that is no fix, a dotted product name that no item
needs to hold, and an item stating its change in one sentence and its subject in the next."""

from __future__ import annotations

import pytest

from corpus import CorpusInput
from corpus.pipeline import load_chunks
from qa.answer.engine import Engine
from qa.question.changes import asked_kind, change_asked
from tests.support.fakes import fake_engine

ZAPPER = """# Changelog

## 2.0.0 (2025-09-09)

- Dropped support for subprocesses measurement.

  It was a feature added long ago when coverage lacked a way to measure subprocesses.
  It relied on a ``.pth`` file, and there was no way to opt out of it.
- Removed some testing dependencies like ``six``.

## 1.1.0 (2024-03-01)

- Subprocess measurement now works on Windows too.
- Improved the measurement of forked processes.

## 1.0.0 (2023-01-10)

- new ``worker_id`` fixture, returns the id of the worker in a test or fixture.
- Fixed a crash when no worker was started.
"""
YAMLISH = """[0.17.1, 2021-04-02]:
- fixed a crash in the emitter

[0.17.0, 2021-03-26]:
- this release no longer supports Python 2.7, most if not all Python 2 specific
  code is removed

[0.16.0, 2019-08-01]:
- tests run on Python 2.7 and 3.8
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("which")
    (root / "CHANGELOG.md").write_text(ZAPPER, encoding="utf-8")
    (root / "CHANGES.txt").write_text(YAMLISH, encoding="utf-8")
    chunks = load_chunks([CorpusInput(root / "CHANGELOG.md", "pytest-zapper"),
                          CorpusInput(root / "CHANGES.txt", "acme.yamlish")])
    return fake_engine(chunks, root / "idx")


def test_a_fixture_asks_of_no_fix() -> None:
    question = "when did xdist add a worker_id fixture so tests know which worker they run on"
    assert change_asked(question) == "added" and asked_kind(question) is None
    assert change_asked("which release fixed the fixture teardown crash?") == "fixed"


@pytest.mark.parametrize("question, release", [
    ("when did zapper add a worker_id fixture?", "1.0.0"),  # its own part names pytest-zapper
    ("whcih pytest zapper version added the worker_id fixture?", "1.0.0"),  # a slip in "which", spaces
    ("which pytest-zapper version dropped its own subprocess measurement (the .pth file)?", "2.0.0"),
    ("which acme.yamlish release stopped supporting Python 2.7?", "0.17.0"),  # not an item naming acme.yamlish
])
def test_the_release_is_stated(engine: Engine, question: str, release: str) -> None:
    answer = engine.ask(question, mode="bm25")
    assert answer.earliest_release == release, (answer.asked_as, answer.earliest_release)
    assert answer.passages[0].citation.version == release


FROB = """# Changelog

## 1.2.0

- Stabilized the scheduler API. The frobnicator gained a color option.

## 1.1.0

- Added the frobnicator.
"""


def test_a_change_of_another_subject_is_not_read_across_sentences(tmp_path) -> None:
    """The item's first sentence stabilizes something else: the frobnicator was not stabilized (not sure)."""
    (tmp_path / "CHANGELOG.md").write_text(FROB, encoding="utf-8")
    engine = fake_engine(load_chunks([CorpusInput(tmp_path / "CHANGELOG.md", "acme")]), tmp_path / "idx")
    assert engine.ask("which acme release stabilized the frobnicator?", mode="bm25").earliest_release is None
