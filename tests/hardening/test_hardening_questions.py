"""Hardening catalogue, questions (docs/hardening.md): what ``relnotes ask`` does with odd
questions, and a property test that no question string crashes the engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpus.errors import CorpusError
from index.errors import RelnotesIndexError
from qa.answer.engine import Engine
from qa.errors import QAError
from tests.support.fakes import fake_engine, make_chunk
from tests.support.hardening import assert_one_error, cli, fake_model, write_notes  # noqa: F401 (fixture)

NOT_CONFIDENT = "No passage answers this confidently; the nearest passages follow."


@pytest.fixture
def notes(tmp_path: Path, fake_model) -> list[str]:
    """``--corpus`` and ``--index`` arguments for the small two-release corpus, index built."""
    args = ["--corpus", str(write_notes(tmp_path / "notes")), "--index", str(tmp_path / "idx")]
    assert cli("index", *args).exit_code == 0
    return args


REFUSED = {
    "empty": ("", "error: The question is empty; type what you want to know, e.g. 'what changed for MPS?'"),
    "whitespace": (" \t\n ", "error: The question is empty; type what you want to know, e.g. 'what changed for MPS?'"),
    "100k-characters": ("q" * 100_000, "error: The question is 100,000 characters long; keep it under 2,000"),
    "ansi-escape": ("what \x1b[31mred\x1b[0m", "error: The question holds control characters (such as terminal escapes); remove them"),
    "nul": ("nul \x00 byte", "error: The question holds control characters (such as terminal escapes); remove them"),
    "release-garbage": ("widget release:foo", "error: 'release:foo' is not a release; write it like release:2.14 or release:2.10..2.14"),
    "release-empty": ("widget release:", "error: 'release:' is not a release; write it like release:2.14 or release:2.10..2.14"),
}


@pytest.mark.parametrize("row", REFUSED, ids=list(REFUSED))
def test_refused_questions_are_one_line_exit_1(notes, row: str) -> None:
    question, message = REFUSED[row]
    for mode in ("hybrid", "bm25"):
        assert assert_one_error(cli("ask", question, *notes, "--mode", mode)) == message


ANSWERED = {
    "one-character": "x",
    "only-stop-words": "the of and to",
    "only-punctuation": "?!?...",
    "emoji-and-cjk": "🔥🚀 widget 加速 吗",
    "line-breaks": "what changed\nfor widgets",
}


@pytest.mark.parametrize("row", ANSWERED, ids=list(ANSWERED))
def test_odd_questions_get_the_nearest_passages(notes, row: str) -> None:
    result = cli("ask", ANSWERED[row], *notes, "-k", "2")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith((NOT_CONFIDENT, "Answer: "))
    assert "[1] 1." in result.stdout and "[2] 1." in result.stdout


def test_markup_in_a_question_is_printed_literally(notes) -> None:
    question = "[bold]widget[/bold] [link=file:///etc/passwd]x[/] release:1.1"
    result = cli("ask", question, *notes)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "asked as: [bold]widget[/bold] [link=file:///etc/passwd]x[/]"
    record = json.loads(cli("ask", question, *notes, "--json").stdout)
    assert record["question"] == question and record["releases"] == ["1.1"]


@pytest.mark.parametrize(
    "args", [["what is new in Tool 9.9"], ["widget", "--release", "9.9"], ["widget release:9.9"]],
    ids=["named", "option", "inline-filter"],
)
def test_a_release_that_does_not_exist_is_said_not_answered(notes, args: list[str]) -> None:
    result = cli("ask", *args, *notes)
    assert result.exit_code == 0
    assert "The corpus holds no release 9.9 (it has: 1.0, 1.1); not answering from another release." in result.stdout
    assert "[1]" not in result.stdout
    assert json.loads(cli("ask", *args, *notes, "--json").stdout)["passages"] == []


# -- property: no question string crashes the engine ------------------------------------------

TEXTS = [
    ("MPS gets native Metal kernels for lu_factor and lu_solve, over 100x faster.", "2.14"),
    ("The nccl2 backend adds fault-tolerant process-group reconfiguration.", "2.14"),
    ("FlexAttention now runs on Intel GPUs through the XPU backend.", "2.9"),
    ("torch.compile can toggle error or resume on graph breaks. [bold]x[/bold]", "2.9"),
    ("FlexAttention gains deterministic backward and new tile configs.", "2.13"),
    ("CUDA 13 wheels are now the default on Linux x86.", "2.13"),
]


@pytest.fixture(scope="module")
def small_engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    """An engine over six fake-encoded chunks of three releases (fast: no model)."""
    chunks = [make_chunk(i, text, version) for i, (text, version) in enumerate(TEXTS)]
    corpus = {"fingerprint": "f", "inputs": ["<test>"], "documents": {}}
    return fake_engine(chunks, tmp_path_factory.mktemp("small") / "idx", corpus)


QUESTION_PARTS = st.one_of(
    st.text(max_size=40),
    st.sampled_from([
        "which release added", "in 2.14", "release:", "release:2.9", "release:x.y", "v2.13", "PyTorch 2.14's",
        "2.14.1", "CUDA 13.2", "  ", "\n", "\x1b[0m", "\x00", "[bold]", "[/]", "🔥", "加速", "?", "the", "FlexAttention",
    ]),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(QUESTION_PARTS, max_size=8), mode=st.sampled_from(["hybrid", "bm25", "dense"]),
       top_k=st.integers(min_value=1, max_value=8))
def test_no_question_string_crashes_ask(small_engine: Engine, parts: list[str], mode: str, top_k: int) -> None:
    question = " ".join(parts)
    try:
        answer = small_engine.ask(question, top_k=top_k, mode=mode)
    except (QAError, RelnotesIndexError, CorpusError) as exc:
        message = str(exc)
        assert message and "\n" not in message and "Traceback" not in message
        return
    ids = [p.chunk_id for p in answer.passages]
    cited = max((s.passage for s in answer.sentences), default=0)
    assert len(ids) == len(set(ids)) <= max(top_k, cited)  # a passage the answer quotes is always shown
    assert [p.rank for p in answer.passages] == list(range(1, len(ids) + 1))
    for s in answer.sentences:
        assert s.text in answer.passages[s.passage - 1].text
    if answer.releases:
        assert all(any(p.citation.version.startswith(r) for r in answer.releases) for p in answer.passages)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.text(min_size=2001, max_size=2100))
def test_overlong_questions_are_refused_not_searched(small_engine: Engine, question: str) -> None:
    with pytest.raises(QAError, match="keep it under 2,000|is empty"):
        small_engine.ask(question)
