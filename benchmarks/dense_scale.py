"""Dense-side latency: thread configs for query encode + flat search, and flat search at 1k-100k rows.

Usage: .venv/bin/python benchmarks/dense_scale.py [--configs] [--scale] [--iterations N]
Each thread config runs in a fresh process, since OpenMP reads its variables once at load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

QUERIES = [
    "Which release added torch.compile support for dynamic shapes?",
    "deprecated APIs removed in 2.0",
    "CUDA 12 wheels",
    "How do I fix the memory leak in DataLoader workers with persistent_workers?",
    "new quantization backend for ARM",
    "all_gather_single",
    "What changed in the default TF32 behaviour on Ampere GPUs and how to turn it back on?",
    "sm_107",
]

# name, extra environment, torch threads, faiss threads (None: leave the library default)
CONFIGS = [
    ("defaults (no settings)", {}, None, None),
    ("OMP_WAIT_POLICY=ACTIVE", {"OMP_WAIT_POLICY": "ACTIVE"}, None, None),
    ("torch 1 / faiss 1", {}, 1, 1),
    ("torch 1 / faiss 2", {}, 1, 2),
    ("torch 2 / faiss 1", {}, 2, 1),
    ("PASSIVE", {"OMP_WAIT_POLICY": "PASSIVE"}, 2, 2),
    ("PASSIVE torch 1 / faiss 2", {"OMP_WAIT_POLICY": "PASSIVE"}, 1, 2),
    ("PASSIVE torch 2 / faiss 1", {"OMP_WAIT_POLICY": "PASSIVE"}, 2, 1),
    ("PASSIVE torch 1 / faiss 1", {"OMP_WAIT_POLICY": "PASSIVE"}, 1, 1),
    ("configure_runtime()", None, None, None),
]


def _pcts(samples: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max in milliseconds."""
    import numpy as np

    ms = np.asarray(samples) * 1000
    return float(np.percentile(ms, 50)), float(np.percentile(ms, 95)), float(ms.max())


