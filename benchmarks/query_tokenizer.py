"""A cold process's tokenizer for one question: index.encode.wordpiece against the `tokenizers` library.

    env -u PYTHONDONTWRITEBYTECODE PYTHONPATH=. .venv/bin/python benchmarks/query_tokenizer.py [--runs 9]

Each run is a fresh Python that imports numpy and the encoders (an ask has loaded them before it
embeds its question), then times, from the import of the tokenizer's module to the question's
ids, either the library (``import tokenizers``, ``Tokenizer.from_file`` of the bundled model's
``tokenizer.json``, truncation set, one encode: ``onnx_query.load_tokenizer``, as the numpy
encoder used it) or ``index.encode.wordpiece`` (its import, ``json`` load of the same file, the pipeline
checked, one encode). Runs alternate; the
table has the medians and checks both gave the same ids.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

PROBE = r"""
import json, sys, time
import numpy  # loaded by an ask before its question is embedded, as are these
from index.encode import onnx_query
from index.encode.encoders import bundled_model_path
path = bundled_model_path() / "tokenizer.json"
start = time.perf_counter()
if sys.argv[1] == "python":
    from index.encode.wordpiece import load_query_tokenizer as load
else:
    import tokenizers
    load = onnx_query.load_tokenizer
imported = time.perf_counter()
tokenizer, _ = load(path, 256)
loaded = time.perf_counter()
ids = list(tokenizer.encode(sys.argv[2]).ids)
done = time.perf_counter()
print(json.dumps({"import": imported - start, "load": loaded - imported, "encode": done - loaded,
                  "total": done - start, "ids": ids, "kind": type(tokenizer).__name__,
                  "tokenizers": "tokenizers" in sys.modules}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--question", default="when is the live Q&A webinar for 2.14?")
    ns = parser.parse_args()
    rows: dict[str, list[dict]] = {"library": [], "python": []}
    for run in range(ns.runs):
        for kind in rows:
            done = subprocess.run([sys.executable, "-c", PROBE, kind, ns.question], capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(f"the {kind} probe failed: {done.stderr.strip()[-800:]}")
            rows[kind].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(f"run {run + 1} {kind}: {rows[kind][-1]['total'] * 1000:.1f} ms", file=sys.stderr)
    same = all(r["ids"] == rows["library"][0]["ids"] for runs in rows.values() for r in runs)
    print(f"{ns.runs} fresh processes each, alternated, medians; same ids: {'yes' if same else 'NO'}\n")
    print("| tokenizer | import ms | load ms | first question ms | total ms | tokenizers imported |")
    print("|---|---:|---:|---:|---:|---|")
    for kind, runs in rows.items():
        med = {k: statistics.median(r[k] for r in runs) * 1000 for k in ("import", "load", "encode", "total")}
        print(f"| {runs[0]['kind']} | {med['import']:.1f} | {med['load']:.1f} | {med['encode']:.2f} | "
              f"{med['total']:.1f} | {'yes' if runs[0]['tokenizers'] else 'no'} |")


if __name__ == "__main__":
    main()
