"""The answer a person reads first: the sentence that says it, and a release named only when an item states it."""

from __future__ import annotations

import pytest

from corpus.sentences import Span, split_sentences
from qa.answer import units
from qa.answer.evidence import Candidate
from qa.model import AnswerSentence
from qa.present.notes import joined
from qa.question.changes import change_asked
from qa.question.vocabulary import asks, specifics
from tests.support.fakes import fake_engine
from tests.support.paths import CHANGELOGS, ZOO


@pytest.mark.parametrize(("question", "unit"), [
    ("when is the live Q&A webinar for 2.14?", "when"),
    ("what day and time is the live Q&A?", "when"),
    ("how many ops have DTensor sharding rules now?", "number"),
    ("what's the overhead of the deterministic backward?", "number"),
    ("np.testing.assert_warns is deprecated, what should I use?", "use"),
    ("does symmetric memory barrier() work on the NCCL backend in 2.14?", "change"),
    ("how do I turn on compile-on-one-rank?", "howto"),
    ("what changed for MPS in 2.14?", None),
])
def test_the_unit_a_question_asks_for(question: str, unit: str | None) -> None:
    assert asks(question) == unit


def test_what_a_which_release_question_names_exactly_and_the_change_it_asks() -> None:
    assert specifics("which flask version dropped python 3.8?") == ("3.8",)
    assert specifics("which numpy version added descending=True to np.sort?") == ("descending=true", "np.sort")
    assert specifics("which rust version stabilized the ? operator?") == ("?",)
    assert specifics("which httpx version accepts socks5h proxy urls?") == ("socks5h",)
    assert change_asked("which textual version renamed Select.BLANK?") == "renamed"
    assert change_asked("in which release did let-else become stable?") == "stabilized"
    assert change_asked("which flask version dropped python 3.8?") == "removed"


def test_a_quote_carries_what_it_points_back_to_and_what_an_abbreviation_cut() -> None:
    text = ("Bring any questions you may have about this release to our Q&A Webinar. It will be on Thursday, "
            "September 17, 2026 and will feature the release team. Join us on July 22, 2026, at 11 a.m. "
            "PT for a live Q&A with panelists from the team.")
    spans = split_sentences(text)
    first, after_am = spans[0].text, next(s.text for s in spans if s.text.startswith("PT for"))
    carried = units.carried((AnswerSentence(first, 1),), [text], split_sentences, "when", lambda t: False)
    assert carried[0].text.endswith("2026 and will feature the release team.")  # the date that follows, carried
    cut = units.carried((AnswerSentence(after_am, 1),), [text], split_sentences, None, lambda t: False)
    assert cut[0].text.startswith("Join us on July 22, 2026, at 11 a.m. PT")  # one sentence, not two
    assert all(s.text in text for s in (*carried, *cut))  # verbatim slices


def test_a_problem_sentence_carries_the_change_that_follows_it() -> None:
    text = "Previously, out-of-range ints would be silently truncated. Now, an OverflowError will be raised instead."
    problem = split_sentences(text)[0].text
    carried = units.carried((AnswerSentence(problem, 1),), [text], split_sentences, "change", lambda t: False)
    assert carried[0].text == text
    assert units.bonus("change", problem) < 0 < units.bonus("change", "Now, an OverflowError will be raised instead.")


def test_a_release_is_dated_by_its_heading_or_its_released_line() -> None:
    dated = units.dated([("1.0.0-alpha", ("Rust", "Version 1.0.0-alpha (2015-01-09)"), "..."),
                         ("1.0.0", ("Rust", "Version 1.0.0 (2015-05-15)"), "...")])
    assert dated == AnswerSentence("Version 1.0.0 (2015-05-15)", 2)  # the final release, not the pre-release
    flask = units.dated([("3.1.0", ("CHANGES", "Version 3.1.0"), "Released 2024-11-13\n\n- Drop Python 3.8.")])
    assert flask == AnswerSentence("Released 2024-11-13", 1)


def test_the_webinar_date_the_op_count_and_the_fix_are_quoted(engine) -> None:
    webinar = engine.ask("when is the live Q&A webinar for 2.14?")
    assert "Thursday, September 17, 2026" in webinar.text
    ops = engine.ask("how many ops have DTensor sharding rules now?")
    assert "1239, up from 585" in ops.text
    barrier = engine.ask("does symmetric memory barrier() work on the NCCL backend in 2.14?")
    assert "barrier now reuses the existing CUDA barrier kernel" in barrier.text


def test_a_how_to_quote_without_an_instruction_takes_its_passages_instruction(engine) -> None:
    answer = engine.ask("how do I turn on the deterministic backward for FlexAttention?")
    assert "Users can opt in via the existing torch.use_deterministic_algorithms(True) setting" in answer.text
    assert {s.passage for s in answer.sentences} == {1}


