"""Notes are data, worded once (``qa.present.notes``) and shown once in every medium."""

from __future__ import annotations

from dataclasses import replace

from click.testing import CliRunner

from qa.serving import api
from qa.cli import cli
from qa.model import NOTE_KINDS, Note, ReleaseRange
from qa.present import notes
from qa.present.formats import answer_record, markdown_report
from qa.present.plain import render
from tests.support.tui_fakes import FakeBackend

WHICH = "which release added deterministic FlexAttention backward?"
EARLIEST = "Earliest release with strong evidence: 2.13"


def test_every_kind_of_note_has_words() -> None:
    span = ReleaseRange("1.0", "2.0")
    samples = {
        "earliest_release": Note("earliest_release", releases=("2.13",)),
        "product_not_held": Note("product_not_held", products=("Django",), held=("PyTorch",)),
        "release_not_held": Note("release_not_held", releases=("2.11",), held=("2.9", "2.13")),
        "range_empty": Note("range_empty", range=span, held=("3.0",)),
        "release_outside_range": Note("release_outside_range", releases=("2.1",), range=span),
        "range_off_topic": Note("range_off_topic", range=span, topic="kitty"),
        "upgrade_none": Note("upgrade_none", range=span, kinds=("removed", "deprecated"), total=3),
        "upgrade_some": Note("upgrade_some", range=span, kinds=("removed",), count=1, total=3),
        "range_more": Note("range_more", releases=("1.5", "1.9"), count=4, total=40),
        "topic_none": Note("topic_none", topic="kitty"),
        "from_pin": Note("from_pin", releases=("2.5.3",), products=("pydantic",)),
        "last_release": Note("last_release", releases=("2.14.0", "2.15.0")),
    }
    for kind in NOTE_KINDS:
        words = notes.text(samples.get(kind, Note(kind)))
        assert words and (words[0].isupper() or words[0].isdigit()), kind
    assert notes.text(samples["upgrade_some"]) == "1 of the 3 releases after 1.0 up to 2.0 has removed items."
    assert notes.text(samples["product_not_held"]) == (
        "The corpus holds no Django; it has: PyTorch. Not answering from another product; to ask about Django, "
        "give its release notes with --corpus PATH, or fetch those a package ships: relnotes add Django.")
    cuda_toolkit = replace(samples["product_not_held"], products=("CUDA Toolkit",))
    assert notes.text(cuda_toolkit).endswith("to ask about CUDA Toolkit, give its release notes with --corpus PATH.")
    assert notes.text(samples["last_release"]) == "Last release with it: 2.14.0 (removed in 2.15.0)"
    assert notes.text(Note("last_release", releases=("2.14.0",))) == "Last release with it: 2.14.0"
    assert notes.joined(()) is None
    earliest, pending = samples["earliest_release"], Note("dense_pending")
    assert notes.joined((earliest, pending)) == (
        "Earliest release with strong evidence: 2.13. Answered by BM25 alone: dense retrieval is not built yet; "
        "run `relnotes index` to build it.")
    assert notes.joined((earliest,)) == "Earliest release with strong evidence: 2.13"  # alone, as before


def test_a_which_release_answer_says_its_earliest_release_once_in_every_medium(engine, bundled_index) -> None:
    answer = engine.ask(WHICH, top_k=5)
    assert answer.earliest_release == "2.13" and answer.notes == (Note("earliest_release", releases=("2.13",)),)
    record = answer_record(answer, "1")
    assert record["note"] == EARLIEST and record["notes"] == [{"kind": "earliest_release", "releases": ["2.13"]}]
    assert render(api.fit(record, api.DEFAULT_MAX_CHARS, "cards")).count(EARLIEST) == 1  # MCP text
    cli_text = CliRunner().invoke(cli, ["ask", WHICH, "--index", str(bundled_index), "--no-history"]).output
    assert cli_text.count(EARLIEST) == 1  # the terminal
    assert markdown_report([("1", answer)]).count(EARLIEST) == 1  # batch --format markdown


async def test_the_chat_card_says_the_earliest_release_once(engine) -> None:
    from qa.tui.app import make_app
    from textual.widgets import Static
    from tests.support.pilot import ask

    answer = engine.ask(WHICH, top_k=5)

    class Backend(FakeBackend):
        def ask(self, asked, *args, **kwargs):
            return answer

    backend = Backend()
    app = make_app(lambda notify: backend)
    async with app.run_test(size=(100, 40)) as pilot:
        await app.workers.wait_for_complete()
        card = await ask(app, pilot, WHICH)
        text = "\n".join(str(w.render()) for w in card.query(Static))
        assert text.count(EARLIEST) == 1
