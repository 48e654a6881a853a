"""Which-release questions fresh notes tripped (issue 44, ninth round): the last release that still ran on a
platform asked in the person's own words ("the last release of the sh library that works there", "the newest
WTForms we can still run"), a bound of versions in an aside or as the number dropped below, a move the person
made told before asking, a release's own heading, an item making something compatible."""

from __future__ import annotations

import pytest

from qa.answer.engine import Engine
from qa.answer.holding import holds
from qa.question import read
from qa.question.changes import asks_last
from tests.support.fakes import notes_engine

# sh's CHANGELOG.md, in part
SH = """# Changelog

## 2.4.0 - 7/25/26

- Dropped support for Python < 3.10
- `Command` now supports generic subscript syntax (`Command[str]`) via `GenericAlias`

## 2.3.0 - 6/8/25

- Bugfix where signal names containing numbers were not matched correctly

## 2.0.0 - 2/9/23

- Executed commands now return a unicode string by default
- Dropped support for Python < 3.8

## 1.14.0 - 8/28/20

- `_env` now more lenient in accepting dictionary-like objects
"""

# pyzmq's changelog.md, in part
PYZMQ = """# Changes in PyZMQ

## 21.0

- drop support for Python 3.5. Python >= 3.6 is required

## 20.0

- Drop support for Python < 3.5 (all versions of Python < 3.6 are EOL at time of release)

## 19.0.2

- Regenerate Cython sources with 0.29.21 in order to address compatibility with Python 3.9
"""

# jsonpickle's CHANGES.rst, v4.1.2 to v3.3.0 (thirteen releases: an item stands out among many)
JSONPICKLE = """v4.1.2
======
    * Add deprecation warnings for the pending removal of the ``safe``, ``numeric_keys``, and
      ``use_decimal`` arguments, as well as the pending change of ``keys`` parameter to default
      to ``True``. (+600)

v4.1.1
======
    * Maintenance release to omit upcoming breaking changes.
    * An error in the jsonpickle pandas extension when decoding objects that were encoded
      before jsonpickle v3.4.0 was fixed, and warnings were added. (+562)
    * Added ``jsonpickle.ext.yaml`` for forwards-compatibility, but the ``yaml`` module
      continues to be registered by default. ``v5.0.0`` will no longer register
      ``jsonpickle.ext.yaml`` by default.

v4.1.0
======
    * Deprecation warnings were added to certain simple functions in ``jsonpickle/util.py``.
      These functions will be removed in 5.0.0 to ease the transition into typing everything.
    * The ``test_multindex_dataframe_roundtrip`` test in the pandas extension had been failing
      on 32-bit architectures in Debian's test suite. This has been resolved. (+560)

v4.0.5
======
    * ``pyproject.toml`` was updated to include the ``project.license.text`` field so
      that pypi continues to list our license.

v4.0.4
======
    * ``pyproject.toml`` was updated to avoid specifying the license file.
      This avoids breaking older setuptools versions while also avoiding
      the deprecated ``tool.setuptools.license-files`` field.
      ``setuptools`` will find our ``LICENSE`` file automatically,
      so there is no need to specify it.
      (#558)

v4.0.3
======
    * Documentation warnings from ``furo`` have been fixed.
    * Numpy datetime64 objects with nanosecond precision are now supported.
      (+556) (#555)

v4.0.2
======
    * The unpickler is now more resilient to malformed "py/id" and "py/repr" data.
      (+546)
    * The unpickler is now more resilient to invalid "py/b85" and "py/b64" data.
      (+547)
    * The unpickler's support for read-only str attributes was improved.
      (+548) (#478)

v4.0.1
======
    * The unpickler is now more resilient to malformed "py/reduce", "py/set",
      "py/tuple", "py/b64", "py/b85", and "py/iterator" input data. (+544) (+545)
    * The test suite was updated to leverage more pytest features.
    * The ``jsonpickle.compat`` module is no longer used. It is still provided
      for backwards compatibility but it may be removed in a future version.

v4.0.0
======
    * **Breaking Change**: Python 3.7 is no longer supported.
    * **Breaking Change**: Support for pre-0.7.0 ``repr``-serialized objects is no
      longer enabled by default. The ``safe`` option to ``decode()`` was changed from
      ``False`` to ``True``. Users can still pass ``safe=False`` to ``decode()`` in order
      to enable this feature for the purposes of loading older files, but beware that
      this feature relies on unsafe behavior through its use of ``eval()``. Users are
      encouraged to re-pickle old data in order to migrate away from the the unsafe loading
      feature. (+514)
    * The pickler no longer produces ``py/repr`` tags when pickling modules.
      ``py/mod`` is used instead, as it is clearer and uses one less byte. (+514)
    * The test suite no longer uses the deprecated ``datetime.datetime.utcnow()``
      function. (+539)

v3.4.2
======
    * The breaking changes from v4 were inadvertedly included in v3.4.1, which has
      been yanked. This release remedies this by reverting the v4 changes.

v3.4.1
======
    * Support decoding pandas dataframes encoded with versions 3.3.0 and older. (+536)

v3.4.0
======
    * Officially support Python 3.12 in the GitHub Actions testing matrix, and update
      GHA package versions used. (+524)
    * Improve reproducibility of benchmarking commands on Linux by using taskset and
      adding a "HOWTO" run benchmarks section in ``benchmarking/README.md``. (+526)
    * The ``setup.cfg`` packaging configuration has been replaced by
      ``pyproject.toml``. (+527)
    * ``yaml`` is now supported as a jsonpickle backend. (+528)
    * `OSSFuzz <https://github.com/google/oss-fuzz>`_ scripts are now available in
      the ``fuzzing/`` directory. (+525)
    * Pure-python dtypes are now preserved across ``encode()``/``decode()`` roundtrips
      for the pandas extension. (#407) (+534)
    * Pandas dataframe columns with an ``object`` dtype that contain multiple different
      types within (e.g. a column of type ``list[Union[str, int]]``) now preserve the types
      upon being roundtripped. (#457) (#358) (+534)
    * Fix warnings in the test suite regarding numpy.compat usage. (#533) (+535)

v3.3.0
======
    * The unpickler was updated to avoid using ``eval``, which helps improve its
      security. Users can still pass ``safe=False`` to ``decode`` to use the old
      behavior, though this is not recommended. (+513)
    * Objects can now exclude specific attributes from pickling by providing a
      ``_jsonpickle_exclude`` class or instance attribute. This attribute should contain
      the list of attribute names to exclude when pickling the object.

"""


