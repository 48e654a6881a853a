"""How things stand now: for a question such as "does anyio still pull in sniffio?", the item of the latest
release among those answering it best, or a later one saying it ended (removed, replaced, made optional)."""

from __future__ import annotations

import re
from typing import Sequence

from corpus.items import item_words
from corpus.regex import lazy_compile

from .digest import Entry
from .holding import holding
from .itemscore import release_order
from .saying import SENTENCE_END, topic_words, worded
from ..question import Question
from ..question.changes import CHANGES_STATED
from ..question.names import english
from ..question.vocabulary import content_words

# the latest item within this share of the best answers, when its own score (lexical alone, or with its
# cosine) is at least ITEM_ANSWERS (below it, on the sets at hand, few items answered)
LATEST = 0.92
NAMED_LATEST = 0.5  # ... of the items naming a compound name the question asks about ("python-dateutil")
ENDED = 0.6  # ... or of the later items saying it ended: removed, replaced, made optional (``_ended_since``)
ITEM_ANSWERS = {False: 0.25, True: 0.4}


def latest_item(question: Question, entries: Sequence[Entry], items: Sequence[float], scores: Sequence[float],
                dense: bool) -> int | None:
    """The item of the latest release among those answering the question best (within LATEST of the best,
    holding what it names exactly; within NAMED_LATEST of the best naming a compound name it asks about), or a
    later one saying it ended (``_ended_since``); None when no item answers it well (ITEM_ANSWERS). ``items``:
    each entry's own score, ``scores``: its evidence."""
    pool = holding(entries, [i for i, e in enumerate(entries) if e.chunk.version], question.specifics)
    if not pool:
        return None
    best = max(pool, key=lambda i: scores[i])  # of its product only: releases of two are not in one order
    pool = [i for i in pool if entries[i].chunk.product == entries[best].chunk.product]
    share = LATEST
    names = _COMPOUND.findall(question.topic)  # "python-dateutil": items naming it tell how it stands
    naming = holding(entries, pool, names) if names else pool
    if naming != pool:
        pool, share = naming, NAMED_LATEST
        best = max(pool, key=lambda i: scores[i])
    at = max((i for i in pool if scores[i] >= share * scores[best]),
             key=lambda i: (release_order(entries[i].chunk.version or "0"), scores[i]))
    ended = _ended_since(entries, pool, scores, at, question)
    at = ended if items[ended] >= ITEM_ANSWERS[dense] else at  # a weak ending leaves the latest answering
    return None if items[at] < ITEM_ANSWERS[dense] else at


def _ended_since(entries: Sequence[Entry], pool: Sequence[int], scores: Sequence[float], at: int,
                 question: Question) -> int:
    """For "does X still ...?" (not "how do I still ..."), the latest item after ``at`` within ENDED of the best
    score with a sentence saying X ended, X being one of the question's names (a word no English dictionary holds,
    a thing it names exactly), and naming a third of its topic; no fix: "`pytz` is now optional" (Babel 2.12.0)
    for "Is pytz still a hard requirement for Babel?", over 1.1's "added dummy version requirements for pytz",
    which scores higher. Said of X itself (``_ends``): not "Deprecate CliRunner.isolated_filesystem" for "does
    click still support CliRunner?", nor "Old names for some send_file parameters have been removed" for "does
    flask still support send_file?"; ``at`` when none does, or for a question naming nothing so."""
    about = content_words(question.subject)
    names = {w for w in about if not english(w)} | {t.strip("=()") for t in question.specifics if not t[0].isdigit()}
    if question.howto or not names:
        return at
    need = max(1, -(-len(topic_words(about)) // 3))
    parts = bool(_PARTS.search(question.text))  # "the missing= and default= field arguments": a part is asked of
    best = max(scores[i] for i in pool)

    def ended(entry: Entry) -> bool:
        text = item_words(entry.text)
        return worded(entry, "ended", about) >= need and entry.item.kind != "fixed" \
            and not CHANGES_STATED["fixed"].search(text) and any(
                _ends(sentence, name, parts) for sentence in SENTENCE_END.split(text) for name in names)

    later = [i for i in pool if scores[i] >= ENDED * best and entries[i].chunk.product == entries[at].chunk.product
             and release_order(entries[i].chunk.version or "0") > release_order(entries[at].chunk.version or "0")
             and ended(entries[i])]
    return max(later, key=lambda i: (release_order(entries[i].chunk.version or "0"), scores[i]), default=at)


def _ends(sentence: str, name: str, parts: bool) -> bool:
    """Whether ``sentence`` says ``name`` itself ended: the object of an ending verb ("Remove ``X``", "Replaced the
    use of ``pkg_resources``") or the subject of one ("`pytz` is now optional", "Colorama is no longer a
    dependency"); not a longer name it starts ("CliRunner.isolated_filesystem"), a part of it ("send_file
    parameters have been removed", unless ``parts``: the question asks of one), nor a return ("Restore ...")."""
    if _RESTORED.search(sentence):
        return False
    named = r"[`'\"*]*" + re.escape(name) + r"(?!\w|[._]\w)[`'\"*()]*"
    if re.search(_ENDING_VERB + r"\b(?:\W+\w+){0,5}?\W+" + named, sentence, re.IGNORECASE):
        return True
    said = re.search(r"(?<![\w.])" + named + r"(?:\s+(?:and|or)\s+[`'\"*]*[\w.]+[`'\"*()]*)*(?:\s+(?P<part>\w+))?,?\s+"
                     r"(?:which\s+|that\s+)?(?:(?:is|are|was|were|has\s+been|have\s+been|had\s+been)\s+)?(?:now\s+|also\s+)?"
                     + _ENDED_STATE, sentence, re.IGNORECASE)
    return bool(said) and (parts or not (said.group("part") or "").lower() in _PART_WORDS)


_ENDING_VERB = r"\b(?:remov(?:e|ed|es|ing)|drop(?:s|ped|ping)?|deprecat(?:e|ed|es|ing)|replac(?:e|ed|es|ing)|renam(?:e|ed|es|ing)" \
               r"|discontinu(?:e|ed|es|ing))"
_ENDED_STATE = r"(?:removed|deprecated|dropped|replaced|renamed|discontinued|optional|gone|no\s+longer)\b"
_PART_WORDS = frozenset("parameter parameters argument arguments option options method methods attribute attributes "
                        "flag flags keyword keywords".split())
_PARTS = lazy_compile(r"\b(?:" + "|".join(sorted(_PART_WORDS)) + r")\b", re.IGNORECASE)
_RESTORED = lazy_compile(r"\brestor|\brevert|\bre-?add|\bbr(?:ing|ought)\s+back", re.IGNORECASE)


_COMPOUND = lazy_compile(r"(?<![\w.-])[A-Za-z]\w*(?:-\w+)+(?![\w-])")  # "python-dateutil", "better-exceptions"
