"""Bugs found in review of the one-house layout: each test failed before its fix."""

from __future__ import annotations

from click.testing import CliRunner

from qa.history import History
from qa.tui.app import make_app
from qa.tui.widgets import QuestionInput
from tests.support.tui_fakes import FakeBackend

SIZE = (100, 30)


class TwoProducts(FakeBackend):
    """The fake notes as if the corpus held a second product."""

    products = ("PyTorch", "pydantic")


async def _ask(app, pilot, question: str) -> None:
    box = app.query_one(QuestionInput)
    box.focus()
    box.value = question
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_the_chat_records_the_products_a_question_was_restricted_to(tmp_path) -> None:
    """``ask --follow-up`` after a chat question keeps the product filter: the history has it."""
    history = History(tmp_path / "history.jsonl")
    app = make_app(lambda notify: TwoProducts(), history=history)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await _ask(app, pilot, "pydantic MPS kernels")
    assert app.cards[-1].answer.products == ("pydantic",)
    last = History(tmp_path / "history.jsonl").last()
    assert last.products == ("pydantic",) and last.turn().products == ("pydantic",)


def test_the_chat_backend_protocol_asks_what_the_app_passes() -> None:
    """The app passes ``products``; the Protocol, the real service and the fake take the same arguments."""
    import inspect

    from qa.service import AnswerService
    from qa.tui.backend import ChatBackend

    def parameters(method) -> list[str]:
        return list(inspect.signature(method).parameters)

    assert parameters(ChatBackend.ask) == parameters(AnswerService.ask) == parameters(FakeBackend.ask)
    assert "products" in parameters(ChatBackend.ask)


def test_a_cut_py_prefix_names_no_product_in_release_cues() -> None:
    """One list of product names (corpus.versions.product_names): "dantic 2.0" is no pydantic release,
    as "test" names no pytest; "torch 2.13" still names PyTorch's."""
    from qa.answer.question import find_releases

    assert find_releases("what changed in dantic 2.0", known=("2.0",), products=("pydantic",)).releases == ()
    assert not find_releases("which dantic version added it", products=("pydantic",)).which_release
    assert find_releases("what changed in pydantic 2.0", known=("2.0",), products=("pydantic",)).releases == ("2.0",)
    assert find_releases("torch 2.13 compile", known=("2.13",), products=("PyTorch",)).releases == ("2.13",)


QUESTIONS = ("what changed for MPS in 2.14?", "which release added deterministic FlexAttention backward?",
             "how do I enable it?")


async def test_the_chat_and_ask_follow_up_read_follow_ups_the_same_way(bundled_index, tmp_path, monkeypatch) -> None:
    """One follow-up implementation: the same three questions, typed in the chat or asked with
    ``relnotes ask --follow-up`` one process at a time, are understood alike (text, releases)."""
    import json

    from qa.cli import cli
    from qa.service import AnswerService

    chat_history = History(tmp_path / "chat.jsonl")
    app = make_app(lambda notify: AnswerService.open(index_dir=bundled_index, update=False, dense=False),
                   mode="bm25", history=chat_history)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        for question in QUESTIONS:
            await _ask(app, pilot, question)
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
