"""Quotes as the notes' structure offers them (issue 44): the whole statement of the item quoted,
its own lines cited, and questions worded as people ask them over notes no rule was written from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpus import CorpusInput
from corpus.pipeline import load_chunks
from qa.answer.engine import Engine
from qa.present.formats import answer_record, markdown_report
from qa.question.releases import find_releases
from tests.support.fakes import fake_engine
from tests.support.paths import REPO

DATA = REPO / "tests" / "data" / "quoting"
KEYRING = DATA / "keyring" / "CHANGES.rst"
FETCHY = DATA / "fetchy" / "CHANGELOG.md"


@pytest.fixture(autouse=True)
def _any_score_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake encoder's cosines are noise: what these tests check is what is quoted, not whether a
    hybrid score clears ``CONFIDENT`` (measured with the real model: benchmarks/confidence.py)."""
    import qa.answer.engine as engine

    monkeypatch.setitem(engine.CONFIDENT, "hybrid", 0.0)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    chunks = load_chunks([CorpusInput(KEYRING, "keyring"), CorpusInput(FETCHY, "fetchy")])
    return fake_engine(chunks, tmp_path_factory.mktemp("quoting") / "idx")


def lines_of(path: Path, lines: tuple[int, int]) -> str:
    return "\n".join(path.read_text(encoding="utf-8").split("\n")[lines[0] - 1: lines[1]])


@pytest.mark.parametrize("mode", ["bm25", "hybrid"])
def test_an_item_is_quoted_whole_not_cut_at_its_first_sentence(engine: Engine, mode: str) -> None:
    answer = engine.ask("how do I rotate secret keys with keyring?", mode=mode)
    quoted = " ".join(" ".join(s.text.split()) for s in answer.sentences)
    assert "Added support for key rotation." in quoted
    assert "A list of keys can be passed as ``secret_key``, oldest to newest." in quoted  # the item goes on
    for s in answer.sentences:  # still verbatim slices of their passages
        assert s.text in answer.passages[s.passage - 1].text


@pytest.mark.parametrize("mode", ["bm25", "hybrid"])
def test_a_quote_cites_its_own_items_lines_not_its_sections(engine: Engine, mode: str) -> None:
    answer = engine.ask("how do I rotate secret keys with keyring?", mode=mode)
    first = next(s for s in answer.sentences if "key rotation" in s.text)
    cited, passage = first.citation, answer.passages[first.passage - 1].citation
    assert cited is not None and cited.source == passage.source and cited.version == "2.0.0"
    assert cited.lines == (17, 19)  # the item, from its bullet to its last line
    assert passage.lines[0] < cited.lines[0]  # the passage starts at its release's first item
    assert "Added support for key rotation" in lines_of(KEYRING, cited.lines)


def test_the_quotes_citation_in_json_and_markdown(engine: Engine) -> None:
    answer = engine.ask("how do I rotate secret keys with keyring?", mode="bm25")
    record = json.loads(json.dumps(answer_record(answer, "q1")))
    first = record["answer"]["sentences"][0]
    assert first["citation"]["lines"] == [17, 19] and first["citation"]["source"].endswith("CHANGES.rst")
    assert "Quoted from: [1] " in markdown_report([("q1", answer)]) and "CHANGES.rst:17-19" in markdown_report([("q1", answer)])


def test_a_which_release_quote_cites_the_item_it_states(engine: Engine) -> None:
    answer = engine.ask("which fetchy release added support for urllib3 2.0?", mode="bm25")
    assert answer.earliest_release == "3.0.0"  # not 2.20.0's "now supports urllib3 v1.24": 2.0 is named
    (quote,) = answer.sentences
    assert quote.citation.lines == (7, 9) and "urllib3 2.0" in lines_of(FETCHY, quote.citation.lines)


@pytest.mark.parametrize("mode", ["bm25", "hybrid"])
def test_stopped_supporting_asks_for_the_removal(engine: Engine, mode: str) -> None:
    answer = engine.ask("which fetchy version stopped supporting python 3.9?", mode=mode)
    assert answer.earliest_release == "2.10.0"
    assert "no longer supports running with Python 3.9" in answer.sentences[0].text


def test_a_fields_version_names_no_release(engine: Engine) -> None:
    assert find_releases("which keyring version accepts Header-Version 3.1?", ("2.1.0",), ("keyring",)).releases == ()
    assert find_releases("what changed in version 2.1?", ("2.1.0",), ("keyring",)).releases == ("2.1",)
    answer = engine.ask("which keyring version accepts Header-Version 3.1?", mode="bm25")
    assert answer.earliest_release == "2.1.0" and not any(n.kind == "release_not_held" for n in answer.notes)


def test_the_product_asked_about_need_not_be_named_by_the_sentence(engine: Engine) -> None:
    answer = engine.ask("why was keyring 1.0.0 yanked?", mode="bm25")
    assert answer.confident, answer.notes
    assert "yanked because it changed the default" in " ".join(s.text for s in answer.sentences)


def test_the_terminal_says_where_each_quote_is(engine: Engine) -> None:
    from rich.console import Console

    from qa.present.terminal import render_answer

    out = Console(record=True, width=400, color_system=None)
    render_answer(engine.ask("how do I rotate secret keys with keyring?", mode="bm25"), out)
    text = out.export_text()
    assert "Quoted from: [1] " in text and "CHANGES.rst:17-19" in text.split("Quoted from:", 1)[1].split("\n")[0]
