"""Which-release questions that fresh notes tripped (issue 44, third round): the item stating the
change right at the thing asked about, a release another item says the change was made in, a
change announced or postponed but not made, a fix told by what went wrong, a removal told as
"discontinued", support kept ("now supports") that is no removal, and a question's context
("after removing it in 3.0", "not just deprecated") that is not what it asks."""

from __future__ import annotations

import pytest

from qa.answer.direct import direct
from qa.answer.engine import Engine
from tests.support.fakes import notes_engine

NOTES = """Version history
===============

3.1.0
-----

* Updates
    * The changes to the type hints in 3.0.0 have been reverted
    * The ``zap`` function was removed in 3.0.0. It had been deprecated since 2021.

3.0.0
-----

* Potentially breaking changes
    * ``zap`` was removed. Use ``zip(strict=True)`` instead.
    * Restored the ``check_args()`` function that was dropped in v2.0.0
    * Added support for specifying options for the pytest plugin via config files
* Other changes
    * Removed an ``assert`` in the formatter that caused compatibility issues with Sentry
    * The removal of the ``--legacy-log`` option has been postponed to 4.0.

2.0.0
-----

* Removed the ``check_args()`` function (use ``@checked`` instead)
* The ``wiggle`` function will be deprecated in a future release.
* Acme 2.0 now supports Python 2.7 and Python 3.6 and above.
* Added a ``--legacy-log`` option that writes the old log format.

1.5.0
-----

* Added a pytest plugin that activates the import hook
* Discontinued support for Python 3.5.
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("statements"), "versionhistory.rst", NOTES, "acme")


@pytest.mark.parametrize("question, release", [
    # "Added a pytest plugin" states it; "options for the pytest plugin" is a change beside it
    ("which acme release first shipped a pytest plugin?", "1.5.0"),
    # 3.1.0 says it was removed in 3.0.0, whose own item says so too
    ("which acme release removed zap?", "3.0.0"),
    # brought back, not removed; the 2.0.0 it names is context, not the release asked about
    ("when did acme bring back check_args() after removing it in 2.0?", "3.0.0"),
    # a fix told by what went wrong ("caused compatibility issues")
    ("sentry broke because of an assertion in acme's formatter, which release fixed that", "3.0.0"),
    ("which acme release stopped supporting python 3.5?", "1.5.0"),  # "Discontinued support for"
])
def test_the_stating_item_gives_the_release(engine: Engine, question: str, release: str) -> None:
    answer = engine.ask(question, mode="bm25")
    assert answer.earliest_release == release, (answer.asked_as, answer.earliest_release)


@pytest.mark.parametrize("question", [
    "which acme release removed the --legacy-log option?",  # only postponed
    "which acme release deprecated wiggle?",  # announced for later, not made
    "which acme release dropped python 2.7?",  # 2.0.0 supports it
])
def test_a_change_not_made_is_not_stated(engine: Engine, question: str) -> None:
    assert engine.ask(question, mode="bm25").earliest_release is None


def test_a_contrast_is_not_the_change_asked() -> None:
    from qa.question.changes import asked_kind, change_asked
    from qa.question.contrast import without_contrast

    question = "when was collate actually removed from acme, not just deprecated?"
    assert change_asked(without_contrast(question)) == "removed" == asked_kind(without_contrast(question))
    assert change_asked(without_contrast("when did acme get its own warning classes to silence deprecation warnings?")) == "added"
    assert change_asked("which acme release stopped working on python 2.7?") == "removed"
    assert change_asked("since which cattrs version do Sequence fields come back as tuples?") is None
    # "ship" is no word of an addition: 0.14.0's bare "dataclasses decorator" item must stay in the pool
    assert change_asked("in which release did pydantic first ship its dataclasses decorator?") is None
    assert change_asked("which pytest release brought the --lf flag back?") == "restored"
    assert change_asked("which release fixed restoring the terminal?") == "fixed"
    # what the asked-about thing went through before is no kind: "that was deprecated in 2.2"
    assert asked_kind(without_contrast("which flask release removed the json encoder that was deprecated in 2.2?")) == \
        "removed"


def test_a_change_right_at_the_thing() -> None:
    covers = lambda window: "plugin" in window  # noqa: E731
    assert direct("Added a pytest plugin that activates the hook", "added", [], covers)
    assert not direct("Added support for specifying options for the pytest plugin", "added", [], covers)
    assert direct("The ``numpy.MachAr`` class and ``finfo.machar`` attribute have been deprecated.", "deprecated",
                  ["np.machar"], covers)
    assert not direct("Calling ``np.fix`` with ``f(x, y=out)`` is deprecated", "deprecated", ["np.fix"], covers)
    assert not direct("Drop `mode` argument from `httpx.Proxy(..., mode=...)`.", "removed", [],
                      lambda window: "proxy" in window and "argument" in window.split()[0])


def test_the_release_an_item_says_it_was_made_in(engine: Engine) -> None:
    from qa.answer.digest import entries_of
    from qa.answer.saying import referred

    entries = entries_of(h.chunk for h in engine.searcher.search("zap removed", k=10, mode="bm25"))
    later = next(e for e in entries if e.chunk.version == "3.1.0" and "zap" in e.text)
    assert referred(later, "removed", "zap") == "3.0.0"
    assert referred(later, "added", "zap") is None  # it says no addition


def test_a_version_named_only_as_supported_is_not_removed(tmp_path) -> None:
    notes = """Changelog
=========

1.7.0
-----

- Alembic 1.7 now supports Python 3.6 and above; support for prior versions including Python 2.7
  has been dropped.

1.5.0
-----

- Alembic 1.5.0 now supports **Python 2.7 and Python 3.6 and above**. Support is removed
  for Python 3 versions prior to 3.6.
"""
    engine = notes_engine(tmp_path, "CHANGES.rst", notes, "alembic")
    assert engine.ask("which alembic release stopped working on python 2.7?", mode="bm25").earliest_release == "1.7.0"


def test_a_regression_names_no_release_the_fix_was_made_in(engine: Engine) -> None:
    from qa.answer.digest import entries_of
    from qa.answer.saying import referred

    later = next(e for e in entries_of(h.chunk for h in engine.searcher.search("assert sentry", k=10, mode="bm25"))
                 if "Sentry" in e.text)
    assert referred(later, "fixed", "assert sentry") is None
