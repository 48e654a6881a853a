"""What the web page asks of the API: follow-ups through a turn sent back, mode, the lines of a
citation in their section (``qa.serving.cited``) and the page's parts of a record (``qa.present.web``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from qa.conversation import Conversation
from qa.present import cite, digest_text, web
from qa.serving import api, cited
from qa.service import AnswerService
from qa.show import by_path

QUESTIONS = ("what changed for MPS in 2.14?", "and in 2.13?", "which release added deterministic FlexAttention backward?",
             "how do I enable it?")


@pytest.fixture(scope="module")
def service(bundled_index: Path) -> AnswerService:
    return AnswerService.open(index_dir=bundled_index, update=False, dense=False)


def test_a_turn_sent_back_reads_follow_ups_as_the_chat_does(service) -> None:
    talk = Conversation(service)
    in_chat = []
    for question in QUESTIONS:
        follow, answer = talk.ask(question, mode="bm25")
        in_chat.append((answer.asked_as, list(answer.releases), follow.chip))
    previous, over_api = None, []
    for question in QUESTIONS:
        record = api.ask(service, question, mode="bm25", previous=previous)
        over_api.append((record["asked_as"], record["releases"], record["kept"]))
        previous = record["turn"]
    assert over_api == in_chat
    assert over_api[1][:2] == ("what changed for MPS in 2.13", ["2.13"])
    assert previous == api.turn_record(talk.turn) and previous["question"] == "how do I enable it?"


def test_the_release_set_on_the_page_is_a_filter_a_question_of_its_own_overrides(service) -> None:
    first = api.ask(service, "how do I enable the nccl2 backend?", release="2.13", mode="bm25", previous=None)
    assert first["releases"] == ["2.13"] and {p["citation"]["version"] for p in first["passages"]} == {"2.13"}
    own = api.ask(service, "what about 2.14?", release="2.13", mode="bm25", previous=first["turn"])
    assert own["releases"] == ["2.14"]
    alone = api.ask(service, "nccl2 backend", release="2.13", mode="bm25")  # no conversation: no turn
    assert "turn" not in alone and "kept" not in alone and alone["releases"] == ["2.13"]


@pytest.mark.parametrize(("call", "needle"), [
    (lambda s: api.ask(s, "nccl2", previous="the last one"), "previous must be null or the \"turn\""),
    (lambda s: api.ask(s, "nccl2", previous={"question": "x", "colour": "red"}), "previous must be null"),
    (lambda s: api.ask(s, "nccl2", previous={"question": "x" * 2001}), "over 2,000 characters"),
    (lambda s: api.ask(s, "nccl2", mode="fuzzy"), "mode must be one of auto, hybrid, bm25, dense, got \"fuzzy\""),
    (lambda s: cited.show(s, ""), "c must be a citation"),
    (lambda s: cited.show(s, "/etc/passwd:1-2"), "/etc/passwd: no document of this index has this path"),
    (lambda s: cited.show(s, "pytorch-2.14-release-blog.json:99999"), "lines 99999-99999 are in no section"),
    (lambda s: cited.show(s, "0123456789abcdef"), "no chunk 0123456789abcdef in this index"),
], ids=["previous-text", "previous-field", "previous-long", "mode", "empty", "foreign-path", "past-end", "chunk"])
def test_bad_arguments_say_how_to_retry(service, call, needle) -> None:
    with pytest.raises(api.BadArgument, match=needle.replace("(", r"\(").replace(")", r"\)")):
        call(service)


def test_show_gives_the_cited_lines_as_relnotes_show_and_the_section_as_the_chat(service) -> None:
    answer = service.ask("how do I enable the nccl2 backend?", mode="bm25")
    top = answer.passages[0]
    location = cite.location(top.citation)
    assert location.endswith("pytorch-2.14-release-blog.json:304-318 (body_md)")
    record = cited.show(service, location)
    from corpus import load_documents

    shown, more = by_path(load_documents(None), location)  # what relnotes show prints
    assert record["shown"] == [{"header": s.header, "lines": [list(line) for line in s.lines]} for s in shown]
    assert more == record["more"] == 0 and record["shown"][0]["lines"][0][0] == 304
    view = service.section(top)  # what the chat's passage view shows
    (section,) = record["sections"]
    assert (section["before"], section["passage"], section["after"]) == (view.before, view.passage, view.after)
    by_id = cited.show(service, top.chunk_id)
    assert by_id["citation"] == location and by_id["shown"] == record["shown"]
    short = cited.show(service, "pytorch-2.14-release-blog.json:304-318")  # the path's end, no field: the same file
    assert short["sections"][0]["passage"] == section["passage"]


def test_show_marks_a_digest_item_within_its_section(service) -> None:
    answer = service.ask("what changed in 2.14?", mode="bm25")
    item = answer.digest.items[0]
    record = cited.show(service, cite.location(item.citation), item.chunk_id)
    (section,) = record["sections"]
    assert section["passage"] == item.text and section["citation"]["lines"] == list(item.citation.lines)


def test_the_page_parts_are_the_one_formatter_s(service) -> None:
    answer = service.ask("what changed in 2.14?", mode="bm25")
    record = web.page(api.ask(service, "what changed in 2.14?", mode="bm25", max_chars=api.MOST_MAX_CHARS))
    first = answer.passages[0].citation
    assert record["passages"][0]["cite"] == {
        "title": first.title, "product": first.product, "release": cite.release_kind(first),
        "heading": cite.heading(first), "location": cite.location(first), "url": first.url}
    view = record["digest"]["view"]
    assert view["title"] == digest_text.title(answer.digest)
    release = answer.digest.releases[0]
    assert view["releases"][0]["title"] == digest_text.release_title(release)
    assert [g["title"] for g in view["releases"][0]["groups"]] == [g.title for g in digest_text.groups(release)]
    lines, more = digest_text.item_lines(release.items[0])
    assert view["releases"][0]["groups"][0]["items"][0]["lines"] == lines
