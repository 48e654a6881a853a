"""Follow-up resolution: which questions inherit a release, carry a topic over, or start fresh."""

from __future__ import annotations

import pytest

from qa.question.followup import FollowUp, Turn, resolve
from qa.question.releases import find_releases
from qa.model import ReleaseRange

KNOWN = ("2.9", "2.13", "2.14")
PRODUCTS = ("PyTorch",)


def turn(asked_as: str, releases: tuple[str, ...] = ()) -> Turn:
    return Turn(asked_as, asked_as, releases)


MPS = turn("MPS native Metal kernels in 2.14", ("2.14",))
WHAT = turn("what changed for MPS in 2.14?", ("2.14",))
HOWTO = turn("how do i turn on nvgemm in inductor")
WHICH = turn("which release added deterministic FlexAttention backward?")
ENABLE = turn("how do I enable MPS?", ("2.13",))
UNKNOWN = turn("what is new for MPS in 2.11", ("2.11",))
FILTER_ONLY = Turn("", "", ("2.14",))  # the chat's start-up filter, before any question

# id: (previous, question, text asked, releases, inherited, how)
CASES = {
    # rule 2: release only
    "and-in": (MPS, "and in 2.13?", "MPS native Metal kernels in 2.13", ("2.13",), False, "release"),
    "what-about-release": (MPS, "what about 2.9?", "MPS native Metal kernels in 2.9", ("2.9",), False, "release"),
    "and-for-release": (WHAT, "and for 2.14?", "what changed for MPS in 2.14", ("2.14",), False, "release"),
    "bare-number": (MPS, "2.13?", "MPS native Metal kernels in 2.13", ("2.13",), False, "release"),
    "v-prefix": (WHAT, "v2.9?", "what changed for MPS in 2.9", ("2.9",), False, "release"),
    "product-release": (MPS, "what about PyTorch 2.13?", "MPS native Metal kernels in 2.13", ("2.13",), False, "release"),
    "inline-filter-only": (MPS, "release:2.13", "MPS native Metal kernels in 2.13", ("2.13",), False, "release"),
    "two-releases": (WHAT, "and in 2.9 and 2.13?", "what changed for MPS in 2.9 and 2.13", ("2.9", "2.13"), False, "release"),
    "unheld-major": (MPS, "what about v3.0?", "MPS native Metal kernels in release 3.0", ("3.0",), False, "release"),
    "upper-case": (MPS, "AND IN 2.13?", "MPS native Metal kernels in 2.13", ("2.13",), False, "release"),
    "just-and": (MPS, "and?", "MPS native Metal kernels", ("2.14",), True, "release"),
    "punctuation-only": (WHAT, "?", "what changed for MPS", ("2.14",), True, "release"),
    "which-release-previous": (WHICH, "and in 2.13?", "which release added deterministic FlexAttention backward in 2.13",
                               ("2.13",), False, "release"),
    "previous-unknown-release": (UNKNOWN, "and in 2.13?", "what is new for MPS in 2.13", ("2.13",), False, "release"),
    # rule 3: pronouns
    "how-fast": (MPS, "how fast is it?", "how fast is MPS native Metal kernels?", ("2.14",), True, "pronoun"),
    "enable-it": (WHAT, "how do I enable it?", "how do I enable MPS?", ("2.14",), True, "pronoun"),
    "enable-it-howto": (HOWTO, "how do I enable it?", "how do I enable nvgemm in inductor?", (), False, "pronoun"),
    "when-added": (MPS, "when was that added?", "when was MPS native Metal kernels added?", (), False, "pronoun"),
    "which-release-added-it": (WHAT, "which release added it?", "which release added MPS?", (), False, "pronoun"),
    "pronoun-own-release": (MPS, "is it on by default in 2.13?", "is MPS native Metal kernels on by default in 2.13?",
                            ("2.13",), False, "pronoun"),
    "pronoun-new-term": (WHAT, "does it work on ROCm?", "does MPS work on ROCm?", ("2.14",), True, "pronoun"),
    "and-pronoun": (MPS, "and how fast is it?", "how fast is MPS native Metal kernels?", ("2.14",), True, "pronoun"),
    "possessive": (WHAT, "what is its speedup?", "what is MPS speedup?", ("2.14",), True, "pronoun"),
    "they": (turn("fused attention kernels"), "are they on by default?", "are fused attention kernels on by default?",
             (), False, "pronoun"),
    "only-pronoun": (MPS, "it?", "MPS native Metal kernels?", ("2.14",), True, "pronoun"),
    "personal-before-demonstrative": (WHAT, "which flag is that for it?", "which flag is that for MPS?", ("2.14",), True,
                                      "pronoun"),
    "demonstrative-determiner": (MPS, "how do I enable that flag?", "how do I enable MPS native Metal kernels flag?",
                                 ("2.14",), True, "pronoun"),
    "previous-unknown-release-pronoun": (UNKNOWN, "how do I enable it?", "how do I enable MPS?", (), False, "pronoun"),
    # rule 4: a new subject
    "what-about-qualifier": (WHAT, "what about ROCm?", "what changed for ROCm", ("2.14",), True, "subject"),
    "and-for-appended": (MPS, "and for CUDA?", "MPS native Metal kernels for CUDA", ("2.14",), True, "subject"),
    "how-about-appended": (MPS, "how about XPU", "MPS native Metal kernels for XPU", ("2.14",), True, "subject"),
    "and-on-appended": (MPS, "and on ROCm?", "MPS native Metal kernels on ROCm", ("2.14",), True, "subject"),
    "qualifier-keeps-its-preposition": (HOWTO, "and for CUDA?", "how do i turn on nvgemm in CUDA", (), False, "subject"),
    "short-subject-replaced": (ENABLE, "what about ROCm?", "how do I enable ROCm", ("2.13",), True, "subject"),
    "preposition-after-about": (turn("how fast is lu_factor"), "what about on CUDA", "how fast is lu_factor on CUDA",
                                (), False, "subject"),
    "and-x": (turn("how fast is lu_factor"), "and cholesky?", "how fast is cholesky", (), False, "subject"),
    "two-word-subject": (WHAT, "what about the flash backend?", "what changed for the flash backend", ("2.14",), True,
                         "subject"),
    "subject-own-release": (WHAT, "what about ROCm in 2.13?", "what changed for ROCm in 2.13", ("2.13",), False,
                            "subject"),
    "which-subject-no-inherit": (WHICH, "what about ROCm?", "which release added deterministic FlexAttention backward for ROCm",
                                 (), False, "subject"),
    # rule 5: a topic of its own
    # a topic of its own searches every release: the previous filter does not outlive its topic
    "own-topic": (MPS, "nccl2 backend fault tolerance", "nccl2 backend fault tolerance", (), False, "new"),
    "own-topic-own-release": (MPS, "nccl2 backend in 2.9", "nccl2 backend in 2.9", ("2.9",), False, "new"),
    "own-topic-inline-release": (MPS, "nccl2 backend release:2.13", "nccl2 backend release:2.13", ("2.13",), False, "new"),
    "own-question-after-and": (MPS, "and what changed for CUDA graphs?", "and what changed for CUDA graphs?", (), False,
                               "new"),
    "about-long-phrase": (MPS, "what about the fault tolerant nccl2 backend?", "what about the fault tolerant nccl2 backend?",
                          (), False, "new"),
    "long-with-pronoun": (MPS, "how do I turn it on for a machine with two GPUs and ROCm wheels",
                          "how do I turn it on for a machine with two GPUs and ROCm wheels", (), False, "new"),
    "pronoun-many-own-words": (MPS, "does it speed up lu_factor cholesky solve_triangular", "does it speed up lu_factor cholesky solve_triangular",
                               (), False, "new"),
    "which-release-own-topic": (MPS, "which release added the nccl2 backend?", "which release added the nccl2 backend?",
                                (), False, "new"),
    "single-word": (MPS, "ROCm?", "ROCm?", (), False, "new"),
    "not-a-release-number": (MPS, "13.2?", "13.2?", (), False, "new"),
    "nccl2-after-mps": (WHAT, "how do I enable the nccl2 backend?", "how do I enable the nccl2 backend?", (), False,
                        "new"),
    "that-release-dropped": (MPS, "what else changed in that release?", "what else changed?", ("2.14",), True, "new"),
    "this-version-dropped": (WHAT, "fused kernels for this version", "fused kernels", ("2.14",), True, "new"),
    # no previous question, or one without a topic
    "no-previous": (None, "and in 2.13?", "and in 2.13?", ("2.13",), False, "new"),
    "no-previous-pronoun": (None, "how fast is it?", "how fast is it?", (), False, "new"),
    "filter-only-previous": (FILTER_ONLY, "fused layer norm kernels", "fused layer norm kernels", ("2.14",), True, "new"),
    "filter-only-short": (FILTER_ONLY, "how fast is it?", "how fast is it?", ("2.14",), True, "new"),
    "previous-topic-empty": (turn("release:2.13", ("2.13",)), "and in 2.9?", "and in 2.9?", ("2.9",), False, "new"),
    "previous-unknown-release-new": (UNKNOWN, "fused kernels", "fused kernels", (), False, "new"),
    "too-long-to-rewrite": (turn("MPS " + "kernels " * 330), "how fast is it?", "how fast is it?", (), False, "new"),
    # passed through for the engine to refuse
    "blank": (MPS, "   ", "", (), False, "new"),
    "bad-filter": (MPS, "what about release:foo", "what about release:foo", (), False, "new"),
}


