"""Which-release questions that fresh notes tripped (issue 44, fourth round): a question telling its
context in a sentence before the one that asks, a removal asked as "stopped taking" or "the first
one without", a removal stated as "not supported anymore" or "stop publishing", a change a release
only announces for the next one, and a question's asking words left out of BM25's query."""

from __future__ import annotations

import pytest

from qa.answer.engine import Engine
from qa.question import QUESTION_ONLY_TERMS, read
from qa.question.changes import asks_last, change_asked
from qa.question.vocabulary import majors
from tests.support.fakes import notes_engine

NOTES = """# Changelog

## 3.0.0 - 2024-05-01

### Removed

- Python 2.7 is not supported anymore.
- `acme.evolve()` doesn't accept the *inst* argument as a keyword argument anymore.
- Stop publishing prebuilt wheels for 32-bit Python; it must now be built from source.
- Drop Python 3.5 support (2.0.0 was the last version to support it).

### Added

- `import acme.ng` has finally landed: as of this release you can import the new namespace.

### Changed

- Stop detecting the target version as Python 3.9+ from decorators alone.
- Class-level `kw_only=True` behavior is now consistent with `dataclasses`.

  Here, we have a `kw_only=True` class (`Base`) with an attribute that sets `kw_only=False` and has a
  default (`Base.b`), and then create a subclass (`Subclass`) with required arguments (`Subclass.c`).
  Previously this would work, since it would make `Base.b` keyword-only, but now this fails since `Base.b`
  is positional, and we have a required positional argument following another argument with defaults.

## 3.0.0rc1 - 2024-04-01

### Fixed

- A typo in the documentation.

## 2.0.0 - 2023-02-01

### Changed

- This version, acme 2.0, is the last version of acme to support Python 3.6.

### Deprecated

- Passing the instance to `acme.evolve()` with the *inst* keyword argument is deprecated and will be removed.
- A heads up: the next release of acme will introduce an `acme.ng` namespace you can import.

### Fixed

- 32-bit wheels for Windows were missing their DLLs.

## 1.0.0 - 2022-01-01

### Removed

- Python 2.6 is not supported anymore.

### Fixed

- The installer did not copy the DLLs.

### Added

- Added `acme.evolve()` that copies an instance with changes.
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("context"), "CHANGELOG.md", NOTES, "acme")


@pytest.mark.parametrize("question, release", [
    # the first sentence tells what the person saw; the second asks, and its words are what an item must say
    ("pip install acme on a 32-bit windows python now compiles from source. which acme release stopped shipping "
     "32-bit wheels?", "3.0.0"),
    ("acme.evolve(inst=obj) now raises a TypeError. in which version did evolve stop taking inst as a keyword?", "3.0.0"),
])
def test_the_release_that_made_the_change(engine: Engine, question: str, release: str) -> None:
    for mode in ("bm25", "hybrid"):
        answer = engine.ask(question, mode=mode)
        assert answer.earliest_release == release, (mode, answer.asked_as, answer.earliest_release)


@pytest.mark.parametrize("question", ["since which acme version can I write `import acme.ng`?",
                                      "which acme release first let me import acme.ng?"])
def test_a_change_announced_for_the_next_release_is_not_its_release(engine: Engine, question: str) -> None:
    """2.0.0 announces ``acme.ng`` for the next release; 3.0.0 made it (BM25: the test encoder's cosines are no
    meaning's, and the announcement yields only to an item scoring near it)."""
    answer = engine.ask(question, mode="bm25")
    assert answer.earliest_release == "3.0.0", (answer.asked_as, answer.earliest_release)


@pytest.mark.parametrize("mode", ["bm25", "hybrid"])
def test_a_long_items_statement_leads_its_quote(engine: Engine, mode: str) -> None:
    """The sentences answering best are the example's; the item's first sentence, its statement, comes first."""
    answer = engine.ask("my subclass of a kw_only=True base class now fails with a required positional argument "
                        "following defaults. which acme release changed how class-level kw_only works?", mode=mode)
    assert answer.earliest_release == "3.0.0"
    assert answer.sentences[0].text == "Class-level `kw_only=True` behavior is now consistent with `dataclasses`."
    assert len(answer.sentences) > 1  # and what answered best after it


@pytest.mark.parametrize("question, release", [
    # Python 2 went with 2.7 (3.0.0), not with 2.6 (1.0.0)
    ("which acme release was the first one without python 2 support", "3.0.0"),
    ("which acme release dropped python 2?", "3.0.0"),
    ("which acme release dropped python 2.6?", "1.0.0"),
])
def test_a_whole_major_version_goes_with_its_last_minor(engine: Engine, question: str, release: str) -> None:
    for mode in ("bm25", "hybrid"):
        answer = engine.ask(question, mode=mode)
        assert answer.earliest_release == release, (mode, answer.asked_as, answer.earliest_release)


@pytest.mark.parametrize("topic, named", [
    ("one without python 2 support", ("python 2.x",)), ("node 14", ("node 14.x",)), ("python 2.7", ()), ("py2", ("python 2.x",)),
    ("shipped 32-bit wheels", ()), ("pep 8", ()), ("utf 8", ()), ("wait 10 s", ()),
    ("2 workers", ()), ("takes 2 args", ()), ("acme 2 models", ()),  # the product's own release
])
def test_a_major_version_named(topic: str, named: tuple[str, ...]) -> None:
    assert majors(topic, frozenset({"acme"})) == named


@pytest.mark.parametrize("question, release, said", [
    # 3.0.0 removed 2.7: the last release with it is the final one before (not 3.0.0rc1)
    ("what was the last acme version that still supported python 2.7?", "2.0.0", ("2.0.0", "3.0.0")),
    # an item says so of its own release
    ("which is the last acme release to support python 3.6?", "2.0.0", ("2.0.0",)),
    # not of its own release: the removal's (3.0.0), and the release before it
    ("what was the last acme version that still supported python 3.5?", "2.0.0", ("2.0.0", "3.0.0")),
    # 2.0.0's "last version to support Python 3.6" says nothing of 32-bit wheels: 3.0.0 stopped them
    ("what was the last acme release that still shipped 32-bit wheels?", "2.0.0", ("2.0.0", "3.0.0")),
])
def test_the_last_release_that_still_had_it(engine: Engine, question: str, release: str,
                                            said: tuple[str, ...]) -> None:
    for mode in ("bm25", "hybrid"):
        answer = engine.ask(question, mode=mode)
        assert answer.earliest_release == release, (mode, answer.asked_as, answer.earliest_release)
        assert [(n.kind, n.releases) for n in answer.notes] == [("last_release", said)]
    assert engine.catalogue.before("3.0.0", "acme") == "2.0.0" and engine.catalogue.before("1.0.0", "acme") is None


@pytest.mark.parametrize("question, last", [
    ("what was the last Babel version that still supported Python 3.7?", True),
    ("the final release supporting py2", True),
    ("which release was the last to support python 2", True),
    ("last release with python 2 support", True),
    ("what changed in the last release", False),
    ("did the last acme release ship wheels?", False),
    ("the last acme version had a bug in evolve, which release fixed it?", False),
    ("is the last release with python 3.13 wheels out?", False),
])
def test_the_last_release_with_something_asked(question: str, last: bool) -> None:
    assert asks_last(question) == last


def test_stop_detecting_is_no_removal(engine: Engine) -> None:
    """"Stop detecting ... Python 3.9+" stops a behaviour; it drops no support for Python 3.9."""
    answer = engine.ask("which acme version stopped supporting python 3.9?", mode="bm25")
    assert answer.earliest_release is None


@pytest.mark.parametrize("question, change, focus", [
    ("which acme release was the first one without python 2 support", "removed", ""),
    ("in which version did evolve stop taking inst as a keyword?", "removed", ""),
    ("evolve(inst=obj) raises a TypeError now. which release stopped taking inst?", "removed", "stopped taking inst"),
    ("my rst2html.py is gone - which acme release removed rst2html.py?", "removed", "rst2html.py"),
    ("it stopped working; which acme release removed the --legacy flag?", "removed", "--legacy flag"),
    ("which acme release added evolve?", "added", ""),  # one sentence: its topic is all there is
    # the asking sentence points back at the context: the whole question is its subject
    ("acme started warning because we subclass Validator. what release introduced that warning?", "added", ""),
    ("my rst2html.py command is gone - which release changed that?", None, ""),
    ("the wheels are gone. why?", None, ""),  # no sentence asks which release
    ("what was the last acme version that still supported python 2.7?", "removed", ""),
    ("which acme version introduced the ? operator for errors", "added", ""),  # a "?" inside is no sentence's end
])
def test_what_a_question_asks_and_the_sentence_asking_it(engine: Engine, question: str, change: str | None,
                                                         focus: str) -> None:
    read_as = read(question, engine.catalogue)
    assert (read_as.change, read_as.focus) == (change, focus)


@pytest.mark.parametrize("mode", ["bm25", "hybrid"])
def test_bm25_leaves_asking_words_out_unless_nothing_else_is_left(engine: Engine, mode: str) -> None:
    searcher = engine.searcher
    installer = "The installer did not copy the DLLs."
    # "did" is a word of 1.0.0's fix: asked with it, BM25 finds that passage; left out, only evolve's
    every = searcher.search("did evolve", k=10, mode="bm25")
    assert any(installer in h.chunk.text for h in every)
    found = searcher.search("did evolve", k=10, mode="bm25", ignore=QUESTION_ONLY_TERMS)
    assert found and all("evolve" in hit.chunk.text for hit in found)
    # a query of such words alone is searched as it is, not as no query at all
    alone = searcher.search("why did I", k=10, mode=mode, ignore=QUESTION_ONLY_TERMS)
    assert alone and alone == searcher.search("why did I", k=10, mode=mode)
    # the engine leaves them out of every question
    answer = engine.ask("what did acme add to evolve?", mode="bm25", top_k=10)
    assert answer.passages and not any(installer in p.text for p in answer.passages)


NOT_MADE = """# Changelog

## 3.0.0

### Changed

- `beta.evolve()` will no longer accept the *inst* keyword argument.
- The `beta.fastload()` loader is now used by default.
- Python 3.7 is not supported anymore.

## 2.0.0

### Added

- Added `beta.fastload()`, a faster loader. It will become the default in a future release.

## 1.0.0

### Added

- Python 3.7 is now supported on Windows, where it was unsupported before.
"""


@pytest.fixture(scope="module")
def beta(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return notes_engine(tmp_path_factory.mktemp("beta"), "CHANGELOG.md", NOT_MADE, "beta")


@pytest.mark.parametrize("question, release", [
    ("which beta release removed the inst keyword argument of evolve?", "3.0.0"),  # "will no longer": made now
    ("which beta release introduced the fastload loader?", "2.0.0"),  # its other sentence tells a later change
    ("which beta release dropped python 3.7?", "3.0.0"),  # "where it was unsupported before" removes nothing
])
def test_a_change_made_now_is_not_read_as_announced(beta: Engine, question: str, release: str) -> None:
    answer = beta.ask(question, mode="bm25")
    assert answer.earliest_release == release, (answer.asked_as, answer.earliest_release)


@pytest.mark.parametrize("question, change", [
    ("which release stopped shipping 32-bit wheels?", "removed"),
    ("which release stopped taking inst as a keyword?", "removed"),
    ("when did beta stop taking so long to import?", None),  # no removal: it got faster
    ("when did beta stop guessing the encoding?", None),  # a behaviour changed
    ("the first release without the GIL?", None),  # an addition
])
def test_what_a_release_stops_providing_is_a_removal(question: str, change: str | None) -> None:
    assert change_asked(question) == change


@pytest.mark.parametrize("question, howto", [
    ("how do I copy an instance with changes?", True),
    ("schema context is gone in acme 4 - how do i get context data into my fields now?", True),
    ("my proxy's CA bundle is ignored on acme 2.8, where am I supposed to configure the proxy CA certs?", True),
    ("where do I set the retry limit?", True),
    ("anyhow, which release added evolve?", False),  # "how" inside a word asks nothing
    ("where is evolve defined?", False),  # where a thing is, not how to do something
])
def test_a_how_to_asked_after_its_context(engine: Engine, question: str, howto: bool) -> None:
    read_as = read(question, engine.catalogue)
    assert (read_as.howto, read_as.asks == "howto") == (howto, howto)
