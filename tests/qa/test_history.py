"""The question history file: where it lives, what it keeps, and how it survives damage."""

from __future__ import annotations

import json
import os
import stat
from datetime import datetime
from pathlib import Path

import pytest

import qa.history as history_module
from qa.question import Turn
from qa.history import Entry, History, default_path
from qa.model import ReleaseRange


def entry(n: int, releases: tuple[str, ...] = ()) -> Entry:
    return Entry(f"question {n}", f"asked as {n}", releases, f"2026-01-01T00:00:{n % 60:02d}+00:00")


def test_default_path_is_in_the_user_data_folder(monkeypatch, tmp_path: Path) -> None:
    data = Path(os.environ["XDG_DATA_HOME"])  # tests/conftest.py points it at a temporary folder
    assert default_path() == data / "relnotes-qa" / "history.jsonl"
    monkeypatch.setenv("RELNOTES_HISTORY", str(tmp_path / "mine.jsonl"))
    assert default_path() == tmp_path / "mine.jsonl"
    assert History().path == tmp_path / "mine.jsonl"
    monkeypatch.setenv("RELNOTES_HISTORY", "  ")
    assert default_path() == data / "relnotes-qa" / "history.jsonl"


def test_append_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "history.jsonl"
    history = History(path)
    assert history.entries() == [] and history.last() is None and history.questions() == []
    history.append(entry(1, ("2.13",)))
    history.append(entry(2))
    assert history.last() == entry(2)
    again = History(path)
    assert again.entries() == [entry(1, ("2.13",)), entry(2)]
    assert again.questions() == ["question 1", "question 2"]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"question": "question 1", "asked_as": "asked as 1", "releases": ["2.13"],
                                    "time": "2026-01-01T00:00:01+00:00"}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # questions can be private
    assert history.warnings == []


def test_entries_from_turns_and_back() -> None:
    e = Entry.from_turn(Turn("and in 2.13?", "MPS in 2.13", ("2.13",)))
    assert (e.question, e.asked_as, e.releases) == ("and in 2.13?", "MPS in 2.13", ("2.13",))
    assert datetime.fromisoformat(e.time).tzinfo is not None
    assert e.turn() == Turn("and in 2.13?", "MPS in 2.13", ("2.13",))
    assert Entry.from_turn(Turn("q", "", (), ("pydantic",))).asked_as == "q"
    assert Entry.from_turn(Turn("q", "", (), ("pydantic",))).products == ("pydantic",)


def test_record_keeps_a_turn_and_returns_only_new_warnings(tmp_path: Path) -> None:
    """What ``relnotes ask`` and the chat both call: the turn as an entry, and what went wrong this time."""
    turn = Turn("and in 2.13?", "MPS in 2.13", ("2.13",), ("PyTorch",))
    history = History(tmp_path / "history.jsonl")
    assert history.record(turn) == []
    assert History(tmp_path / "history.jsonl").last().turn() == turn
    (tmp_path / "afile").write_text("")
    said: list[str] = []
    broken = History(tmp_path / "afile" / "history.jsonl", warn=said.append)
    first = broken.record(turn)
    assert len(first) == 1 and "Cannot write the question history" in first[0] and said == first
    assert broken.record(turn) == [] and said == first  # said once a session, not once a question
    assert broken.last().turn() == turn  # kept in memory all the same


CORRUPT = [
    b"{not json\n",
    b'{"question": "torn at the end", "asked_as": "x", "rel',  # a crash mid-write: no newline
    b"\xff\xfe not utf-8\n",
    b"[1, 2, 3]\n",
    b'{"asked_as": "no question"}\n',
    b'{"question": "   "}\n',
    b'{"question": 42}\n',
    b"\n   \n",
    b"[" * 100_000 + b"\n",
]


def test_a_range_survives_the_file(tmp_path: Path) -> None:
    """``ask --follow-up`` after a range question reads on over the range, as the chat does."""
    span = ReleaseRange("2.9", "2.13")
    h = History(tmp_path / "history.jsonl")
    h.append(Entry.from_turn(Turn("what changed from 2.9 to 2.13?", "what changed from 2.9 to 2.13?", (), (), span)))
    line = json.loads((tmp_path / "history.jsonl").read_text())
    assert line["range"] == {"since": "2.9", "until": "2.13", "until_inclusive": True, "since_inclusive": False}
    assert History(tmp_path / "history.jsonl").last().turn().span == span
    for odd in ({"since": None, "until": None}, {"since": "soon"}, "2.9..2.13", {"until": 2.13}):
        assert Entry.from_json({"question": "q", "range": odd}).span is None  # an edited line: no range, no error


