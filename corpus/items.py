"""Items: the unit a changelog reader needs, a list item with its continuation lines and sub-items,
or a paragraph of prose, each with its offsets in the text it came from and its kind of change.

A chunk is what retrieval scores; an item is what an answer, a release digest or a quote cites.
A bullet (``-``, ``*``, ``+``, ``•``, ``1.``, ``#.``) opens an item; lines indented deeper than
its marker, lazy continuation lines and deeper bullets belong to it; a blank line ends it
unless the next line is indented under it. Text outside lists is split into paragraphs (a
fenced or indented code block stays with the paragraph before it); a paragraph that is a list run
together (glued bold lead-ins, "- " items after a full stop) is split into its items. A paragraph that is only a
bold label ("**Deprecations**:") is no item, but names the kind of the items after it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .kinds import STRONG, kind_of, tags_kind
from .regex import lazy_compile
from .textform import DEFINITION

_BULLET = lazy_compile(r"^([ \t]*)(?:[-*+•]|\d+[.)]|#\.)[ \t]+(?=\S)")
_FENCE = lazy_compile(r"^[ \t]*(`{3,}|~{3,})")
_LABEL = lazy_compile(r"^\s*(?:\*\*|__)([^*_\n]{2,60}?)(?:\*\*|__)\s*:?\s*$|^\s*([A-Z][\w' ]{1,40}):\s*$")
_WORD = lazy_compile(r"[^\W_]")
_FIELDS = lazy_compile(r"^(?:[ \t]*:\w[\w -]*:[ \t]+\S[^\n]*(?:\n|$))+$")  # lines that are all reST fields with values
# A directive item's head (SQLAlchemy's ".. change::" with ":tags: bug, orm" and ":tickets: 13386").
_DIRECTIVE_HEAD = lazy_compile(r"^\.\.[ \t]+[\w:+-]+::[^\n]*(?:\n[ \t]*:[\w-]+:[^\n]*)*\s*")
_TAGS = lazy_compile(r"^\.\.[ \t]+[\w:+-]+::[^\n]*(?:\n[ \t]*:[\w-]+:[^\n]*)*?\n[ \t]*:tags:([^\n]*)")
_MARKUP = lazy_compile(r"<!--.*?-->|</?[A-Za-z][^<>]*>|^\s*\.\. [^\n]*$", re.DOTALL | re.MULTILINE)
# Markup an item may open with before its words: towncrier's "`#14220 <url>`_:", "[#123](url):", "**API**:"
# (a link that is the item itself, Rust's "[Stabilize lockfile v4](url)", stays).
_LEAD = lazy_compile(r"^(?:`#?\d+ <[^>]*>`_+:?\s*|\[#?\d+\]\([^)]*\):?\s*|\*\*[^*]+\*\*:\s*|\(?#\d+\)?:\s*)+")
# What an item's own words say about its kind when its heading does not (flask's flat lists,
# httpx's "**Deprecations**:" labels, "Breaking change:" in a Changed section).
_BREAKING = lazy_compile(r"^breaking\b|\bbreaking[ -]changes?\b|\bbackwards?[- ]incompatib|\bincompatible change", re.IGNORECASE)
_FIRST_WORD_KINDS = (
    ("removed", lazy_compile(r"^(?:remove[sd]?|drop(?:ped|s)?|delete[sd]?|no longer|discontinue[sd]?)\b", re.IGNORECASE)),
    ("deprecated", lazy_compile(r"^(?:deprecate[sd]?|deprecation)\b", re.IGNORECASE)),
    ("fixed", lazy_compile(r"^(?:fix(?:e[sd])?|bug ?fix|correct(?:ed|s)?|resolve[sd]?|prevent(?:ed|s)?)\b", re.IGNORECASE)),
    ("added", lazy_compile(r"^(?:add(?:ed|s)?|new|introduce[sd]?|expose[sd]?|implement(?:ed|s)?|allow(?:ed|s)?)\b",
                         re.IGNORECASE)),
    ("changed", lazy_compile(r"^(?:change[sd]?|update[sd]?|rename[sd]?|bump(?:ed|s)?|switch(?:ed|es)?|move[sd]?"
                           r"|improve[sd]?|replace[sd]?|require[sd]?|make|made|use[sd]?|upgrade[sd]?)\b", re.IGNORECASE)),
)
_ANYWHERE_KINDS = (
    ("removed", lazy_compile(r"\b(?:has|have|is|are|was|were) (?:now )?(?:been )?removed\b|\bno longer supported\b"
                           r"|\bsupport (?:for [^.]{1,40} )?(?:has been |is )?dropped\b", re.IGNORECASE)),
    ("deprecated", lazy_compile(r"\b(?:is|are|was|were|now|been) (?:now )?(?:considered )?deprecated\b"
                              r"|\bdeprecated (?:alias|in favou?r of)\b|\bdeprecation warning\b", re.IGNORECASE)),
)


@dataclass(frozen=True, slots=True)
class ItemSpan:
    """One item of a text: ``text[start:end]``, whether it is a list item, and the kind a bold
    label above it names ("**Deprecations**:"), if any."""

    start: int
    end: int
    bullet: bool
    label: str | None = None


def split_items(text: str, indent: int = 0) -> list[ItemSpan]:
    """The items of ``text`` in order: list items (with continuation lines and sub-items) and
    paragraphs of prose; never blank, never a lone label, markup with no words or a field list
    (":release-date: 2024-04-17" / ":release-by: ...": what a release says of itself, no change).
    ``indent`` is how far the first line is indented in its source (a chunk starts at its first word)."""
    first_indent = indent
    lines = _lines(text)
    units: list[list] = []  # [start, end, bullet, indent, label, blank_seen]
    label: str | None = None
    label_indent = -1  # a bullet that is a label (``_bullet_label``) names the kind of the bullets under it only
    fence: str | None = None
    for at, (start, end, line) in enumerate(lines):
        stripped = line.strip()
        if fence is not None:  # inside a fenced block: it belongs to the open unit
            units[-1][1] = end
            if stripped.startswith(fence):
                fence = None
            continue
        if not stripped:
            if units:
                units[-1][5] = True
            continue
        indent = len(line) - len(line.lstrip()) + (first_indent if start == 0 else 0)
        bullet = _BULLET.match(line)
        if 0 <= indent <= label_indent:
            label, label_indent = None, -1  # past the list a bullet label opened
        current = units[-1] if units else None
        opens = _FENCE.match(line)
        if current is not None and (
            (bullet and current[2] and indent > current[3])  # a sub-item
            or (not bullet and current[2] and (indent > current[3] or not current[5]))  # continuation
            or (not bullet and not current[2] and (not current[5] or indent > current[3] or opens))  # paragraph
        ):
            current[1] = end
            current[5] = False
        else:
            named = _label(stripped)
            if bullet and named is None:
                named = _bullet_label(line[bullet.end():], indent, lines, at + 1)
                label_indent = indent if named is not None else label_indent
            if named is not None and (not bullet or label_indent == indent):
                label = named
                units.append([start, end, False, indent, "label", False])
            else:
                units.append([start, end, bool(bullet), indent, label, False])
        if opens and not line[opens.end():].count(opens.group(1)[0] * 3):
            fence = opens.group(1)[:3]
    spans = [ItemSpan(s, e, b, None if lab == "label" else lab) for s, e, b, _, lab, _ in units
             if lab != "label" and _has_words(text[s:e]) and not _FIELDS.match(text[s:e])]
    return _introduced(text, [piece for span in spans for piece in _unglued(text, span)])


# Lists that run together in a paragraph, as release blogs converted to text carry them: bold
# lead-ins with no separator ("... and ATen**A new nccl2 backend,** ported from ..."), or "- "
# items glued after a full stop ("... See #187115).- Python function events are ...").
_GLUED = lazy_compile(r"(?<=[^\s*(\[])(?=\*\*[A-Z][^*\n]{2,160}?\*\*)|(?<=[.)])[ \t]?(?=-[ \t]+[A-Z`*])")


def _unglued(text: str, span: ItemSpan) -> list[ItemSpan]:
    """A paragraph holding a list run together, as its items; any other span as it is."""
    if span.bullet:
        return [span]
    body = text[span.start : span.end]
    cuts = [m.start() for m in _GLUED.finditer(body) if m.start() > 0]
    if not cuts:
        return [span]
    pieces = []
    for a, b in zip([0, *cuts], [*cuts, len(body)]):
        piece = body[a:b]
        lead = len(piece) - len(piece.lstrip())
        if _has_words(piece):
            pieces.append(ItemSpan(span.start + a + lead, span.start + b, bool(_BULLET.match(piece.lstrip())) or a > 0,
                                   span.label))
    return pieces or [span]


def _introduced(text: str, spans: list[ItemSpan]) -> list[ItemSpan]:
    """Bullets after a paragraph that introduces them with a precise kind ("The following API
    changes ... are now fully deprecated:") are of that kind, unless a label says otherwise."""
    out, kind = [], None
    for span in spans:
        if not span.bullet:
            words = text[span.start : span.end].rstrip()
            found = kind_of(words) if words.endswith(":") and len(words.split()) <= 40 else None
            kind = found if found in STRONG else None
            out.append(span)
        else:
            out.append(span if span.label or kind is None else ItemSpan(span.start, span.end, True, kind))
    return out


def _has_words(text: str) -> bool:
    """Not only HTML anchors or comments, link definitions or reST comments and directives."""
    return bool(_WORD.search(_MARKUP.sub(" ", DEFINITION.sub(" ", text))))


def _lines(text: str) -> list[tuple[int, int, str]]:
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line.rstrip()), line))
        pos += len(line) + 1
    return out


