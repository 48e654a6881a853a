"""Which-release questions that fresh notes tripped (issue 44, fifth round), on small notes with
the fake encoder: a product asked by its short name ("which dateutil release" of python-dateutil)."""

from __future__ import annotations

import pytest

from qa.answer.engine import Engine
from qa.question.which import asks_which_release
from tests.support.fakes import notes_engine

NOTES = """Version 2.8.2 (2021-07-08)
==========================

Bugfixes
--------

- Fixed the custom ``repr`` for ``dateutil.parser.ParserError``, which was not
  defined due to an indentation error.
- Updated ``parser.parse`` documentation to reflect the switch from
  ``ValueError`` to ``ParserError``.

Version 2.8.1 (2019-11-03)
==========================

Data updates
------------

- Updated tzdata version to 2019c.

Other changes
-------------

- Parsing errors will now raise ``ParserError``, a subclass of ``ValueError``,
  which has a nicer string representation.

Version 2.8.0 (2019-02-04)
==========================

- Added ``isoparse`` for ISO 8601 strings.
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("dateutil"), "NEWS.txt", NOTES, "python-dateutil")


def test_a_product_asked_by_its_short_name(engine: Engine) -> None:
    assert asks_which_release("which dateutil release introduced ParserError?", ("python-dateutil",))
    assert asks_which_release("which dateutil release introduced ParserError?", ["python-dateutil"])
    assert not asks_which_release("which python version does it need?", ("python-dateutil",))
    answer = engine.ask("which dateutil release introduced the ParserError exception for strings it can't parse?")
    assert answer.earliest_release == "2.8.1" and "will now raise ``ParserError``" in answer.text


def test_a_release_named_after_the_short_name(engine: Engine) -> None:
    answer = engine.ask("what did dateutil 2.8.1 fix?")
    assert answer.releases == ("2.8.1",)


@pytest.mark.parametrize("question", [
    "is there a release of the dateutil package that added isoparse, and which one?",
    "was there any dateutil release with isoparse added?",
])
def test_is_there_a_release_that_asks_which(engine: Engine, question: str) -> None:
    assert engine.ask(question, mode="bm25").earliest_release == "2.8.0"  # the fake encoder's cosines say nothing


@pytest.mark.parametrize("question", ["is there a release note about isoparse?", "is there a version of python that isoparse needs?"])
def test_is_there_a_release_note_or_another_things_version_does_not(question: str) -> None:
    assert not asks_which_release(question, ("python-dateutil",))


def test_the_product_called_a_package_or_module_is_no_topic_word() -> None:
    from qa.question.shapes import topic_of

    assert topic_of("does the decorator module still put an attribute on functions?", ("decorator",)) == "put attribute functions"
    assert topic_of("which release of the attrs package supports Python 3.15?", ("attrs",)) == "supports Python 3.15"
    assert "module" in topic_of("does decorator's module loader still work?", ("decorator",))  # its own module


@pytest.mark.parametrize("topic, named", [
    ("does it still put an `undecorated` attribute on functions?", {"undecorated"}),  # marked as code
    ("isoparse('20200728121240') raises ValueError", {"isoparse", "20200728121240"}),  # a call's name and literal
    ("acme.evolve(inst=obj) now raises a TypeError", {"acme.evolve"}),  # a call's name
])
def test_what_a_question_names_exactly(topic: str, named: set[str]) -> None:
    from qa.question.vocabulary import specifics

    assert named <= set(specifics(topic))


def test_a_call_with_a_literal_finds_the_item_naming_the_literal(tmp_path) -> None:
    notes = NOTES.replace("Bugfixes\n--------\n\n", "Bugfixes\n--------\n\n- ``isoparse`` now rejects strings such as"
                          " ``20200728121240``: each field must have its digits.\n", 1)
    engine = notes_engine(tmp_path, "NEWS.txt", notes, "python-dateutil")
    answer = engine.ask("isoparse('20200728121240') raises ValueError now. Which release made that change?")
    assert answer.earliest_release == "2.8.2" and "rejects" in answer.text


ALIKE = "# Changelog\n\n" + "".join(f"## 1.{n}.0 - 2024-0{n}-01\n\n- Template strings render faster.\n- Improve parser speed.\n\n"
                                    for n in (4, 3, 2, 1)) + "## 1.0.0 - 2023-12-01\n\n- First release.\n"


@pytest.mark.parametrize("mode", ["bm25", "hybrid"])
def test_many_releases_stating_it_weakly_name_none_strongly_the_first(tmp_path, mode: str) -> None:
    engine = notes_engine(tmp_path, "CHANGELOG.md", ALIKE, "lint")
    weak = engine.ask("which release complains about template strings without placeholders or interpolation?", mode=mode)
    assert weak.earliest_release is None  # four releases' items hold two of its five words alike: none stands out
    assert engine.ask("which release improved parser speed?", mode=mode).earliest_release == "1.1.0"


MAKO = """# Changelog

