"""The chat driven with Textual's Pilot over a deterministic fake backend."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.widgets import Static

from index.errors import IndexCorrupt
from qa.history import History
from qa.model import Note, ReleaseRange
from qa.tui.app import ChatApp, make_app
from qa.tui.picker import ReleasePicker
from qa.tui.screens import ErrorScreen, HelpScreen, PassageScreen
from qa.tui.digest import DigestRow
from qa.tui.widgets import AnswerCard, FilterChip, PassageItem, QuestionBubble, QuestionInput, StatusBar
from tests.support.pilot import ask
from tests.support.tui_fakes import FakeBackend

SIZE = (100, 30)


def app_with(backend=None, **options) -> ChatApp:
    backend = backend or FakeBackend()
    return make_app(lambda notify: backend, **options)


def shown(widget) -> str:
    """The plain text a Static shows (what a person reads, markup and all)."""
    return str(widget.render())


def screen_text(app: ChatApp) -> str:
    return "\n".join(shown(w) for w in app.screen.query(Static))


async def test_a_question_gets_an_answer_card_with_citations():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        card = await ask(app, pilot, "native metal kernels for MPS")
        text = screen_text(app)
        assert "› native metal kernels for MPS" in text
        assert "Answer: PyTorch 2.14 adds native Metal kernels for MPS. [1]" in text
        first = card.passages()[0]
        line = shown(first)
        assert "[1]" in line and " 2.14 " in line
        assert "Prototype Features › MPS native Metal kernels" in line
        assert "pytorch-2.14.md:1-4" in line
        assert app.query_one(QuestionInput).value == ""
        assert app.query_one(QuestionInput).has_focus


async def test_status_bar_shows_mode_top_k_corpus_chunks_and_age():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = shown(app.query_one(StatusBar))
        assert "mode auto" in status and "top 5" in status
        assert "fake notes · 5 chunks · built" in status


async def test_a_release_digest_renders_grouped_items_each_openable():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        card = await ask(app, pilot, "what changed in 2.14?")
        text = screen_text(app)
        assert "Release digest (1 release, 3 items)" in text and "PyTorch 2.14: 3 items of 5" in text
        assert "Added" in text and "and 2 more: 2 fixed" in text
        rows = list(card.query(DigestRow))
        assert len(rows) == 3 and "pytorch-2.14.md:1-4" in shown(rows[0])
        assert "[bold]not bold[/]" in shown(rows[2])  # document text stays literal
        await pilot.press("tab")  # from the input to the first item
        assert app.focused is rows[0]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PassageScreen)
        assert "PyTorch 2.14 adds native Metal kernels for MPS." in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.click(rows[1])
        await pilot.pause()
        assert isinstance(app.screen, PassageScreen) and app.screen.passage.citation == rows[1].item.citation


async def test_open_a_passage_and_go_back():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "deterministic flexattention backward")
        await pilot.press("tab")  # from the input to the first passage
        assert isinstance(app.focused, PassageItem)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PassageScreen)
        text = screen_text(app)
        assert "https://pytorch.org/blog/2.14#flexattention" in text
        assert "Beta Features › FlexAttention" in text
        assert "Deterministic FlexAttention backward is now supported." in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, PassageScreen)
        assert app.query_one(AnswerCard).answer is not None


async def test_a_product_named_in_a_corpus_of_several_is_shown_on_the_card():
    class TwoProducts(FakeBackend):
        products = ("PyTorch", "pydantic")

    backend = TwoProducts()
    app = app_with(backend)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        card = await ask(app, pilot, "pydantic MPS kernels")
        assert "products: pydantic" in shown(card.query_one(".asked-as"))
        follow = await ask(app, pilot, "and lu_solve?")  # a follow-up keeps the product
        assert "products: pydantic" in shown(follow.query_one(".asked-as"))
        other = await ask(app, pilot, "pytorch MPS kernels")  # naming another product replaces it
        assert "products: PyTorch" in shown(other.query_one(".asked-as"))


async def test_number_key_and_click_open_passages():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        card = await ask(app, pilot, "MPS kernels")
        assert len(card.passages()) >= 2
        app.query_one(PassageItem).focus()
        await pilot.press("alt+2")
        await pilot.pause()
        assert isinstance(app.screen, PassageScreen)
        assert app.screen.passage.rank == 2
        await pilot.press("escape")
        await pilot.click(PassageItem)
        await pilot.pause()
        assert isinstance(app.screen, PassageScreen) and app.screen.passage.rank == 1


async def test_digits_typed_in_the_input_stay_in_the_question():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "MPS kernels")
        app.query_one(QuestionInput).focus()
        await pilot.press(*"in 2.13?")
        assert app.query_one(QuestionInput).value == "in 2.13?"
        assert not isinstance(app.screen, (PassageScreen, HelpScreen))


async def test_passage_view_highlights_the_answer_sentence_and_question_terms():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "deterministic flexattention backward")
        app.action_open_passage(1)
        await pilot.pause()
        passage = app.screen.query_one("#passage", Static).render()
        styles = {(passage.plain[s.start:s.end], str(s.style)) for s in passage.spans}
        assert ("Deterministic", "bold underline") in styles
        assert any(text.startswith("Deterministic FlexAttention backward is now supported.") and "$warning" in style
                   for text, style in styles)


async def test_history_recall_with_up_and_down(tmp_path):
    history = History(tmp_path / "history.jsonl")
    app = app_with(history=history)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "first question about ROCm")
        await ask(app, pilot, "second question about MPS")
        box = app.query_one(QuestionInput)
        box.value = "draft"
        await pilot.press("up")
        assert box.value == "second question about MPS"
        await pilot.press("up")
        assert box.value == "first question about ROCm"
        await pilot.press("down", "down")
        assert box.value == "draft"


async def test_history_persists_across_runs(tmp_path):
    path = tmp_path / "history.jsonl"
    app = app_with(history=History(path))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "ROCm wheels")
    again = app_with(history=History(path))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.press("up")
        assert again.query_one(QuestionInput).value == "ROCm wheels"


async def test_a_follow_up_keeps_the_range_of_a_range_question_and_says_so():
    backend = FakeBackend()
    app = app_with(backend)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "what changed from 2.9 to 2.13?")
        assert not app.query_one(FilterChip).display  # a range is no release filter
        await ask(app, pilot, "and for MPS?")
        assert backend.spans[-1] == ReleaseRange("2.9", "2.13")
        card = app.query(AnswerCard).last()
        assert card.kept == "releases after 2.9 up to 2.13, kept from the previous question"
        assert "releases after 2.9 up to 2.13, kept from the previous question" in shown(card.query_one(".asked-as"))
        assert [p.citation.version for p in card.answer.passages] == ["2.13"]  # 2.14's MPS passage is out of range
        await ask(app, pilot, "how do I enable deterministic FlexAttention backward?")  # a topic of its own
        assert backend.spans[-1] is None


async def test_release_filter_is_inherited_shown_as_a_chip_and_cleared():
    backend = FakeBackend()
    app = app_with(backend)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "what changed for MPS in 2.13")
        chip = app.query_one(FilterChip)
        assert chip.display and "release: 2.13" in shown(chip)
        await ask(app, pilot, "how fast is it?")
        assert backend.asked[-1][3] == ("2.13",)  # a follow-up inherits, and its card says so
        assert "release 2.13, kept from the previous question" in screen_text(app)
        await ask(app, pilot, "fused layer norm kernels")
        assert backend.asked[-1][3] == ()  # a topic of its own: every release, and the chip is gone
        assert not app.query_one(FilterChip).display
        await ask(app, pilot, "what changed for MPS in 2.13")
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert not app.query_one(FilterChip).display
        await ask(app, pilot, "native metal kernels")
        assert backend.asked[-1][3] == ()


async def test_clicking_the_chip_clears_the_filter():
    backend = FakeBackend()
    app = app_with(backend, releases=("2.14",))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.click(FilterChip)
        await pilot.pause()
        assert app.release_filter == ()
        await ask(app, pilot, "ROCm wheels")
        assert backend.asked[-1][3] == ()


async def test_release_picker_sets_the_filter():
    backend = FakeBackend()
    app = app_with(backend)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("f4")
        await pilot.pause()
        assert isinstance(app.screen, ReleasePicker)
        await pilot.press("down", "down", "enter")  # All releases, 2.14, 2.13
        await pilot.pause()
        assert app.release_filter == ("2.13",)
        await ask(app, pilot, "kernels")
        assert backend.asked[-1][3] == ("2.13",)


async def test_mode_and_top_k_switch_reach_the_engine_and_the_status_bar():
    backend = FakeBackend()
    app = app_with(backend)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("f2", "f2")  # auto -> hybrid -> bm25
        await pilot.press("f3")
        await pilot.pause()
        status = shown(app.query_one(StatusBar))
        assert "mode bm25" in status and "top 10" in status
        await ask(app, pilot, "ROCm wheels")
        assert backend.asked[-1][1:3] == (10, "bm25")
        await pilot.press("f2", "f2")  # dense, then round to auto
        assert app.mode == "auto"


async def test_a_broken_index_shows_an_error_dialog_and_the_app_keeps_running():
    def broken(notify):
        raise IndexCorrupt("Index at /x is corrupt (vectors.faiss fails its checksum); rebuild it with: relnotes index --rebuild")

    app = make_app(broken)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, ErrorScreen)
        assert "relnotes index --rebuild" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ErrorScreen)
        card = await ask(app, pilot, "anything")
        assert "No index is loaded" in screen_text(app)
        assert card.answer is None
        assert "no index loaded" in shown(app.query_one(StatusBar))


async def test_retry_loads_the_index_after_the_cause_is_fixed():
    from index.errors import IndexBusy

    attempts = []
    backend = FakeBackend()

    def flaky(notify):
        attempts.append(1)
        if len(attempts) == 1:
            raise IndexBusy("Another relnotes is building the index at /x; wait for it or try again")
        return backend

    app = make_app(flaky)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, ErrorScreen)
        await pilot.press("escape")
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.backend is backend and not app.load_failed and len(attempts) == 2
        assert "fake notes" in shown(app.query_one(StatusBar))
        await pilot.press("ctrl+r")  # nothing to retry once loaded
        await app.workers.wait_for_complete()
        assert len(attempts) == 2
        card = await ask(app, pilot, "ROCm wheels")
        assert card.answer is not None


async def test_a_bad_question_is_reported_on_its_card_and_the_chat_goes_on():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        card = await ask(app, pilot, "please explode")
        assert card.answer is None
        assert "the fake engine refuses 'explode'" in screen_text(app)
        card = await ask(app, pilot, "ROCm wheels")
        assert card.answer is not None


@pytest.mark.parametrize("question", ["[bold]x[/] ROCm", "[link=file:///etc/passwd]x[/] ROCm", "[/] ROCm"])
async def test_markup_in_questions_and_passages_is_shown_literally(question):
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, question)
        bubble = app.query(QuestionBubble).last()
        assert question in shown(bubble)
        await ask(app, pilot, "literal markup text stays")
        line = shown(app.cards[-1].passages()[0])
        assert "[bold]not bold[/]" in line and "[link=file:///etc/passwd]x[/]" in line
        assert "\\x1b[31mred" in line and "\x1b" not in line
        app.action_open_passage(1)
        await pilot.pause()
        assert "[link=file:///etc/passwd]x[/]" in shown(app.screen.query_one("#passage"))


async def test_the_ui_stays_responsive_while_a_slow_engine_answers():
    gate = threading.Event()
    backend = FakeBackend(gate=gate)
    app = app_with(backend)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        box = app.query_one(QuestionInput)
        box.value = "ROCm wheels"
        await pilot.press("enter")
        await pilot.pause()
        card = app.cards[-1]
        assert card.answer is None and card.has_class("pending")
        await pilot.press("f2")  # keys work while the engine is busy
        await pilot.press(*"typing")
        assert app.mode == "hybrid" and box.value == "typing"
        gate.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert card.answer is not None


async def test_a_newer_question_supersedes_an_older_ones_display():
    gate = threading.Event()
    app = app_with(FakeBackend(gate=gate))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        box = app.query_one(QuestionInput)
        for question in ("ROCm wheels", "MPS kernels"):
            box.value = question
            await pilot.press("enter")
            await pilot.pause()
        gate.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        older, newer = app.cards
        assert older.answer is None and "newer question" in screen_text(app)
        assert newer.answer is not None and newer.answer.question.startswith("MPS")


async def test_a_question_typed_while_loading_is_answered_when_ready():
    loaded = threading.Event()
    backend = FakeBackend()

    def slow(notify):
        loaded.wait(10)
        return backend

    app = make_app(slow)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "loading" in shown(app.query_one(StatusBar))
        card = await ask_without_waiting(app, pilot, "ROCm wheels")
        assert card.answer is None and "Waiting for the index" in screen_text(app)
        loaded.set()
        await app.workers.wait_for_complete()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert card.answer is not None and card.answer.passages[0].citation.version == "2.9"


async def ask_without_waiting(app, pilot, question):
    box = app.query_one(QuestionInput)
    box.value = question
    await pilot.press("enter")
    await pilot.pause()
    return app.cards[-1]


async def test_help_opens_with_f1_and_a_question_mark_is_always_typed():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Ctrl+L" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("?")  # typed into the question
        assert app.query_one(QuestionInput).value == "?"
        app.set_focus(None)
        await pilot.press("?")  # with no focus too: the question, never a key
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen) and app.query_one(QuestionInput).value == "??"


async def test_copy_citation_and_text_of_the_focused_passage():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "ROCm wheels")
        app.query_one(PassageItem).focus()
        await pilot.press("ctrl+k")
        assert app.clipboard == (
            "PyTorch 2.9 release blog · 2.9 · Stable Features > ROCm · pytorch-2.9.md:31-34 · "
            "https://pytorch.org/blog/2.9#rocm"
        )
        await pilot.press("ctrl+t")
        assert app.clipboard.startswith("ROCm 6.4 wheels are published for 2.9.")


async def test_export_writes_the_transcript_as_markdown(tmp_path):
    app = app_with(export_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "ROCm wheels")
        await ask(app, pilot, "literal markup text")
        await pilot.press("ctrl+s")
        await pilot.pause()
    [written] = tmp_path.glob("relnotes-chat-*.md")
    report = written.read_text(encoding="utf-8")
    assert "## 1: ROCm wheels" in report
    assert "pytorch-2.9.md:31-34" in report and "2\\.9" not in report  # escaped only where Markdown needs it
    assert "Literal \\[bold\\]not bold\\[/\\]" in report or "Literal [bold]not bold[/]" in report
    assert "```text\nLiteral [bold]not bold[/]" in report  # passage text in a fenced (verbatim) block


async def test_export_says_the_full_path_and_keeps_asked_as_and_the_earliest_release(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = app_with(export_dir=Path("out"))
    (tmp_path / "out").mkdir()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "what changed for MPS in 2.13")
        await ask(app, pilot, "how fast is it?")
        await pilot.press("ctrl+s")
        await pilot.pause()
        [written] = (tmp_path / "out").glob("relnotes-chat-*.md")
        assert any(f"Transcript written to {written.resolve()}" == n.message for n in app._notifications)
    report = written.read_text(encoding="utf-8")
    assert "Asked as: how fast is" in report and "Releases: 2.13" in report


async def test_export_to_an_unwritable_folder_is_a_notification(tmp_path):
    app = app_with(export_dir=tmp_path / "missing" / "folder")
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert any("Could not write" in n.message and "--export-dir" in n.message for n in app._notifications)


async def test_every_action_is_in_the_command_palette():
    from qa.tui.app import PALETTE

    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        palette_actions = {action.split("(")[0] for _, _, action in PALETTE}
        bound = {b.action.split("(")[0] for b in app.BINDINGS if b.action != "quit"}
        assert bound - {"scroll_transcript"} <= palette_actions
        assert {title for title, _, _ in PALETTE} <= set(commands)
        await ask(app, pilot, "ROCm wheels")
        app.call_next(commands["Copy citation"].callback)  # as the palette runs it
        await pilot.pause()
        assert app.clipboard.startswith("PyTorch 2.9 release blog · 2.9 · Stable Features > ROCm")
        app.call_next(commands["Switch mode"].callback)
        await pilot.pause()
        assert app.mode == "hybrid"


async def test_a_which_release_question_keeps_the_chip_for_the_next_question():
    backend = FakeBackend()
    app = app_with(backend)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "what changed for MPS in 2.13")
        await ask(app, pilot, "which release added fused kernels")
        assert backend.asked[-1][3] == ()  # asked across releases
        assert app.release_filter == ("2.13",) and app.query_one(FilterChip).display
        await ask(app, pilot, "how fast is it?")
        assert backend.asked[-1][3] == ("2.13",)  # a follow-up after it still has the filter
        await ask(app, pilot, "layer norm memory")
        assert backend.asked[-1][3] == ()  # a topic of its own does not


async def test_a_refused_question_leaves_the_chip_and_the_previous_turn():
    backend = FakeBackend()
    app = app_with(backend)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "MPS kernels in 2.13")
        turn = app.turn
        await ask(app, pilot, "explode in 2.9")
        assert app.release_filter == ("2.13",) and app.turn == turn


async def test_an_unknown_starting_release_is_dropped_with_a_notification():
    app = app_with(releases=("7.7",))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.release_filter == ()
        assert any("no release 7.7" in n.message and "2.9, 2.13, 2.14" in n.message for n in app._notifications)


async def test_digits_on_the_passage_screen_do_not_stack_screens():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "MPS kernels")
        app.action_open_passage(1)
        await pilot.pause()
        await pilot.press("alt+2")
        await pilot.pause()
        assert len(app.screen_stack) == 2
        await pilot.press("escape")
        assert len(app.screen_stack) == 1


async def test_tab_goes_to_the_newest_answer():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "ROCm wheels")
        await ask(app, pilot, "MPS kernels")
        await pilot.press("tab")
        assert app.focused in app.cards[-1].passages()


async def test_history_write_failures_are_notified(tmp_path):
    (tmp_path / "afile").write_text("")
    app = app_with(history=History(tmp_path / "afile" / "history.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        card = await ask(app, pilot, "ROCm wheels")
        assert card.answer is not None
        assert any("history" in n.message.lower() for n in app._notifications)


async def test_the_status_bar_says_when_the_corpus_changed_since_the_build():
    from dataclasses import replace

    backend = FakeBackend()
    app = app_with(backend)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        backend.info = replace(backend.info, stale=True)
        app.refresh_info()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "STALE" in shown(app.query_one(StatusBar))


def test_section_view_shows_text_shared_by_neighbouring_chunks_once():
    from dataclasses import replace

    from tests.support.fakes import make_chunk
    from qa.model import Passage
    from qa.answer.section import overlap, section_view
    from tests.support.tui_fakes import citation

    def sibling(n, text, lines):
        return replace(make_chunk(n, text), section=("S",), lines=lines)

    a, b, c = sibling(1, "alpha beta gamma. See", (1, 2)), sibling(2, "See the notes. Delta.", (2, 3)), \
        sibling(3, "Other paragraph.", (5, 5))
    assert overlap(a.text, b.text) == 3 and overlap(b.text, c.text) == 0
    assert overlap("x stable", "table y") == 0  # not a whole word
    for chunk in (a, b, c):
        cit = replace(citation(0), document=chunk.document, section=chunk.section)
        view = section_view([c, b, a], Passage(1, chunk.id, chunk.text, 1.0, cit))
        assert view.passage == chunk.text
        assert view.before + view.passage + view.after == "alpha beta gamma. See the notes. Delta.\n\nOther paragraph."


async def test_works_in_a_light_theme_at_80x24():
    app = app_with()
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "textual-light"
        await app.workers.wait_for_complete()
        card = await ask(app, pilot, "native metal kernels for MPS")
        assert card.passages() and card.region.width <= 80


class TwoProducts(FakeBackend):
    """The fake notes as if the corpus held a second product."""

    products = ("PyTorch", "pydantic")


async def test_the_chat_records_the_products_a_question_was_restricted_to(tmp_path) -> None:
    """``ask --follow-up`` after a chat question keeps the product filter: the history has it."""
    history = History(tmp_path / "history.jsonl")
    app = app_with(TwoProducts(), history=history)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "pydantic MPS kernels")
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


async def test_typing_with_a_passage_focused_goes_to_the_question_and_fires_nothing():
    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await ask(app, pilot, "MPS kernels")
        app.query_one(PassageItem).focus()
        clipboard = app.clipboard
        typed = "how do I enable the nccl2 backend? 2 c t ?"
        for ch in typed:
            await pilot.press("space" if ch == " " else "question_mark" if ch == "?" else ch)
        await pilot.pause()
        box = app.query_one(QuestionInput)
        assert app.focused is box and box.value == typed
        assert len(app.screen_stack) == 1 and app.clipboard == clipboard  # no passage opened, nothing copied


async def test_score_bars_are_muted_on_a_card_with_no_confident_answer():
    from qa.model import Answer

    def bar_style(item: PassageItem) -> str:
        content = item.render()
        text = str(content)
        return next(str(span.style) for span in content.spans if "█" in text[span.start:span.end])

    app = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        card = await ask(app, pilot, "MPS kernels")
        assert card.answer.confident and bar_style(card.passages()[0]) == "$primary"
        answer = card.answer
        weak = Answer(answer.question, answer.asked_as, (), answer.mode, answer.passages, (), False, notes=(Note("not_confident"),))
        await card.show(weak)
        await pilot.pause()
        assert bar_style(card.passages()[0]) == "$text-muted"


async def test_the_release_picker_filters_as_you_type_groups_by_product_and_starts_on_the_current():
    from textual.widgets import OptionList

    class Grouped(FakeBackend):
        products = ("PyTorch", "pydantic")

        def release_groups(self):
            return (("PyTorch", ("2.9", "2.13", "2.14")), ("pydantic", ("1.10", "2.0", "2.12")))

    app = app_with(Grouped(), releases=("2.13",))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("f4")
        await pilot.pause()
        options = app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert labels == ["All releases (no filter)", "PyTorch", "  2.14", "● 2.13", "  2.9",
                          "pydantic", "  2.12", "  2.0", "  1.10"]
        assert options.get_option_at_index(options.highlighted).id == "0/2.13"  # on the release in force
        await pilot.press("up", "up", "up")  # past the heading, then stops at the top: no wrap-around
        assert options.highlighted == 0
        for ch in "2.1":
            await pilot.press(ch)
        await pilot.pause()
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert ids == [None, "0/2.14", "0/2.13", None, "1/2.12"] and options.highlighted == 1
        await pilot.press("down", "down", "enter")  # 2.13, then over the pydantic heading to 2.12
        await pilot.pause()
        assert app.release_filter == ("2.12",)
        await pilot.press("f4")
        await pilot.pause()
        for ch in "zz":
            await pilot.press(ch)
        await pilot.pause()
        assert "No release matches 'zz'" in str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        await pilot.press("enter")  # nothing to choose: the picker stays
        assert isinstance(app.screen, ReleasePicker)


async def test_the_release_picker_selects_a_range_of_one_products_releases():
    """Shift+Up/Down select a range (within one product: flask and pytest both have a 2.0.0),
    Enter puts it in force for that product, and the chip says so compactly."""
    from textual.widgets import OptionList

    class Grouped(FakeBackend):
        products = ("flask", "pytest")
        releases = ("1.0", "2.0.0", "2.1.0", "2.2.0", "3.0", "4.0")

        def release_groups(self):
            return (("flask", ("1.0", "2.0.0", "2.1.0", "2.2.0")), ("pytest", ("2.0.0", "3.0", "4.0")))

    backend = Grouped()
    app = app_with(backend)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("f4")
        await pilot.pause()
        picker = app.screen
        options = picker.query_one(OptionList)
        await pilot.press("down", "shift+down", "shift+down", "shift+down", "shift+down", "shift+down")
        await pilot.pause()
        assert options.get_option_at_index(options.highlighted).id == "0/1.0"  # stopped at the pytest heading
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert labels[2:6] == ["▌ 2.2.0", "▌ 2.1.0", "▌ 2.0.0", "▌ 1.0"]
        assert "Enter chooses 1.0 … 2.2.0 (4 releases)" in shown(picker.query_one("#picker-hint"))
        await pilot.press("shift+up", "shift+up")  # back towards where the selection started
        await pilot.pause()
        assert "Enter chooses 2.1.0 … 2.2.0 (2 releases)" in shown(picker.query_one("#picker-hint"))
        await pilot.press("enter")
        await pilot.pause()
        assert app.release_filter == ("2.1.0", "2.2.0")
        assert "release: flask 2.1.0, 2.2.0" in shown(app.query_one(FilterChip))
        await ask(app, pilot, "what was fixed?")
        assert backend.asked[-1][3] == ("2.1.0", "2.2.0") and app.talk.turn.products == ("flask",)
        await pilot.press("f4")
        await pilot.pause()
        assert picker is not app.screen and app.screen.query_one(OptionList).highlighted == 2  # on 2.2.0, in force
        await pilot.press("down", "shift+down", "down", "enter")  # a plain move ends the selection: one release
        await pilot.pause()
        assert app.release_filter == ("1.0",)


async def test_the_footer_shows_quit_at_120_columns():
    from textual.widgets._footer import FooterKey

    app = app_with()
    async with app.run_test(size=(120, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        keys = [k for k in app.screen.query(FooterKey) if k.description == "Quit"]
        assert keys and keys[0].region.width > 0 and keys[0].region.right <= 120


async def test_ctrl_e_opens_the_cited_file_at_its_line_in_the_editor(tmp_path, monkeypatch):
    import contextlib
    import subprocess

    from qa.show import editor_command, source_file

    notes = tmp_path / "pytorch-2.14.md"
    notes.write_text("x\n" * 20)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EDITOR", "vim -p")
    monkeypatch.delenv("VISUAL", raising=False)
    calls = []
    monkeypatch.setattr(subprocess, "call", lambda argv: calls.append(argv) or 0)
    app = app_with()
    monkeypatch.setattr(app, "suspend", contextlib.nullcontext)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        card = await ask(app, pilot, "MPS kernels")
        line = card.passages()[0].passage.citation.lines[0]
        app.action_open_passage(1)
        await pilot.pause()
        await pilot.press("ctrl+e")
        await pilot.pause()
    assert calls == [["vim", "-p", f"+{line}", str(notes)]]
    assert editor_command("code -g", "/a b.md", 3) == ["code", "-g", "+3", "/a b.md"]
    assert source_file("corpus/data/pytorch-2.13-release-blog.txt").endswith("corpus/data/pytorch-2.13-release-blog.txt")
    assert source_file("nowhere/x.md") is None
