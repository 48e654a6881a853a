"""The form of a text that retrievers read: Markdown link targets and bare URLs dropped.

A release note's PR lists are mostly URLs ("[#191101](https://github.com/...)"): they cost
the embedding model dozens of word pieces and carry no meaning a question could match.
Reference links go the same way: "[text][71269]" reads as its text, and definition lines
("[71269]: https://github.com/...", dozens after each older Rust release) go entirely.
Chunks keep their verbatim text; budgets and indexes use this form.
"""

from __future__ import annotations

import re

_LINK = re.compile(r"(!?)\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*\)")
_URL = re.compile(r"<?(?:https?|ftp)://[^\s<>()\[\]`\"']+>?")
# "[text][label]" (the text may wrap lines); a definition line "[label]: target "title"".
# The text holds no bracket, so an unclosed "[" cannot send the search across the file.
_REFERENCE = re.compile(r"(?<![\w\])])(!?)\[([^\[\]]*)\]\[[^\]\n]*\]")  # not x[0][1]
DEFINITION = re.compile(r"^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S+(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$",
                        re.MULTILINE)


def index_form(text: str) -> str:
    """``text`` with link and image targets, reference definitions and bare URLs removed; link text kept."""
    text = _REFERENCE.sub(lambda m: m.group(2), _LINK.sub(lambda m: m.group(2), text))
    return _URL.sub("", DEFINITION.sub("", text))
