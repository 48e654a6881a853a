"""The batch JSON of every question set, to show a change keeps answers as they were.

    python benchmarks/batch_snapshot.py --out /tmp/before          # at the commit before
    python benchmarks/batch_snapshot.py --out /tmp/after           # at the commit after
    python benchmarks/batch_snapshot.py --compare /tmp/before /tmp/after

Each set is answered by ``python -m qa batch --format json`` over its corpus (the bundled notes
for ``pytorch*``, ``../shared/data/zoo`` for ``zoo*``, ``../shared/data/changelogs`` for
``changelogs*``; sets whose data is absent are skipped), in each mode of ``--modes``. The code
answering is the repository this script is in (``--root`` for another checkout: run each side
from a checkout of its own). ``--compare`` prints the questions whose records differ (timings and
the notes' data aside, scores to 4 places, bundled paths without their checkout) and exits 1 when any does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IGNORED = {"timings_ms", "notes"}  # "notes": the notes as data, new beside their words ("note")


def corpus_of(name: str, shared: Path) -> list[str] | None:
    """The --corpus arguments of a question set, [] for the bundled notes, None when absent."""
    if name.startswith("pytorch"):
        return []
    for prefix, folder in (("zoo", shared / "data" / "zoo"), ("changelogs", shared / "data" / "changelogs")):
        if name.startswith(prefix):
            return ["--corpus", str(folder)] if folder.is_dir() else None
    return None


def snapshot(out: Path, root: Path, modes: list[str], shared: Path, only: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(root)}
    for questions in sorted((root / "benchmarks" / "questions").glob("*.jsonl")):
        if only and not any(questions.stem.startswith(o) for o in only):
            continue
        corpus = corpus_of(questions.stem, shared)
        if corpus is None:
            print(f"skipped {questions.stem}: its corpus is absent", file=sys.stderr)
            continue
        for mode in modes:
            target = out / f"{questions.stem}.{mode}.json"
            command = [sys.executable, "-m", "qa", "batch", str(questions), "--format", "json", "--mode", mode, *corpus]
            print(f"{questions.stem} {mode}", file=sys.stderr, flush=True)
            result = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
            if result.returncode:
                sys.exit(f"{' '.join(command)} failed:\n{result.stderr}")
            target.write_text(result.stdout, encoding="utf-8")


def _clean(record, key: str = ""):
    """A record as compared: timings and the notes' data left out, scores to 4 places (the last
    digits of a dense score vary with thread timing), a bundled source path without the checkout it is in."""
    if isinstance(record, dict):
        return {k: _clean(v, k) for k, v in record.items() if k not in IGNORED}
    if isinstance(record, list):
        return [_clean(v) for v in record]
    if isinstance(record, float):
        return round(record, 4)
    if key == "source" and isinstance(record, str) and "/corpus/data/" in record:
        return "corpus/data/" + record.split("/corpus/data/", 1)[1]
    return record


def compare(before: Path, after: Path) -> int:
    differ = 0
    for old in sorted(before.glob("*.json")):
        new = after / old.name
        if not new.exists():
            print(f"{old.name}: missing in {after}")
            differ += 1
            continue
        a = {r["id"]: _clean(r) for r in json.loads(old.read_text(encoding="utf-8"))}
        b = {r["id"]: _clean(r) for r in json.loads(new.read_text(encoding="utf-8"))}
        changed = [qid for qid in a if a[qid] != b.get(qid)]
        for qid in changed:
            keys = sorted(k for k in set(a[qid]) | set(b.get(qid, {})) if a[qid].get(k) != b.get(qid, {}).get(k))
            print(f"{old.stem} {qid}: {', '.join(keys)} differ")
        print(f"{old.stem}: {len(a) - len(changed)} of {len(a)} identical", file=sys.stderr)
        differ += len(changed)
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="Folder to write one JSON file per set and mode into.")
    parser.add_argument("--root", type=Path, default=ROOT, help="The checkout whose code answers.")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared", help="The shared data folder.")
    parser.add_argument("--modes", default="hybrid,bm25", help="Comma-separated retrieval modes.")
    parser.add_argument("--only", default="", help="Comma-separated set name prefixes (default: every set).")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare))
    if args.out is None:
        parser.error("give --out DIR or --compare BEFORE AFTER")
    snapshot(args.out, args.root.resolve(), [m for m in args.modes.split(",") if m],
             args.shared.resolve(), [o for o in args.only.split(",") if o])


if __name__ == "__main__":
    main()
