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
from qa.tui.widgets import ESCAPED_DIGITS, FilterChip, PassageItem, QuestionInput
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


def terminal_keys(text: str) -> list:
    """The key events Textual's own parser makes of what a terminal sends (Pilot's press() cannot
    give a key its character: it sends "inverted_exclamation_mark" with none)."""
    from textual._xterm_parser import XTermParser

    return list(XTermParser().feed(text))


async def press_sent(app: ChatApp, pilot, text: str) -> None:
    """Deliver ``text`` as the terminal's driver would: each key event posted to the app."""
    for event in terminal_keys(text):
        app.post_message(event)
        await pilot.pause()


def test_textual_reads_escape_digits_as_the_characters_of_option_digits():
    assert [(e.key, e.character) for e in terminal_keys("\x1b1")] == [("inverted_exclamation_mark", "¡")]
    assert [(e.key, e.character) for e in terminal_keys("\x1b2")] == [("trade_mark_sign", "™")]
    assert [e.key for e in terminal_keys("".join(f"\x1b{n}" for n in range(1, 10)))] == list(ESCAPED_DIGITS)


async def test_alt_digits_as_escape_prefixed_terminals_send_them_open_passages():
    """tmux and xterm send Alt+1 as ESC 1, which Textual reads as the key of '¡' (as macOS's
    Option+1 types it); ESC 2 as '™', ESC 3 as '£' ... ESC 9 as 'ª'."""
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        box = app.query_one(QuestionInput)
        await press_sent(app, pilot, "\x1b1")  # no passage yet: the character is typed
        assert box.value == "¡"
        box.value = ""
        await ask(app, pilot, "MPS kernels")
        assert len(app.cards[-1].passages()) == 2
        for sent, rank, other in (("\x1b1", 1, "\x1b2"), ("\x1b2", 2, "\x1b1")):
            box.focus()
            await press_sent(app, pilot, sent)
            assert isinstance(app.screen, PassageScreen) and app.screen.passage.rank == rank
            await press_sent(app, pilot, other)  # over an open passage: the other one in its place
            assert isinstance(app.screen, PassageScreen) and app.screen.passage.rank == 3 - rank
            assert len(app.screen_stack) == 2
            await pilot.press("escape")
            await pilot.pause()
        assert box.value == ""  # nothing typed


async def test_the_help_says_every_way_to_open_a_passage():
    from qa.tui.screens import HELP

    assert "Esc 1" in HELP and "Option+1" in HELP
    assert "Tab" in HELP and "click" in HELP.lower() and "Ctrl+P" in HELP


async def test_text_typed_over_an_open_passage_goes_to_the_question():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "MPS kernels")
        app.action_open_passage(1)
        await pilot.pause()
        assert isinstance(app.screen, PassageScreen)
        await pilot.press(*"explain it")  # 'e' and 't' are letters of a question here, not keys
        await pilot.pause()
        assert not isinstance(app.screen, PassageScreen)
        box = app.query_one(QuestionInput)
        assert box.value == "explain it" and box.has_focus


async def test_the_open_passage_copies_and_edits_with_the_cards_keys():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "ROCm wheels")
        app.action_open_passage(1)
        await pilot.pause()
        await pilot.press("ctrl+k")
        assert app.clipboard.startswith("PyTorch 2.9 release blog · 2.9 · Stable Features > ROCm")
        await pilot.press("ctrl+t")
        assert app.clipboard.startswith("ROCm 6.4 wheels are published for 2.9.")
        assert isinstance(app.screen, PassageScreen)


class TwoProducts(FakeBackend):
    """PyTorch holds 2.9, 2.13, 2.14; pydantic holds 2.13 only."""

    products = ("PyTorch", "pydantic")

    def release_groups(self):
        return (("PyTorch", self.releases), ("pydantic", ("2.13",)))

    def held(self, release, products=()):
        return any(release in releases for product, releases in self.release_groups()
                   if not products or product in products)


async def test_the_chip_names_the_product_in_a_corpus_of_several():
    app = app_with(TwoProducts())
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        chip = app.query_one(FilterChip)
        await ask(app, pilot, "what changed for MPS in 2.14")  # no product named: only PyTorch holds 2.14
        assert str(chip.render()).startswith("release: PyTorch 2.14")
        await ask(app, pilot, "pydantic MPS kernels in 2.13")  # both hold 2.13: the one named
        assert str(chip.render()).startswith("release: pydantic 2.13")
    single = app_with()
    async with single.run_test(size=SIZE) as pilot:
        await single.workers.wait_for_complete()
        await ask(single, pilot, "what changed for MPS in 2.13")
        assert str(single.query_one(FilterChip).render()).startswith("release: 2.13 ")  # one product: no name


async def test_a_copy_says_where_the_text_went_and_claims_no_more():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "ROCm wheels")
        app.query_one(PassageItem).focus()
        await pilot.press("ctrl+k")
        app.action_open_passage(1)
        await pilot.pause()
        await pilot.press("ctrl+t")
        said = [m for m in messages(app) if "passage" in m or "citation" in m]
        assert len(said) == 2 and not any(m.startswith("Copied") for m in said)
        assert all("OSC 52" in m and "Ctrl+V" in m for m in said), said


async def test_export_goes_to_the_user_data_folder_not_the_current_one(tmp_path, monkeypatch):
    import os

    here = tmp_path / "checkout"
    here.mkdir()
    monkeypatch.chdir(here)
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "ROCm wheels")
        await pilot.press("ctrl+s")
        await pilot.pause()
        [written] = (Path(os.environ["XDG_DATA_HOME"]) / "relnotes-qa" / "transcripts").glob("relnotes-chat-*.md")
        assert f"Transcript written to {written}" in messages(app)
    assert list(here.iterdir()) == []
    assert "## 1: ROCm wheels" in written.read_text(encoding="utf-8")


async def test_quit_while_the_index_builds_stops_the_build_as_ctrl_c_does():
    """Ctrl+Q leaves at once; the build stops at its next notice or progress step with
    KeyboardInterrupt, so it cleans up as on Ctrl+C (its temporary folder removed)."""
    started, stopped = threading.Event(), threading.Event()

    def factory(notify):
        started.set()
        try:
            for step in range(100):
                time.sleep(0.2)
                notify(f"Embedding: step {step}")
        except KeyboardInterrupt:
            stopped.set()
            raise
        return FakeBackend()

    app = make_app(factory)
    async with app.run_test(size=SIZE) as pilot:
        assert started.wait(10)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running
    assert stopped.wait(5)
