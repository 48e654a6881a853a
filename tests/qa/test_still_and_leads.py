"""How things stand now ("does acme still pull in sniffio?") is answered by the latest change, an
item's later sentence is quoted after the statement it explains, and a release's reST fields are
no answer (issue 44, third round)."""

from __future__ import annotations

import pytest

from qa.answer.engine import Engine
from qa.answer.evidence import says_something
from qa.question.vocabulary import asks_still
from tests.support.fakes import notes_engine

NOTES = """# Changelog

## 3.0.0

- Dropped ``sniffio`` as a direct dependency and added the ``current_backend()`` function.

## 2.0.0

- ``sniffio`` is now used to detect the running async library, for trio and asyncio alike.

## 1.0.0

- Added a dependency on ``sniffio`` to detect the running async library.

## 0.9.0

- ``Results`` now has a new method ``deepcopy()``, in addition to the current ``copy()`` method.
  ``copy()`` only makes a shallow copy: any contained ``Results`` are copied as references, so
  changes in the copy are seen in the original. In many cases a shallow copy is enough, but some
  programs need a deep copy: ``deepcopy()`` builds any contained ``Results``, mappings and lists
  as copies of the original's, which do not change when the original later does, whatever it holds.
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("still"), "CHANGELOG.md", NOTES, "acme")


def _latest(answer) -> None:
    assert "Dropped ``sniffio`` as a direct dependency" in answer.sentences[0].text
    assert answer.passages[0].citation.version == "3.0.0" and answer.earliest_release is None


def test_how_things_stand_now_is_the_latest_change(engine: Engine) -> None:
    _latest(engine.ask("does acme still depend on sniffio?", mode="bm25"))
    _latest(engine.ask("does acme still pull in sniffio as a dependency?", mode="bm25"))
    # not answered confidently by any sentence: no item is put forward as the answer
    unsure = engine.ask("does acme still ship a vendored copy of the sniffio wheel for offline installs?", mode="bm25")
    assert not unsure.confident and not unsure.sentences
    assert asks_still("is it still supported?") and asks_still("isn't recognised anymore")
    assert not asks_still("which release added sniffio?")


def test_a_later_sentence_comes_after_the_statement_it_explains(engine: Engine) -> None:
    answer = engine.ask("how do I get a real deep copy of acme Results? copy() keeps references", mode="bm25")
    text = answer.text
    assert "now has a new method ``deepcopy()``" in text
    assert text.index("now has a new method") < text.index("only makes a shallow copy")


def test_a_release_s_fields_are_no_answer() -> None:
    assert not says_something(":version: 1.17.0\n    :released: October 11, 2025")
    assert not says_something(".. changelog::\n    :version: 1.17.0")
    assert says_something(":func:`collapse` now treats ``bytes`` objects the same as ``str`` objects.")
    assert says_something(".. note:: This deprecation has been reverted in pytest 7.1.0.")


def test_how_things_stand_now_with_the_real_model(tmp_path) -> None:
    from qa.service import AnswerService

    (tmp_path / "CHANGELOG.md").write_text(NOTES, encoding="utf-8")
    service = AnswerService.open([tmp_path], notify=lambda message: None)
    _latest(service.ask("does acme still pull in sniffio as a dependency?", mode="hybrid"))
