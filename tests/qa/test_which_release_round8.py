"""Which-release questions fresh notes tripped (issue 44, eighth round): a release asked within a series
("which 2.0 release", "since which Express 4 release") or by its sort ("which point release"), a fix asked
for after the release a person moved to, a proper name told as context beside a thing named exactly (an
advisory's id, a header), a quoted character the item must hold, Python's version named twice."""

from __future__ import annotations

import pytest

from qa.answer.engine import Engine
from qa.question import read
from qa.question.releases import find_releases
from qa.question.vocabulary import specifics
from qa.question.which import asks_which_release, series_named
from tests.support.fakes import notes_engine

# flask-cors's CHANGELOG.md, in part
FLASK_CORS = """# Change Log

## 4.0.1
### Security
* Address [CVE-2024-1681](https://github.com/advisories/GHSA-84pr-m4jr-85g5) which is a log injection vulnerability \
when the log level is set to debug by @aneshujevic in https://github.com/corydolphin/flask-cors/pull/351

## 4.0.0
* Remove support for Python versions older than 3.8 by @WAKayser in https://github.com/corydolphin/flask-cors/pull/330

## 3.1.01
* Fix typo by @sunarch in https://github.com/corydolphin/flask-cors/pull/304
* 'Access-Control-Allow-Private-Network = true' header for http response by @chelo-kjml in \
https://github.com/corydolphin/flask-cors/pull/318

## 3.0.5
Fixes incorrect handling of regexes containing `[`, and a few other special characters. Fixes Issue \
[#212](https://github.com/corydolphin/flask-cors/issues/212)

## 3.0.4
Handle response.headers being None. (Fixes issue #217)

## 3.0.1
Fixes Issue #183: regression whereby regular expressions for origins with an "?" are not properly matched.

## 3.0.0

This release is largely a number of small bug fixes and improvements, along with a default change in behavior.

## 2.1.3
Fixes Vary:Origin header sending behavior when regex origins are used.

## 2.1.0
Adds support for Flask Blueprints.
"""

# SQLAlchemy's changelog_20.rst, in part
SQLALCHEMY = """=============
2.0 Changelog
=============

.. changelog::
    :version: 2.0.22
    :released: October 12, 2023

    .. change::
        :tags: feature, orm
        :tickets: 10202

        Added method :meth:`_orm.Session.get_one` that behaves like
        :meth:`_orm.Session.get` but raises an exception instead of returning
        ``None`` in case no instance was found with the provided primary key.

.. changelog::
    :version: 2.0.0
    :released: January 26, 2023

    .. change::
        :tags: bug, orm

        Fixed issue where the :meth:`_orm.Session.get` method would not honor loader options.

.. changelog::
    :version: 1.4.0
    :released: March 15, 2021

    .. change::
        :tags: feature, orm

        Added :meth:`_orm.Session.get`, which returns the instance of the given primary key,
        or ``None`` when none is found.
"""


@pytest.fixture(scope="module")
def flask_cors(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("flask_cors"), "CHANGELOG.md", FLASK_CORS, "flask-cors")


@pytest.fixture(scope="module")
def sqlalchemy(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("sqlalchemy"), "changelog_20.rst", SQLALCHEMY, "sqlalchemy")


@pytest.mark.parametrize("question", [
    "Since which Express 4 release can I use express.json()?",
    "which point release fixed it?",
    "which bugfix version fixed that?",
    "Which 2.0 release added it?",
    "when could I first use oracledb in async mode?",
    "which jmespath.py version fixed that?",
])
def test_asks_for_a_release_of_a_series_or_a_sort(question: str) -> None:
    assert asks_which_release(question, ("express", "jmespath", "sqlalchemy"))


def test_the_series_asked_within_is_no_topic_word() -> None:
    assert series_named("Since which Express 4 release can I use express.json()?", ("express",)) == ("4",)
    assert series_named("which pydantic 1.x release added it?", ("pydantic",)) == ("1",)
    found = find_releases("Since which Express 4 release can I use express.json()?", ("4.16.0", "5.0.0"), ("express",))
    assert found.which_release and "4" not in found.topic.split()
    assert "point" not in find_releases("so which point release fixed it?", ("3.0.1",), ("flask-cors",)).topic


