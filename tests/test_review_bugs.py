"""Bugs found in review of the one-house layout: each test failed before its fix."""

from __future__ import annotations

from click.testing import CliRunner

from qa.history import History
from qa.tui.app import make_app
from qa.tui.widgets import QuestionInput
from tui_fakes import FakeBackend

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
