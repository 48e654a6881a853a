"""A deterministic backend for chat tests: fixed passages, answers by keyword, optional slowness."""

from __future__ import annotations

import threading
from typing import Sequence

from corpus.versions import version_matches
from qa.errors import BadQuestion
from qa.model import Answer, AnswerSentence, Citation, Digest, DigestItem, Note, Passage, ReleaseDigest, ReleaseRange
from qa.question import Question, read
from qa.answer.section import SectionView
from qa.service import IndexInfo
from qa.staging import Retrieval

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
        self.now = Retrieval("hybrid")
        self.info = IndexInfo(corpus="fake notes", documents=3, chunks=len(PASSAGES),
                              created="2026-11-29T10:00:00+00:00", directory="/fake")

    @property
    def catalogue(self):
        return self  # it has releases and products, all reading needs

    def ask(self, question: Question | str, top_k: int = 5, mode: str = "hybrid", releases: Sequence[str] = (), *,
            products: Sequence[str] = (), kinds: Sequence[str] = (), span: ReleaseRange | None = None) -> Answer:
        if self.gate is not None:
            self.gate.wait(10)
        asked = question if isinstance(question, Question) else read(question, self, releases=releases,
                                                                      products=products, span=span)
        question = asked.text
        if self.fail in question:
            raise BadQuestion(f"the fake engine refuses '{self.fail}'; ask something else")
        wanted, span = asked.releases, asked.range
        if span is not None:
            wanted = ()  # a range's bounds are no release filter, as in the engine
        self.asked.append((question, top_k, mode, wanted))
        self.spans.append(span)
        terms = words(asked.asked_as)
        scored = [
            (len(terms & words(" ".join(sec) + " " + text)), i)
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
            question=asked.typed, asked_as=asked.asked_as, releases=wanted, mode=mode,
            passages=passages, sentences=sentences, confident=bool(ranked),
            notes=() if ranked else (Note("no_match"),), products=asked.products,
            kinds=tuple(kinds), digest=digest, range=span,
            shape="release" if digest else ("which" if asked.shape.name == "which" else "search"),
        )

    def release_groups(self) -> tuple[tuple[str | None, tuple[str, ...]], ...]:
        return (("PyTorch", self.releases),)

    def held(self, release: str, products: Sequence[str] = ()) -> bool:
        return any(version_matches(r, release) for r in self.releases)

    def refresh(self) -> IndexInfo:
        return self.info

    def retrieval(self) -> Retrieval:
        return self.now  # a test sets it to Retrieval("bm25", ...) for an index whose vectors are building

    def section(self, passage: Passage) -> SectionView:
        return SectionView(passage.citation, "Text before the passage.\n\n" * 30, passage.text,
                           "\n\nText after the passage.")