def test_a_release_moved_to_is_told_and_a_fix_comes_after_it(flask_cors: Engine) -> None:
    text = "origin regexes with a '?' broke after going to flask-cors 3.0.0. which point release fixed it?"
    found = find_releases(text, ("3.0.0", "3.0.1"), ("flask-cors",))
    assert found.releases == () and found.moved_to == ("3.0.0",)  # a sentence's dot ends the release
    answer = flask_cors.ask(text, mode="bm25")
    # 2.1.3's "regex origins" fix came before the person moved; 3.0.5's holds no '?'
    assert answer.earliest_release == "3.0.1"


def test_a_proper_name_beside_a_thing_named_exactly_is_context(flask_cors: Engine) -> None:
    answer = flask_cors.ask("Dependabot flags CVE-2024-1681 in our flask-cors pin. Which version has the fix?", mode="bm25")
    assert answer.earliest_release == "4.0.1"
    answer = flask_cors.ask("Chrome wants Access-Control-Allow-Private-Network: true on preflights. Since which "
                            "flask_cors release can it send that header?", mode="bm25")
    assert answer.earliest_release == "3.1.01"
    # named exactly and held by no item: no release
    assert flask_cors.ask("Dependabot flags CVE-2031-0001 in flask-cors. Which version fixed it?",
                          mode="bm25").earliest_release is None


def test_advisories_headers_and_quoted_characters_are_named_exactly() -> None:
    assert "cve-2024-1681" in specifics("Dependabot flags CVE-2024-1681 (log injection)")
    assert "access-control-allow-private-network" in specifics("wants Access-Control-Allow-Private-Network: true")
    assert set(specifics("split fields on ';' as well as '&'. when did it switch to only '&'?")) == {"&", ";"}
    assert specifics("don't split on it, it's fine") == ()
    # an HTTP status as code or after "HTTP"; in prose ("answer 401 Unauthorized") an item may word it otherwise
    assert "205" in specifics("res.status(205).send() kept sending a body") and "404" in specifics("now HTTP 404")
    assert "401" not in specifics("links that answer 401 Unauthorized")


def test_a_release_within_a_series_the_question_names(sqlalchemy: Engine) -> None:
    question = read("Is there a Session method like session.get() that raises when the primary key isn't found? "
                    "Which 2.0 release added it?", sqlalchemy.catalogue)
    assert question.shape.name == "which" and question.releases == ("2.0",)
    answer = sqlalchemy.ask(question, mode="bm25")
    assert answer.earliest_release == "2.0.22"  # not 1.4.0's Session.get itself: outside the series


def test_a_release_of_one_held_release_is_that_release(sqlalchemy: Engine) -> None:
    # "1.4" answers for one held release only: the question is of it, not a series to search
    assert read("which 1.4 release added Session.get?", sqlalchemy.catalogue).shape.name != "which"
    assert read("when was sqlalchemy 2.0 released?", sqlalchemy.catalogue).shape.name == "release"


def test_a_platform_version_named_again_bare_is_the_platform_s() -> None:
    found = find_releases("pip install sqlalchemy on Python 3.14 didn't pull in greenlet. which SQLAlchemy version "
                          "installs greenlet automatically on 3.14?", ("2.0.44", "3.14.0"), ("sqlalchemy",))
    assert found.releases == () and found.which_release


# cachecontrol's CHANGELOG.rst and jmespath's, in part
CACHECONTROL = """Release Notes
=============

0.14.2
======

* Eliminate a race condition when overwriting cache entries.
* Fix a ``requests`` object leak when doing caching on a streamed response

0.14.1
======

* Explicitly allow ``requests`` 2.32.

0.13.1
======

* Fix a memory leak in the file cache when the heuristic is used.

0.12.0
======

* Streamed responses are cached once the body has been read whole.
"""

