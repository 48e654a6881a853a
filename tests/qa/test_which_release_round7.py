"""Which-release questions fresh notes tripped (issue 44, seventh round), on small notes with the fake
encoder: a version the question names narrows the items before a name does, "when did the default X
change?" asks for one release, a short form ("dict") reaches the notes' word ("dictionary"), an "added"
no item says in two thirds of the topic falls to the best item worded so, and a name written as code
("@deprecated") asks of no deprecation."""

from __future__ import annotations

import pytest

from index import tokenize
from qa.answer.engine import Engine
from qa.answer.evidence import score_sentences, synonyms_of
from qa.question.changes import asked_kind, change_asked
from qa.question.products import named
from qa.question import read
from qa.question.releases import find_releases
from qa.question.which import asks_which_release
from qa.question.shapes import kinds_named, shape_of
from qa.question.contrast import without_contrast
from qa.question.vocabulary import specifics
from tests.support.fakes import notes_engine

FREEZEGUN = """Freezegun Changelog
===================

1.5.4
-----
* Fix: Ability to yield fixtures (broken in 1.5.3)

1.5.3
-----
 * Fix compatibility with pytest 8.4.0 when using fixtures
 * Add (back) class-decorator overload to guarantee Pytype understands it

1.5.0
-----
 * Added a missing `move_to`-function when calling `freeze_time(tick=True)`
 * Fixed a bug where the default ignore list could not be empty

1.4.0
-----
 * `asyncio`-support from 1.3.x introduced quite a few bugs, so that functionality is now hidden behind a flag:
   `with freeze_time('1970-01-02', real_asyncio=True):`

1.2.2
-----
* Don't freeze pytest timings. This avoids class-level decorator usage messing with pytest timings.
"""

RESPONSES = """0.26.2
------

* Fixed `query_param_matcher` mutating the caller's params dict when numeric
  values are given.

0.23.0
------

* Add Python 3.11 support
* [BETA] Default recorder format was changed to YAML.  Added `responses.RequestsMock._parse_response_file` and
  `responses._recorder.Recorder.dump_to_file` methods that allow users to override default parser to eg toml, json

0.19.0
------

* `query_param_matcher` can now accept dictionaries with `int` and `float` values.

0.17.0
------

* Deprecate `match_querystring` argument in `Response` and `CallbackResponse`.
  Use `responses.matchers.query_param_matcher` or `responses.matchers.query_string_matcher`

0.15.0
------

* Added `responses.matchers.query_string_matcher`. This matcher allows you
  to match request query string, similar to `responses.matchers.query_param_matcher`.

0.14.0
------

* Added `responses.matchers.query_param_matcher`. This matcher allows you
  to match query strings with a dictionary.
"""


@pytest.fixture(scope="module")
def freezegun(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("freezegun"), "CHANGELOG.txt", FREEZEGUN, "freezegun")


@pytest.fixture(scope="module")
def responses(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("responses"), "CHANGES.txt", RESPONSES, "responses")


def test_a_version_named_narrows_before_a_name_no_item_with_it_holds(freezegun: Engine) -> None:
    # "freeze_time" is in other items, none naming pytest 8.4.0: the item naming the version states the fix
    answer = freezegun.ask("Since we bumped pytest to 8.4.0, freeze_time-decorated tests that take fixtures blow up. "
                           "Is there a freezegun release that fixes this?", mode="bm25")
    assert answer.earliest_release == "1.5.3"
    assert answer.sentences[0].text.startswith("Fix compatibility with pytest 8.4.0")


@pytest.mark.parametrize("question", [
    "when did the default recorder format change?",
    "the responses _recorder started writing .yaml files instead of toml. when did the default recorder format change?",
])
def test_when_the_default_changed_is_one_release(responses: Engine, question: str) -> None:
    answer = responses.ask(question, mode="bm25")
    assert answer.earliest_release == "0.23.0"
    assert "Default recorder format was changed to YAML" in answer.sentences[0].text


def test_when_a_thing_changed_is_still_its_history() -> None:
    shape = shape_of("when did the fetcher change?", releases=(), ranged=False, which=True, products=())
    assert shape.name == "history"
    shape = shape_of("when did the default fetcher change?", releases=(), ranged=False, which=True, products=())
    assert shape.name == "which"


