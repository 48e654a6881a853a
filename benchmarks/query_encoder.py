"""The query encoder of a cold ask, numpy against ONNX: construction and first question, fresh processes.

    .venv/bin/python benchmarks/query_encoder.py [--index DIR] [--runs 5] [--question TEXT]

Each run is a fresh Python that imports numpy and relnotes' index package (a hybrid ask has
loaded both before it embeds), then times the encoder the index's manifest names: building it
(imports of onnxruntime or tokenizers and threadpoolctl included, the checksum or stamp check
included) and embedding the first question; then the median of 50 more questions, warm. Runs
alternate between the two encoders; the table has the medians. Default index: the bundled
corpus's, in the user cache (build it first with ``relnotes index``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

PROBE = r"""
import json, sys, time
from pathlib import Path
import numpy as np
from index.encode import choice
from index.store.manifest import read_manifest
directory, kind, question = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
manifest = read_manifest(directory)
model_path = str(manifest.model["path"])
start = time.perf_counter()
if kind == "numpy":
    encoder = choice._numpy_query_encoder(manifest, model_path, True)
else:
    encoder = choice._onnx_query_encoder(manifest, directory, model_path, True, print)
built = time.perf_counter()
encoder.encode_query(question)
first = time.perf_counter()
warm = []
for _ in range(50):
    t = time.perf_counter()
    encoder.encode_query(question)
    warm.append(time.perf_counter() - t)
print(json.dumps({"encoder": type(encoder).__name__, "build": built - start, "first": first - built,
                  "warm": sorted(warm)[len(warm) // 2], "onnxruntime": "onnxruntime" in sys.modules}))
"""


def default_index() -> Path:
    """The bundled corpus's index directory in the user cache."""
    from index.lifecycle.freshness import default_index_dir

    return default_index_dir(None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, default=None, help="an index built with the float export")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--question", default="when is the live Q&A webinar for 2.14?")
    ns = parser.parse_args()
    directory = ns.index or default_index()
    rows: dict[str, list[dict]] = {"numpy": [], "onnx": []}
    for run in range(ns.runs):
        for kind in rows:
            done = subprocess.run([sys.executable, "-c", PROBE, str(directory), kind, ns.question],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(f"the {kind} probe failed: {done.stderr.strip()[-800:]}")
            rows[kind].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(f"run {run + 1} {kind}: {rows[kind][-1]}", file=sys.stderr)
    print(f"Index {directory}, {ns.runs} fresh processes each, medians\n")
    print("| encoder | build s | first question s | build + first s | warm question ms | onnxruntime imported |")
    print("|---|---:|---:|---:|---:|---|")
    for kind, runs in rows.items():
        med = {k: statistics.median(r[k] for r in runs) for k in ("build", "first", "warm")}
        total = statistics.median(r["build"] + r["first"] for r in runs)
        print(f"| {runs[0]['encoder']} | {med['build']:.3f} | {med['first']:.3f} | {total:.3f} | "
              f"{med['warm'] * 1000:.1f} | {'yes' if runs[0]['onnxruntime'] else 'no'} |")


if __name__ == "__main__":
    main()
