"""Whether a sentence states a change of the very thing asked about, the change worded right at it:
"Added a pytest plugin that ...", "Added new ``mocker.stop(m)`` method", "``zip_equal`` was removed",
rather than of something beside it ("Added support for specifying options for the pytest plugin",
"``mocker.stop()`` now undoes the most recent patch first"). Which-release reading prefers such a
statement among the items that say the change (``itemscore.stating``).
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from corpus.regex import lazy_compile

from ..question.changes import CHANGES_STATED

# words that may stand between the change's word and what it changes ("Added [a new] pytest plugin",
# "Dropped [support for] Python 3.9", "Removed [the deprecated] ``proxies`` argument")
_BETWEEN = frozenset("a an the new support for of deprecated old legacy now also experimental optional all "
                     "its their some any previously long-deprecated undocumented unused".split())
# "added" is worded too loosely for this ("now", "support", "allow"): only the words that make a thing
_MADE = lazy_compile(r"\b(?:add(?:ed|s|ing)?|introduc\w*|new)\b", re.IGNORECASE)
SUBJECT = 8  # words of a passive sentence's subject that may hold the thing named
_AUXILIARY = lazy_compile(r"\b(?:is|are|was|were|has|have|had|got|gets)(?:\s+(?:now|also|finally|been))*$", re.IGNORECASE)
_GERUND = lazy_compile(r"(?:call|us|pass|sett|provid|giv|mix|combin|import|access|creat|specify)ing", re.IGNORECASE)
_WORD = lazy_compile(r"[\w.:@!()='’-]+")  # "Kitty's" one word


def direct(sentence: str, change: str, things: Sequence[str], covers: Callable[[str], bool], span: int = 2) -> bool:
    """Whether ``sentence`` words ``change`` right before what it changes, or right after it with an
    auxiliary ("``collate`` has been removed"): one of ``things`` (what the question names exactly,
    lower case), else the ``span`` words there that ``covers`` the topic (name every word of it)."""
    pattern = _MADE if change == "added" else CHANGES_STATED.get(change)
    if pattern is None:
        return False
    words = [w.lower() for w in _WORD.findall(sentence)]
    size = max(1, len(things) or span)
    for at, word in enumerate(words):
        if not pattern.match(word):
            continue
        start = at + 1
        while start < len(words) and words[start] in _BETWEEN:
            start += 1
        if start < len(words) and _holds_any(words[start], " ".join(words[start: start + size]), things, covers):
            return True
        before = " ".join(words[max(0, at - 4 - SUBJECT): at])
        aux = _AUXILIARY.search(before)
        if aux is not None:  # "``collate`` has been removed": what comes right before the auxiliary
            # (a thing anywhere in its subject: "The ``numpy.MachAr`` class and ``finfo.machar`` attribute")
            subject = before[: aux.start()].split()[-(SUBJECT if things else size):]
            held = [i for i, w in enumerate(subject) if _holds_any(w, " ".join(subject), things, covers)]
            # not the thing as used: "Calling ``np.fix`` ... with ``f(x, y=out)`` is deprecated"
            if held and not any(_GERUND.fullmatch(w) for w in subject[: held[0]]):
                return True
    return False


def _holds_any(word: str, window: str, things: Sequence[str], covers: Callable[[str], bool]) -> bool:
    """Whether the word next to the change's holds one of ``things``, or the ``window`` it opens or
    closes covers the topic."""
    return any(_holds(word, t) for t in things) if things else covers(window)


def _holds(word: str, thing: str) -> bool:
    """``thing`` in ``word`` as written ("validate" in "ParserElement.validate()"), or a dotted name
    by its last part in a dotted name ("np.machar" in "numpy.MachAr"; not in "the machar class")."""
    if re.search(r"(?<![\w])" + re.escape(thing) + r"(?![\w])", word):
        return True
    last = re.split(r"[.:]+", thing)[-1]
    return len(last) > 2 and last != thing and bool(re.search(r"\w[.:]" + re.escape(last) + r"(?![\w])", word))
