"""The form of a text that retrievers read: Markdown link targets and bare URLs dropped.

A release note's PR lists are mostly URLs ("[#191101](https://github.com/...)"): they cost
the embedding model dozens of word pieces and carry no meaning a question could match.
Chunks keep their verbatim text; budgets and indexes use this form.
"""

from __future__ import annotations

import re

_LINK = re.compile(r"(!?)\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*\)")
_URL = re.compile(r"<?(?:https?|ftp)://[^\s<>()\[\]`\"']+>?")


def index_form(text: str) -> str:
    """``text`` with link and image targets and bare URLs removed; link text kept."""
    return _URL.sub("", _LINK.sub(lambda m: m.group(2), text))
