"""Snapshots of the chat at 80x24 over the deterministic fake backend (SVGs in __snapshots__/).

Update them after an intended change with: .venv/bin/python -m pytest tests/tui/test_tui_snapshots.py --snapshot-update
"""

from __future__ import annotations

from datetime import datetime, timezone

from qa.history import History
from qa.tui.app import make_app
from qa.service import IndexInfo
from tests.support.tui_fakes import FakeBackend

SIZE = (80, 24)


def snapshot_app(tmp_path):
    backend = FakeBackend()
    backend.info = IndexInfo(corpus="fake notes", documents=3, chunks=5,
                             created=datetime.now(timezone.utc).isoformat(), directory="/fake")
    return make_app(lambda notify: backend, history=History(tmp_path / "history.jsonl"))


async def settle(pilot):
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def ask(pilot, question: str):
    await settle(pilot)
    await pilot.press(*question, "enter")
    await settle(pilot)


def test_empty_chat(snap_compare, tmp_path):
    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE, run_before=settle)


def test_answer_card(snap_compare, tmp_path):
    async def run_before(pilot):
        await ask(pilot, "metal kernels for MPS in 2.14")

    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_passage_view(snap_compare, tmp_path):
    async def run_before(pilot):
        await ask(pilot, "deterministic flexattention backward")
        pilot.app.action_open_passage(1)
        await settle(pilot)

    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_help(snap_compare, tmp_path):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)

    assert snap_compare(snapshot_app(tmp_path), terminal_size=SIZE, run_before=run_before)