JMESPATH = """=========
CHANGELOG
=========

1.0.1
=====

* Fix ``min_by``/``max_by`` with empty lists (`issue 251 <https://github.com/jmespath/jmespath.py/issues/251>`__)

1.0.0
=====

* Drop support for Python versions less than 3.7 (including Python 2).

0.10.0
======

* Python 3.9 support.

0.9.5
=====

* Fix syntax warnings on Python 3.8.
"""


@pytest.fixture(scope="module")
def cachecontrol(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("cachecontrol"), "CHANGELOG.rst", CACHECONTROL, "cachecontrol")


@pytest.fixture(scope="module")
def jmespath(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("jmespath"), "CHANGELOG.rst", JMESPATH, "jmespath")


def test_what_the_asking_sentence_points_back_to_by_name(cachecontrol: Engine) -> None:
    text = ("We stream big downloads through a CacheControl-wrapped session and memory keeps climbing, looks like "
            "requests objects are never freed. Which release fixed that leak?")
    question = read(text, cachecontrol.catalogue)
    # "CacheControl-wrapped" is the product doing it, no product the corpus lacks
    assert question.pointed == "leak" and question.foreign == () and question.focus == ""
    # no item names two thirds of the context, nor a third: the one naming the leak, fixed, and the best scoring
    answer = cachecontrol.ask("Memory keeps climbing as we stream downloads with a CacheControl-wrapped session: "
                              "requests objects are never freed. Which release fixed that leak?", mode="bm25")
    assert answer.earliest_release == "0.14.2"  # not 0.13.1's file-cache leak
    assert read("memory keeps climbing. which release fixed that?", cachecontrol.catalogue).pointed == ""


def test_a_bound_of_versions_holds_the_versions_below_it(jmespath: Engine) -> None:
    from qa.answer.holding import holds

    assert holds("drop support for python versions less than 3.7 (including python 2).", "2.7")
    assert holds("requires python < 3.8", "3.7") and not holds("requires python < 3.8", "3.9")
    assert not holds("support is removed for python 3 versions prior to 3.6", "2.7")  # of Python 3 only
    assert holds("support is removed for python 3 versions prior to 3.6", "3.5")
    answer = jmespath.ask("what's the last jmespath version that still installs on python 2.7?", mode="bm25")
    assert answer.earliest_release == "0.10.0"  # the one before 1.0.0, which dropped it


# Babel's CHANGES.rst, in part
BABEL = """Babel Changelog
===============

Version 2.12.0
--------------

New features
~~~~~~~~~~~~

* Dates: `pytz` is now optional; Babel will prefer it but will use `zoneinfo` when available. (:gh:`940`)

Version 2.8.0
-------------

Docs
~~~~

* Note that installation requires pytz - Steve (Gadget) Barnes

Version 1.1
-----------

(bugfix release, released on July 27th 2013)

- added dummy version requirements for pytz so that it installs
  on pip 1.4.
"""


@pytest.fixture(scope="module")
def babel(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("babel"), "CHANGES.rst", BABEL, "babel")


def test_how_things_stand_now_is_told_by_a_later_item_saying_it_ended(babel: Engine) -> None:
    from qa.answer.digest import entries_of
    from qa.answer.latest import latest_item

    entries = entries_of(babel.catalogue.chunks)
    texts = [e.text for e in entries]
    at = {v: next(i for i, t in enumerate(texts) if v in t) for v in ("requires pytz", "dummy", "now optional")}
    scores = [0.0] * len(entries)  # as the model scored them on Babel's whole notes: the mentions first
    scores[at["requires pytz"]], scores[at["dummy"]], scores[at["now optional"]] = 0.84, 1.0, 0.7
    question = read("Is pytz still a hard requirement for Babel?", babel.catalogue)
    assert latest_item(question, entries, scores, scores, dense=True) == at["now optional"]
    # a how-to asks how to do it still, not whether it ended; an item scoring under ENDED of the best tells nothing
    assert latest_item(read("how do I still require pytz with Babel?", babel.catalogue), entries, scores, scores,
                       dense=True) != at["now optional"]
    scores[at["now optional"]] = 0.5
    assert latest_item(question, entries, scores, scores, dense=True) == at["dummy"]  # the best, 2.8.0 under LATEST


