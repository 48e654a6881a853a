"""How things stand now: for a question such as "does anyio still pull in sniffio?", the item of the latest
release among those answering it best, or a later one saying it ended (removed, replaced, made optional)."""

from __future__ import annotations

from typing import Sequence

from corpus.items import item_words
from corpus.regex import lazy_compile

from .digest import Entry
from .holding import holding
from .itemscore import release_order
from .saying import topic_words, worded
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
    at = _ended_since(entries, pool, scores, at, question)
    return None if items[at] < ITEM_ANSWERS[dense] else at


def _ended_since(entries: Sequence[Entry], pool: Sequence[int], scores: Sequence[float], at: int,
                 question: Question) -> int:
    """For "does X still ...?" (not "how do I still ..."), the latest item after ``at`` within ENDED of the best
    score that says X ended (removed, replaced, deprecated, made optional) naming a third of the question's topic
    and its names (the words no English dictionary holds, the things it names exactly), no fix: "`pytz` is now
    optional" (Babel 2.12.0) for "Is pytz still a hard requirement for Babel?", over 1.1's "added dummy version
    requirements for pytz", which scores higher; not "Moved ... Camellia into decrepit and deprecated it" for
    "is Blowfish still importable ...?", nor "Fixed ``catch()`` dropping exceptions"; ``at`` when none does."""
    if question.howto:
        return at
    about = content_words(question.subject)
    names = frozenset(w for w in about if not english(w)) | frozenset(
        w for t in question.specifics for w in content_words(t.strip("=()")) if "." not in w)
    need = max(1, -(-len(topic_words(about)) // 3))
    best = max(scores[i] for i in pool)

    def ended(entry: Entry) -> bool:
        return worded(entry, "ended", about) >= need and (not names or worded(entry, "ended", names) >= 1) \
            and entry.item.kind != "fixed" and not CHANGES_STATED["fixed"].search(item_words(entry.text))

    later = [i for i in pool if scores[i] >= ENDED * best and entries[i].chunk.product == entries[at].chunk.product
             and release_order(entries[i].chunk.version or "0") > release_order(entries[at].chunk.version or "0")
             and ended(entries[i])]
    return max(later, key=lambda i: (release_order(entries[i].chunk.version or "0"), scores[i]), default=at)


_COMPOUND = lazy_compile(r"(?<![\w.-])[A-Za-z]\w*(?:-\w+)+(?![\w-])")  # "python-dateutil", "better-exceptions"