@pytest.mark.parametrize("junk", CORRUPT, ids=["json", "torn", "utf8", "list", "no-question", "blank-question",
                                              "number", "blank-lines", "deep-nesting"])
def test_a_corrupt_line_is_skipped(tmp_path: Path, junk: bytes) -> None:
    path = tmp_path / "history.jsonl"
    good = (json.dumps(entry(1).to_json()) + "\n").encode()
    path.write_bytes(good + junk)
    history = History(path)
    assert history.entries() == [entry(1)] and history.warnings == []
    history.append(entry(2))  # after a torn line, the new one still gets a line of its own
    assert History(path).entries() == [entry(1), entry(2)]


def test_odd_fields_are_defaulted_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    path.write_text('{"question": "q", "asked_as": 3, "releases": "2.13", "time": null, "extra": 1}\n'
                    '{"question": "r", "releases": ["2.13", 4]}\n')
    assert History(path).entries() == [Entry("q", "q", (), ""), Entry("r", "r", (), "")]


def test_only_the_last_questions_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    path.write_text("".join(json.dumps(entry(n).to_json()) + "\n" for n in range(1500)))
    history = History(path)
    assert len(history.entries()) == 1000 and history.entries()[0] == entry(500)
    history.append(entry(1500))
    assert len(history.entries()) == 1000 and history.last() == entry(1500)
    assert len(path.read_text().splitlines()) == 1501  # not compacted yet: under 2,000 lines


def test_the_file_is_compacted_past_the_limit(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(history_module, "MAX_ENTRIES", 3)
    monkeypatch.setattr(history_module, "COMPACT_AT", 6)
    path = tmp_path / "history.jsonl"
    history = History(path)
    for n in range(6):
        history.append(entry(n))
    assert len(path.read_text().splitlines()) == 6
    history.append(entry(6))
    assert [json.loads(line)["question"] for line in path.read_text().splitlines()] == [
        "question 4", "question 5", "question 6"]
    assert history.entries() == [entry(4), entry(5), entry(6)]
    assert not list(tmp_path.glob(".*.tmp"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_compaction_keeps_what_another_chat_appended(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(history_module, "MAX_ENTRIES", 4)
    monkeypatch.setattr(history_module, "COMPACT_AT", 4)
    path = tmp_path / "history.jsonl"
    one, two = History(path), History(path)
    for n in range(4):
        (one if n % 2 else two).append(entry(n))
    one.append(entry(4))  # one's count passes the limit: the rewrite re-reads the file
    assert [e.question for e in History(path).entries()] == [f"question {n}" for n in range(1, 5)]


def test_an_oversized_file_is_read_from_its_end(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(history_module, "MAX_READ", 2000)
    path = tmp_path / "history.jsonl"
    path.write_text("".join(json.dumps(entry(n).to_json()) + "\n" for n in range(200)))
    history = History(path)
    entries = history.entries()
    assert entries[-1] == entry(199) and 0 < len(entries) < 200
    history.append(entry(200))  # and it is compacted at the next question
    assert path.stat().st_size <= 2000
    assert History(path).last() == entry(200)


def test_an_unreadable_history_is_one_warning(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    path.mkdir()  # a folder where the file should be: unreadable and unwritable, even as root
    seen: list[str] = []
    history = History(path, warn=seen.append)
    assert history.questions() == [] and history.last() is None
    history.append(entry(1))
    history.append(entry(2))
    assert history.last() == entry(2)  # kept in memory for this session
    assert len(seen) == 1 and seen == history.warnings[:1]  # one line reported, however many questions
    assert seen[0].startswith(f"Cannot read the question history {path}")
    assert len(history.warnings) == 2 and history.warnings[1].startswith(f"Cannot write the question history {path}")
    assert "RELNOTES_HISTORY" in history.warnings[1]
    assert all("\n" not in w for w in history.warnings)


def test_an_unwritable_history_is_one_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    history = History(blocker / "history.jsonl")
    history.append(entry(1))
    history.append(entry(2))
    assert history.warnings == [f"Cannot write the question history {blocker / 'history.jsonl'} ({blocker}: File exists); "
                                "questions are not recorded (set RELNOTES_HISTORY to another file)"]
    assert history.entries() == [entry(1), entry(2)]


def test_entry_validation() -> None:
    with pytest.raises(ValueError):
        Entry("  ", "x")
    with pytest.raises(ValueError):
        Entry("q", "q", ["2.13"])  # type: ignore[arg-type]