def test_a_proper_name_beside_a_common_name_is_what_is_asked(flask_cors: Engine, sqlalchemy: Engine) -> None:
    # "Session.get" is held by many items here (more than RARE): "Snowflake" is what is asked, and no item holds it
    assert sqlalchemy.ask("which release added Snowflake support to Session.get?", mode="bm25").earliest_release is None
    # an advisory named exactly that no item holds: no release
    assert flask_cors.ask("which flask-cors release patched CVE-2022-40897?", mode="bm25").earliest_release is None


def test_a_release_told_beside_the_asking_sentence_is_no_filter(flask_cors: Engine) -> None:
    found = find_releases("I'm on flask-cors 3.0.0. Which release fixed origin regexes with a '?'?", ("3.0.0", "3.0.1"),
                          ("flask-cors",))
    assert found.releases == () and found.moved_to == ()
    answer = flask_cors.ask("I'm on flask-cors 3.0.0. Which release fixed origin regexes with a '?'?", mode="bm25")
    assert answer.earliest_release == "3.0.1"
    # another thing's version the person bumped bounds nothing; a fix may come in the release moved to
    assert find_releases("after bumping Werkzeug to 3.0.0 it broke. which release fixed it?", ("3.0.0",),
                         ("flask-cors",)).moved_to == ()
    assert find_releases("after upgrading to flask-cors 3.0.1 the '?' regexes work. which release fixed them?",
                         ("3.0.0", "3.0.1"), ("flask-cors",)).moved_to == ("3.0.1",)
    answer = flask_cors.ask("after upgrading to flask-cors 3.0.1 origin regexes with a '?' work again. which release "
                            "fixed them?", mode="bm25")
    assert answer.earliest_release == "3.0.1"


def test_a_series_asked_within_answers_from_it_or_not_at_all(flask_cors: Engine) -> None:
    # no 3.0.x item holds "--debug": nothing of the series is stated
    assert flask_cors.ask("which flask-cors 3.0 release added the --debug option?", mode="bm25").earliest_release is None


def test_another_thing_s_series_stays_in_the_topic() -> None:
    found = find_releases("which Werkzeug 2.3 version does flask-cors 4.0.0 require?", ("4.0.0",), ("flask-cors",))
    assert "2.3" in found.topic
    assert series_named("which Werkzeug 3 version does it need?", ("flask-cors",)) == ()
    assert not asks_which_release("which jmespath.js release added min_by?", ("jmespath",))


def test_a_generic_noun_pointed_back_to_tells_nothing_apart(cachecontrol: Engine) -> None:
    assert read("memory keeps climbing. which release fixed that bug?", cachecontrol.catalogue).pointed == ""
    assert read("memory keeps climbing. which release fixed that leak?", cachecontrol.catalogue).pointed == "leak"


# pydantic's HISTORY.md, in part
PYDANTIC = """## v2.6.0 (2024-01-23)

* Update `strict` docstring in `model_validate` method. by @LukeTonin in [#8223](https://github.com/pydantic/pydantic/pull/8223)
* Fix type annotation of `ModelMetaclass.__prepare__` by @slanzmich in [#8305](https://github.com/pydantic/pydantic/pull/8305)

## v2.4.0 (2023-09-22)

* Add `BaseModel.model_validate_strings` and `TypeAdapter.validate_strings` by @hramezani in [#7552](https://github.com/pydantic/pydantic/pull/7552)

## v2.0b2 (2023-06-03)

Add `from_attributes` runtime flag to `TypeAdapter.validate_python` and `BaseModel.model_validate`.

## v1.10.0 (2022-08-30)

* Add `validate_model` helper to validate a model's input, see [#4263](https://github.com/pydantic/pydantic/pull/4263)
"""


