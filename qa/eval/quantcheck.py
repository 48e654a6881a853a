"""``relnotes index --quantize --check QUESTIONS``: int8 vectors only when they answer the user's
question sets within MAX_DROP of full precision.

The full-precision index is built (or updated) as usual, an int8 index of the same corpus is
built beside it, and both answer every question set (hybrid, MRR@10, judged as ``relnotes
eval`` judges). When no set loses more than MAX_DROP, the int8 index takes the place of the
full-precision one (later updates keep it int8); otherwise it is removed and the full-precision
index stays. Either way each set's two scores are reported.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

MAX_DROP = 0.005  # MRR@10 a question set may lose to int8 (issue 18)


@dataclass(frozen=True, slots=True)
class SetCheck:
    """One question set answered at full precision and through int8."""

    name: str
    questions: int
    full: float  # hybrid MRR@10
    int8: float

    @property
    def passed(self) -> bool:
        return self.full - self.int8 <= MAX_DROP + 1e-12


@dataclass(frozen=True, slots=True)
class QuantizeCheck:
    """The outcome: every set's scores, and whether the index is now int8."""

    sets: tuple[SetCheck, ...]
    kept_int8: bool
    directory: str
    already: bool = False  # the index was int8 before: nothing was done


def hybrid_mrr(service, questions) -> float:
    """Hybrid MRR@10 of ``service`` on ``questions`` (``qa.eval.questions.Question``), as ``relnotes eval``."""
    from .run import evaluate, service_retrieve

    return float(evaluate(questions, service.chunks, service_retrieve(service), ["hybrid"], depth=20)[0]
                 .metrics["MRR@10"])


def quantize_checked(corpus_paths: Sequence, index_dir: Path | None, model_path: Path | None,
                     checks: Sequence[Path], *, notify: Callable[[str], None] | None = None,
                     progress=None) -> QuantizeCheck:
    """Build the int8 trial index, answer ``checks`` with both, keep int8 only if every set holds.

    Raises:
        QuestionSetError: a question file is bad (before anything is built).
        CorpusError, RelnotesIndexError: as ``AnswerService.open``.
    """
    import os

    from index import discard_index, index_status, replace_index

    from ..service import AnswerService
    from .questions import load_questions

    sets = [(Path(path), load_questions(Path(path))) for path in checks]
    status = index_status(list(corpus_paths) or None, index_dir, model_path)
    if status.exists and (status.model or {}).get("quantized"):  # int8 already: nothing to build or lose
        return QuantizeCheck((), True, status.index, already=True)
    full = AnswerService.open(corpus_paths, index_dir, model_path, notify=notify, progress=progress, quantize=False)
    directory = Path(full.info.directory)
    trial = directory.with_name(f"{directory.name}-int8-trial-{os.getpid()}")
    if notify:
        notify(f"Building an int8 index beside it ({trial}) to answer {len(sets)} question sets with both ...")
    try:
        # A copy of the full-precision index, rebuilt int8: it keeps that index's model (an adapted
        # one stays adapted) and is replaced whole, as any rebuild.
        shutil.copytree(directory, trial)
        built = AnswerService.open(corpus_paths, trial, model_path, notify=notify, progress=progress, quantize=True)
        if "quantized" not in built.engine.index.manifest.model:  # no int8 export here: said in a notice
            return QuantizeCheck((), False, str(directory))
        # Opened again as a later question would: asked through the int8 export (the build's own
        # process holds the float model it loaded).
        int8 = AnswerService.open(corpus_paths, trial, model_path, update=False)
        scores = tuple(SetCheck(path.name, len(qs), hybrid_mrr(full, qs), hybrid_mrr(int8, qs)) for path, qs in sets)
        passed = all(s.passed for s in scores)
        if passed:
            replace_index(trial, directory)
        return QuantizeCheck(scores, passed, str(directory))
    finally:
        discard_index(trial)  # moved into place, or refused: its folder, lock and stamp go
