"""Which-release questions fresh notes tripped (issue 44, tenth round): a failing import asked as a removal, the
last release asked as one "we can stay on" or "the last one that supports it", a minimum raised as the removal
of what falls below it, and a language's name joined to a project's ("python-markdown2") naming no product."""

from __future__ import annotations

import pytest

from corpus import detect_product
from qa.answer.engine import Engine
from qa.answer.holding import holds
from qa.question import read
from qa.question.changes import asks_last
from qa.question.imports import import_removed
from tests.support.fakes import notes_engine

# dogpile.cache's changelog.rst, in part (its change blocks as plain items)
DOGPILE = """Changelog
=========

1.5.0
-----

- Minimum Python version is now 3.10, as Python 3.9 is EOL.
- Added new region method ``CacheRegion.key_is_locked``.

1.4.0
-----

- Support for Python 3.8 has been dropped, the minimum version is now Python 3.9, as 3.8 is EOL.

1.3.4
-----

- Fixed an issue where the ``region.get_or_create()`` method would not pass the ``expiration_time``.
"""

# natsort's CHANGELOG.md, in part
NATSORT = """# Changelog

## [6.0.0] - 2019-02-04

### Removed
 - Drop support for Python 2.6 and 3.3
 - Remove deprecated APIs (kwargs `number_type`, `signed`, `exp`, `as_path`,
   `py3_safe`; enums `ns.TYPESAFE`, `ns.DIGIT`, `ns.VERSION`; functions `versorted`,
   `index_versorted`) (issue #81)

## [5.5.0] - 2018-11-18

### Added
 - `os_sort_keygen` and `os_sort_key` functions

## [4.0.0] - 2015-04-06

### Added
 - `versorted` is now an alias of `natsorted` with `ns.VERSION`
 - Bug with the `from natsort import *` mechanism fixed
"""


@pytest.fixture(scope="module")
def dogpile(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("dogpile"), "changelog.rst", DOGPILE, "dogpile.cache")


@pytest.fixture(scope="module")
def natsort(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("natsort"), "CHANGELOG.md", NATSORT, "natsort")


@pytest.mark.parametrize("question", [
    "We're pinned to Django 4.1 for now. Which django-cors-headers is the last one that supports it?",
    "Our services still run on Python 3.9. What's the last dogpile.cache release we can stay on?",
    "One of our hosts is still on Python 3.7. Which service-identity release is the last we can use there?",
    "One legacy box of ours is stuck on Python 3.6. What's the last natsort release we can pin there?",
    "We can't move off SQLAlchemy 1.4 yet. What's the last SQLAlchemy-Utils release that still works with it?",
])
def test_the_last_release_asked_as_one_to_stay_on(question: str) -> None:
    assert asks_last(question)


@pytest.mark.parametrize("question", ["what's the latest release we can use?", "which one was the last to add it?",
                                      "is the last one that broke it fixed?", "What's the last markupsafe release we can use?",
                                      "We rely on bleach.VERSION; which is the last one that supports it?"])
def test_no_last_release_is_asked_by_these(question: str) -> None:
    assert not asks_last(question)


def test_a_minimum_raised_removes_what_falls_below_it(dogpile: Engine) -> None:
    assert holds("minimum python version is now 3.10", "3.9", "floored")
    assert holds("the minimum version is now python 3.9", "3.8", "floored")
    assert not holds("the minimum version is now python 3.9", "3.9", "named")
    assert holds("the minimum version is now python 3.9", "3.9")  # as written: "raised the minimum to 3.9"
    # another thing's minimum, a condition, a later announcement: no Python floor
    assert not holds("the minimum supported django version is 4.2", "3.9", "floored")
    assert not holds("enable heap-based types for python >= 3.11", "3.9", "floored")
    assert not holds("babel 2.15 will require python 3.8 or newer", "2.6", "floored")
    question = read("Our services still run on Python 3.9. What's the last dogpile.cache release we can stay on?",
                    dogpile.catalogue)
    assert question.last and question.subject == "Python 3.9"
    answer = dogpile.ask("Our services still run on Python 3.9. What's the last dogpile.cache release we can stay on?",
                         mode="bm25")
    assert [n.releases for n in answer.notes if n.kind == "last_release"] == [("1.4.0", "1.5.0")]
    assert dogpile.ask("which dogpile.cache release dropped python 3.8?", mode="bm25").earliest_release == "1.4.0"
    # a question of the minimum raised itself is stated by it: a floor holds its version when nothing else does
    assert dogpile.ask("which dogpile.cache release raised the minimum python to 3.10?",
                       mode="bm25").earliest_release == "1.5.0"


@pytest.mark.parametrize(("question", "read_as"), [
    ("`from natsort import versorted` raises ImportError after an upgrade. Which release got rid of it?",
     "Which natsort release removed `versorted`?"),
    ("ImportError: cannot import name 'SqliteExtDatabase' after upgrading peewee. When was it removed?",
     "Which peewee release removed `SqliteExtDatabase`?"),
    ("ModuleNotFoundError: No module named 'playhouse.berkeleydb'. Which peewee release dropped it?",
     "Which peewee release removed `playhouse.berkeleydb`?"),
])
def test_a_failing_import_asked_as_a_removal(question: str, read_as: str) -> None:
    named = ["natsort"] if "natsort" in question else ["peewee"]
    assert import_removed(question, named) == read_as