def test_a_short_form_reaches_the_word_the_notes_spell_out(responses: Engine) -> None:
    # "plain dict": 0.14.0's "with a dictionary", not 0.15.0's query string matcher nor a later fix or deprecation
    answer = responses.ask("When did responses get a matcher that lets me match the query string against a plain dict?",
                           mode="bm25")
    assert answer.earliest_release == "0.14.0"
    assert "match query strings with a dictionary" in answer.sentences[0].text


def test_a_name_written_as_code_asks_of_no_change() -> None:
    question = "when did the PEP 702 @deprecated decorator show up in typing_extensions?"
    assert change_asked(question) is None
    assert asked_kind(question) is None
    assert kinds_named(question) == ()
    assert change_asked("when did `warnings.deprecated` get added?") == "added"
    assert change_asked("when did typing_extensions.deprecated() land?") is None
    # a version is no name written as code: "deprecated in 2.0" still asks of a deprecation
    assert change_asked("which release deprecated the hash argument, 24.1 or 2.0?") == "deprecated"
    assert asked_kind("was it deprecated in 3.8?") == "deprecated"


PATHSPEC = """Change History
==============


1.0.1 (2026-01-06)
------------------

Bug fixes:

- `Issue #100`_: ValueError(f"{patterns=!r} cannot be empty.") when using black.


.. _`Issue #100`: https://github.com/cpburnz/python-pathspec/issues/100


1.0.0 (2026-01-05)
------------------

Major changes:

- Breaking: protected method `pathspec.pathspec.PathSpec._match_file()` (with a leading underscore) has
  been removed.


0.12.1 (2023-12-10)
-------------------

Bug fixes:

- `Issue #84`_: PathSpec.match_file() returns None since 0.12.0.


0.12.0 (2023-12-09)
-------------------

New features:

- Added `pathspec.pathspec.PathSpec.check_*()` methods. These methods behave similarly to `.match_*()`.


0.5.0 (2016-08-22)
------------------

- `Issue #12`_: Add `PathSpec.match_file()`.
"""


@pytest.fixture(scope="module")
def pathspec(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("pathspec"), "CHANGES.rst", PATHSPEC, "pathspec")


def test_the_error_the_question_quotes_is_no_denial_and_the_release_it_came_with_no_filter(pathspec: Engine) -> None:
    # "cannot be empty" is the symptom under Bug fixes, not a sentence saying a thing is not there; "upgraded to
    # 1.0." is the release the person is on (a sentence ending after it), not one to answer from
    question = ("black crashes with ValueError: patterns=[] cannot be empty right after pathspec got upgraded to 1.0. "
                "which pathspec version fixes it?")
    assert find_releases(question, ("1.0.0", "1.0.1", "0.12.1"), ("pathspec",)).releases == ()
    answer = pathspec.ask(question, mode="bm25")
    assert answer.earliest_release == "1.0.1"
    assert "cannot be empty" in answer.sentences[0].text


def test_a_fix_told_by_its_symptom_under_bug_fixes(pathspec: Engine) -> None:
    # no "fix" in the item: its heading says so; "True"/"False" are values, no names the notes lack
    answer = pathspec.ask("after upgrading to pathspec 0.12.0, PathSpec.match_file() returns None instead of True/False. "
                          "fixed in what release?", mode="bm25")
    assert answer.earliest_release == "0.12.1"
    assert "PathSpec.match_file() returns None since 0.12.0" in answer.sentences[0].text


@pytest.mark.parametrize(("question", "releases"), [
    ("I'm on 0.12.0. what changed for match_file?", ("0.12.0",)),  # no which-release question: a release asked about
    ("after upgrading to pathspec 0.12.0, which release fixed match_file?", ()),
    ("since we bumped pathspec to 0.12.0, which release fixed match_file?", ()),
    ("which release after pathspec 0.12.0 fixed match_file?", ("0.12.0",)),
    ("we moved from 0.12.0. which release removed _match_file?", ()),
])
def test_a_release_told_as_the_one_a_person_is_on(question: str, releases: tuple[str, ...]) -> None:
    assert find_releases(question, ("1.0.0", "0.12.0", "0.12.1"), ("pathspec",)).releases == releases


