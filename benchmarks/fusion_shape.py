"""Fusion weights by the shape of a corpus: searcher MRR@10 / hit@5 per question kind for each
candidate FusionParams, on each question set with its corpus (what chose LIST_FUSION).

    .venv/bin/python benchmarks/fusion_shape.py                       # the issue-16 tuning sets and the bundled ones
    .venv/bin/python benchmarks/fusion_shape.py --set zoo=benchmarks/questions/zoo-16.jsonl:../shared/data/zoo

A set is NAME=QUESTIONS[:CORPUS] (no corpus: the bundled notes). Each corpus's list share
(``corpus.items.list_share``) is printed with the fusion the searcher would pick for it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from corpus.items import list_share
from index import Searcher, open_index
from index.retrieve.fusion import DEFAULT_FUSION, LIST_FUSION, FusionParams, fusion_for
from qa.eval.questions import load_questions
from qa.eval.run import judge

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
QUESTIONS = ROOT / "benchmarks" / "questions"
SETS = [
    f"changelogs-16={QUESTIONS / 'changelogs-16.jsonl'}:{SHARED / 'changelogs'}",
    f"zoo-16={QUESTIONS / 'zoo-16.jsonl'}:{SHARED / 'zoo'}",
    f"pytorch={QUESTIONS / 'pytorch.jsonl'}",
    f"pytorch-heldout={QUESTIONS / 'pytorch-heldout.jsonl'}",
]
CANDIDATES = {
    "default": DEFAULT_FUSION,
    "list": LIST_FUSION,
    "sentences 0.8": FusionParams("minmax", 60, (0.5, 0.5), 1000, 0.8),
    "dense 0.2": FusionParams("minmax", 60, (0.5, 0.2), 1000, 0.8),
    "rrf": FusionParams("rrf", 60, (1.0, 1.0), 1000, 1.0),
}


def parse_set(value: str) -> tuple[str, Path, Path | None]:
    name, _, rest = value.partition("=")
    questions, _, corpus = rest.partition(":")
    if not name or not questions:
        raise SystemExit(f"--set {value!r}: give NAME=QUESTIONS[:CORPUS]")
    return name, Path(questions), Path(corpus) if corpus else None


def score(searcher: Searcher, questions, relevant) -> dict[str, tuple[float, float, int]]:
    """kind -> (MRR@10, hit@5, n), "all" included."""
    sums: dict[str, list[float]] = {}
    for q in questions:
        ids = [h.chunk.id for h in searcher.search(q.question, k=10)]
        rank = next((i for i, c in enumerate(ids, 1) if c in relevant[q.id]), None)
        for kind in ("all", q.kind or "-"):
            s = sums.setdefault(kind, [0.0, 0.0, 0])
            s[0] += 1 / rank if rank else 0.0
            s[1] += bool(rank and rank <= 5)
            s[2] += 1
    return {k: (s[0] / s[2], s[1] / s[2], int(s[2])) for k, s in sums.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", action="append", dest="sets", help="NAME=QUESTIONS[:CORPUS] (repeatable)")
    args = parser.parse_args()
    print("| set | list share | picked | candidate | all MRR@10 / hit@5 | per kind (MRR@10 / hit@5) |")
    print("|---|---|---|---|---|---|")
    for name, questions_file, corpus in map(parse_set, args.sets or SETS):
        if corpus is not None and not corpus.exists():
            print(f"{name}: {corpus} is absent; skipped", file=sys.stderr)
            continue
        loaded, _ = open_index([corpus] if corpus else None, notify=lambda m: print(m, file=sys.stderr))
        share = list_share(c.text[i.start : i.end] for c in loaded.chunks for i in c.items)
        picked = next(n for n, p in CANDIDATES.items() if p == fusion_for(share))
        questions = load_questions(questions_file)
        relevant = judge(questions, loaded.chunks)
        questions = [q for q in questions if relevant[q.id]]
        for label, params in CANDIDATES.items():
            scores = score(Searcher(loaded, params), questions, relevant)
            mrr, hit5, n = scores.pop("all")
            kinds = " ".join(f"{k} {m:.3f}/{h:.2f}" for k, (m, h, _) in sorted(scores.items()))
            print(f"| {name} ({n}) | {share:.2f} | {picked} | {label} | {mrr:.3f} / {hit5:.2f} | {kinds} |", flush=True)


if __name__ == "__main__":
    main()
