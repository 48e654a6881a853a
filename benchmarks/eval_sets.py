"""hit@5 and MRR@10 of every retrieval question set, per mode, and the change between two checkouts.

    python benchmarks/eval_sets.py --out /tmp/after.json                 # this checkout
    python benchmarks/eval_sets.py --out /tmp/before.json --root ../old  # another checkout
    python benchmarks/eval_sets.py --compare /tmp/before.json /tmp/after.json

Each set (``pytorch*``: the bundled notes; ``zoo*``: ``../shared/data/zoo``; ``changelogs*``:
``../shared/data/changelogs``; sets whose data is absent are skipped) is run through ``relnotes
eval --json`` of the checkout given, in a child process. Give each checkout a cache folder of its
own (``--cache``) when both run at once, or they rebuild each other's indexes. ``--compare``
prints a Markdown table of both and the difference, and exits 1 when a set loses more than
``--tolerance`` on either metric.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RETRIEVAL_SETS = ("pytorch", "zoo", "changelogs")


def corpus_of(name: str, shared: Path) -> list[str] | None:
    if name.startswith("pytorch"):
        return []
    for prefix in ("zoo", "changelogs"):
        if name.startswith(prefix):
            folder = shared / "data" / prefix
            return ["--corpus", str(folder)] if folder.is_dir() else None
    return None


def run(root: Path, shared: Path, modes: str, cache: Path | None, only: list[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root)}
    if cache is not None:
        env["XDG_CACHE_HOME"] = str(cache)
    results = {}
    for path in sorted((ROOT / "benchmarks" / "questions").glob("*.jsonl")):
        if (not path.stem.startswith(RETRIEVAL_SETS) or path.stem.startswith("zoo-releases")  # release shapes, no spans
                or (only and not path.stem.startswith(tuple(only)))):
            continue
        corpus = corpus_of(path.stem, shared)
        if corpus is None:
            continue
        print(path.stem, file=sys.stderr, flush=True)
        done = subprocess.run([sys.executable, "-m", "qa", "eval", str(path), "--json", "--mode", modes, *corpus],
                              cwd=root, env=env, capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"{path.stem}: {done.stderr.strip()}")
        record = json.loads(done.stdout)
        results[path.stem] = {mode: {"hit@5": m["metrics"]["hit@5"], "MRR@10": m["metrics"]["MRR@10"]}
                              for mode, m in record["modes"].items()}
    return results


def compare(before: dict, after: dict, tolerance: float) -> int:
    print("| set | mode | hit@5 before | after | change | MRR@10 before | after | change |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    lost = 0
    for name in before:
        for mode, old in before[name].items():
            new = after.get(name, {}).get(mode)
            if new is None:
                continue
            d5, dm = new["hit@5"] - old["hit@5"], new["MRR@10"] - old["MRR@10"]
            lost += d5 < -tolerance or dm < -tolerance
            print(f"| {name} | {mode} | {old['hit@5']:.3f} | {new['hit@5']:.3f} | {d5:+.3f} | "
                  f"{old['MRR@10']:.3f} | {new['MRR@10']:.3f} | {dm:+.3f} |")
    return 1 if lost else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--cache", type=Path, help="XDG_CACHE_HOME for the child processes.")
    parser.add_argument("--modes", default="bm25,dense,hybrid")
    parser.add_argument("--only", default="", help="Comma-separated set name prefixes.")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--tolerance", type=float, default=0.0)
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        sys.exit(compare(before, after, args.tolerance))
    if args.out is None:
        parser.error("give --out FILE or --compare BEFORE AFTER")
    results = run(args.root.resolve(), args.shared.resolve(), args.modes, args.cache,
                  [o for o in args.only.split(",") if o])
    args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
