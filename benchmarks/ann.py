"""The approximate dense index (IVF) against exact search on a built index's real vectors:
recall@10 of chunks, dense and hybrid latency per number of cells probed.

    .venv/bin/python benchmarks/ann.py --index DIR --questions FILE [--questions FILE ...]
                                       [--probes 8,16,24,32,64] [--release V]

DIR is any built index (e.g. one kept by ``benchmarks/build_scale.py --keep``); its vectors are
read, an IVF index with ``index.retrieve.dense.lists(n)`` cells is trained on them, and each question
(encoded by the index's own query encoder) is searched both ways. Recall@10 is the share of the
exact top 10 chunks the approximate search also returns (and the hybrid top-10 overlap, the same
for whole answers); latencies exclude query encoding (every question is answered once first, so
its vector is cached); "filtered" restricts to one release
(searched exactly inside faiss, as the product does for a narrow filter): by default the release
with the most chunks.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(call, items) -> tuple[float, list]:
    """p50 in ms of ``call(item)`` over ``items``, and the results."""
    times, results = [], []
    for item in items:
        started = time.perf_counter()
        results.append(call(item))
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), results


def recall(approx: list, exact: list) -> float:
    return sum(len({i for i, _ in a} & {i for i, _ in e}) / max(len(e), 1) for a, e in zip(approx, exact)) / len(exact)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--questions", type=Path, action="append", required=True)
    parser.add_argument("--probes", default="8,16,24,32,64")
    parser.add_argument("--release", help="the release of the filtered rows (default: the one with most chunks)")
    ns = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from index.retrieve import dense
    from index.retrieve.reader import LoadedIndex
    from index.retrieve.search import Searcher
    from qa.eval.questions import load_questions

    loaded = LoadedIndex(ns.index)
    exact = loaded.dense()
    if exact.approximate:
        sys.exit(f"{ns.index} is already approximate ({exact.approximate}): build it exact to compare")
    questions = [q.question for path in ns.questions for q in load_questions(path)]
    encoder = loaded.encoder()
    queries = [encoder.encode_query(q) for q in questions]
    vectors, owners = exact.vectors(), np.repeat(np.arange(len(loaded.chunks)), [len(k) for k in loaded.embed_keys])
    started = time.perf_counter()
    approx = dense.DenseIndex.build(vectors, owners, approximate=True)
    train_s = time.perf_counter() - started
    from collections import Counter

    releases = Counter(c.version for c in loaded.chunks if c.version)
    if not (ns.release or releases):
        sys.exit(f"no chunk of {ns.index} names a release: pass --release")
    release = ns.release or releases.most_common(1)[0][0]
    allowed = np.array([c.version == release for c in loaded.chunks])
    searcher = Searcher(loaded)
    for question in questions:  # every query vector cached before any timing: each row times retrieval alone
        searcher.search(question, k=10, mode="hybrid")
    exact_ms, exact_hits = timed(lambda q: exact.search(q, 10), queries)
    filtered_ms, filtered_hits = timed(lambda q: exact.search(q, 10, allowed), queries)
    hybrid_ms, hybrid_hits = timed(lambda q: [(h.chunk.id, 0) for h in searcher.search(q, k=10, mode="hybrid")],
                                   questions)
    print(f"{len(loaded.chunks):,} chunks, {exact.n_vectors:,} window vectors, {len(questions)} questions; "
          f"IVF {dense.lists(exact.n_vectors):,} cells trained and filled in {train_s:.1f} s; "
          f"filter: release {release} ({int(allowed.sum()):,} chunks)")
    print("| dense index | probed | recall@10 | dense p50 ms | filtered recall@10 | filtered p50 ms "
          "| hybrid top-10 overlap | hybrid p50 ms (without encoding) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| exact (flat) | all | 1.000 | {exact_ms:.1f} | 1.000 | {filtered_ms:.1f} | 1.000 | {hybrid_ms:.1f} |")
    for probe in (int(p) for p in ns.probes.split(",")):
        approx._index.nprobe = min(probe, approx._lists)
        ms, hits = timed(lambda q: approx.search(q, 10), queries)
        f_ms, f_hits = timed(lambda q: approx.search(q, 10, allowed), queries)
        loaded._dense = approx
        h_ms, h_hits = timed(lambda q: [(h.chunk.id, 0) for h in searcher.search(q, k=10, mode="hybrid")], questions)
        loaded._dense = exact
        print(f"| IVF | {probe} | {recall(hits, exact_hits):.3f} | {ms:.1f} | {recall(f_hits, filtered_hits):.3f} "
              f"| {f_ms:.1f} | {recall(h_hits, hybrid_hits):.3f} | {h_ms:.1f} |")


if __name__ == "__main__":
    main()
