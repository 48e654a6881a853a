"""The real chat over the bundled corpus, the real index and the real model."""

from __future__ import annotations

from qa.history import History
from qa.tui.app import make_app
from qa.present import cite
from qa.service import AnswerService
from qa.tui.screens import PassageScreen
from qa.tui.widgets import PassageItem, QuestionInput, StatusBar


async def test_real_chat_answers_with_a_checkable_citation(bundled_index, tmp_path):
    notices: list[str] = []

    def factory(notify):
        notices.append("loading")
        return AnswerService.open(index_dir=bundled_index, update=False, warm=True, notify=notify)

    app = make_app(factory, history=History(tmp_path / "history.jsonl"))
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.query_one(StatusBar).render())
        assert "bundled PyTorch notes" in status and f"{app.backend.info.chunks} chunks" in status
        box = app.query_one(QuestionInput)
        box.value = "what changed for MPS in 2.14?"
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        answer = app.cards[-1].answer
        assert answer is not None and answer.passages
        assert {p.citation.version for p in answer.passages} == {"2.14"}
        assert any("MPS" in p.text for p in answer.passages[:3])
        first = app.cards[-1].query(PassageItem).first()
        assert cite.location(answer.passages[0].citation) in str(first.render())

        # the follow-up keeps the release and the topic
        box.value = "and in 2.13?"
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        follow = app.cards[-1].answer
        assert follow.releases == ("2.13",)
        assert "MPS" in follow.asked_as
        assert {p.citation.version for p in follow.passages} == {"2.13"}

        app.action_open_passage(1)
        await pilot.pause()
        assert isinstance(app.screen, PassageScreen)
        view = app.screen.view
        assert follow.passages[0].text == view.passage
        section = view.before + view.passage + view.after
        assert follow.passages[0].text in section
    assert notices == ["loading"]


async def test_chat_over_a_missing_corpus_shows_the_error_and_keeps_running(tmp_path):
    from qa.cli.chat import chat_app
    from qa.tui.screens import ErrorScreen

    app = chat_app([tmp_path / "nowhere"], index_dir=tmp_path / "idx")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, ErrorScreen)
        message = str(app.screen.query_one("#error-message").render())
        assert "nowhere: no such file or directory; check the --corpus path" in message
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running and not isinstance(app.screen, ErrorScreen)


def test_chat_command_help_and_bad_usage():
    from click.testing import CliRunner

    from qa.cli import cli

    result = CliRunner().invoke(cli, ["chat", "--help"])
    assert result.exit_code == 0
    for option in ("--corpus", "--index", "--release", "--mode", "--top-k", "--no-update", "--export-dir"):
        assert option in result.output
    bad = CliRunner().invoke(cli, ["chat", "--mode", "fuzzy"])
    assert bad.exit_code == 2 and "'fuzzy' is not one of 'hybrid', 'bm25', 'dense'" in bad.output
    assert CliRunner().invoke(cli, ["chat", "--top-k", "0"]).exit_code == 2


def test_the_chat_with_a_bad_corpus_is_one_line_and_exit_1_before_the_window(tmp_path) -> None:
    from click.testing import CliRunner

    from qa.cli import cli

    missing = CliRunner().invoke(cli, ["chat", "--corpus", str(tmp_path / "nope")])
    assert missing.exit_code == 1 and missing.output == f"error: {tmp_path / 'nope'}: no such file or directory; check the --corpus path\n"
    (tmp_path / "empty").mkdir()
    empty = CliRunner().invoke(cli, ["chat", "--corpus", f"x={tmp_path / 'empty'}"])
    assert empty.exit_code == 1 and "no .md, .markdown, .rst, .txt, .json, .jsonl, .html, .htm files in this folder" in empty.output
