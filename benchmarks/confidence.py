"""Where the confidence threshold falls: best-sentence scores of questions the notes answer and of
questions they do not, per mode, and what each threshold would keep.

    python benchmarks/confidence.py                       # every answer set but those held out, bm25 and hybrid
    python benchmarks/confidence.py --modes hybrid --sets answers-zoo,fresh4-dev
    python benchmarks/confidence.py --offtopic offtopic6  # an off-topic set kept out of tuning (issue 44, round 10)

On-topic questions are the answer sets' (``answer_spans.SETS``, blind parts and the set held out
this round left out); off-topic ones are ``benchmarks/questions/offtopic.jsonl`` (tuned on since the
fifth round; ``offtopic2.jsonl`` to ``offtopic5.jsonl``, written blind for the sixth to ninth rounds and
scored at their ends, and ``offtopic6.jsonl`` and ``offtopic7.jsonl``, written blind for the tenth, are
kept out of tuning), asked over each of those corpora unless the corpus's text holds one of the
question's ``absent`` words (then the notes might answer it). Every question is answered once with no threshold; the best score of a
quotable sentence (``qa.answer.evidence.pick``'s) is kept, and whether the answer names a release
(a which-release answer quotes its stating item whatever the threshold). A threshold ``t`` then
answers a question when its score is at least ``t`` or it names a release. Columns per ``t``:

- gold kept: on-topic questions whose quoted answer holds the gold span and that ``t`` still answers;
- answered: on-topic questions ``t`` answers; off answered: off-topic questions ``t`` answers
  (each one a confident answer to a question the notes do not hold).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from answer_spans import SETS, corpus_paths  # noqa: E402
from qa.eval.questions import load_questions, normalise  # noqa: E402

# scored at the end of the round: never looked at here (fresh10-dev, never read, and fresh11-held, written blind at
# the tenth round's start, are its held-out sets; fresh9-held and fresh10-held were read after the ninth's scoring
# and fresh11-dev after its first scoring, so the tenth round tunes on them)
HELD_OUT = {"fresh10-dev", "fresh11-held"}
THRESHOLDS = (0.1, 0.15, 0.2, 0.225, 0.25, 0.275, 0.3, 0.35, 0.4)


@dataclass(frozen=True)
class Scored:
    on_topic: bool
    score: float  # the best quotable sentence's score (0.0: no sentence)
    names_release: bool  # a which-release answer: quoted whatever the threshold
    gold: bool  # the quote (with no threshold) holds the gold span; False off topic


def _recording(best: list[float]):
    """``pick`` with no threshold, recording the best quotable score of each call."""
    import qa.answer.engine as engine
    from qa.answer.evidence import pick, says_something

    def recorded(candidates, threshold, bonus=None):
        quotable = [c for c in candidates if says_something(c.span.text)] or list(candidates)
        best.append(max((c.score for c in quotable), default=0.0))
        return pick(candidates, float("-inf"), bonus)

    engine.pick = recorded


def _answered(service, question: str, mode: str, best: list[float]):
    best.clear()
    answer = service.ask(question, top_k=10, mode=mode)
    return answer, (best[-1] if best else 0.0)


def _uses(text: str, word: str) -> bool:
    """Whether the notes' ``text`` (lower case) uses ``word`` as a word ("vat" is not in "private")."""
    return re.search(r"(?<![\w-])" + re.escape(word) + r"(?:s|es)?(?![\w-])", text) is not None


def score(names: list[str], modes: list[str], shared: Path, offtopic_set: str = "offtopic") -> dict[str, list[Scored]]:
    """Every on-topic and off-topic question of the sets ``names``, answered once a mode with no threshold."""
    from qa.service import AnswerService

    best: list[float] = []
    _recording(best)
    offtopic = [json.loads(line) for line in (ROOT / "benchmarks" / "questions" / f"{offtopic_set}.jsonl")
                .read_text(encoding="utf-8").splitlines() if line.strip()]
    out: dict[str, list[Scored]] = {m: [] for m in modes}
    for name in names:
        paths = corpus_paths(name, shared)
        if paths is None:
            print(f"skipped {name}: its corpus is not at hand", file=sys.stderr)
            continue
        service = AnswerService.open(paths, notify=lambda message: None)
        text = " ".join(c.text for c in service.chunks).lower()
        asked = [q for q in offtopic if not any(_uses(text, word) for word in q["absent"])]
        for q in load_questions(ROOT / "benchmarks" / "questions" / f"{name}.jsonl"):
            for mode in modes:
                answer, top = _answered(service, q.question, mode, best)
                quoted = normalise(" ".join(s.text for s in answer.sentences))
                gold = bool(quoted) and normalise(q.answer or "") in quoted
                out[mode].append(Scored(True, top, answer.earliest_release is not None, gold))
        for q in asked:
            for mode in modes:
                answer, top = _answered(service, q["question"], mode, best)
                out[mode].append(Scored(False, top, answer.earliest_release is not None, False))
    return out


def table(scored: dict[str, list[Scored]]) -> str:
    """The Markdown table of what each threshold keeps, a row a mode and threshold."""
    lines = ["| mode | threshold | on-topic | gold kept | answered | off-topic | off answered |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for mode, rows in scored.items():
        on = [r for r in rows if r.on_topic]
        off = [r for r in rows if not r.on_topic]
        for t in THRESHOLDS:
            kept = [r for r in on if r.score >= t or r.names_release]
            false = [r for r in off if r.score >= t or r.names_release]
            lines.append(f"| {mode} | {t:.3f} | {len(on)} | {sum(r.gold for r in kept) / max(len(on), 1):.3f} | "
                         f"{len(kept) / max(len(on), 1):.3f} | {len(off)} | {len(false) / max(len(off), 1):.3f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(n for n in SETS if n not in HELD_OUT  # a set with only a blind part: none
                                                    and (ROOT / "benchmarks" / "questions" / f"{n}.jsonl").is_file()))
    parser.add_argument("--modes", default="bm25,hybrid")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--offtopic", default="offtopic", help="off-topic question set (benchmarks/questions/NAME.jsonl)")
    args = parser.parse_args()
    if not (ROOT / "benchmarks" / "questions" / f"{args.offtopic}.jsonl").is_file():
        parser.error(f"no off-topic set benchmarks/questions/{args.offtopic}.jsonl")
    names = [n for n in args.sets.split(",") if n]
    unknown = [n for n in names if n not in SETS or n in HELD_OUT]
    if unknown:
        parser.error(f"unknown or held-out set {unknown[0]!r}; sets: {', '.join(n for n in SETS if n not in HELD_OUT)}")
    print(table(score(names, args.modes.split(","), args.shared, args.offtopic)))


if __name__ == "__main__":
    main()