def _label(line: str) -> str | None:
    """The kind a bold label line names ("**Deprecations**:" -> "deprecated"), else None."""
    m = _LABEL.match(line)
    if not m:
        return None
    return kind_of(m.group(1) or m.group(2))


def _bullet_label(words: str, indent: int, lines: list[tuple[int, int, str]], after: int) -> str | None:
    """The kind a bullet names when it only heads the deeper bullets after it ("* Other changes:",
    "* Potentially breaking changes", "* Bug fixes:" over their own lists: more-itertools' notes),
    else None: words naming a kind of change and nothing else. A bullet naming a subject too ("- New
    lexers:" over "* JSON5", "- New tier 3 targets:") stays one item with its list: its sub-items
    would lose what they are; so does one naming two kinds ("FIXES AND NEW FEATURES", "changes/fixes")."""
    words = words.strip()
    named = _LABEL_WORD.findall(words.lower())
    if not set(named) <= _KIND_ONLY or _NOT_A_LABEL.search(words.rstrip(":")) or _TWO_KINDS.search(words):
        return None
    following = next((line for _, _, line in lines[after: after + 50] if line.strip()), "")
    deeper = _BULLET.match(following)
    if not deeper or len(following) - len(following.lstrip()) <= indent:
        return None
    return kind_of(words.rstrip(":"))