FILETYPE = """
v1.2.0 / 2022-11-02
===================

  * Try matching audio before video
  * fix: guess ".docx" func and add another doc file test case
  * fix: guess ".doc" func and add another doc file test case
  * Added document filetypes for doc, docx, odt, xls, xlsx, ods, ppt, pptx and odp.

v1.0.1 / 2019-03-21
===================

  * Allow memoryview input to filetype.guess
"""

TOOLBELT = """History
=======

0.9.1 -- 2019-01-29
-------------------

Fixed Bugs
~~~~~~~~~~

- Fix import of pyOpenSSL shim from urllib3 for PKCS12 adapter

0.9.0 -- 2019-01-29
-------------------

New Features
~~~~~~~~~~~~

- Add X509 Adapter that can handle PKCS12

0.4.0 -- 2015-04-03
-------------------

- An implementation of HTTP Digest Authentication for Proxies is now included.

- A transport adapter that allows a user to specify a specific Certificate
  Fingerprint in the SSL certificate chain.
"""


def test_what_only_the_context_names_exactly_need_not_be_in_the_stating_item(tmp_path) -> None:
    # "filetype.guess()" tells what the person saw; the asking sentence asks of office documents
    engine = notes_engine(tmp_path, "History.md", FILETYPE, "filetype")
    answer = engine.ask("filetype.guess() returns None for .docx and .xlsx uploads. which filetype release can detect "
                        "office documents?", mode="bm25")
    assert answer.earliest_release == "1.2.0"
    assert answer.sentences[0].text.startswith("Added document filetypes")


def test_a_capitalised_name_with_a_number_is_named_exactly(tmp_path) -> None:
    assert "pkcs12" in specifics("client-cert auth straight from a .p12 / PKCS12 file")
    engine = notes_engine(tmp_path, "HISTORY.rst", TOOLBELT, "requests-toolbelt")
    answer = engine.ask("since when can requests-toolbelt do client-cert auth straight from a .p12 / PKCS12 file?",
                        mode="bm25")
    assert answer.earliest_release == "0.9.0"
    assert answer.sentences[0].text == "Add X509 Adapter that can handle PKCS12"


def test_a_product_named_as_its_import_is_written() -> None:
    held = ("requests-toolbelt", "responses", "typing_extensions")
    assert [n.product for n in named("what is UserAgentBuilder in requests_toolbelt for?", held)] == ["requests-toolbelt"]
    assert [n.product for n in named("what changed in typing-extensions 4.5?", held)] == ["typing_extensions"]
    assert find_releases("what changed in requests_toolbelt 0.9.0?", ("0.9.0",), held).releases == ("0.9.0",)


def test_an_import_name_another_held_products_notes_write_names_a_dependency(tmp_path) -> None:
    # requests' notes write `charset_normalizer`: "neither chardet nor charset_normalizer" asks about requests
    from corpus import CorpusInput
    from corpus.pipeline import load_chunks
    from qa.answer.catalogue import Catalogue

    (tmp_path / "requests.md").write_text("## 2.32.0\n\n- `Response.text` will default to `utf-8` if neither "
                                          "`chardet` nor `charset_normalizer` is present.\n", encoding="utf-8")
    (tmp_path / "cn.md").write_text("## 3.4.0\n\n- Faster detection in `charset_normalizer.from_bytes`.\n",
                                    encoding="utf-8")
    catalogue = Catalogue(load_chunks([CorpusInput(tmp_path / "requests.md", "requests"),
                                       CorpusInput(tmp_path / "cn.md", "charset-normalizer")]))
    assert catalogue.writers("charset_normalizer") == {"requests", "charset-normalizer"}
    question = "what does Response.text fall back to when neither chardet nor charset_normalizer is installed?"
    held = catalogue.products
    assert [n.product for n in named(question, held, writers=catalogue.writers) if n.held] == []
    assert [n.product for n in named("what changed in charset-normalizer?", held, writers=catalogue.writers)] == [
        "charset-normalizer"]



