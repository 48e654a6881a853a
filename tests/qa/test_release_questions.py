"""Release questions over small real changelog files: one release, a range, an upgrade, a topic in
a range, a feature's history, which release, refusals, and the digest in every front end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from corpus import CorpusInput
from corpus.pipeline import load_chunks
from qa.answer.digest import RELEASE_ITEMS
from qa.answer.engine import Engine
from qa.cli import cli
from qa.present.formats import answer_record, markdown_report
from qa.model import ReleaseRange
from tests.support.fakes import fake_engine
from tests.support.hardening import fake_model  # noqa: F401 (a fixture)
from tests.support.paths import REPO
from qa.present.notes import joined

DATA = REPO / "tests" / "data" / "releases"
WIDGET = DATA / "widgetlib" / "CHANGELOG.md"
GADGET = DATA / "gadget" / "CHANGES.rst"
INPUTS = [CorpusInput(WIDGET, "widgetlib"), CorpusInput(GADGET, "gadget")]
CORPUS_ARGS = ["--corpus", f"widgetlib={WIDGET}", "--corpus", f"gadget={GADGET}"]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    chunks = load_chunks(INPUTS)
    return fake_engine(chunks, tmp_path_factory.mktemp("releases") / "idx")


def source_line(citation) -> str:
    return Path(citation.source).read_text(encoding="utf-8").split("\n")[citation.lines[0] - 1]


@pytest.mark.parametrize("mode", ["bm25", "hybrid"])
def test_one_release_is_a_digest_grouped_by_kind_every_item_cited(engine: Engine, mode: str) -> None:
    answer = engine.ask("what changed in widgetlib 2.0.0?", mode=mode)
    assert answer.shape == "release" and answer.confident and answer.digest is not None
    (release,) = answer.digest.releases
    assert (release.product, release.version, release.omitted) == ("widgetlib", "2.0.0", ())
    kinds = [i.kind for i in release.items]
    assert kinds == ["removed", "removed", "removed", "deprecated", "added", "changed"]  # breaking first
    assert release.items[2].text.startswith("- Breaking change: the config parser")  # a Changed item that breaks
    for item in release.items:
        assert item.citation.version == "2.0.0" and item.citation.product == "widgetlib"
        assert item.text.split("\n")[0] in source_line(item.citation)  # its own line, not its section's
    assert answer.sentences == ()  # the digest is the answer


def test_a_long_release_is_summarised_with_a_count_of_the_rest(engine: Engine) -> None:
    answer = engine.ask("widgetlib 2.1.0 release notes", mode="bm25")
    (release,) = answer.digest.releases
    assert len(release.items) == RELEASE_ITEMS and release.total == 41
    assert dict(release.omitted) == {"added": 41 - RELEASE_ITEMS}
    assert release.items[-1].kind == "fixed"  # every kind keeps some items


def test_a_series_and_a_release_without_a_product_name(engine: Engine) -> None:
    answer = engine.ask("what's new in 1.5?", mode="bm25")
    assert answer.shape == "release" and [r.version for r in answer.digest.releases] == ["1.5.0"]


@pytest.mark.parametrize("question", [
    "what breaks if I upgrade widgetlib from 1.0 to 2.0?",
    "upgrading widgetlib from 1.0.0 to 2.0.0, is it safe?",
    "widgetlib 1.0 -> 2.0 breaking changes",
    "what breaks in widgetlib release:1.0..2.0",
])
def test_an_upgrade_leads_with_breaking_items_of_each_release_in_range(engine: Engine, question: str) -> None:
    answer = engine.ask(question, mode="bm25", top_k=10)
    assert answer.shape == "upgrade" and answer.range == ReleaseRange("1.0" + (".0" if "1.0.0" in question else ""),
                                                                       "2.0" + (".0" if "2.0.0" in question else ""))
    versions = [r.version for r in answer.digest.releases]
    assert versions == ["1.2.0", "2.0.0"]  # oldest first; 1.5.0 has nothing breaking
    assert [i.kind for i in answer.digest.releases[0].items] == ["deprecated"]
    assert [i.kind for i in answer.digest.releases[1].items][:4] == ["removed", "removed", "removed", "deprecated"]
    assert all(p.citation.version in ("1.2.0", "1.5.0", "2.0.0") for p in answer.passages)  # in range only
    assert "2 of the 3 releases" in joined(answer.notes)


def test_since_and_until_given_apart_from_the_question(engine: Engine) -> None:
    answer = engine.ask("what do I need to change", mode="bm25", span=ReleaseRange("1.5", None), products=["widgetlib"])
    assert [r.version for r in answer.digest.releases] == ["2.0.0"]
    assert {p.citation.version for p in answer.passages} <= {"2.0.0", "2.1.0"}
    both = engine.ask("what do I need to change", mode="bm25", span=ReleaseRange("1.5", None))  # no product named
    assert [(r.product, r.version) for r in both.digest.releases] == [("widgetlib", "2.0.0"), ("gadget", "3.0.0"),
                                                                      ("gadget", "3.1.0")]
    before = engine.ask("what changed before 1.5", mode="bm25")
    assert before.shape == "range" and [r.version for r in before.digest.releases] == ["1.0.0", "1.2.0"]


def test_a_topic_inside_a_range_ranks_the_ranges_items_by_it(engine: Engine) -> None:
    answer = engine.ask("what changed in the config parser between 1.0 and 2.1", mode="bm25")
    assert answer.shape == "range" and answer.digest.topic == "config parser"
    items = answer.digest.items
    assert items and all("config parser" in i.text for i in items)
    assert [r.version for r in answer.digest.releases] == ["1.5.0", "2.0.0", "2.1.0"]


def test_a_features_history_oldest_first(engine: Engine) -> None:
    answer = engine.ask("history of the config parser in widgetlib", mode="bm25", top_k=10)
    assert answer.shape == "history"
    versions = [r.version for r in answer.digest.releases]
    assert versions == sorted(versions, key=lambda v: tuple(map(int, v.split(".")))) and "1.5.0" in versions
    assert all(len(r.items) == 1 for r in answer.digest.releases)


@pytest.mark.parametrize("question", ["when did widgetlib add the retry option?",
                                      "which widgetlib release added a retry option to the fetcher?",
                                      "first release with the retry option"])
def test_which_release_is_judged_on_items_not_on_the_first_passage(engine: Engine, question: str) -> None:
    answer = engine.ask(question, mode="bm25")
    assert answer.shape == "which" and answer.earliest_release == "1.2.0"  # 2.0.0 mentions it again
    assert answer.passages[0].citation.version == "1.2.0"


def test_which_release_dropped_something_prefers_the_removal(engine: Engine) -> None:
    answer = engine.ask("which gadget release dropped Python 3.8?", mode="bm25")
    assert answer.earliest_release == "3.1.0" and answer.products == ("gadget",)


@pytest.mark.parametrize(("question", "note"), [
    ("what is new in Django 5?", "The corpus holds no Django; it has: gadget, widgetlib."),
    ("what changed in widgetlib 9.9?", "The corpus holds no release 9.9 of widgetlib"),
    ("what breaks between widgetlib 5.0 and 6.0?", "The corpus holds no release of widgetlib after 5.0 up to 6.0"),
])
def test_what_the_corpus_does_not_hold_is_said(engine: Engine, question: str, note: str) -> None:
    answer = engine.ask(question, mode="bm25")
    assert joined(answer.notes).startswith(note) and answer.passages == () and answer.digest is None
    assert 1 <= len(answer.nearby) <= 3 and answer.sentences == ()  # the nearest, shown as not an answer
    record = answer_record(answer, "q")
    assert record["answer"] is None and record["passages"] == [] and len(record["not_an_answer"]) == len(answer.nearby)


def test_a_range_of_one_product_never_shows_another(engine: Engine) -> None:
    answer = engine.ask("what breaks upgrading gadget from 2.0 to 3.1?", mode="bm25", top_k=10)
    assert answer.products == ("gadget",)
    assert {i.citation.product for i in answer.digest.items} == {"gadget"}
    assert [r.version for r in answer.digest.releases] == ["3.0.0", "3.1.0"]
    flat = [i.text for i in answer.digest.releases[1].items]
    assert flat[0].startswith("-   Drop support for Python 3.8") and "``gizmo`` helper is deprecated" in flat[1]


def test_the_quoted_answer_does_not_depend_on_top_k_and_says_how(engine: Engine) -> None:
    answers = [engine.ask("how do I enable retries in the fetcher?", top_k=k, mode="bm25") for k in (1, 2, 3, 5, 8)]
    assert len({tuple(s.text for s in a.sentences) for a in answers}) == 1
    # the item is quoted whole: what it added, then how to enable it
    assert any(s.text == "Added a `retry` option to the fetcher. Enable it by setting `retry=3` on the client."
               for s in answers[0].sentences)
    for a in answers:
        assert all(s.passage <= len(a.passages) for s in a.sentences)  # a quoted passage is shown


def test_the_digest_in_json_and_markdown(engine: Engine) -> None:
    answer = engine.ask("what changed in gadget 3.1.0?", mode="bm25")
    record = answer_record(answer, "q1")
    assert record["shape"] == "release" and record["digest"]["releases"][0]["version"] == "3.1.0"
    item = record["digest"]["releases"][0]["items"][0]
    assert item["kind"] == "removed" and item["citation"]["lines"] == [6, 6] and item["chunk_id"]
    json.dumps(record)
    report = markdown_report([("q1", answer)])
    assert "#### gadget 3.1.0: 3 items" in report and "CHANGES.rst:6-6" in report and "\n**\n" not in report


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)


def test_relnotes_changes_prints_the_upgrade_digest(tmp_path: Path, fake_model) -> None:
    index = ["--index", str(tmp_path / "idx")]
    text = run("changes", "widgetlib", "1.0", "2.0", *CORPUS_ARGS, *index, "--mode", "bm25")
    assert text.exit_code == 0, text.output
    assert "Upgrade digest: after 1.0 up to 2.0" in text.output and "widgetlib 2.0.0" in text.output
    assert "Removed the `legacy_mode` option" in text.output and "CHANGELOG.md:" in text.output
    as_json = json.loads(run("changes", "widgetlib", "1.0", "2.0", *CORPUS_ARGS, *index, "--mode", "bm25",
                             "--json").stdout)
    assert [r["version"] for r in as_json["digest"]["releases"]] == ["1.2.0", "2.0.0"]
    added = json.loads(run("changes", "widgetlib", "1.0", "2.0", "--kind", "added", *CORPUS_ARGS, *index,
                           "--mode", "bm25", "--json").stdout)
    assert {i["kind"] for r in added["digest"]["releases"] for i in r["items"]} == {"added"}
    md = run("changes", "gadget", "2.0", "3.1", *CORPUS_ARGS, *index, "--mode", "bm25", "--format", "markdown")
    assert md.stdout.startswith("# relnotes answers") and "#### gadget 3.0.0" in md.stdout
    topic = run("changes", "widgetlib", "1.0", "2.1", "--topic", "config parser", *CORPUS_ARGS, *index, "--mode", "bm25")
    assert "'config parser'" in topic.output and "TOML" in topic.output


@pytest.mark.parametrize(("args", "code", "needle"), [
    (["changes", "1.0"], 2, "expected [PRODUCT] FROM TO"),
    (["changes", "nope", "1.0", "2.0"], 1, "The corpus holds no product 'nope'; it has: gadget, widgetlib"),
    (["changes", "widgetlib", "one", "2.0"], 2, "'one' is not a release"),
    (["changes", "widgetlib", "2.0", "1.0"], 2, "TO 1.0 is not after FROM 2.0"),
])
def test_relnotes_changes_bad_arguments(tmp_path: Path, fake_model, args, code, needle) -> None:
    result = CliRunner().invoke(cli, [*args, *CORPUS_ARGS, "--index", str(tmp_path / "idx"), "--mode", "bm25"])
    assert result.exit_code == code and needle in result.output and "Traceback" not in result.output


def test_ask_since_until_on_the_cli(tmp_path: Path, fake_model) -> None:
    result = run("ask", "what do I need to change", "--since", "1.5", "--until", "2.0", *CORPUS_ARGS,
                 "--index", str(tmp_path / "idx"), "--mode", "bm25", "--json")
    record = json.loads(result.stdout)
    assert record["range"] == {"since": "1.5", "until": "2.0", "until_inclusive": True, "since_inclusive": False}
    assert [r["version"] for r in record["digest"]["releases"]] == ["2.0.0"]
    bad = CliRunner().invoke(cli, ["ask", "x", "--since", "soon", *CORPUS_ARGS, "--index", str(tmp_path / "idx")])
    assert bad.exit_code == 2 and "'soon' is not a release" in bad.output


def test_a_range_in_a_conversation_is_no_release_filter(engine: Engine) -> None:
    from qa.conversation import Conversation

    talk = Conversation(engine)
    talk.ask("what changed in widgetlib 1.2.0?", mode="bm25")
    follow, answer = talk.ask("what breaks if I upgrade widgetlib from 1.0 to 2.0?", mode="bm25")
    assert follow.releases == () and not follow.inherited  # the bounds are no release filter (the chat's chip)
    assert answer.range == ReleaseRange("1.0", "2.0") and answer.releases == ()
    assert [r.version for r in answer.digest.releases] == ["1.2.0", "2.0.0"]


def test_a_follow_up_is_asked_over_the_previous_questions_range(engine: Engine) -> None:
    from qa.conversation import Conversation

    talk = Conversation(engine)
    talk.ask("what changed in widgetlib from 1.0 to 2.0?", mode="bm25")
    follow, answer = talk.ask("and for the config parser?", mode="bm25")  # 2.1.0 and 1.0.0 name it too
    assert follow.span == ReleaseRange("1.0", "2.0") and follow.chip.startswith("releases after 1.0 up to 2.0, kept")
    assert answer.range == ReleaseRange("1.0", "2.0")
    assert answer.passages and all(p.citation.version in ("1.2.0", "1.5.0", "2.0.0") for p in answer.passages)
    follow, answer = talk.ask("how do I get the dark theme in widgetlib?", mode="bm25")  # a topic of its own
    assert follow.span is None and answer.range is None


def test_a_release_named_outside_the_range_is_said(engine: Engine) -> None:
    answer = engine.ask("what breaks", mode="bm25", releases=["2.1"], span=ReleaseRange("1.0", "2.0"),
                        products=["widgetlib"])
    assert joined(answer.notes) == ("No release 2.1 is after 1.0 up to 2.0; ask about the range or about the release, "
                           "not both.") and answer.passages == () and answer.digest is None


def test_a_topic_no_item_is_about_says_so_above_the_ranges_digest(engine: Engine) -> None:
    answer = engine.ask("what changed in the kitty keyboard protocol between widgetlib 1.0 and 2.0?", mode="bm25")
    assert joined(answer.digest.notes).startswith("No item after 1.0 up to 2.0 is about 'kitty keyboard protocol'")
    assert [r.version for r in answer.digest.releases] == ["1.2.0", "1.5.0", "2.0.0"]


def test_a_long_range_shows_few_items_a_release_and_no_empty_one(engine: Engine) -> None:
    answer = engine.ask("what changed in widgetlib since 1.0", mode="bm25")
    assert all(r.items for r in answer.digest.releases)


def test_after_a_range_question_no_release_filter_is_left_and_the_product_stays(engine: Engine) -> None:
    from qa.conversation import Conversation

    talk = Conversation(engine)
    talk.ask("what changed in widgetlib 2.1.0?", mode="bm25")
    assert talk.releases == ("2.1.0",)
    follow, answer = talk.ask("what breaks if I upgrade from 1.0 to 2.0?", mode="bm25")
    assert talk.releases == () and answer.range is not None
    again, _ = talk.ask("what breaks in gadget from 2.0 to 3.1?", mode="bm25")
    assert again.products == ()  # this one names its product


def test_the_digest_on_one_csv_cell_and_changes_needs_a_product(tmp_path: Path, fake_model) -> None:
    index = ["--index", str(tmp_path / "idx")]
    out = run("batch", "-", "--format", "csv", *CORPUS_ARGS, *index, "--mode", "bm25",
              stdin="what changed in gadget 3.1.0?\n").stdout
    assert "gadget 3.1.0: - Drop support for Python 3.8." in out
    both = CliRunner().invoke(cli, ["changes", "1.0", "2.0", *CORPUS_ARGS, *index, "--mode", "bm25"])
    assert both.exit_code == 1 and "holds several products (gadget, widgetlib); name one" in both.output
    refused = [CliRunner().invoke(cli, ["changes", "gadget", "5.0", "6.0", *CORPUS_ARGS, *index, "--mode", "bm25", *f])
               for f in ([], ["--json"], ["--format", "markdown"])]
    assert [r.exit_code for r in refused] == [0, 0, 0]
    assert all("The corpus holds no release of gadget after 5" in r.output for r in refused)