@pytest.fixture(scope="module")
def sh(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("sh"), "CHANGELOG.md", SH, "sh")


@pytest.fixture(scope="module")
def pyzmq(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("pyzmq"), "changelog.md", PYZMQ, "pyzmq")


@pytest.fixture(scope="module")
def jsonpickle(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("jsonpickle"), "CHANGES.rst", JSONPICKLE, "jsonpickle")


@pytest.mark.parametrize("question", [
    "We still deploy on Python 3.9. What's the last release of the sh library that works there?",
    "What's the last version of the `transaction` package that supports it?",
    "we're stuck on python 3.5 on an old box. what's the last pyzmq that still installs there?",
    "We're pinned to Python 3.10. What's the newest WTForms we can still run?",
])
def test_the_last_release_asked_in_a_person_s_words(question: str) -> None:
    assert asks_last(question)


@pytest.mark.parametrize("question", ["the latest release is great", "which was the last release that fixed it?",
                                      "what is the newest release?", "what was the last line that still ran?",
                                      "which release fixed the latest bug that still broke streaming uploads?",
                                      "which release deprecated the last option that still accepted a string?"])
def test_no_last_release_with_something_is_asked(question: str) -> None:
    assert not asks_last(question)


def test_the_last_release_on_a_platform_is_about_the_platform_alone(sh: Engine) -> None:
    question = read("We're pinned to Python 3.10 for a while. What's the newest sh we can still run, i.e. the last "
                    "release supporting 3.10?", sh.catalogue)
    assert question.last and question.subject == "Python 3.10" and question.exact == ("3.10",)
    # a question of its own thing keeps it: the platform told beside it is context
    question = read("What is the last sh version that still has the cd builtin override? We're on Python 3.9.",
                    sh.catalogue)
    assert question.last and "override" in question.subject
    answer = sh.ask("We still deploy on Python 3.9. What's the last release of the sh library that works there?",
                    mode="bm25")
    assert answer.earliest_release == "2.3.0"
    assert [n.releases for n in answer.notes if n.kind == "last_release"] == [("2.3.0", "2.4.0")]


def test_a_bound_holds_the_versions_below_it_not_its_own_nor_an_aside_s() -> None:
    assert holds("dropped support for python < 3.10", "3.9")
    assert not holds("drop support for python < 3.5", "3.5")  # 3.5 is still supported
    aside = "drop support for python < 3.5 (all versions of python < 3.6 are eol at time of release)"
    assert not holds(aside, "3.5")
    assert not holds("drop support for python < 3.6.", "3.6") and holds("drop support for python < 3.6.", "3.5")
    assert holds("dropped support for old pythons (python < 3.7)", "3.6")  # the only bound, in an aside: it counts