def test_instructed_only_adds_an_instruction_where_the_quote_gives_none() -> None:
    said = AnswerSentence("By default it is off.", 1, 0.6)
    how = Candidate(1, Span(30, 72, "Enable it by setting `X=1` in the config."), 0.2)
    elsewhere = Candidate(2, Span(0, 34, "Set `Y=1` to enable the other one."), 0.5)
    assert units.instructed((said,), [how, elsewhere], "howto", 3) == (
        said, AnswerSentence("Enable it by setting `X=1` in the config.", 1, 0.2))
    assert units.instructed((said,), [how], "when", 3) == (said,)  # not a how-to question
    told = AnswerSentence("Pass `x=True` to turn it on.", 1, 0.6)
    assert units.instructed((told,), [how], "howto", 3) == (told,)  # it says how already
    full = (said, AnswerSentence("It is new.", 1, 0.5), AnswerSentence("It is fast.", 1, 0.4))
    assert units.instructed(full, [how], "howto", 3)[-1].text.startswith("Enable it")  # the weakest other gives way
    assert len(units.instructed(full, [how], "howto", 3)) == 3


def test_a_topic_inside_a_release_leads_its_digest(engine) -> None:
    answer = engine.ask("what is new in 2.14 for MPS?")
    first = answer.digest.releases[0].items[:2]
    assert all("MPS" in item.text or "Metal" in item.text for item in first), [i.text[:60] for i in first]
    assert "TorchScript" not in first[0].text  # kind order (breaking first) only among on-topic items


def test_a_which_release_answer_names_the_release_of_the_item_it_quotes(engine) -> None:
    answer = engine.ask("which pytorch release removed named tensors?")
    assert answer.earliest_release == "2.13" and answer.passages[0].citation.version == "2.13"
    assert answer.sentences[0].passage == 1 and "Named tensors" in answer.sentences[0].text


@pytest.fixture(scope="module")
def zoo(tmp_path_factory):
    from corpus import load_chunks

    return fake_engine(load_chunks([ZOO / "flask", ZOO / "httpx"]), tmp_path_factory.mktemp("zoo-which") / "idx")


@pytest.mark.skipif(not ZOO.is_dir(), reason="needs ../shared/data/zoo")
@pytest.mark.parametrize(("question", "release", "words"), [
    ("which flask release added async views?", "2.0.0", "async views"),
    ("which flask release deprecated __version__?", "3.0.0", "__version__"),
    ("which flask version dropped python 3.8?", "3.1.0", "Python 3.8"),
])
def test_which_release_is_the_release_of_the_item_that_states_it(zoo, question: str, release: str, words: str) -> None:
    answer = zoo.ask(question, mode="bm25")
    assert answer.earliest_release == release and words in answer.text
    assert answer.passages[0].citation.version == release


@pytest.mark.skipif(not ZOO.is_dir(), reason="needs ../shared/data/zoo")
def test_an_item_only_the_unreleased_section_states_is_not_released_yet(zoo) -> None:
    answer = zoo.ask("which httpx release dropped Python 3.8 support?", mode="bm25")
    assert answer.earliest_release is None and "Drop support for Python 3.8" in answer.text
    assert [n.kind for n in answer.notes] == ["not_released"]
    assert joined(answer.notes).startswith("Not in a release yet")


def test_a_sentence_saying_the_thing_is_not_there_never_states_the_release(engine) -> None:
    # 2.13's item is under Added and says "There are no Windows or macOS 3.15 wheels": no answer
    answer = engine.ask("which release first shipped Python 3.15 wheels for Windows and macOS?")
    assert answer.earliest_release == "2.14" and answer.passages[0].citation.version == "2.14"
    assert "There are no Windows" not in answer.text and "macOS on Apple silicon" in answer.text


@pytest.fixture(scope="module")
def pytest_notes(tmp_path_factory):
    from corpus import load_chunks

    return fake_engine(load_chunks([ZOO / "pytest", ZOO / "textual"]), tmp_path_factory.mktemp("zoo-pytest") / "idx")


@pytest.mark.skipif(not ZOO.is_dir(), reason="needs ../shared/data/zoo")
def test_a_built_in_feature_is_not_the_plugin_that_added_it(pytest_notes) -> None:
    # 4.4.0 made "the pytest-subtests plugin possible, which adds unittest sub-test support"
    answer = pytest_notes.ask("which pytest release added built-in subtests support?", mode="bm25")
    assert answer.earliest_release == "9.0.0" and "Support for subtests" in answer.sentences[0].text
    assert "def test_" not in answer.text  # the item's example is not quoted