@pytest.mark.parametrize("case", CASES.values(), ids=list(CASES))
def test_resolve(case) -> None:
    previous, question, text, releases, inherited, how = case
    follow = resolve(previous, question, KNOWN, PRODUCTS)
    assert (follow.text, follow.releases, follow.inherited, follow.how) == (text, releases, inherited, how)
    assert follow.question == question
    assert follow.carried == (how != "new")


@pytest.mark.parametrize("case", CASES.values(), ids=list(CASES))
def test_the_engine_reads_the_named_releases_back_from_the_text(case) -> None:
    """A release the follow-up names is in its text, where the engine finds it again; an inherited one is not."""
    previous, question, *_ = case
    follow = resolve(previous, question, KNOWN, PRODUCTS)
    parsed = find_releases(follow.text, KNOWN, PRODUCTS)
    if parsed.bad_filters:
        return
    if follow.inherited:
        assert parsed.releases == ()
    else:
        assert parsed.releases == follow.releases


def test_chip_and_clearing_it() -> None:
    follow = resolve(MPS, "how fast is it?", KNOWN, PRODUCTS)
    assert follow.chip == "release 2.14, kept from the previous question"
    cleared = follow.cleared()
    assert cleared.releases == () and not cleared.inherited and cleared.chip is None
    assert cleared.text == follow.text and cleared.how == "pronoun"
    own = resolve(MPS, "and in 2.13?", KNOWN, PRODUCTS)
    assert own.chip is None and own.cleared() is own  # a release the question names is not a chip
    both = resolve(Turn("q", "MPS kernels", ("2.9", "2.13")), "how fast are they?", KNOWN, PRODUCTS)
    assert both.chip == "release 2.9, 2.13, kept from the previous question"