@pytest.fixture(scope="module")
def pydantic(tmp_path_factory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("pydantic"), "HISTORY.md", PYDANTIC, "pydantic")


def test_when_a_name_came_is_the_earliest_item_naming_it(pydantic: Engine) -> None:
    # the docstring fix scores best; the earliest item holding the name (whole: not model_validate_strings) answers
    answer = pydantic.ask("what's the minimum pydantic version I need for model_validate?", mode="bm25")
    assert answer.earliest_release == "2.0b2"
    # asked of more than the name, the items are judged as ever
    from qa.answer.naming import naming_only
    from qa.answer.digest import entries_of

    entries = entries_of(pydantic.catalogue.chunks)
    assert naming_only(entries, read("which release added strict mode to model_validate?", pydantic.catalogue)) == []


def test_a_name_written_as_code_is_looked_for_beyond_what_retrieval_found(pydantic: Engine) -> None:
    from qa.answer.naming import with_named

    question = read("which pydantic version added model_validate_strings?", pydantic.catalogue)
    extra = with_named(question, [], pydantic.catalogue)
    assert [h.chunk.version for h in extra] == ["2.4.0"]
    assert with_named(read("which release added model_validate_strings in 2.6?", pydantic.catalogue), [],
                      pydantic.catalogue) == []  # outside the release asked about


def test_a_fix_after_the_release_moved_to_unless_the_trouble_is_gone_there() -> None:
    broke = find_releases("After upgrading to flask-cors 3.0.0, origin regexes with a '?' stopped matching. Which release "
                          "fixed it?", ("3.0.0", "3.0.1"), ("flask-cors",))
    gone = find_releases("After upgrading to flask-cors 3.0.1 the '?' regexes error is gone. Which release fixed it?",
                         ("3.0.0", "3.0.1"), ("flask-cors",))
    assert broke.moved_to == ("3.0.0",) and not broke.moved_works
    assert gone.moved_to == ("3.0.1",) and gone.moved_works


def test_the_change_asked_is_the_asking_sentence_s_even_when_it_points_back(flask_cors: Engine) -> None:
    question = read("flask-cors 4.0.0 deprecated the old origins list. Which release removed it?", flask_cors.catalogue)
    assert question.change == "removed" and question.kind == "removed"


def test_a_proper_name_telling_the_person_is_context() -> None:
    from qa.answer.naming import _telling

    assert _telling("Sentry", "which flask release renamed attachment_filename, per Sentry?")
    assert _telling("PyCharm", "which pytest release deprecated pytest.warns(None), which PyCharm flags?")
    assert not _telling("Snowflake", "which release added Snowflake export for torch.export?")


def test_only_an_ending_said_of_the_name_itself_tells_how_things_stand() -> None:
    from qa.answer.latest import _ends

    assert _ends("`pytz` is now optional; Babel will prefer it", "pytz", False)
    assert _ends("Replaced the use of ``pkg_resources`` with the ``importlib`` library.", "pkg_resources", False)
    assert _ends("remove non-primitive string support for `res.send()`", "res.send", False)
    assert not _ends("Deprecate CliRunner.isolated_filesystem", "clirunner", False)  # a longer name
    assert not _ends("Old names for some send_file parameters have been removed", "send_file", False)  # a part
    assert _ends("`default` and `missing` parameters, which were replaced by `dump_default`", "missing", True)
    assert not _ends("Update documentation on how pytest.warns affects DeprecationWarning", "pytest.warns", False)
    assert not _ends("Restore previously removed foo", "foo", False)


def test_the_names_found_are_kept_within_bounds(pydantic: Engine) -> None:
    from qa.answer.catalogue import HOLDING_KEPT

    catalogue = pydantic.catalogue
    for n in range(HOLDING_KEPT + 5):
        catalogue.holding(f"name_{n}")
    assert len(catalogue._holding) <= HOLDING_KEPT
    assert [catalogue.chunks[r].version for r in catalogue.holding("model_validate")] == ["2.6.0", "2.0b2"]