def test_code_is_no_quoted_prose() -> None:
    code = ["def test_py_files(subtests: pytest.Subtests) -> None:\n    for path in x:", ">>> np.fix(3.5)",
            "from httpx import Client", "with pytest.raises(ValueError):", "$ pip install textual", "x = np.arange(3)"]
    prose = ["Support for subtests has been added.", "Use `with` statements for this (see below).",
             "If the value is None: nothing is done.", "The default = 3 was changed."]
    kept = units.prose([AnswerSentence(t, 1) for t in code + prose])
    assert [s.text for s in kept] == prose


@pytest.mark.skipif(not ZOO.is_dir(), reason="needs ../shared/data/zoo")
def test_an_item_naming_all_of_it_outdoes_an_earlier_one_naming_part(pytest_notes) -> None:
    # 1.0.0: "Added support for double/triple/etc clicks via `chain`" (no selecting)
    answer = pytest_notes.ask("when did textual add double click to select?", mode="bm25")
    assert answer.earliest_release == "2.0.0" and "Added double click to select" in answer.sentences[0].text


def test_a_series_named_in_a_which_release_question() -> None:
    from qa.question.releases import find_releases
    from qa.question.which import asks_which_release, series_named

    assert series_named("which pydantic 1.x release added the pydantic.v1 namespace?", ("pydantic",)) == ("1",)
    assert series_named("which v2.x version dropped it?", ("pydantic",)) == ("2",)
    assert series_named("which release added x?", ("pydantic",)) == ()
    assert asks_which_release("which pydantic 1.x release added it?", ("pydantic",))
    assert asks_which_release("which 2.x release added it?", ("pydantic",))
    found = find_releases("which pydantic 1.x release added the pydantic.v1 namespace?", ("1.10.15",), ("pydantic",))
    assert "1.x" not in found.topic and "namespace" in found.topic


@pytest.mark.skipif(not CHANGELOGS.is_dir(), reason="needs ../shared/data/changelogs")
def test_which_release_of_a_series_looks_in_that_series_only(tmp_path_factory) -> None:
    from corpus import load_chunks

    notes = fake_engine(load_chunks([CHANGELOGS]), tmp_path_factory.mktemp("changelogs-which") / "idx")
    answer = notes.ask("which pydantic 1.x release added the pydantic.v1 namespace?", mode="bm25")
    assert answer.earliest_release == "1.10.15" and "Add pydantic.v1 namespace" in answer.text
    assert notes.ask("which pydantic 2.x release added the pydantic.v1 namespace?", mode="bm25").earliest_release != "1.10.15"


_NUMPY_LIKE = {
    "1.21.0-notes.rst": """==========================
NumPy 1.21.0 Release Notes
==========================

Compatibility notes
===================

/usr/include removed from default include paths
-----------------------------------------------
The default include paths when building a package with ``numpy.distutils`` no
longer include ``/usr/include``. This path is normally added by the compiler.

(`gh-18658 <https://github.com/numpy/numpy/pull/18658>`__)

Removed
=======

* ``numpy.dual`` was removed

Removal of deprecated functions and arguments
=============================================

* The ``np.financial`` functions are gone
""",
    "1.18.0-notes.rst": """==========================
NumPy 1.18.0 Release Notes
==========================

Deprecations
============

Deprecate np.alen
-----------------
``np.alen`` was deprecated. Use ``len`` instead.

Financial functions deprecated
------------------------------
The financial functions ``fv``, ``npv`` and ``pmt`` are deprecated and will be removed in
NumPy 1.20.
""",
    "1.20.0-notes.rst": """==========================
NumPy 1.20.0 Release Notes
==========================

Expired deprecations
====================

Financial functions removed
---------------------------
In accordance with NEP 32, the financial functions are removed from NumPy 1.20. The
functions that have been removed are ``fv``, ``npv`` and ``pmt``.
""",
    "1.23.0-notes.rst": """==========================
NumPy 1.23.0 Release Notes
==========================

Expired deprecations
====================

* The ``alen`` and ``asscalar`` functions have been removed.

* The ``UPDATEIFCOPY`` array flag has been removed together with the enum
  ``NPY_ARRAY_UPDATEIFCOPY``.
""",
    "2.5.0-notes.rst": """==========================
NumPy 2.5.0 Release Notes
==========================

Expired deprecations
====================

* ``numpy.distutils`` has been removed

  (`gh-30340 <https://github.com/numpy/numpy/pull/30340>`__)

* Passing ``None`` as dtype to ``np.finfo`` will now raise a ``TypeError``
""",
}


