"""Slips in the words that frame a release question are mended before it is read (qa.question.typos);
the words of its topic are left as typed."""

from __future__ import annotations

from qa.question import read
from qa.question.typos import mended


class _Catalogue:
    releases = ("1.11.0", "1.12.0", "1.13.0")
    products = ("twine",)
    other_names: dict = {}

    def mentions(self, word: str) -> bool:
        return False


def test_framing_words_are_mended() -> None:
    assert mended("whcih twine version introduced twine check?") == "which twine version introduced twine check?"
    assert mended("Wich verison relased it?") == "Which version released it?"
    assert mended("is upload depreciated?") == "is upload deprecated?"
    assert mended("WHCIH VERISON?") == "WHICH VERSION?"


def test_other_words_stay_as_typed() -> None:
    for text in ("which changes dropped cropped images?", "does the envrionment variable work?",
                 "what versions and releases were released?", "a whish and a relapse", "it deprecates and introduces",
                 "an aversion to Releasers", "does --relase-tag work?", "is my.verison read?"):
        assert mended(text) == text


def test_a_mended_question_is_read_as_a_which_release_question() -> None:
    question = read("whcih twine version introduced the twine check command?", _Catalogue())
    assert question.shape.name == "which" and question.typed.startswith("whcih")
    assert question.asked_as.startswith("which twine version")


def test_a_topic_word_is_mended_to_one_the_notes_use() -> None:
    notes = {"python", "timezone", "dependency", "numly", "sniffio", "sharing", "studio", "decref"}
    uses = notes.__contains__
    assert mended("which alembic release stopped working on pyhton 2.7?", uses) == \
        "which alembic release stopped working on python 2.7?"
    assert mended("does it still need dateutil for the timzone stuff?", uses) == \
        "does it still need dateutil for the timezone stuff?"
    assert mended("does anyio still pull in sniffio as a dependecy?", uses) == \
        "does anyio still pull in sniffio as a dependency?"
    # a product's name, an English word and a word the notes use stay as typed
    for text in ("does numpy 2.0 support it?", "is the envrionment read?", "does sniffio work?",
                 "is sharding still slow?", "does stdio work?", "is deref safe?", "the `pyhton` value", "Pyhton"):
        assert mended(text, uses) == text
    assert mended("which alembic release stopped working on pyhton 2.7?") == \
        "which alembic release stopped working on pyhton 2.7?"  # no notes given: the topic as typed
