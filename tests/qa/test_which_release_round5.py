"""Which-release questions that fresh notes tripped (issue 44, fifth round), on small notes with
the fake encoder: a product asked by its short name ("which dateutil release" of python-dateutil)."""

from __future__ import annotations

import pytest

from qa.answer.engine import Engine
from qa.question.releases import asks_which_release
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
