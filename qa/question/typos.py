"""Typing slips in the words that frame a release question, mended before a question is read:
"whcih twine version introduced ..." was read as a plain search, so no release was stated.

Only a word one slip away from a framing word (``FRAMING``: a letter dropped, added or changed,
or two letters swapped) is mended, and only when it is no English word itself (the model's
vocabulary), differs inside the word ("aversion", "deprecates", "releasers" stay) and stands alone (not inside
``--relase-tag`` or ``my.verison``). The words of a question's topic go to retrieval as typed.
"""

from __future__ import annotations

from typing import Callable

from corpus.regex import lazy_compile

from .names import english, is_platform, known

FRAMING = ("which", "version", "versions", "release", "releases", "released", "deprecated", "introduced")
# four-letter slips of "which" and "what", and a common misuse, named one by one
_SHORT = {"wich": "which", "whic": "which", "waht": "what", "whta": "what", "depreciated": "deprecated"}
_KEPT = frozenset({"whish", "releasers"})  # one slip inside a framing word, and words of their own
_WORD = lazy_compile(r"(?<![\w.\-/])[A-Za-z]{4,}(?![\w\-/]|\.\w)")
# a plain word of the topic: lower case as typed, not code ("`RwLock`", "deref(", "my_func")
_PLAIN = lazy_compile(r"(?<![\w.\-/`'\"])[a-z]{6,}(?![\w\-/`'\"(]|\.\w)")


def mended(text: str, uses: Callable[[str], bool] | None = None) -> str:
    """``text`` with slips in its framing words mended ("whcih" -> "which") and, given the notes'
    words (``uses(word)``: whether the notes' prose uses it), a plain word the notes never use one
    slip from one they do ("pyhton" -> "python", "timzone" -> "timezone"); the rest as typed."""
    text = _WORD.sub(lambda m: _mend(m.group(0)), text)
    if uses is None:
        return text
    return _PLAIN.sub(lambda m: _in_notes(m.group(0), uses), text)


def _mend(word: str) -> str:
    lower = word.lower()
    if lower in FRAMING or lower in _KEPT:
        return word
    fixed = _SHORT.get(lower)
    if fixed is None and len(lower) >= 5 and not english(lower):
        fixed = next((f for f in FRAMING if _one_slip(lower, f)), None)
    if fixed is None:
        return word
    return fixed.upper() if word.isupper() else fixed.capitalize() if word[:1].isupper() else fixed


def _in_notes(word: str, uses: Callable[[str], bool]) -> str:
    """``word`` (lower case, as typed), or the word of the notes one slip from it when the notes
    never use it and it is no English word nor a product's or platform's name."""
    if english(word) or uses(word) or known(word) or is_platform(word):
        return word
    return next((w for w in _slips(word) if uses(w)), word)


def _slips(word: str):
    """The words ``word`` is one common slip of, inside it (its first and last letters kept, as
    ``_one_slip`` reads a slip): two neighbours swapped ("pyhton"), or a letter left out
    ("timzone", "dependecy"); not a letter too many or another letter, which make real words of
    real words ("sharding" is no "sharing", "deref" no "decref"). Swaps first."""
    seen = {word}
    candidates = [word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(1, len(word) - 2)]
    candidates += [word[:i] + c + word[i:] for i in range(1, len(word)) for c in _LETTERS]
    for candidate in candidates:
        if candidate not in seen:
            seen.add(candidate)
            yield candidate


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _one_slip(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` with one letter dropped, added or changed, or two neighbours swapped,
    inside the word: a word that differs at its first or last letter is more likely a word of its
    own ("aversion", "deprecates", "releasers") than a slip."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        swapped = len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        return (len(diff) == 1 or swapped) and 0 < diff[0] and diff[-1] < len(b) - 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((i for i, (x, y) in enumerate(zip(short, long)) if x != y), len(short))
    return short[i:] == long[i + 1:] and 0 < i < len(long) - 1
