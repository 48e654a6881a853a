"""The answering service and the follow-up state every front end shares (``qa.service``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from qa.question import Turn
from qa.errors import BadQuestion
from qa.history import History
from qa.model import Answer
from qa.conversation import Conversation
from qa.service import AnswerService
from qa.tui.app import make_app
from tests.support.pilot import ask


def test_a_conversation_reads_each_question_against_the_last(engine) -> None:
    """What the chat does: resolve, ask the resolved text, keep the answer's turn (and the filter)."""
    talk = Conversation(engine)
    follow, answer = talk.ask("what changed for MPS in 2.14?", mode="bm25")
    assert answer.releases == ("2.14",) and follow.chip is None and talk.releases == ("2.14",)

    follow, answer = talk.ask("and in 2.13?", mode="bm25")
    assert answer.question == "and in 2.13?" and answer.asked_as == "what changed for MPS in 2.13"
    assert answer.releases == ("2.13",) and {p.citation.version for p in answer.passages} == {"2.13"}
    assert any("MPS" in p.text for p in answer.passages[:3])

    follow = talk.read("how do I enable it?").follow
    assert follow.chip == "release 2.13, kept from the previous question" and follow.text == "how do I enable MPS?"
    _, answer = talk.ask("how do I enable it?", mode="bm25")
    assert answer.asked_as == "how do I enable MPS?" and {p.citation.version for p in answer.passages} == {"2.13"}
    talk.set_releases(())  # the chip removed: every release
    _, answer = talk.ask("how do I enable it?", mode="bm25", top_k=10)
    assert answer.releases == () and len({p.citation.version for p in answer.passages}) > 1


def test_an_explicit_release_replaces_the_inherited_one_and_bad_questions_change_nothing(engine) -> None:
    previous = Turn("MPS native Metal kernels in 2.14", "MPS native Metal kernels in 2.14", ("2.14",))
    follow, answer = Conversation(engine, previous).ask("and in 2.13?", mode="bm25")
    assert follow.how == "release" and not follow.inherited
    assert (answer.question, answer.asked_as, answer.releases) == (
        "and in 2.13?", "MPS native Metal kernels in 2.13", ("2.13",))
    follow, answer = Conversation(engine, previous).ask("how fast is it?", mode="bm25")
    assert follow.inherited and answer.releases == ("2.14",)
    follow, answer = Conversation(engine, previous).ask("how fast is it?", mode="bm25", releases=["2.9"])
    assert not follow.inherited and answer.releases == ("2.9",)
    follow, answer = Conversation(engine).ask("nccl2 backend", mode="bm25")
    assert follow.how == "new" and answer.question == answer.asked_as == "nccl2 backend"
    talk = Conversation(engine, previous)
    for bad in ("what about release:foo", "   "):
        with pytest.raises(BadQuestion):
            talk.ask(bad, mode="bm25")
        assert talk.turn == previous and talk.releases == ("2.14",)


def test_answered_keeps_held_releases_and_the_filter_through_a_which_release_question(engine) -> None:
    talk = Conversation(engine, Turn("q", "MPS in 2.14", ("2.14",)))
    held = talk.answered(Answer("q", "MPS in 2.99 and 2.13", ("2.99", "2.13"), "bm25", (), (), False))
    assert held == ("2.13",) and talk.releases == ("2.13",) and talk.turn.releases == ("2.13",)
    talk.answered(Answer("which release added it?", "which release added it?", (), "bm25", (), (), True,
                         shape="which"))
    assert talk.releases == ("2.13",) and talk.turn.releases == ("2.13",)
    talk.answered(Answer("nccl2 backend", "nccl2 backend", (), "bm25", (), (), True))  # a topic of its own
    assert talk.releases == () and talk.turn.releases == ()


def test_a_filter_the_person_set_applies_until_cleared_and_a_carried_one_ends_with_its_topic(engine) -> None:
    """The four questions of issue 15: "how do I enable the nccl2 backend?" searches every release."""
    talk = Conversation(engine)
    talk.ask("what changed for MPS in 2.14?")
    follow, answer = talk.ask("and in 2.13?")
    assert answer.releases == ("2.13",)
    follow, answer = talk.ask("which release added deterministic FlexAttention backward?")
    assert answer.releases == () and answer.earliest_release == "2.13"
    follow, answer = talk.ask("how do I enable the nccl2 backend?")
    assert follow.releases == () and not follow.inherited and answer.releases == ()
    assert answer.passages[0].citation.version == "2.14" and "nccl2" in answer.passages[0].citation.section[-1]
    assert talk.releases == ()
    talk.set_releases(("2.13",))  # the picker: every question naming no release is asked under it
    follow, answer = talk.ask("how do I enable the nccl2 backend?", mode="bm25")
    assert answer.releases == ("2.13",) and not follow.inherited and talk.releases == ("2.13",)
    follow, answer = talk.ask("what about 2.14?", mode="bm25")
    assert answer.releases == ("2.14",) and talk.releases == ("2.13",)  # its own release; the filter stays
    talk.set_releases(())
    _, answer = talk.ask("fused kernels", mode="bm25")
    assert answer.releases == ()


def test_the_service_opens_the_index_and_says_what_it_holds(bundled_index) -> None:
    service = AnswerService.open(index_dir=bundled_index, update=False, dense=False)
    assert service.info.corpus == "bundled PyTorch notes" and service.info.chunks == len(service.chunks)
    assert service.held("2.14") and not service.held("2.11") and "2.9" in service.releases
    answer = service.ask("nccl2 backend", mode="bm25", releases=["2.14"])
    view = service.section(answer.passages[0])
    assert answer.passages[0].text in view.passage and view.citation == answer.passages[0].citation
    assert service.refresh().stale is False


SIZE = (100, 30)


QUESTIONS = ("what changed for MPS in 2.14?", "which release added deterministic FlexAttention backward?",
             "how do I enable it?")


async def test_the_chat_and_ask_follow_up_read_follow_ups_the_same_way(bundled_index, tmp_path, monkeypatch) -> None:
    """One follow-up implementation: the same three questions, typed in the chat or asked with
    ``relnotes ask --follow-up`` one process at a time, are understood alike (text, releases)."""
    from qa.cli import cli

    chat_history = History(tmp_path / "chat.jsonl")
    app = make_app(lambda notify: AnswerService.open(index_dir=bundled_index, update=False, dense=False),
                   mode="bm25", history=chat_history)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        for question in QUESTIONS:
            await ask(app, pilot, question)
    in_chat = [(c.answer.asked_as, c.answer.releases) for c in app.cards]

    monkeypatch.setenv("RELNOTES_HISTORY", str(tmp_path / "cli.jsonl"))
    in_cli = []
    for n, question in enumerate(QUESTIONS):
        args = ["ask", question, "--index", str(bundled_index), "--mode", "bm25", "--no-update", "--json"]
        result = CliRunner().invoke(cli, args + (["--follow-up"] if n else []), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        record = json.loads(result.stdout)
        in_cli.append((record["asked_as"], tuple(record["releases"])))
    assert in_cli == in_chat
    assert in_chat[1][1] == () and in_chat[2] == ("how do I enable deterministic FlexAttention backward?", ("2.14",))
    assert [e.to_json() | {"time": ""} for e in History(tmp_path / "cli.jsonl").entries()] == [
        e.to_json() | {"time": ""} for e in chat_history.entries()]