def _rss_mb() -> float:
    """Resident memory of this process in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def worker(spec: dict) -> dict:
    """In a fresh process: encode a query then search 100k x 384, many times."""
    if spec["env"] is None:
        from index.runtime import configure_runtime

        configure_runtime()
    import numpy as np

    if spec["env"] is None:
        from index.retrieve.dense import DenseIndex
        from index.encode.encoders import Encoder

        encoder = Encoder()
        encode = encoder.encode_query
        index = DenseIndex.build(np.zeros((1, 384), dtype=np.float32))  # loads faiss, tuned
        import faiss
    else:
        import faiss
        import torch
        from sentence_transformers import SentenceTransformer

        from index.encode.encoders import bundled_model_path

        if spec["torch"]:
            torch.set_num_threads(spec["torch"])
        if spec["faiss"]:
            faiss.omp_set_num_threads(spec["faiss"])
        model = SentenceTransformer(str(bundled_model_path()), device="cpu")

        def encode(text: str) -> np.ndarray:
            return model.encode([text], normalize_embeddings=True, show_progress_bar=False)[0]

    rng = np.random.default_rng(0)
    vecs = rng.standard_normal((100_000, 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    flat = faiss.IndexFlatIP(384)
    flat.add(vecs)
    totals, encodes, searches = [], [], []
    for i in range(spec["iterations"] + 10):
        t0 = time.perf_counter()
        q = encode(QUERIES[i % len(QUERIES)]).reshape(1, -1)
        t1 = time.perf_counter()
        flat.search(q, 100)
        t2 = time.perf_counter()
        if i >= 10:
            totals.append(t2 - t0)
            encodes.append(t1 - t0)
            searches.append(t2 - t1)
    return {"total": _pcts(totals), "encode": _pcts(encodes), "search": _pcts(searches)}


def run_configs(iterations: int) -> None:
    """Run every thread config in its own process and print a table."""
    print(f"| config | encode+search p50 / p95 / max (ms) | encode p50 / p95 | search p50 / p95 / max |")
    print("|---|---|---|---|")
    for name, env, torch_threads, faiss_threads in CONFIGS:
        spec = {"env": env, "torch": torch_threads, "faiss": faiss_threads, "iterations": iterations}
        child_env = {k: v for k, v in os.environ.items()
                     if k not in ("OMP_WAIT_POLICY", "OMP_NUM_THREADS", "KMP_BLOCKTIME")}
        child_env.update(env or {})
        out = subprocess.run(
            [sys.executable, __file__, "--worker", json.dumps(spec)],
            capture_output=True, text=True, env=child_env, check=True,
        ).stdout
        r = json.loads(out.strip().splitlines()[-1])
        t, e, s = r["total"], r["encode"], r["search"]
        print(f"| {name} | {t[0]:.1f} / {t[1]:.1f} / {t[2]:.1f} | {e[0]:.1f} / {e[1]:.1f} | "
              f"{s[0]:.1f} / {s[1]:.1f} / {s[2]:.1f} |", flush=True)


def run_scale(iterations: int) -> None:
    """Flat search latency and memory at 1k, 10k and 100k x 384 with configure_runtime()."""
    from index.runtime import configure_runtime

    configure_runtime()
    import numpy as np

    from index.retrieve.dense import DenseIndex
    from index.retrieve.fusion import FusionParams, fuse
    from index.runtime import import_faiss

    faiss = import_faiss()
    rng = np.random.default_rng(0)
    print("| rows | index MiB (RSS delta) | search k=100 p50 / p95 / max (ms) | k=1000 p50 / p95 | "
          "k=100, 50% allowed p50 / p95 | fuse 1000+1000 (minmax / rrf) p50 |")
    print("|---|---|---|---|---|---|")
    minmax_params = FusionParams("minmax", 60, (0.6, 0.4), 1000)
    rrf_params = FusionParams("rrf", 60, (1.0, 1.0), 1000)
    for n in (1_000, 10_000, 100_000):
        vecs = rng.standard_normal((n, 384)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        before = _rss_mb()
        index = DenseIndex.build(vecs)
        grown = _rss_mb() - before
        queries = vecs[rng.integers(0, n, iterations + 10)] + 0.1
        mask = rng.random(n) < 0.5
        t100, t1000, masked, fuse_mm, fuse_rrf = [], [], [], [], []
        for i, q in enumerate(queries):
            t0 = time.perf_counter()
            index.search(q, 100)
            t1 = time.perf_counter()
            dense = index.search(q, 1000)
            t2 = time.perf_counter()
            index.search(q, 100, allowed=mask)
            t3 = time.perf_counter()
            lexical = [(r + i, s * 10) for r, s in reversed(dense)]  # half overlap, other order
            fuse(lexical, dense, minmax_params)
            t4 = time.perf_counter()
            fuse(lexical, dense, rrf_params)
            t5 = time.perf_counter()
            if i >= 10:
                for bucket, dt in zip((t100, t1000, masked, fuse_mm, fuse_rrf),
                                      (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
                    bucket.append(dt)
        p, p1k, m = _pcts(t100), _pcts(t1000), _pcts(masked)
        print(f"| {n:,} | {grown:.0f} (vectors alone {n * 384 * 4 / 2**20:.0f}) | "
              f"{p[0]:.2f} / {p[1]:.2f} / {p[2]:.2f} | {p1k[0]:.2f} / {p1k[1]:.2f} | "
              f"{m[0]:.2f} / {m[1]:.2f} | {_pcts(fuse_mm)[0]:.2f} / {_pcts(fuse_rrf)[0]:.2f} |", flush=True)
        del index
    # Batched search: when does faiss use BLAS? (nq >= distance_compute_blas_threshold)
    flat = faiss.IndexFlatIP(384)
    flat.add(vecs)
    batch = np.ascontiguousarray(vecs[:64] + 0.1)
    from index.runtime import BLAS_THRESHOLD

    for threads in (1, 2):
        faiss.omp_set_num_threads(threads)
        for threshold in (128_000, BLAS_THRESHOLD, 20):
            faiss.cvar.distance_compute_blas_threshold = threshold
            row = []
            for nq in (1, 8, 64):
                times = []
                for _ in range(7):
                    t0 = time.perf_counter()
                    flat.search(batch[:nq], 100)
                    times.append(time.perf_counter() - t0)
                row.append(f"{nq} queries {_pcts(times)[0]:.1f} ms")
            print(f"faiss threads {threads}, blas threshold {threshold} (nx*d), 100k rows: " + ", ".join(row))


def main() -> int:
    """Parse arguments and run the chosen parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", action="store_true", help="compare thread configs")
    parser.add_argument("--scale", action="store_true", help="flat search at 1k/10k/100k rows")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return 0
    if not (args.configs or args.scale):
        args.configs = args.scale = True
    if args.configs:
        run_configs(args.iterations)
    if args.scale:
        run_scale(args.iterations)
    return 0


if __name__ == "__main__":
    sys.exit(main())
