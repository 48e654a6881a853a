"""Release questions over real changelogs (../shared/data): the issue's examples, answered as a user
expects. bm25 over a fake-encoded index, so the build is quick; skipped without ../shared."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus.pipeline import load_chunks
from qa.answer.engine import Engine
from qa.answer.section import section_view
from tests.support.fakes import fake_engine
from tests.support.paths import CHANGELOGS, ZOO
from qa.present.notes import joined

pytestmark = pytest.mark.skipif(not (ZOO.is_dir() and CHANGELOGS.is_dir()), reason="needs ../shared/data")


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    chunks = load_chunks([ZOO / "textual", ZOO / "flask", ZOO / "httpx", CHANGELOGS / "pydantic-HISTORY.md"])
    return fake_engine(chunks, tmp_path_factory.mktemp("shared-releases") / "idx")


def test_what_changed_in_textual_8_2_7_is_its_digest(engine: Engine) -> None:
    answer = engine.ask("what changed in textual 8.2.7?", mode="bm25")
    assert answer.shape == "release" and answer.confident
    (release,) = answer.digest.releases
    assert (release.product, release.version, release.total) == ("textual", "8.2.7", 8)
    assert [i.kind for i in release.items] == ["added"] * 3 + ["changed"] * 4 + ["fixed"]
    assert release.items[0].citation.lines == (24, 24)


def test_upgrading_pydantic_from_1_10_to_2_0_stays_in_range(engine: Engine) -> None:
    answer = engine.ask("what breaks if I upgrade pydantic from 1.10 to 2.0?", mode="bm25", top_k=20)
    assert answer.shape == "upgrade" and answer.products == ("pydantic",)
    inside = {"2.0a1", "2.0a2", "2.0a3", "2.0a4", "2.0b1", "2.0b2", "2.0b3", "2.0", "2.0.1", "2.0.2", "2.0.3"}
    assert {p.citation.version for p in answer.passages} <= inside  # never 1.10.x nor 2.1
    assert {i.citation.version for i in answer.digest.items} <= inside


def test_an_httpx_upgrade_leads_with_what_was_removed(engine: Engine) -> None:
    answer = engine.ask("is it safe to upgrade httpx from 0.26 to 0.28?", mode="bm25")
    versions = [r.version for r in answer.digest.releases]
    assert versions == ["0.27.0", "0.28.0"]
    first = answer.digest.releases[1].items[0]
    assert first.kind == "removed" and "`proxies` argument has now been removed" in first.text


def test_when_did_textual_add_the_kitty_key_protocol(engine: Engine) -> None:
    for question in ("when did textual add the Kitty key protocol?",
                     "which textual release added support for Kitty's key protocol?"):
        assert engine.ask(question, mode="bm25").earliest_release == "0.67.0", question


def test_which_flask_release_is_a_which_release_question(engine: Engine) -> None:
    answer = engine.ask("which flask release dropped Python 2.6?", mode="bm25")
    assert answer.shape == "which" and answer.earliest_release == "1.0"


def test_a_foreign_product_is_said(engine: Engine) -> None:
    answer = engine.ask("what is new in Django 5?", mode="bm25")
    assert joined(answer.notes).startswith("The corpus holds no Django; it has:") and not answer.passages


def test_a_digest_item_opens_within_its_chunk(engine: Engine) -> None:
    answer = engine.ask("what changed in flask 3.1.0?", mode="bm25")
    item = answer.digest.items[1]
    view = section_view(engine.index.chunks, item.as_passage())
    assert view.passage == item.text and view.before and view.after  # the rest of the section around it
    assert Path(item.citation.source).name == "CHANGES.rst"