def test_stopped_supporting_is_said_by_dropped_support() -> None:
    # "stop" is said by "drop": of 0.12.0's two sentences naming Python support, the one dropping it answers
    sentences = ["Mark Python 3.12 as supported.", "Dropped support of EoL Python 3.7."]
    scored = score_sentences("which Python version did it stop supporting?", [" ".join(sentences)], tokenize=tokenize,
                             idf=lambda terms: [1.0] * len(terms), alternatives=synonyms_of)
    assert max(scored, key=lambda c: c.score).span.text == sentences[1]
    assert ("drop",) in synonyms_of("stop") and ("dictionari",) in synonyms_of("dict")
    assert ("licenc",) in synonyms_of("licens") and ("behaviour",) in synonyms_of("behavior")


@pytest.mark.parametrize(("question", "which"), [
    ("which version of the mrab `regex` module added a timeout argument?", True),  # its owner's name before it
    ("which version of regex added a timeout argument?", True),
    ("what version of the package added X?", True),
    ("what version of cuDNN does torch use?", False),  # another thing's version, the product after a verb
    ("what version of python does regex need?", False),
    ("which version of the docs mention X?", False),
])
def test_which_version_of_the_product_named_after_its_owner(question: str, which: bool) -> None:
    assert asks_which_release(question, ("regex", "pytorch")) is which


def test_the_owner_named_before_a_product_is_no_topic_word(tmp_path) -> None:
    engine = notes_engine(tmp_path, "changelog.txt", "Version: 2019.3.12\n\n    Added timeout parameter in Python 3.\n\n"
                          "Version: 2019.3.9\n\n    Hg issue 320: Abnormal performance\n", "regex")
    question = read("which version of the mrab `regex` module added a timeout argument?", engine.catalogue)
    assert question.shape.name == "which" and "mrab" not in question.topic.split()
    assert engine.ask("which version of the mrab `regex` module added a timeout argument?", mode="bm25"
                      ).earliest_release == "2019.3.12"


@pytest.mark.parametrize("question", [
    "nx.connected_component_subgraphs doesn't exist anymore in my networkx, in which version was it taken out?",
    "which release took out the read_gpickle function?",
    "read_gpickle does not exist any more - when was it removed?",
])
def test_taken_out_asks_of_a_removal(question: str) -> None:
    assert change_asked(question) == "removed" and asked_kind(question) == "removed"
    assert change_asked("which release took the lock out of the hot path?") is None


PILLOW = """Changelog (Pillow)
==================

10.4.0 (2024-07-01)
-------------------

- Removed support for Qt 5 #8159
  [radarhere]

9.2.0 (2022-07-01)
------------------

- Deprecate support for Qt 5 (PyQt5 and PySide2) #6237
  [hugovk, radarhere]

4.1.0 (2017-04-03)
------------------

- Test: Fixed Qt tests for QT5 and saving 1 bit PNG #2394
  [wiredfool]

- Added PySide to ImageQt documentation #2392
  [radarhere]

2.3.0 (2014-01-01)
------------------

- PyQT5 Support #418
  [wiredfool]
"""


def test_a_name_and_its_number_written_apart_hold_the_name_asked(tmp_path) -> None:
    # "qt5" of the question is "Qt 5" in the removal, "QT5" only in a test fix
    engine = notes_engine(tmp_path, "CHANGES.rst", PILLOW, "pillow")
    answer = engine.ask("ImageQt stopped working with PyQt5 after a pillow upgrade, which release removed qt5 support?",
                        mode="bm25")
    assert answer.earliest_release == "10.4.0"
    assert answer.sentences[0].text.startswith("Removed support for Qt 5")


def test_what_the_answer_is_for_is_no_topic() -> None:
    assert without_contrast("Which regex release dropped Python 2 so I know what to pin below?").rstrip(" ?") == \
        "Which regex release dropped Python 2"
    left = without_contrast("so I know which to pick: which release added X?")
    assert "know" not in left and left.endswith(": which release added X?")