def test_inherited_releases_are_those_the_corpus_holds() -> None:
    """As ``Engine.held``: a release the corpus lacks is not carried into the next question."""
    previous = Turn("q", "MPS", ("2.13", "2.11", "2.14.2"))
    assert resolve(previous, "is it fast?", ("2.13.1", "2.14"), PRODUCTS).releases == ("2.13",)  # 2.13 covers 2.13.1
    assert resolve(previous, "is it fast?", (), PRODUCTS).releases == ("2.13", "2.11", "2.14.2")  # nothing known


def test_a_chain_of_follow_ups_through_turns() -> None:
    """Each answer's turn is the next question's previous: topic and filter travel along."""
    previous = None
    asked = []
    for question in ("what changed for MPS in 2.14?", "and in 2.13?", "how do I enable it?", "what about ROCm?"):
        follow = resolve(previous, question, KNOWN, PRODUCTS)
        asked.append((follow.text, follow.releases))
        previous = Turn(question, follow.text, follow.releases)
    assert asked == [
        ("what changed for MPS in 2.14?", ("2.14",)),
        ("what changed for MPS in 2.13", ("2.13",)),
        ("how do I enable MPS?", ("2.13",)),
        ("how do I enable ROCm", ("2.13",)),
    ]


RANGE = Turn("what changed from 2.9 to 2.13?", "what changed for MPS from 2.9 to 2.13?", (), (),
             ReleaseRange("2.9", "2.13"))


@pytest.mark.parametrize("question, text", [
    ("and for ROCm?", "what changed for ROCm"),
    ("how do I enable it?", "how do I enable MPS?"),
    ("what else changed in that release?", "what else changed?"),
], ids=["subject", "pronoun", "points-back"])
def test_a_follow_up_keeps_the_previous_questions_range(question: str, text: str) -> None:
    follow = resolve(RANGE, question, KNOWN, PRODUCTS)
    assert (follow.text, follow.releases, follow.span, follow.inherited) == (text, (), RANGE.span, True)
    assert follow.chip == "releases after 2.9 up to 2.13, kept from the previous question"
    cleared = follow.cleared()
    assert cleared.span is None and not cleared.inherited and cleared.text == follow.text


