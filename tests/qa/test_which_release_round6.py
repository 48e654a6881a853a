"""Which-release questions fresh notes tripped (issue 44, sixth round), on small notes with the fake
encoder: a plain issue number an item opens with is quoted with it, and "the last release line that
still ran on Python 3.7" asks for the release before the one that dropped it."""

from __future__ import annotations

import pytest

from corpus.items import item_quoted, item_words
from qa.answer.engine import Engine
from qa.question.changes import asks_last
from tests.support.fakes import notes_engine

NOTES = """Release 6.0.0 (released Dec 29, 2022)
=====================================

Dependencies
------------

* #10468: Drop Python 3.6 support
* #10470: Drop Python 3.7, Docutils 0.14, Docutils 0.15, Docutils 0.16, and
  Docutils 0.17 support. Patch by Adam Turner

Incompatible changes
--------------------

* #11363: Remove the Setuptools integration (``build_sphinx`` hook in
  ``setup.py``).

Release 5.3.0 (released Oct 16, 2022)
=====================================

* #10759: LaTeX: add :confval:`latex_table_style` and support the
  ``'booktabs'``, ``'borderless'``, and ``'colorrows'`` styles.

Release 5.2.0 (released Sep 24, 2022)
=====================================

* #10743: Add a ``:no-index-entry:`` option to the glossary directive.
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("sphinx"), "CHANGES.rst", NOTES, "sphinx")


def test_a_plain_issue_number_stays_in_the_quote_and_link_markup_goes() -> None:
    assert item_quoted("* #11363: Remove the Setuptools integration.") == "#11363: Remove the Setuptools integration."
    assert item_words("* #11363: Remove the Setuptools integration.") == "Remove the Setuptools integration."
    assert item_quoted("- (#42): Fix the parser.") == "(#42): Fix the parser."
    assert item_quoted("- `#14220 <https://example.org/14220>`_: Fix the parser.") == "Fix the parser."
    assert item_quoted("- **API**: Fix the parser.") == "Fix the parser."
    assert item_quoted("- Fix #12: the parser.") == "Fix #12: the parser."


def test_a_which_release_answer_quotes_the_item_with_its_issue_number(engine: Engine) -> None:
    answer = engine.ask("`python setup.py build_sphinx` doesn't work anymore - which sphinx version dropped it?",
                        mode="bm25")
    assert answer.earliest_release == "6.0.0"
    assert answer.sentences[0].text.startswith("#11363: Remove the Setuptools integration")


@pytest.mark.parametrize("question", [
    "what was the last sphinx release line that still ran on python 3.7?",
    "what was the last sphinx version that still ran on python 3.7?",
    "the last sphinx release series to support python 3.7?",
])
def test_the_last_release_line_that_still_ran_on_a_python(engine: Engine, question: str) -> None:
    assert asks_last(question)
    answer = engine.ask(question, mode="bm25")
    assert answer.earliest_release == "5.3.0"
    assert [(n.kind, n.releases) for n in answer.notes] == [("last_release", ("5.3.0", "6.0.0"))]


def test_a_line_of_the_topic_is_no_release_line(engine: Engine) -> None:
    assert not asks_last("what was the last line that still ran?")


H2 = """Release History
===============

4.4.0 (2026-07-23)
------------------

**Bugfixes**

- Duplicate ``content-length`` headers with different values now raise ``ProtocolError``.

4.0.0 (2020-09-19)
------------------

