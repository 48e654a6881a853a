"""Retrieval quality of bm25 / dense / hybrid on the bundled question set (no answer extraction).

    .venv/bin/python benchmarks/questions_retrieval.py [--questions FILE] [--index DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from index import Searcher, open_index
from qa.eval.questions import load_questions
from qa.eval.run import evaluate

QUESTIONS = Path(__file__).resolve().parent / "questions"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=Path, default=QUESTIONS / "pytorch.jsonl")
    parser.add_argument("--index", type=Path, default=None)
    parser.add_argument("--misses", action="store_true", help="list the questions hybrid missed at rank 1")
    args = parser.parse_args()
    loaded, _ = open_index(None, index_dir=args.index, notify=lambda m: print(m, file=sys.stderr))
    searcher = Searcher(loaded)
    questions = load_questions(args.questions)

    def retrieve(question: str, mode: str, k: int):
        return [h.chunk for h in searcher.search(question, k=k, mode=mode)]

    results = evaluate(questions, loaded.chunks, retrieve, ("bm25", "dense", "hybrid"))
    cols = list(results[0].metrics)
    print(f"{len(questions)} questions, {len(results[0].unjudgeable)} with no relevant chunk")
    print("| mode | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for r in results:
        print(f"| {r.mode} | " + " | ".join(f"{r.metrics[c]:.3f}" for c in cols) + " |")
    kinds = list(results[0].per_kind)
    print("\nper kind, MRR@10:")
    print("| kind | " + " | ".join(r.mode for r in results) + " |")
    for kind in kinds:
        print(f"| {kind} | " + " | ".join(f"{r.per_kind[kind]['MRR@10']:.3f}" for r in results) + " |")
    if args.misses:
        qs = {q.id: q for q in questions}
        for qid, rank in results[-1].misses:
            print(f"{qid} rank={rank} [{qs[qid].version}] {qs[qid].question}")


if __name__ == "__main__":
    main()