@pytest.fixture(scope="module")
def numpy_like(tmp_path_factory):
    from corpus import load_chunks

    folder = tmp_path_factory.mktemp("numpy-like") / "release"
    folder.mkdir()
    for name, text in _NUMPY_LIKE.items():
        (folder / name).write_text(text, encoding="utf-8")
    return fake_engine(load_chunks([folder]), tmp_path_factory.mktemp("numpy-like-idx") / "idx")


def test_an_item_titled_by_another_removal_does_not_state_this_one(numpy_like) -> None:
    # 1.21.0's section removes /usr/include and names numpy.distutils in passing; 2.5.0 removes it
    answer = numpy_like.ask("which numpy release removed numpy.distutils?", mode="bm25")
    assert answer.earliest_release == "2.5.0" and "``numpy.distutils`` has been removed" in answer.text
    assert answer.passages[0].citation.version == "2.5.0"


@pytest.mark.parametrize("question", ["which numpy version got rid of np.alen?", "when did numpy drop numpy.alen?",
                                      "which numpy release removed alen?"])
def test_the_products_own_name_is_said_by_its_notes(numpy_like, question) -> None:
    # 1.23.0: "The ``alen`` and ``asscalar`` functions have been removed" (no "np"); 1.18.0 deprecated it
    answer = numpy_like.ask(question, mode="bm25")
    assert answer.earliest_release == "1.23.0" and "have been removed" in answer.sentences[0].text


def test_a_products_other_names_do_not_name_each_other() -> None:
    from qa.answer.saying import words_named as _named

    assert _named("Dropped support for Python3.8", frozenset({"python"})) == 1  # the name, a version against it
    assert _named("Added support for Python 3.12", frozenset({"py"})) == 0  # pytest's py library is not Python
    assert _named("See https://doc.rust-lang.org/cargo/ for details", frozenset({"clippy"})) == 0


def test_a_version_written_against_its_name_is_held() -> None:
    from qa.answer.holding import holds as _holds

    assert _holds("dropped support for python3.8", "3.8") and _holds("python 3.8 support", "3.8")
    assert not _holds("python 3.18 and 13.8", "3.8") and _holds("python 3.8.1", "3.8")  # a patch of 3.8
    assert not _holds("xdescending=true", "descending=true")


@pytest.mark.parametrize(("question", "release", "words"), [
    ("which numpy release removed numpy.dual?", "1.21.0", "numpy.dual"),  # under a heading of a kind only
    ("which numpy release removed /usr/include from the include paths?", "1.21.0", "/usr/include"),  # the title's own
    ("which numpy release removed the np.financial functions?", "1.21.0", "np.financial"),  # a grouping heading
    ("which numpy release removed np.financial?", "1.21.0", "np.financial"),  # its words, without the change
    ("which numpy release removed np.npv?", "1.20.0", "npv"),  # titled by what holds it, not by another subject
])
def test_a_heading_naming_a_kind_or_the_thing_itself_still_states_it(numpy_like, question, release, words) -> None:
    answer = numpy_like.ask(question, mode="bm25")
    assert answer.earliest_release == release and words in answer.text


@pytest.mark.skipif(not ZOO.is_dir(), reason="needs ../shared/data/zoo")
def test_numpy_distutils_was_removed_in_2_5_not_1_21(tmp_path_factory) -> None:
    from corpus import load_chunks

    notes = fake_engine(load_chunks([ZOO / "numpy"]), tmp_path_factory.mktemp("zoo-numpy") / "idx")
    answer = notes.ask("which numpy release removed numpy.distutils?", mode="bm25")
    assert answer.earliest_release == "2.5.0" and "has been removed" in answer.sentences[0].text
    assert notes.ask("which numpy release removed np.npv?", mode="bm25").earliest_release == "1.20.0"
    # "np" is said by numpy's notes only where the name it qualifies is: these need two words of three
    assert notes.ask("which numpy release removed the np.float alias?", mode="bm25").earliest_release == "1.24"
    assert notes.ask("which numpy release removed the np.mat function?", mode="bm25").earliest_release == "2.0.0"


@pytest.mark.skipif(not ZOO.is_dir(), reason="needs ../shared/data/zoo")
@pytest.mark.parametrize(("question", "release"), [
    # one item under "Deprecations (removal in next major release)": a heading of kinds, no title
    ("which pytest release deprecated monkeypatch.syspath_prepend with legacy namespace packages?", "9.0.0"),
    ("which pytest version deprecated requesting an async fixture from a sync test?", "8.4.0"),
])
def test_one_item_under_a_heading_of_kinds_still_states_it(pytest_notes, question: str, release: str) -> None:
    assert pytest_notes.ask(question, mode="bm25").earliest_release == release