## 1.1.2 - 2020-03-01

- Added --output-file argument to the Mako command line runner, which allows
  a file to be written instead of stdout.
- The mako-render script reads templates as UTF-8.

## 1.0.8 - 2019-01-01

- Changed the "print" in the mako-render command to sys.stdout.write().
"""


def test_a_name_joined_to_the_held_ones_that_its_notes_write_is_a_part_of_it(tmp_path) -> None:
    engine = notes_engine(tmp_path, "CHANGELOG.md", MAKO, "mako")
    answer = engine.ask("how do I make mako-render write its output to a file instead of stdout?")
    assert answer.passages and not any(n.kind == "product_not_held" for n in answer.notes)
    # a joined name the notes write once is no sure part: "a crash when mako-babel is installed"
    once = notes_engine(_mkdir(tmp_path / "once"), "CHANGELOG.md", MAKO + "- Fixed a crash when mako-babel is installed.\n",
                        "mako")
    assert any(n.kind == "product_not_held" for n in once.ask("what changed in mako-babel 1.4?").notes)
    # a package of its own, however much the notes write it
    pydantic = notes_engine(_mkdir(tmp_path / "p"), "HISTORY.md", "# History\n\n## 2.10.0\n\n- Bump pydantic-core to 2.27.\n"
                            "- Faster pydantic-core validators.\n", "pydantic")
    assert any(n.kind == "product_not_held" for n in pydantic.ask("what changed in pydantic-core 2.27?").notes)


def _mkdir(path):
    path.mkdir()
    return path


WHEEL = """Release Notes
=============

0.45.0 (2024-11-08)
~~~~~~~~~~~~~~~~~~~

- Refactored the ``convert`` command to not need setuptools to be installed
- Don't configure setuptools logging unless running ``bdist_wheel``
- Added a redirection from ``wheel.bdist_wheel.bdist_wheel`` to
  ``setuptools.command.bdist_wheel.bdist_wheel`` to improve compatibility with
  ``setuptools``' latest fixes.

0.44.0 (2024-08-04)
~~~~~~~~~~~~~~~~~~~

- Canonicalized requirements in METADATA file
"""


def test_the_product_and_the_release_asked_are_no_evidence_of_a_sentence(tmp_path) -> None:
    # every passage is of wheel 0.45.0: the sentence naming wheel twice is not the one that answers (term
    # coverage: the fake encoder's cosines say nothing)
    engine = notes_engine(tmp_path, "news.rst", WHEEL, "wheel")
    answer = engine.ask("what changed about `wheel convert` in 0.45.0?", mode="bm25")
    assert answer.confident and answer.sentences[0].text.startswith("Refactored the ``convert`` command")


CLI = """# Changelog

## 2.0 - 2024-05-01

- Nargs of -1 for arguments can now be forced to be a single item through the required flag.
- Added ``--sso`` to sign on once.

## 1.0 - 2023-05-01

- First release.
"""


def test_a_release_is_named_only_by_an_item_that_states_enough(tmp_path) -> None:
    engine = notes_engine(tmp_path, "CHANGELOG.md", CLI, "cli")
    off = engine.ask("which release added SAML single sign-on for enterprise accounts?", mode="bm25")
    assert off.earliest_release is None  # "a single item", "sign on": two of its words, no statement of it
    named = engine.ask("which release added `--sso`?", mode="bm25")
    assert named.earliest_release == "2.0"  # it holds what the question names exactly, however weakly it scores


def test_what_the_fifth_rounds_readings_leave_alone() -> None:
    from qa.question.releases import find_releases
    from qa.question.shapes import topic_of
    from qa.question.vocabulary import specifics

    assert "release" not in specifics("which release(s) added a json flag?")  # a plural, no call
    assert not asks_which_release("is there a Python version that flask 3 still supports?", ("flask",))
    assert not asks_which_release("is there a version of the docs that explains it?", ("flask",))
    assert asks_which_release("are there any releases that dropped python 2?", ("flask",))
    assert find_releases("what changed in cargo 0.72 about the lockfile?", ("1.70.0",), ("Rust",)).releases == ()
    assert "module" in topic_of("how does webpack module federation work?", ("webpack",))  # no "the webpack module"