_NOT_A_LABEL = lazy_compile(r"[\d`\[\]()<>*_.!?;,]")
_LABEL_WORD = lazy_compile(r"[a-z]+")
_TWO_KINDS = lazy_compile(r"\band\b|[/&+]", re.IGNORECASE)
_KIND_ONLY = frozenset(
    "other others misc miscellaneous general various minor major notable important potentially possibly breaking "
    "backward backwards incompatible incompatibilities change changes changed update updates updated bug bugs fix "
    "fixes fixed bugfix bugfixes improvement improvements improved enhancement enhancements new feature features "
    "addition additions added removal removals removed deprecation deprecations deprecated security performance "
    "internal internals and of to in".split())


def list_share(texts) -> float:
    """The share of item texts that are list items (a bullet opens them): about 0.8-1.0 for a
    changelog, under 0.1 for a release blog; 0.0 for none."""
    count = bullets = 0
    for text in texts:
        count += 1
        bullets += bool(_BULLET.match(text))
    return bullets / count if count else 0.0


def opens_with_bullet(line: str) -> bool:
    """Whether ``line`` opens with a list item's marker ("- ", "* ", "1. ", "#. ") before its words."""
    return _BULLET.match(line) is not None


def item_words(text: str) -> str:
    """The item's text without its bullet and the markup it opens with (towncrier's issue link)."""
    body = _DIRECTIVE_HEAD.sub("", _BULLET.sub("", text, count=1).strip(), count=1)
    return _LEAD.sub("", body).strip()


_PLAIN_REF = lazy_compile(r"^(?:\(?#\d+\)?:\s*)+")


def item_quoted(text: str) -> str:
    """The item's words as a quote shows them: ``item_words``, but a plain issue number it opens with
    stays ("#11363: Remove the Setuptools integration ...", the number a reader looks up); link markup
    ("`#14220 <url>`_:") and bold labels go."""
    words = item_words(text)
    body = _DIRECTIVE_HEAD.sub("", _BULLET.sub("", text, count=1).strip(), count=1)
    ref = _PLAIN_REF.match(body)
    return body.strip() if ref and body[ref.end():].strip() == words else words


def item_kind(text: str, section: str | None, label: str | None = None) -> str | None:
    """The kind of change of one item: a precise kind its section or its tags name (fixed,
    removed, ...; SQLAlchemy's ``:tags: bug, orm``) wins, except that an item that says it
    breaks is removed; else what its words say ("Drop support for Python 3.9" is removed); else a
    bold label above it; else its section's (or its tags') kind; else, for a bullet right under
    its release (flask's flat lists), "changed"."""
    tagged = _TAGS.match(text.strip())
    if tagged:  # the tags name the change's kind as a heading would ("bug, orm" is fixed)
        section = tags_kind(tagged.group(1).split(",")) or section
    words = item_words(text)
    breaking = bool(_BREAKING.search(words[:300]))
    if section in STRONG:
        return "removed" if breaking and section not in ("removed", "deprecated") else section
    if breaking:
        return "removed"
    for kind, pattern in _FIRST_WORD_KINDS:
        if pattern.match(words):
            return kind
    for kind, pattern in _ANYWHERE_KINDS:
        if pattern.search(words):
            return kind
    if label or section:
        return label or section
    return "changed" if _BULLET.match(text) else None  # a bullet right under a release is a change
