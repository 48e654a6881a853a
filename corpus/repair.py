"""Whitespace-only repairs of Markdown export defects, keeping every line's source line range.

A repaired document is a list of :class:`Line` values. Each one knows the 1-based range of
original lines it came from, so sections and chunks cite the original body even after
joining. Repairs only join, split or re-space lines: they never add, drop or change a
character other than whitespace, so a chunk's text with whitespace removed is always a
substring of its cited lines with whitespace removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .regex import lazy_compile

_FENCE = lazy_compile(r"^ {0,3}(`{3,}|~{3,})")
_BLOCK_START = lazy_compile(r"^ {0,3}(#|[-*+] |\d+[.)] |>|\||`{3}|~{3}|<|\*\*[^ ])")
_CONTINUES = lazy_compile(r"^[,.;:)!?/\-]")
_BOLD_ONLY = lazy_compile(r"^\*\*[^*\s][^*]*\*\*\s*$")
_CODE_ONLY = lazy_compile(r"^`[^`]+`\s*$")
_SHELL = lazy_compile(
    r"^\s*(\$ )?(pip3?|python3?|conda|uv|curl|wget|git|npm|npx|yarn|cargo|rustup|apt(-get)?|brew|"
    r"docker|export|cd|make|sudo|powershell)\b"
)


@dataclass(frozen=True, slots=True)
class Line:
    """A logical line of text and the original 1-based lines it spans (inclusive)."""

    text: str
    start: int
    end: int


def as_lines(text: str) -> list[Line]:
    """The text's lines, each mapped to itself."""
    return [Line(t, n, n) for n, t in enumerate(text.split("\n"), start=1)]


def fence_mask(lines: list[Line]) -> list[bool]:
    """True for lines inside (or opening/closing) a fenced code block; an open fence runs to EOF."""
    mask, fence = [], None
    for ln in lines:
        m = _FENCE.match(ln.text)
        if fence is None:
            if m and not (m.group(1)[0] == "`" and "`" in ln.text[m.end():]):
                fence = m.group(1)
                mask.append(True)
                continue
            mask.append(False)
        else:
            mask.append(True)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not ln.text[m.end():].strip():
                fence = None
    return mask


def is_shell_comment(lines: list[Line], i: int) -> bool:
    """Whether ``# text`` at line i is a shell comment of an install snippet whose fence was lost."""
    for step in (1, -1):
        j = i + step
        while 0 <= j < len(lines) and (not lines[j].text.strip() or lines[j].text.lstrip().startswith("# ")):
            j += step
        if 0 <= j < len(lines) and _SHELL.match(lines[j].text):
            return True
    return False


def _join(a: Line, b: Line) -> Line:
    sep = "" if _CONTINUES.match(b.text) else " "
    return Line(a.text.rstrip() + sep + b.text.lstrip(), a.start, b.end)


def _split_inline_code_defect(lines: list[Line], mask: list[bool]) -> bool:
    """Whether the text shows the "inline code span, blank line, rest of sentence" export defect."""
    hits = 0
    for i in range(len(lines) - 2):
        if not mask[i] and lines[i].text.rstrip().endswith("`") and not lines[i + 1].text.strip():
            if not mask[i + 2] and lines[i + 2].text[:1] in (",", "."):
                hits += 1
    return hits >= 3


def rejoin_inline_code(lines: list[Line]) -> list[Line]:
    """Join "`code`", blank line, ", more text" back into one line where the export split it."""
    mask = fence_mask(lines)
    if not _split_inline_code_defect(lines, mask):
        return lines
    out: list[Line] = []
    i = 0
    while i < len(lines):
        cur = lines[i]
        if mask[i]:
            out.append(cur)
            i += 1
            continue
        # A bold pseudo-heading split from its trailing code span: "**X**", blank, "`get`".
        while (
            _BOLD_ONLY.match(cur.text)
            and i + 2 < len(lines)
            and not lines[i + 1].text.strip()
            and not mask[i + 2]
            and _CODE_ONLY.match(lines[i + 2].text)
        ):
            cur = _join(cur, lines[i + 2])
            i += 2
        while (
            (cur.text.rstrip().endswith("`") or _before_ref(cur, lines, i))
            and not re.match(r"^\*\*[^*\s][^*]*\*\*", cur.text)  # a bold pseudo-heading ends here
            and not _FENCE.match(cur.text)
            and i + 2 < len(lines)
            and not lines[i + 1].text.strip()
            and lines[i + 2].text.strip()
            and not mask[i + 2]
            and not _BLOCK_START.match(lines[i + 2].text)
            and not _is_setext_text(lines, i + 2)
        ):
            cur = _join(cur, lines[i + 2])
            i += 2
        out.append(cur)
        i += 1
    return out


def _before_ref(cur: Line, lines: list[Line], i: int) -> bool:
    """A PR list split before its "[#123](...)" links: "(PR", blank, "[#192515](...)"."""
    nxt = lines[i + 2].text if i + 2 < len(lines) else ""
    return re.match(r"^\[ ?#\d", nxt) is not None and not re.search(r"[.!?:)]\s*$", cur.text)


def _is_setext_text(lines: list[Line], i: int) -> bool:
    return i + 1 < len(lines) and re.match(r"^ {0,3}(=+|-+)\s*$", lines[i + 1].text) is not None


def split_glued_bold(lines: list[Line]) -> list[Line]:
    """Put each bold run-in item of a glued list ("...ATen**A new nccl2 backend,** ...") on its own line."""
    mask = fence_mask(lines)
    out: list[Line] = []
    for ln, fenced in zip(lines, mask):
        if fenced or not ln.text.startswith("**") or ln.text.count("**") < 4:
            out.append(ln)
            continue
        cuts, parity = [], 0
        for m in re.finditer(r"\*\*", ln.text):
            if parity == 0 and m.start() > 0 and ln.text[m.start() - 1] not in " \t([\"'“":
                cuts.append(m.start())
            parity ^= 1
        pos = 0
        for c in cuts:
            out.append(Line(ln.text[pos:c], ln.start, ln.end))
            pos = c
        out.append(Line(ln.text[pos:], ln.start, ln.end))
    return out


def repair_markdown(text: str) -> list[Line]:
    """The Markdown text as logical lines with the export-defect repairs applied."""
    return split_glued_bold(rejoin_inline_code(as_lines(text)))
