"""Honest scope: questions about products a corpus does not hold are refused, those about held
products are answered from the right product and release.

    python benchmarks/scope_eval.py                 # benchmarks/questions/scope.jsonl
    python benchmarks/scope_eval.py --blind         # scope-blind.jsonl (score it once, at the end)
    python benchmarks/scope_eval.py --misses        # list what went wrong

Each question names its corpus (``bundled``: the bundled notes; ``zoo``, ``changelogs``: those
folders of ``../shared/data``) and what it expects:

- ``refuse``: right when the answer holds no passage and a note that the corpus holds no such
  product (``product_not_held``);
- ``answer``: right when it is answered (no such note) from the expected product and release
  (passage 1 is of them); ``span@5``: also a passage holding the ``answer`` span among the first five.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from corpus.versions import version_matches  # noqa: E402
from qa.eval.questions import normalise  # noqa: E402

CORPORA = {"bundled": None, "zoo": "zoo", "changelogs": "changelogs"}


def refused(answer) -> bool:
    return any(n.kind == "product_not_held" for n in answer.notes)


def right(passage, q: dict, span: bool = True) -> bool:
    c = passage.citation
    if (c.product or "").lower() != (q.get("product") or "").lower():
        return False
    if q.get("version") and not version_matches(c.version, q["version"]):
        return False
    return not span or not q.get("answer") or normalise(q["answer"]) in normalise(passage.text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blind", action="store_true", help="Score scope-blind.jsonl (once, at the end).")
    parser.add_argument("--mode", default="hybrid")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    from qa.service import AnswerService

    path = ROOT / "benchmarks" / "questions" / ("scope-blind.jsonl" if args.blind else "scope.jsonl")
    questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    services = {}
    counts: dict[tuple[str, str], list[int]] = {}  # (corpus, expect) -> [questions, right, right@1]
    for q in questions:
        folder = CORPORA[q["corpus"]]
        if folder is not None and not (args.shared / "data" / folder).is_dir():
            continue
        if q["corpus"] not in services:
            paths = [] if folder is None else [args.shared / "data" / folder]
            services[q["corpus"]] = AnswerService.open(paths, notify=lambda m: print(m, file=sys.stderr))
        answer = services[q["corpus"]].ask(q["question"], top_k=5, mode=args.mode)
        row = counts.setdefault((q["corpus"], q["expect"]), [0, 0, 0])
        row[0] += 1
        if q["expect"] == "refuse":
            ok = first = refused(answer) and not answer.passages
        else:
            ok = not refused(answer) and bool(answer.passages) and right(answer.passages[0], q, span=False)
            first = not refused(answer) and any(right(p, q) for p in answer.passages[:5])
        row[1] += ok
        row[2] += first
        if args.misses and not ok:
            why = "; ".join(n.kind for n in answer.notes) or "answered"
            top = answer.passages[0].citation if answer.passages else None
            print(f"  miss {q['id']} [{q['expect']}] {q['question']!r}: {why}; passage 1: "
                  f"{(top.product, top.version) if top else None}", file=sys.stderr)
    print(f"{path.name}, mode {args.mode}\n")
    print("| corpus | expect | questions | right | span@5 (answer) |")
    print("|---|---|---:|---:|---:|")
    totals: dict[str, list[int]] = {}
    for (corpus, expect), (n, ok, first) in sorted(counts.items()):
        print(f"| {corpus} | {expect} | {n} | {ok / n:.3f} | {first / n:.3f} |")
        total = totals.setdefault(expect, [0, 0, 0])
        total[0], total[1], total[2] = total[0] + n, total[1] + ok, total[2] + first
    for expect, (n, ok, first) in sorted(totals.items()):
        print(f"| all | {expect} | {n} | {ok / n:.3f} | {first / n:.3f} |")


if __name__ == "__main__":
    main()