TYPING_EXTENSIONS = """Release 4.10.0rc1 (February 17, 2024)
=====================================

- Add support for PEP 742, adding `typing_extensions.TypeIs`. Patch
  by Jelle Zijlstra.

Release 4.6.0 (May 22, 2023)
============================

- Speed up `import typing_extensions` by deferring imports of `typing`'s private names.
- Fix an import cycle between `typing_extensions` and `annotationlib` on Python 3.14.

Release 4.5.0 (February 14, 2023)
=================================

- Runtime support for PEP 702, adding `typing_extensions.deprecated`. Patch
  by Jelle Zijlstra.

Release 4.1.1 (February 13, 2022)
=================================

- Fix importing `typing_extensions` on Python 3.7.0 and 3.7.1. Original
  patch by Nikita Sobolev.
"""


def test_the_minimum_version_to_import_a_name_and_a_decorator_named_as_code(tmp_path) -> None:
    engine = notes_engine(tmp_path, "CHANGELOG.md", TYPING_EXTENSIONS, "typing-extensions")
    # "typing_extensions" names the product (as its import is written), no thing an item must hold
    question = read("what's the minimum typing_extensions version I need to import TypeIs?", engine.catalogue)
    assert question.shape.name == "which" and question.specifics == () and "minimum" not in question.topic
    assert engine.ask("what's the minimum typing_extensions version I need to import TypeIs?",
                      mode="bm25").earliest_release == "4.10.0rc1"
    # "@deprecated" is held by "`typing_extensions.deprecated`"
    assert engine.ask("when did the PEP 702 @deprecated decorator show up in typing_extensions?",
                      mode="bm25").earliest_release == "4.5.0"


def test_a_python_version_after_to_is_no_release_of_the_product() -> None:
    assert find_releases("which idna version raised the minimum python to 3.9?", ("3.16", "3.9"), ("idna",)).releases == ()
    assert find_releases("after upgrading idna to 3.9, what broke?", ("3.16", "3.9"), ("idna",)).releases == ("3.9",)
    assert asks_which_release("what's the minimum typing_extensions version I need?", ("typing_extensions",))
    assert not asks_which_release("what's the minimum requests version responses 0.22 requires?", ("responses",))


def test_review_probes_of_the_seventh_round() -> None:
    # "doesn't exist anymore" asks of a removal, as "does not" does
    assert change_asked("X doesn't exist anymore, which version?") == "removed"
    assert change_asked("X doesn\u2019t exist any more - which release?") == "removed"
    # "go to 8.4.0" is a release; only a raised minimum Python's version is Python's
    assert find_releases("what breaks if I go to 8.4.0?", ("8.4.0",), ("pytest",)).releases == ("8.4.0",)
    # the change asked, in a release, is no release a person moved to
    assert find_releases("which pathspec version switched gitignore handling in 0.12.0?", ("0.12.0",),
                         ("pathspec",)).releases == ("0.12.0",)
    # another thing's version, the product after it
    assert not asks_which_release("which version of urllib3 requests requires?", ("requests",))
    assert asks_which_release("which version of the mrab regex module added X?", ("regex",))
    # a version in a purpose clause goes with it
    assert without_contrast("which release fixed the bug so I know whether 2.0 is safe").strip() == \
        "which release fixed the bug"


def test_an_import_name_other_notes_write_is_no_product_asked_nor_refused(tmp_path) -> None:
    # typing_extensions written in pydantic's notes too: no product named, so no refusal either
    from corpus import CorpusInput
    from corpus.pipeline import load_chunks
    from qa.answer.catalogue import Catalogue

    (tmp_path / "te.md").write_text("## 4.10.0\n\n- Add `typing_extensions.TypeIs`.\n", encoding="utf-8")
    (tmp_path / "pd.md").write_text("## 2.7.0\n\n- Require `typing_extensions` 4.10.\n", encoding="utf-8")
    catalogue = Catalogue(load_chunks([CorpusInput(tmp_path / "te.md", "typing-extensions"),
                                       CorpusInput(tmp_path / "pd.md", "pydantic")]))
    found = named("what's the minimum typing_extensions version I need to import TypeIs?", catalogue.products,
                  writers=catalogue.writers)
    assert found == ()
