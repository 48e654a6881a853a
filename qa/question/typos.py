"""Typing slips in the words that frame a release question, mended before a question is read:
"whcih twine version introduced ..." was read as a plain search, so no release was stated.

Only the framing words below are mended, and only a word one slip away from one of them (a
letter dropped, added, changed, or two letters swapped) that is none of them and no word of its
own list (``_KEPT``): "changes" stays "changes", "cropped" is not "dropped" (neither is listed).
Words of a question's topic are never touched: they go to retrieval as typed.
"""

from __future__ import annotations


from corpus.regex import lazy_compile

# Words whose every one-slip neighbour is a slip, not another word a question would use.
FRAMING = ("which", "version", "versions", "release", "releases", "released", "deprecated", "introduced")
_KEPT = frozenset({"whish", "versin", "relapse", "releaser"})  # words of their own, left alone
# "wich", "whic": four letters, one slip from "which" and nothing else a question says
_SHORT = {"wich": "which", "whic": "which", "whihc": "which", "wihch": "which", "waht": "what", "whta": "what",
          "depreciated": "deprecated"}
_WORD = lazy_compile(r"[A-Za-z]{4,}")


def mended(text: str) -> str:
    """``text`` with slips in its framing words mended ("whcih" -> "which"), the rest as typed."""
    return _WORD.sub(lambda m: _mend(m.group(0)), text)


def _mend(word: str) -> str:
    lower = word.lower()
    if lower in FRAMING or lower in _KEPT:
        return word
    fixed = _SHORT.get(lower) or next((f for f in FRAMING if len(lower) >= 5 and _one_slip(lower, f)), None)
    return word if fixed is None else (fixed.capitalize() if word[:1].isupper() else fixed)


def _one_slip(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` with one letter dropped, added or changed, or two neighbours swapped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((i for i, (x, y) in enumerate(zip(short, long)) if x != y), len(short))
    return short[i:] == long[i + 1:]



