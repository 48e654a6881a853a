"""Score release-overview, upgrade and range questions: item recall and in-range precision.

Each question (benchmarks/questions/zoo-releases*.jsonl) names a product, a release or a range
(since, until], and the gold items a user must know, by file and first line. An item is
recalled when a returned unit (a digest item, or one of the top passages) covers its line in
its file. In-range precision: the share of returned units whose release is the question's
release or lies in its range.

    python benchmarks/release_questions.py benchmarks/questions/zoo-releases.jsonl --corpus ../shared/data/zoo

Works with code that has no digests (an older checkout on PYTHONPATH): then only passages count.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from corpus.versions import version_key, version_matches
from qa.service import AnswerService

TOP = 20  # passages a user scrolls through


def after(version: str, since: str) -> bool:  # as qa.model.ReleaseRange reads a range (kept here for old checkouts)
    return not version_matches(version, since) and version_key(version) > version_key(since)


def up_to(version: str, until: str) -> bool:
    return version_matches(version, until) or version_key(version) < version_key(until)


def in_scope(version: str | None, q: dict) -> bool:
    """Whether a unit's release is the question's release, or in its range (since, until]."""
    if not version:
        return False
    try:
        if q["shape"] == "overview":
            return version_matches(version, q["release"])
        return ((q.get("since") is None or after(version, q["since"]))
                and (q.get("until") is None or up_to(version, q["until"])))
    except ValueError:
        return False


def covers(units: list[tuple[str, tuple[int, int], str | None]], gold: dict, corpus: Path) -> bool:
    path = str((corpus / gold["source"]).resolve())
    return any(src == path and lines[0] <= gold["line"] <= lines[1] for src, lines, _ in units)


def units_of(answer, kind: str) -> list[tuple[str, tuple[int, int], str | None]]:
    if kind == "digest":
        digest = getattr(answer, "digest", None)
        items = digest.items if digest is not None else ()
        return [(str(Path(i.citation.source).resolve()), i.citation.lines, i.citation.version) for i in items]
    return [(str(Path(p.citation.source).resolve()), p.citation.lines, p.citation.version) for p in answer.passages]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", type=Path, nargs="+")
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--index", type=Path, default=None)
    parser.add_argument("--mode", default="hybrid")
    parser.add_argument("--json", action="store_true", help="one JSON object per question on stdout")
    args = parser.parse_args()
    service = AnswerService.open([args.corpus], args.index)
    rows = []
    for path in args.questions:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            q = json.loads(line)
            started = time.perf_counter()
            answer = service.ask(q["question"], top_k=TOP, mode=args.mode)
            ms = (time.perf_counter() - started) * 1000
            row = {"set": path.stem, "id": q["id"], "shape": q["shape"], "ms": round(ms, 1),
                   "got_shape": getattr(answer, "shape", "search")}
            for kind in ("digest", "passages"):
                units = units_of(answer, kind)
                row[f"{kind}_recall"] = sum(covers(units, g, args.corpus) for g in q["gold"]) / len(q["gold"])
                row[f"{kind}_precision"] = (sum(in_scope(v, q) for _, _, v in units) / len(units)) if units else None
                row[f"{kind}_units"] = len(units)
            both = units_of(answer, "digest") + units_of(answer, "passages")
            row["any_recall"] = sum(covers(both, g, args.corpus) for g in q["gold"]) / len(q["gold"])
            rows.append(row)
            if args.json:
                print(json.dumps(row))
    table(rows)
    return 0


def table(rows: list[dict]) -> None:
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["set"], r["shape"])].append(r)
        groups[(r["set"], "all")].append(r)
    head = ("set", "shape", "n", "shape ok", "digest recall", "digest in-range", "items shown",
            f"top-{TOP} recall", f"top-{TOP} in-range", "either recall", "ms p50")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for (name, shape), group in sorted(groups.items()):
        def mean(key):
            values = [r[key] for r in group if r[key] is not None]
            return f"{sum(values) / len(values):.3f}" if values else "-"
        expected = {"overview": "release", "upgrade": "upgrade", "range-topic": "range"}
        ok = sum(r["got_shape"] == expected.get(r["shape"]) or (r["shape"] == "range-topic" and r["got_shape"] == "upgrade")
                 for r in group)
        ms = sorted(r["ms"] for r in group)[len(group) // 2]
        shown = sum(r["digest_units"] for r in group) / len(group)
        print(f"| {name} | {shape} | {len(group)} | {ok}/{len(group)} | {mean('digest_recall')} | "
              f"{mean('digest_precision')} | {shown:.1f} | {mean('passages_recall')} | {mean('passages_precision')} | "
              f"{mean('any_recall')} | {ms:.0f} |")


if __name__ == "__main__":
    sys.exit(main())