- Remove DayOfWeek alias 7 to DayOfWeek 0 to stick to standard cron (#90).
- Use the hpack encoder by default for outgoing header blocks.

3.0.0 (2017-03-24)
------------------

- Deprecate the ``__version__`` attribute. Use feature detection instead.
- Properly raise an error if a DTLS cookie callback returned a cookie longer than
  the maximum length. Previously this would result in a buffer overflow.
- Added ``additional_data`` to ``H2Connection.close_connection``, allowing the
  user to send additional debug data on the GOAWAY frame. hyper-h2 now sends it.

2.4.0 (2016-07-01)
------------------

- Added a ``header_encoding`` option; hyper-h2 decodes no header by default.
- Added the hpack encoder as an option of the connection.
- Fix deprecated ``h2.base.WeakNamespace`` import.
"""


@pytest.fixture(scope="module")
def h2(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("h2"), "CHANGELOG.rst", H2, "h2")


def test_a_name_joining_the_product_to_another_word_asks_its_release(h2: Engine) -> None:
    from qa.question.which import asks_which_release

    assert asks_which_release("which hyper-h2 release let close_connection send debug data?", ("h2",))
    assert not asks_which_release("which pytest-xdist release added --dist?", ("pytest",))  # a package of its own
    answer = h2.ask("which hyper-h2 release let close_connection attach extra debug data to the GOAWAY it sends?",
                    mode="bm25")
    assert answer.earliest_release == "3.0.0"


def test_a_default_asked_is_stated_by_an_item_saying_default(h2: Engine) -> None:
    from qa.question.changes import change_asked

    assert change_asked("which release made the hpack encoder the default?") == "defaulted"
    assert change_asked("which release made -j default to the number of cores?") == "defaulted"
    assert change_asked("which click release supported fish completion out of the box?") == "added"  # built in
    # the asking sentence's change first: "removed" tells the context here
    assert change_asked("I removed -j 4 from our config. Which release made -j default to the number of cores?",
                        "Which release made -j default to the number of cores?") == "defaulted"
    assert change_asked("which release added a default_factory option?") == "added"  # a name, no default
    # only the sentence asking which release says what is asked when another tells the context
    assert change_asked("it fails with a required argument following defaults. which release changed how kw_only works?",
                        "which release changed how kw_only works?") is None
    answer = h2.ask("which h2 release made the hpack encoder the default for outgoing header blocks?", mode="bm25")
    assert answer.earliest_release == "4.0.0"  # not 2.4.0, which added it as an option


def test_a_fix_worded_as_doing_it_properly(h2: Engine) -> None:
    answer = h2.ask("which h2 release fixed the buffer overflow when a DTLS cookie callback returns an overly long cookie?",
                    mode="bm25")
    assert answer.earliest_release == "3.0.0"


def test_a_change_worded_by_the_best_item_naming_a_third_of_the_topic(h2: Engine) -> None:
    # no item names two thirds of "treating 7 as sunday in the day of week field ... alias"; the best one worded
    # with the removal and naming a third of it states it
    answer = h2.ask("h2 stopped treating 7 as sunday in the day of week field at some point - which release dropped "
                    "that alias?", mode="bm25")
    assert answer.earliest_release == "4.0.0"
    assert h2.ask("which h2 release dropped support for the moon phase field?", mode="bm25").earliest_release is None


def test_exact_names_of_a_question_as_the_notes_write_them() -> None:
    from qa.question.vocabulary import specifics

    assert specifics("dumps() raises ValueError on float('nan') now") == ("dumps", "float", "nan")
    assert specifics("acme.evolve(inst=obj) fails") == ("acme.evolve",)


def test_a_name_the_product_qualifies_is_the_name_alone(h2: Engine) -> None:
    from qa.question.parse import _unqualified

    assert _unqualified(("h2.__version__", "h2", "pytest.approx"), {"h2"}) == ("__version__", "pytest.approx")
    answer = h2.ask("h2 started emitting a DeprecationWarning when my code reads h2.__version__. since when?", mode="bm25")
    assert answer.earliest_release == "3.0.0" and "``__version__``" in answer.sentences[0].text


def test_which_release_asked_with_an_age_or_as_the_first() -> None:
    from qa.question.which import asks_which_release

    assert asks_which_release("which old pyOpenSSL version added recv_into on Connection?", ("pyopenssl",))
    assert asks_which_release("what was the first pyopenssl release that could negotiate TLS 1.1?", ("pyopenssl",))
    assert asks_which_release("what was the earliest version that shipped wheels?", ("pyopenssl",))
    assert not asks_which_release("which old python version does it still run on?", ("pyopenssl",))
    assert not asks_which_release("what was the first django release with async views?", ("pyopenssl",))


def test_versions_of_an_acronym_or_a_known_product_are_no_releases() -> None:
    from qa.question.releases import find_releases

    known = ("0.14", "1.1", "1.2", "2.1", "2.2", "23.1", "23.2")
    assert find_releases("the first pyopenssl release that could negotiate TLS 1.1 and 1.2?", known=known,
                         products=("pyopenssl",)).releases == ()
    assert find_releases("does it work with django 4.2 and 5.0 in 2.1?", known=known, products=("pyopenssl",)).releases == ("2.1",)
    assert find_releases("does pyopenssl 23.1 and 23.2 support it?", known=known, products=("pyopenssl",)).releases == ("23.1", "23.2")
    assert find_releases("what changed in 2.1 and 2.2?", known=known, products=("pyopenssl",)).releases == ("2.1", "2.2")


@pytest.mark.parametrize("question", [
    "which release added SAML single sign-on?",          # a name no passage holds
    "when was the mobile app for iPhone released?",
])
def test_a_which_release_question_of_what_the_notes_never_name_states_no_release(h2: Engine, question: str) -> None:
    for mode in ("bm25", "hybrid"):
        assert h2.ask(question, mode=mode).earliest_release is None


def test_a_name_the_notes_hold_or_code_named_exactly_is_no_unheld_name(h2: Engine) -> None:
    assert h2.ask("which h2 release let close_connection attach debug data to GOAWAY frames?", mode="bm25").earliest_release == "3.0.0"
    assert h2.ask("which h2 release deprecated the __version__ attribute of H2Connection?", mode="bm25").earliest_release == "3.0.0"


def test_half_the_words_held_nowhere_in_long_notes_state_no_release(tmp_path) -> None:
    from qa.answer.naming import RICH

    words = "parser reader writer cache socket stream buffer timer logger config".split()
    notes = "# Changelog\n\n" + "".join(
        f"## 1.{n}.0\n\n- Fix the {words[n % 10]} when it reads files of size {n}.\n"
        f"- Add a {words[(n + 3) % 10]} option for the {words[(n + 5) % 10]}.\n\n" for n in range(RICH + 20, 0, -1))
    notes = notes.replace("## 1.50.0\n\n", "## 1.50.0\n\n- Add zstandard compression of the logger's files.\n")
    notes = notes.replace("## 1.60.0\n\n", "## 1.60.0\n\n- Add an export of offline maps.\n")  # half of what is asked
    engine = notes_engine(tmp_path, "CHANGELOG.md", notes, "tool")
    assert len(engine.catalogue.chunks) >= RICH
    assert engine.ask("which version added offline maps for hiking trails?", mode="bm25").earliest_release is None
    assert engine.ask("which tool version started compressing logger files with zstandard?",
                      mode="bm25").earliest_release == "1.50.0"


# the review's cases (issue 44, sixth round), on notes in the shapes it found them
REVIEWED = """Changelog
=========

0.28.0 (2024-11-28)
-------------------

- The deprecated `proxies` argument has now been removed.
- Use TLS 1.3 ciphersuites from ``set_tls13_ciphersuites``.

0.20.0 (2021-10-01)
-------------------

- We intend to make `--import-mode=importlib` the default in future versions.
- Special handling of matrix in np.outer is removed.

0.14.0 (2020-08-07)
-------------------

- Drop `proxies=<transport instance>` in favor of `mounts=`.
- Add completion support for Fish shell.
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("reviewed"), "CHANGES.rst", REVIEWED, "tool")


