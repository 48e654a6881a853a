"""The whole section a passage comes from, rebuilt from its chunks, so a reader sees it in context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from corpus.model import Chunk

from ..model import Citation, Passage

MIN_OVERLAP = 3  # characters, whole words at both ends; shorter matches are coincidences


@dataclass(frozen=True, slots=True)
class SectionView:
    """The whole section a passage comes from, split around the passage so a view can scroll to it."""

    citation: Citation
    before: str
    passage: str
    after: str


def overlap(first: str, second: str) -> int:
    """How many characters at the start of ``second`` repeat the end of ``first`` (whole words only).

    The chunker repeats the end of a chunk at the start of the next one when it splits a long
    section, so the passage view must not show that text twice.
    """
    for k in range(min(len(first), len(second)), MIN_OVERLAP - 1, -1):
        starts_word = k == len(first) or first[-k - 1].isspace()
        ends_word = k == len(second) or second[k].isspace() or not second[k - 1].isalnum()
        if starts_word and ends_word and first.endswith(second[:k]):
            return k
    return 0


def section_view(chunks: Sequence[Chunk], passage: Passage) -> SectionView:
    """Rebuild the passage's section from its chunks (same document, same heading path, in line order).

    Text repeated between neighbouring chunks is shown once, and the passage always whole. A
    passage whose text is one item of its chunk (a digest item) is shown within the chunk.
    Falls back to the passage alone when it is not in ``chunks``.
    """
    c = passage.citation
    siblings = sorted(
        (ch for ch in chunks if ch.document == c.document and ch.section == c.section),
        key=lambda ch: ch.lines,
    )
    ids = [ch.id for ch in siblings]
    if passage.chunk_id not in ids:
        return SectionView(c, "", passage.text, "")
    at = ids.index(passage.chunk_id)
    texts = [ch.text for ch in siblings]
    shared = [overlap(a, b) for a, b in zip(texts, texts[1:])]  # shared[j]: chunk j and j + 1

    before = ""
    for j in range(at):
        text = texts[j][shared[j - 1]:] if j else texts[j]
        if j == at - 1 and shared[j]:
            text = text[: len(text) - shared[j]]  # the passage shows the shared text itself
        before += (text if j and shared[j - 1] else ("\n\n" if before else "") + text)
    if before and not (at and shared[at - 1]):
        before += "\n\n"
    after = ""
    for j in range(at + 1, len(texts)):
        text = texts[j][shared[j - 1]:]
        after += text if shared[j - 1] else "\n\n" + text
    inside = texts[at].find(passage.text) if passage.text != texts[at] else -1
    if inside >= 0:  # an item of the chunk (a digest's): the rest of its chunk is context too
        before += texts[at][:inside]
        after = texts[at][inside + len(passage.text):] + after
    return SectionView(c, before, passage.text, after)
