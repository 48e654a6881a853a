"""The chat's keys and notices as a new user meets them (issue 27): Tab to the newest answer, the
Alt keys as Escape-prefixed terminals send them, typing over an open passage, the chip's product,
what a copy and an export say, quitting while the index loads. Pilot over the fake backend."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from textual.widgets import Static

from qa.tui.app import ChatApp, make_app
from qa.tui.digest import DigestRow
from qa.tui.screens import PassageScreen
from qa.tui.widgets import FilterChip, PassageItem, QuestionInput
from tests.support.pilot import ask
from tests.support.tui_fakes import FakeBackend

SIZE = (110, 34)


def app_with(backend=None, **options) -> ChatApp:
    backend = backend or FakeBackend()
    return make_app(lambda notify: backend, **options)


def messages(app: ChatApp) -> list[str]:
    return [n.message for n in app._notifications]


async def test_tab_from_the_input_goes_to_the_newest_answer_past_an_older_digest():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        first = await ask(app, pilot, "what changed in 2.14?")  # a digest: its rows come first on the screen
        assert first.query(DigestRow)
        await ask(app, pilot, "deterministic flexattention backward")
        await pilot.press("tab")
        assert app.focused is app.cards[-1].passages()[0]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PassageScreen) and app.screen.passage.rank == 1
        assert "FlexAttention" in app.screen.passage.text