@pytest.mark.parametrize("question", [
    "how do I enable the nccl2 backend?",  # a topic of its own: every release
    "which release added it?",  # a which-release question never inherits
    "and in 2.14?",  # a release of its own
    "what changed for MPS from 2.13 to 2.14?",  # a range of its own
])
def test_a_question_of_its_own_leaves_the_range(question: str) -> None:
    follow = resolve(RANGE, question, KNOWN, PRODUCTS)
    assert follow.span is None and not (follow.inherited and not follow.releases)


def test_a_new_range_alone_asks_the_previous_question_over_it() -> None:
    follow = resolve(WHAT, "and from 2.13 to 2.14?", KNOWN, PRODUCTS)
    assert (follow.text, follow.releases, follow.how, follow.span) == (
        "what changed for MPS from 2.13 to 2.14", (), "release", None)  # its own range is in its text
    assert resolve(WHAT, "what breaks from 2.13 to 2.14?", KNOWN, PRODUCTS).text == "what breaks from 2.13 to 2.14?"
    assert resolve(None, "and from 2.13 to 2.14?", KNOWN, PRODUCTS).text == "and from 2.13 to 2.14?"


def test_resolve_is_pure() -> None:
    previous = Turn("q", "what changed for MPS in 2.14?", ("2.14",))
    first = resolve(previous, "and in 2.13?", KNOWN, PRODUCTS)
    assert resolve(previous, "and in 2.13?", KNOWN, PRODUCTS) == first
    assert previous == Turn("q", "what changed for MPS in 2.14?", ("2.14",))


ODD = ["x", "🔥🚀?", "[bold]it[/bold]?", "what \x1b[31mabout\x1b[0m it", "it " * 2000, "release: 2.13", "v?", "2.13.4.5?",
       "and in", "about about about", "it's", "how’s it work?", "that that that", "in 2.13 in 2.13 in 2.13"]


@pytest.mark.parametrize("previous", [None, MPS, WHAT, HOWTO, WHICH, FILTER_ONLY, Turn("?", "?", ()), Turn("it", "it", ())],
                         ids=["none", "mps", "what", "howto", "which", "filter-only", "punctuation", "pronoun"])
@pytest.mark.parametrize("question", ODD, ids=[f"odd{i}" for i in range(len(ODD))])
def test_odd_input_never_crashes(previous, question) -> None:
    follow = resolve(previous, question, KNOWN, PRODUCTS)
    assert isinstance(follow, FollowUp) and isinstance(follow.text, str)
    assert follow.inherited == bool(follow.chip)


@pytest.mark.parametrize(
    "kwargs",
    [dict(how="maybe"), dict(inherited=True), dict(carried=True), dict(how="release"),
     dict(span=ReleaseRange("2.9", "2.13"))],
    ids=["unknown-how", "inherited-nothing", "carried-but-new", "release-not-carried", "range-not-inherited"],
)
def test_impossible_follow_ups_are_refused(kwargs) -> None:
    with pytest.raises(ValueError):
        FollowUp("q", "q", **kwargs)


def test_turn_needs_a_tuple_of_releases() -> None:
    with pytest.raises(ValueError):
        Turn("q", "q", ["2.13"])  # type: ignore[arg-type]


@pytest.mark.parametrize("question", ["and for httpx?", "what about httpx?", "and httpx?"])
def test_another_product_replaces_the_previous_one_and_leaves_its_releases(question: str) -> None:
    products = ("click", "httpx")
    previous = Turn("q", "what breaks if I upgrade click", (), ("click",), ReleaseRange("8.1.7"))
    follow = resolve(previous, question, ("8.1.7", "8.2.0", "0.28.0"), products)
    assert (follow.text, follow.how, follow.span, follow.releases, follow.products) == (
        "what breaks if I upgrade httpx", "subject", None, (), ())
    same = resolve(Turn("q", "what changed in click", ("8.2.0",), ("click",)), "and for Click?", ("8.2.0",), products)
    assert same.releases == ("8.2.0",) and same.inherited  # the same product: its release stays
