"""Driving the chat from tests as a person does: type a question into the input, press Enter."""

from __future__ import annotations

from qa.tui.widgets import AnswerCard, QuestionInput


async def ask(app, pilot, question: str) -> AnswerCard:
    """Type ``question`` into the chat's input, press Enter, wait for the answer; its card."""
    box = app.query_one(QuestionInput)
    box.focus()
    box.value = question
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()
    return app.cards[-1]