@pytest.mark.parametrize("question", [
    "`import foo` raises ImportError on Python 3.12. Which release fixed it?",  # a fix asked, not a removal
    "which release removed the ImportError fallback?",  # no import of a name fails
    "ModuleNotFoundError: No module named 'natsort'. Which release removed it?",  # the product itself
    # the asking sentence asks of another thing, or names the thing itself
    "Our Python 3.6 builds fail with ImportError: cannot import name 'Literal' from 'typing'. Which natsort release "
    "dropped Python 3.6?",
    "`from natsort import versorted` raises ImportError on Python 3.7 when fastnumbers is missing. Which release "
    "removed that dependency?",
    "`from natsort import versorted` raises ImportError. Which natsort release removed natsort.versorted?",
])
def test_no_removal_is_read_from_these(question: str) -> None:
    assert import_removed(question, ["natsort"]) is None


def test_the_name_a_failing_import_took_away_is_asked(natsort: Engine) -> None:
    question = "`from natsort import versorted` raises ImportError after an upgrade. Which release got rid of it?"
    answer = natsort.ask(question, mode="bm25")
    assert answer.question == question and answer.asked_as == "Which natsort release removed `versorted`?"
    assert answer.earliest_release == "6.0.0" and "`versorted`" in answer.sentences[0].text


@pytest.mark.parametrize(("title", "product"), [
    ("python-markdown2 Changelog", None), ("django-cors-headers", None), ("rust-RELEASES", "Rust"),
])
def test_a_language_joined_to_a_project_s_name_names_no_product(title: str, product: str | None) -> None:
    assert detect_product(title) == product


def test_which_one_after_a_which_release_question_asks_which_release(natsort: Engine) -> None:
    from qa.conversation import Conversation

    talk = Conversation(natsort)
    _, first = talk.ask("which natsort release removed versorted?", mode="bm25")
    assert first.earliest_release == "6.0.0"
    follow, answer = talk.ask("and which one added os_sort_key?", mode="bm25")
    assert answer.asked_as == "and which release added os_sort_key?" and answer.earliest_release == "5.5.0"
    # not after a question of something else, nor "which one of ..."
    talk = Conversation(natsort)
    talk.ask("what changed in natsort 6.0.0?", mode="bm25")
    assert talk.read("which one added os_sort_key?").asked_as == "which one added os_sort_key?"
    assert Conversation(natsort, talk.turn).read("which one of them was removed?").asked_as.startswith("which one of")


def test_a_quote_no_item_states_the_release_of_says_so(natsort: Engine) -> None:
    """"which release removed os_sort_key?": no item removes it; the nearest (the item adding it) is quoted, and the
    answer says it is only that, naming no release."""
    from qa.model import Note

    answer = natsort.ask("which natsort release removed os_sort_key?", mode="bm25")
    assert answer.earliest_release is None and answer.sentences
    assert answer.notes == (Note("release_unsaid"),)


def test_a_removal_is_stated_by_the_clause_dropping_the_version() -> None:
    """For a removal, the item naming the version in a clause that drops it comes first: not "Add support for
    Python 3.13" beside a drop of 3.5, not "requires Python 3.9 or later" beside a drop of 3.8, not "Fix forward
    compatibility with Python 3.8" (tenth round, second review)."""
    assert holds("add support for python 3.13, drop support for python 3.5", "3.5", "dropped")
    assert not holds("add support for python 3.13, drop support for python 3.5", "3.13", "dropped")
    assert not holds("drop support for python 3.8; packaging now requires python 3.9 or later", "3.9", "dropped")
    assert not holds("drop support for python 3.8; packaging now requires python 3.9 or later", "3.9", "named")
    assert not holds("fix forward compatibility with python 3.8", "3.8", "dropped")
    assert holds("minimum python version is now 3.10, as python 3.9 is eol.", "3.9", "dropped")
    assert holds("drop django 3.2 to 4.1 support.", "4.1", "dropped")


def test_the_last_release_is_not_the_one_adding_the_version(tmp_path) -> None:
    tabulate = notes_engine(tmp_path, "CHANGELOG", TABULATE, "tabulate")
    answer = tabulate.ask("We're stuck on Python 3.8. What's the last tabulate release we can pin there?", mode="bm25")
    assert [n.releases for n in answer.notes if n.kind == "last_release"] == [("0.9.0", "0.10.0")]
    # 3.11 is added, never dropped: no release is the last with it
    answer = tabulate.ask("We're stuck on Python 3.11. What's the last tabulate release we can pin there?", mode="bm25")
    assert not [n for n in answer.notes if n.kind == "last_release"]


# tabulate's CHANGELOG, in part
TABULATE = """- 0.10.0: Add support for Python 3.11, 3.12, 3.13.
  Drop support for Python 3.7, 3.8.
  PRESERVE_STERILITY global is replaced with preserve_sterility function argument.
- 0.9.0: Drop support for Python 2.7, 3.5, 3.6.
  Migrate to pyproject.toml project layout (PEP 621).
- 0.8.10: Python 3.10 support.
"""


def test_a_fix_for_a_version_drops_nothing() -> None:
    assert not holds("fix forward compatibility with python 3.8: importing abcs directly from the collections "
                     "module will not be supported anymore.", "3.8", "dropped")
