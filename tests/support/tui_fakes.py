"""A deterministic backend for chat tests: fixed passages, answers by keyword, optional slowness."""

from __future__ import annotations

import threading
from typing import Sequence

from corpus.versions import version_matches
from qa.errors import BadQuestion
from qa.model import Answer, AnswerSentence, Citation, Digest, DigestItem, Passage, ReleaseDigest, ReleaseRange
from qa.answer.question import find_releases
from qa.answer.ranges import find_range
from qa.answer.section import SectionView
from qa.service import IndexInfo

RELEASES = ("2.9", "2.13", "2.14")

# (release, heading path, text); the answer sentence of each is its first sentence.
PASSAGES = (
    ("2.14", ("Prototype Features", "MPS native Metal kernels"),
     "PyTorch 2.14 adds native Metal kernels for MPS. Matmul runs up to 2x faster on Apple silicon."),
    ("2.13", ("Performance Improvements", "MPS"),
     "MPS gains fused kernels for layer norm in 2.13. Memory use drops for small batches."),
    ("2.14", ("Beta Features", "FlexAttention"),
     "Deterministic FlexAttention backward is now supported. Set torch.use_deterministic_algorithms(True)."),
    ("2.9", ("Stable Features", "ROCm"),
     "ROCm 6.4 wheels are published for 2.9. Install them from the ROCm index."),
    ("2.14", ("Notes", "Markup"),
     "Literal [bold]not bold[/] and [link=file:///etc/passwd]x[/] text stays as typed. Escape \x1b[31mred."),
)


def citation(i: int) -> Citation:
    version, section, _ = PASSAGES[i]
    return Citation(
        document=f"doc-{version}", title=f"PyTorch {version} release blog", product="PyTorch", version=version,
        section=section, source=f"pytorch-{version}.md", lines=(10 * i + 1, 10 * i + 4),
        url=f"https://pytorch.org/blog/{version}#{section[-1].lower().replace(' ', '-')}",
    )


def words(text: str) -> set[str]:
    return {w.strip(".,?!()").lower() for w in text.split()}


class FakeBackend:
    """Ranks the fixed passages by shared words with the question; the first sentence is the answer.

    ``gate``: when given, ask() waits for it (a slow engine the test releases).
    ``fail``: a question containing this word raises BadQuestion.
    """

    releases = RELEASES
    products = ("PyTorch",)

    def __init__(self, gate: threading.Event | None = None, fail: str = "explode") -> None:
        self.gate = gate
        self.fail = fail
        self.asked: list[tuple[str, int, str, tuple[str, ...]]] = []
        self.spans: list[ReleaseRange | None] = []  # the range each question was asked over
        self.info = IndexInfo(corpus="fake notes", documents=3, chunks=len(PASSAGES),
                              created="2026-11-29T10:00:00+00:00", directory="/fake")

    def ask(self, question: str, top_k: int = 5, mode: str = "hybrid", releases: Sequence[str] = (), *,
            typed: str | None = None, products: Sequence[str] = (), kinds: Sequence[str] = (),
            span: ReleaseRange | None = None) -> Answer:
        if self.gate is not None:
            self.gate.wait(10)
        if self.fail in question:
            raise BadQuestion(f"the fake engine refuses '{self.fail}'; ask something else")
        parsed = find_releases(question, known=self.releases, products=self.products)
        wanted = tuple(dict.fromkeys([*releases, *parsed.releases]))
        mention = find_range(question, self.releases, self.products)
        span = span or (mention.range if mention else None)
        if span is not None:
            wanted = ()  # a range's bounds are no release filter, as in the engine
        self.asked.append((question, top_k, mode, wanted))
        self.spans.append(span)
        asked = words(parsed.text or question)
        scored = [
            (len(asked & words(" ".join(sec) + " " + text)), i)
            for i, (version, sec, text) in enumerate(PASSAGES)
            if (not wanted or version in wanted) and (span is None or span.contains(version))
        ]
        ranked = [i for s, i in sorted(scored, key=lambda t: (-t[0], t[1])) if s > 0][:top_k]
        passages = tuple(
            Passage(rank, f"c{i}", PASSAGES[i][2], round(1.0 / rank, 4), citation(i))
            for rank, i in enumerate(ranked, 1)
        )
        sentences = (AnswerSentence(PASSAGES[ranked[0]][2].split(". ")[0] + ".", 1, 0.9),) if ranked else ()
        digest = None
        if question.lower().startswith("what changed in") and len(wanted) == 1:  # a release digest, as the engine's
            items = tuple(DigestItem(text, "added", citation(i), 0.0, f"c{i}")
                          for i, (version, _, text) in enumerate(PASSAGES) if version == wanted[0])
            digest = Digest("release", (ReleaseDigest("PyTorch", wanted[0], items, (("fixed", 2),)),))
            sentences = ()
        return Answer(
            question=typed or question, asked_as=parsed.text or question, releases=wanted, mode=mode,
            passages=passages, sentences=sentences, confident=bool(ranked),
            note=None if ranked else "No passage matches this question.",
            products=tuple(dict.fromkeys([*products, *parsed.products])) if len(self.products) > 1 else (),
            kinds=tuple(kinds), digest=digest, range=span,
            shape="release" if digest else ("which" if parsed.which_release and not wanted else "search"),
        )

    def release_groups(self) -> tuple[tuple[str | None, tuple[str, ...]], ...]:
        return (("PyTorch", self.releases),)

    def held(self, release: str, products: Sequence[str] = ()) -> bool:
        return any(version_matches(r, release) for r in self.releases)

    def refresh(self) -> IndexInfo:
        return self.info

    def section(self, passage: Passage) -> SectionView:
        return SectionView(passage.citation, "Text before the passage.\n\n" * 30, passage.text,
                           "\n\nText after the passage.")