def test_a_keyword_argument_named_is_held_as_code_too(reviewed: Engine) -> None:
    from qa.answer.holding import holds

    assert holds("the deprecated `proxies` argument has now been removed.", "proxies=")
    assert not holds("the deprecated proxies argument has now been removed.", "proxies=")
    answer = reviewed.ask("which tool release removed the proxies= argument?", mode="bm25")
    assert answer.earliest_release == "0.28.0"


def test_reviewed_questions_state_what_the_notes_say(reviewed: Engine) -> None:
    assert reviewed.ask("which tool release supported fish shell completion out of the box?",
                        mode="bm25").earliest_release == "0.14.0"  # built in, not a default
    assert reviewed.ask("which tool release switched the default import mode to importlib?",
                        mode="bm25").earliest_release is None  # meant, not made
    assert reviewed.ask("which tool release removed the matrix class?", mode="bm25").earliest_release is None
    assert reviewed.ask("which tool version added TLS 1.3 ciphersuite configuration?",
                        mode="bm25").earliest_release == "0.28.0"  # "ciphersuite" held by "ciphersuites"


STILL = """Changelog
=========

1.13.0
------

- Replaced ``python-dateutil`` with the standard library module ``zoneinfo``.
- Added the ``check`` command for continuous integration.

1.7.0
-----

- Make the ``python-dateutil`` library an optional dependency. This library is only required if the
  ``timezone`` option is used: install it with the ``tz`` extra to get timezone support.
"""


def test_how_a_named_dependency_stands_now_is_told_by_the_latest_item_naming_it(tmp_path) -> None:
    filler = "".join(f"1.{n}.0\n------\n\n- Fix the {w} when it reads files of size {n}.\n\n"
                     for n, w in zip(range(6, 0, -1), "parser reader writer cache socket stream".split()))
    engine = notes_engine(tmp_path, "CHANGES.rst", STILL + "\n" + filler, "tool")
    answer = engine.ask("does tool still pull in python-dateutil for the timezone stuff?", mode="bm25")
    assert "Replaced ``python-dateutil``" in answer.sentences[0].text, answer.sentences
