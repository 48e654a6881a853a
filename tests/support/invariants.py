"""Invariants every loaded document keeps: no text lost, chunk line ranges that hold their text."""

from __future__ import annotations

import re

from corpus import chrome_lines


def words(text: str) -> set[str]:
    text = re.sub(r"<[^>]*>", " ", text)  # heading breadcrumbs drop tags ...
    text = re.sub(r"\]\([^)]*\)", "] ", text)  # ... and link targets
    return set(re.findall(r"[a-z0-9]+", text.lower()))  # case aside: a reST title reads ":pep:`3118`" as "PEP 3118"


def squash(text: str) -> str:
    return "".join(text.split())


def check_invariants(loaded) -> None:
    doc = loaded.document
    lines = doc.text.split("\n")
    chrome = set(chrome_lines(doc))
    kept = "\n".join(line for n, line in enumerate(lines, start=1) if n not in chrome)
    covered: set[str] = set()
    for c in loaded.chunks:
        covered |= words(c.text) | words(" ".join(c.section))
        start, end = c.lines
        assert 1 <= start <= end <= len(lines)
        assert squash(c.text) in squash("\n".join(lines[start - 1 : end])), (c.section, c.lines)
        assert not set(range(start, end + 1)) & chrome
    lost = words(kept) - covered
    assert not lost, sorted(lost)[:20]
