"""The grid behind qa.answer.rerank's RerankConfig defaults: weight x depth x normalisation on both shipped question sets.

    .venv/bin/python benchmarks/rerank_grid.py [--index DIR] [--weights 0.1,0.2] [--depths 10,20]

Each question goes through ``Engine.ask`` with ``top_k=20``, as ``relnotes eval`` asks it, on an
engine built with ``RerankConfig(weight=..., depth=..., normalise=...)``; the first row of each
mode is the engine without re-ranking (weight 0). Prints one Markdown table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from index import open_index
from qa.answer.engine import Engine
from qa.answer.rerank import RerankConfig
from qa.eval.questions import load_questions
from qa.eval.run import evaluate

QUESTIONS = Path(__file__).resolve().parent / "questions"
SETS = ("pytorch.jsonl", "pytorch-fresh.jsonl")
MODES = ("bm25", "dense", "hybrid")


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--index", type=Path, default=None)
    parser.add_argument("--weights", type=_floats, default=[0.1, 0.2, 0.3, 0.4])
    parser.add_argument("--depths", type=lambda t: [int(x) for x in t.split(",")], default=[10, 20, 30])
    parser.add_argument("--normalise", default="top,minmax")
    args = parser.parse_args()
    loaded, _ = open_index(None, index_dir=args.index, notify=lambda m: print(m, file=sys.stderr))
    by_id = {c.id: c for c in loaded.chunks}
    sets = {name: load_questions(QUESTIONS / name) for name in SETS}
    settings = [(0.0, 0, "-")] + [
        (w, d, n) for n in args.normalise.split(",") for d in args.depths for w in args.weights
    ]
    print("| mode | weight | depth | norm | hit@1 | hit@5 | MRR@10 | fresh hit@1 | hit@5 | MRR@10 | sum MRR+hit@5 |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for weight, depth, norm in settings:
        if weight == 0:
            config = RerankConfig(weight=0.0)  # re-ranking off; depth and normalise unused
        else:
            config = RerankConfig(weight=weight, depth=depth, normalise=norm)
        engine = Engine(loaded, rerank_config=config)

        def retrieve(question: str, mode: str, k: int, engine: Engine = engine):
            return [by_id[p.chunk_id] for p in engine.ask(question, top_k=k, mode=mode).passages]

        rows = {m: [] for m in MODES}
        for questions in sets.values():
            for r in evaluate(questions, loaded.chunks, retrieve, MODES, depth=20):
                rows[r.mode].append(r.metrics)
        for mode in MODES:
            a, b = rows[mode]
            total = a["MRR@10"] + a["hit@5"] + b["MRR@10"] + b["hit@5"]
            print(f"| {mode} | {weight} | {depth or '-'} | {norm} | {a['hit@1']:.3f} | {a['hit@5']:.3f} | "
                  f"{a['MRR@10']:.3f} | {b['hit@1']:.3f} | {b['hit@5']:.3f} | {b['MRR@10']:.3f} | {total:.3f} |",
                  flush=True)


if __name__ == "__main__":
    main()