def test_the_release_dropping_a_version_not_the_one_dropping_below_it(pyzmq: Engine) -> None:
    answer = pyzmq.ask("we're stuck on python 3.5 on an old box. what's the last pyzmq that still installs there?",
                       mode="bm25")
    assert answer.earliest_release == "20.0"
    assert [n.releases for n in answer.notes if n.kind == "last_release"] == [("20.0", "21.0")]


def test_an_item_giving_the_change_in_other_words_states_no_release(jsonpickle: Engine) -> None:
    """4.0.0's item says it in other words ("no longer enabled by default ... changed from False to True"); stating
    the release of an item that only stands out (tried: ninth round) also named releases for questions whose premise
    is false ("which release removed parse_obj_as?" -> the item adding it), so none is stated."""
    answer = jsonpickle.ask("Old jsonpickle files that rely on py/repr no longer load unless I pass safe=False to "
                            "decode(). When did the default of safe flip to True?", mode="bm25")
    assert answer.earliest_release is None
    assert jsonpickle.ask("which jsonpickle release added SAML single sign-on?", mode="bm25").earliest_release is None


# APScheduler's versionhistory.rst, in part
APSCHEDULER = """Version history
===============

**3.10.0**

* Fixed compatibility with SQLAlchemy 2.0 and bumped minimum supported version to 1.4
* Dropped support for Python versions older than 3.6

**3.2.0**

- Added the ability to pause and unpause the scheduler
- Fixed pickling problems with persistent jobs when upgrading from 3.0.x

**3.1.0**

- Added method chaining to the ``modify_job()``, ``reschedule_job()``, ``pause_job()`` and
   ``resume_job()`` methods in ``BaseScheduler`` and the corresponding methods in the ``Job`` class

**3.0.0**

- Added the ability to modify, reschedule, pause and resume jobs
- Dropped the Shelve job store because it could not work with the new job store system

**2.1.0**

- Fixed SQLAlchemy 0.8 compatibility in SQLAlchemyJobStore

**2.0.2**

- Removed the unique constraint from the "name" column in the SQLAlchemy job store

**2.0.0**

- Added configurable job stores with several persistent back-ends (shelve, SQLAlchemy and MongoDB)
"""


@pytest.fixture(scope="module")
def apscheduler(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("apscheduler"), "versionhistory.rst", APSCHEDULER, "apscheduler")


def test_what_the_person_did_is_no_change_asked_and_a_release_heading_holds_no_version(apscheduler: Engine) -> None:
    from qa.question.changes import change_asked

    assert change_asked("We moved to SQLAlchemy 2.0 and SQLAlchemyJobStore broke. Which release works with it?") is None
    assert change_asked("I've switched to zoneinfo; which release switched away from pytz?") == "switched"
    # the project's voice, and the asking sentence's own change, are asked
    assert change_asked("What version was it when we dropped Python 2 support?") == "removed"
    assert change_asked("We moved to flask 3.0. Which release removed it?") == "removed"
    answer = apscheduler.ask("We moved to SQLAlchemy 2.0 and SQLAlchemyJobStore broke. Which APScheduler release "
                             "works with it?", mode="bm25")
    assert answer.earliest_release == "3.10.0"  # not 2.0.2's item, under a heading that reads "2.0"


# WebOb's CHANGES.txt, in part
WEBOB = """1.8.9 (2024-11-23)
------------------

Bugfix
~~~~~~

- Add `legacy-cgi` to required packages to be installed for Python 3.13
  compatibility. See https://github.com/Pylons/webob/pull/469

1.8.8 (2024-08-13)
------------------

Security Fix
~~~~~~~~~~~~

- The use of WebOb's Response object to redirect a request to a new location
  can lead to an open redirect if the Location header is not a full URI.

1.8.7 (2021-02-17)
------------------

Bugfix
~~~~~~

- Decoding deflate-encoded responses now supports data which is packed in
  a zlib container as it is supposed to be.
"""


def test_compatibility_made_is_a_fix(tmp_path) -> None:
    from qa.question.changes import CHANGES_STATED

    assert CHANGES_STATED["fixed"].search("Add `legacy-cgi` to required packages for Python 3.13 compatibility.")
    webob = notes_engine(tmp_path, "CHANGES.txt", WEBOB, "webob")
    answer = webob.ask("We moved to Python 3.13 and webob blows up with ModuleNotFoundError: No module named 'cgi'. "
                       "Which webob version fixes that?", mode="bm25")
    assert answer.earliest_release == "1.8.9"


def test_stop_support_for_is_a_removal() -> None:
    from qa.question.changes import CHANGES_STATED

    assert CHANGES_STATED["removed"].search("Stop support for python 3.6 :pr:`722`")  # WTForms 3.0.1
    assert not CHANGES_STATED["removed"].search("Support for Python 3.13 added")
