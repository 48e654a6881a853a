"""The form of a text that retrievers read: markup that is not words dropped, its words kept.

A release note's PR lists are mostly URLs ("[#191101](https://github.com/...)"): they cost
the embedding model dozens of word pieces and carry no meaning a question could match.
Reference links go the same way: "[text][71269]" reads as its text, and definition lines
("[71269]: https://github.com/...", dozens after each older Rust release) go entirely.
reStructuredText likewise: a role reads as its text (":pr:`5730`" as "PR #5730",
":class:`pytest.RaisesGroup`" as "pytest.RaisesGroup"), a hyperlink reference as its text
("`#14220 <https://...>`_" as "#14220"), and explicit markup blocks (directives, comments,
targets, substitution definitions: a ".." line and the indented lines under it) go.
Chunks keep their verbatim text; budgets and indexes use this form.
"""

from __future__ import annotations

import re

from .regex import lazy_compile

_LINK = lazy_compile(r"(!?)\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*\)")
_URL = lazy_compile(r"<?(?:https?|ftp)://[^\s<>()\[\]`\"']+>?")
# "[text][label]" (the text may wrap lines); a definition line "[label]: target "title"".
# The text holds no bracket, so an unclosed "[" cannot send the search across the file.
_REFERENCE = lazy_compile(r"(?<![\w\])])(!?)\[([^\[\]]*)\]\[[^\]\n]*\]")  # not x[0][1]
DEFINITION = lazy_compile(r"^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S+(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$",
                        re.MULTILINE)


# A directive keeps its content (".. note::" and the note under it) but not its own line or its
# ":option:" lines; any other explicit markup block (a comment, a target, a substitution
# definition: a ".." line and the indented lines under it) goes whole.
_RST_DIRECTIVE = lazy_compile(r"^\.\.[ \t]+(?!_)[\w:+-]+::[^\n]*$(?:\n[ \t]+:[\w -]+:[^\n]*$)*", re.MULTILINE)
_RST_BLOCK = lazy_compile(r"^\.\.(?:[ \t][^\n]*)?$(?:\n(?:[ \t]+[^\n]*)?$)*", re.MULTILINE)
_RST_HYPERLINK = lazy_compile(r"(?<![\w`])`([^`<\n]+?)\s*<[^>\n]*>`__?|(?<![\w`])`([^`\s][^`\n]*?)`__?(?![\w`])")
RST_ROLE = lazy_compile(r":([\w+-]+(?::[\w+-]+)*):`([^`\n]+)`")
_ROLE_NAMES = {"pr": "PR #", "issue": "issue #", "ghsa": "GHSA ", "user": "@", "cve": "CVE ", "pep": "PEP "}


def role_text(m: re.Match) -> str:
    """A Sphinx role as its text: ":pr:`5730`" -> "PR #5730", ":ref:`text <target>`" -> "text"."""
    name, target = m.group(1).split(":")[-1], m.group(2)
    label = re.match(r"(.*?)\s*<[^>]*>$", target)
    text = label.group(1) if label and label.group(1) else target.lstrip("~!")
    return _ROLE_NAMES.get(name, "") + text


def index_form(text: str) -> str:
    """``text`` with link and image targets, reference definitions, bare URLs and reStructuredText
    markup removed; the text of links, references and roles kept."""
    if ".." in text or "`" in text:
        text = _RST_BLOCK.sub("", _RST_DIRECTIVE.sub("", text))
        text = RST_ROLE.sub(role_text, _RST_HYPERLINK.sub(lambda m: m.group(1) or m.group(2), text))
    text = _REFERENCE.sub(lambda m: m.group(2), _LINK.sub(lambda m: m.group(2), text))
    return _URL.sub("", DEFINITION.sub("", text))
