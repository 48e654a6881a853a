"""Find the headings of a Markdown document: ATX, setext and bold pseudo-headings."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .headings import opens_with_version, release_alone
from .regex import lazy_compile
from .repair import Line, fence_mask, is_shell_comment

_ATX = lazy_compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = lazy_compile(r"^ {0,3}(=+|-+)[ \t]*$")
_NOT_PARAGRAPH = lazy_compile(r"^ {0,3}([-*+][ \t]|\d+[.)][ \t]|>|\||<|#|`{3}|~{3})|^ {4}|^\t")
_HTML_BLOCK = lazy_compile(r"^ {0,3}<(/?[A-Za-z][\w-]*|!|\?)")
_BOLD_HEADING = lazy_compile(r"^\*\*([^*\s][^*]*?)\*\*((?:\s*`[^`]+`)*)\s*$")
_TAG = lazy_compile(r"<[^>]*>")
_LINK = lazy_compile(r"!?\[([^\]]*)\]\([^)]*\)|!?\[([^\]]*)\]\[[^\]]*\]")


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading at logical line ``index``: its level (1-6), clean text and URL anchor."""

    index: int
    level: int
    text: str
    anchor: str | None = None
    span: int = 1  # logical lines the heading occupies: 2 for setext (text + underline)


def clean_heading(raw: str) -> str:
    """Heading text for a breadcrumb: links, HTML tags and emphasis markers dropped, code text kept."""
    parts = re.split(r"(`+[^`]*?`+)", raw)
    out = []
    for n, part in enumerate(parts):
        if n % 2:
            out.append(part.strip("`").strip())
            continue
        part = _TAG.sub("", part)
        part = _LINK.sub(lambda m: m.group(1) or m.group(2) or "", part)
        part = part.replace("**", "").replace("__", "")
        part = re.sub(r"\*+", "", part)
        out.append(part)
    return " ".join("".join(out).split())


def slugify(text: str) -> str:
    """GitHub-style anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def markdown_headings(lines: list[Line]) -> list[Heading]:
    """The headings among ``lines`` (already repaired), in order, with unique anchors."""
    fenced = fence_mask(lines)
    skip = _skipped(lines, fenced)
    found: list[tuple[int, int, str]] = []  # (index, level, raw text); level 0 = bold pseudo-heading
    setext_text: set[int] = set()
    for i, ln in enumerate(lines):
        if skip[i]:
            continue
        m = _ATX.match(ln.text)
        if m:
            if len(m.group(1)) == 1 and is_shell_comment(lines, i):
                continue  # "# CUDA" above "pip3 install ...": a snippet whose code fence was lost.
            found.append((i, len(m.group(1)), m.group(2) or ""))
            continue
        m = _SETEXT.match(ln.text)
        if m and i > 0 and _setext_text_ok(lines, skip, i - 1, found):
            if m.group(1)[0] == "=" or len(m.group(1)) >= 2:
                found.append((i - 1, 1 if m.group(1)[0] == "=" else 2, lines[i - 1].text))
                setext_text.add(i)
            continue
        m = _BOLD_HEADING.match(ln.text)
        if m and _alone(lines, i) and not _bold_sentence(clean_heading(ln.text)):
            found.append((i, 0, ln.text))
    headings: list[Heading] = []
    slugs: dict[str, int] = {}
    last_level, last_has_body = 1, True
    ordered = sorted(found)
    for n, (i, level, raw) in enumerate(ordered):
        text = clean_heading(raw)
        if not text:
            continue
        if level == 0:
            if headings and headings[-1].text == text and headings[-1].index >= i - 3:
                continue  # The export repeats a bold heading right under itself: keep it as body.
            level = last_level if last_has_body else min(last_level + 1, 6)
        slug = slugify(text)
        count = slugs.get(slug, 0)
        slugs[slug] = count + 1
        span = 2 if i + 1 in setext_text else 1
        headings.append(Heading(i, level, text, slug if not count else f"{slug}-{count}", span))
        nxt = ordered[n + 1][0] if n + 1 < len(ordered) else len(lines)
        end = i + span
        last_level = level
        last_has_body = any(lines[k].text.strip() for k in range(end, nxt))
    return headings


def _setext_text_ok(lines: list[Line], skip: list[bool], j: int, found: list) -> bool:
    """A setext underline needs a one-line paragraph above it (a blank line or heading above that)."""
    text = lines[j].text
    if skip[j] or not text.strip() or _NOT_PARAGRAPH.match(text) or _SETEXT.match(text):
        return False
    if found and found[-1][0] == j:
        return False
    return j == 0 or not lines[j - 1].text.strip() or (bool(found) and found[-1][0] == j - 1)


def _bold_sentence(text: str) -> bool:
    """Whether a bold line opens with a release but says more than it: a sentence in bold, not a
    heading (nan's "**Version 2.30.0: current Node 26.12.0, Node 0.12: 0.12.18, ...**" above its
    "### 2.30.0 Oct 18 2026"), as a bold reST line opens a release only when it says only the
    release (``corpus.release_lines``)."""
    return opens_with_version(text) and release_alone(text) is None


def _alone(lines: list[Line], i: int) -> bool:
    before = i == 0 or not lines[i - 1].text.strip()
    after = i + 1 >= len(lines) or not lines[i + 1].text.strip()
    return before and after


def _skipped(lines: list[Line], fenced: list[bool]) -> list[bool]:
    """True for lines that cannot hold a heading: code fences, HTML blocks, comments, front matter."""
    skip = list(fenced)
    i, n = 0, len(lines)
    if n and lines[0].text.strip() == "---":
        for j in range(1, min(n, 200)):
            if lines[j].text.strip() in ("---", "..."):
                for k in range(j + 1):
                    skip[k] = True
                break
    in_comment = in_html = False
    for i, ln in enumerate(lines):
        if fenced[i]:
            continue
        text = ln.text
        if in_comment:
            skip[i] = True
            if "-->" in text:
                in_comment = False
            continue
        if in_html:
            if not text.strip():
                in_html = False
            else:
                skip[i] = True
            continue
        if _HTML_BLOCK.match(text):
            skip[i] = True
            start = text.find("<!--")
            if start >= 0 and "-->" not in text[start + 4:]:
                in_comment = True
            elif not text.rstrip().endswith(">") or not text.lstrip().startswith("<!--"):
                in_html = text.rstrip()[-1:] != ">" or not re.search(r"</\w+>\s*$|/>\s*$", text)
    return skip
