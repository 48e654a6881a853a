"""Scale benchmark: build time, peak memory and query latency per mode at 1k / 10k / 100k chunks.

    .venv/bin/python benchmarks/scale.py [--sizes 1000,10000,100000] [--queries 200]
                                         [--dense auto|exact|approximate]

Synthetic chunks are built from sentences of the bundled corpus (shuffled, ~100 words each,
20 releases). Document vectors are random unit vectors: search cost does not depend on
their values, and embedding 100k chunks would take most of an hour on 2 cores (the
embedding throughput of the real model is measured and printed separately). Queries are
the shipped question set, encoded by the real model, so dense and hybrid latencies include
query encoding but not model loading. Each size runs in its own process, so peak memory
(ru_maxrss) is per size. The *_noenc columns time the same searches with the query vectors
encoded beforehand: retrieval alone, without the model's forward pass (~15 ms here).
``--dense`` builds the window vectors' faiss index exact (flat) or approximate (IVF) at every
size; ``auto`` (the default) as the product does (IVF from ``index.retrieve.dense.ANN_MIN_VECTORS``).
Recall of the approximate index needs real vectors: benchmarks/ann.py.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUESTIONS = Path(__file__).resolve().parent / "questions"


class RandomEncoder:
    """Deterministic random unit vectors standing in for document embeddings."""

    name = "random-384"
    path = Path("/random")
    dim = 384

    def encode(self, texts, *, batch_size=32, progress=None):
        import numpy as np

        rng = np.random.default_rng(len(texts))
        v = rng.standard_normal((len(texts), self.dim)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)


class _Precomputed:
    """Query vectors encoded beforehand, to time retrieval without the model's forward pass."""

    def __init__(self, vectors):
        self.vectors = vectors

    def encode_query(self, text):
        return self.vectors[text]


def synthetic_chunks(n: int):
    from corpus import load_chunks
    from corpus.model import Chunk
    from corpus.sentences import split_sentences

    sentences = [s.text for c in load_chunks() for s in split_sentences(c.text)]
    rng = random.Random(n)
    out = []
    for i in range(n):
        words, parts = 0, []
        while words < 100:
            s = rng.choice(sentences)
            parts.append(s)
            words += len(s.split())
        version = f"1.{i % 20}"
        out.append(Chunk(id=f"s{i:07d}", document=f"doc{i % 500}", title=f"Synthetic {version}", product="Synth",
                         version=version, section=(f"Synthetic {version}", f"Section {i % 37}"),
                         text=" ".join(parts), source=f"synthetic/{i % 500}.md", lines=(1, 2)))
    return out


def _timed(call, items) -> tuple[float, float]:
    """p50 and p95 in ms of ``call(item)`` over ``items``."""
    times = []
    for item in items:
        t = time.perf_counter()
        call(item)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return round(statistics.median(times), 2), round(times[int(0.95 * (len(times) - 1))], 2)


def query_encoder():
    """The product's query path: the bundled index's ONNX encoder (built if needed), else sentence-transformers."""
    from index.lifecycle.opening import open_index

    return open_index(None, notify=lambda m: print(m, file=sys.stderr))[0].encoder()


def run_size(n: int, queries: int, kind: str = "auto") -> dict:
    from index.retrieve import dense
    from index.retrieve.reader import LoadedIndex
    from index.retrieve.search import Searcher
    from index.build.pipeline import build_index
    from qa.eval.questions import load_questions

    dense.ANN_MIN_VECTORS = {"exact": 10**12, "approximate": 1}.get(kind, dense.ANN_MIN_VECTORS)
    chunks = synthetic_chunks(n)
    questions = [q.question for q in load_questions(QUESTIONS / "pytorch.jsonl")]
    questions = (questions * (queries // len(questions) + 1))[:queries]
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        build_index(Path(tmp) / "idx", chunks, encoder=RandomEncoder(), corpus={"documents": {}})
        build_s = time.perf_counter() - started
        started = time.perf_counter()
        loaded = LoadedIndex(Path(tmp) / "idx")
        loaded.set_encoder(query_encoder())
        searcher = Searcher(loaded)
        load_s = time.perf_counter() - started
        searcher.search("warm up the model", k=10, mode="hybrid")
        result = {"chunks": n, "dense": loaded.dense().approximate or "exact", "build_s": round(build_s, 2), "load_s": round(load_s, 2)}
        for mode in ("bm25", "dense", "hybrid"):
            p50, p95 = _timed(lambda q: searcher.search(q, k=10, mode=mode), questions)
            result[f"{mode}_p50_ms"], result[f"{mode}_p95_ms"] = p50, p95
        encoder = loaded.encoder()
        vectors = {q: encoder.encode_query(q) for q in set(questions)}
        result["query_encode_p50_ms"] = _timed(encoder.encode_query, questions[:100])[0]
        loaded.set_encoder(_Precomputed(vectors))
        for mode in ("dense", "hybrid"):
            p50, p95 = _timed(lambda q: searcher.search(q, k=10, mode=mode), questions)
            result[f"{mode}_noenc_p50_ms"], result[f"{mode}_noenc_p95_ms"] = p50, p95
        search = lambda q: searcher.search(q, k=10, mode="hybrid", versions=["1.3"])  # noqa: E731
        result["hybrid_filtered_p50_ms"] = _timed(search, questions[:50])[0]
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return result


def embedding_throughput() -> float:
    from corpus import load_chunks
    from index.encode.encoders import Encoder

    texts = [c.index_text for c in load_chunks()]
    encoder = Encoder()
    encoder.encode(texts[:8])
    started = time.perf_counter()
    encoder.encode(texts)
    return len(texts) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--dense", choices=("auto", "exact", "approximate"), default="auto")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(run_size(args.worker, args.queries, args.dense)))
        return
    rows = []
    for n in (int(s) for s in args.sizes.split(",")):
        out = subprocess.run([sys.executable, __file__, "--worker", str(n), "--queries", str(args.queries),
                              "--dense", args.dense], capture_output=True, text=True, check=True)
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(f"done {n}", file=sys.stderr)
    cols = ["chunks", "dense", "build_s", "load_s", "bm25_p50_ms", "bm25_p95_ms", "query_encode_p50_ms",
            "dense_p50_ms", "dense_p95_ms", "hybrid_p50_ms", "hybrid_p95_ms", "dense_noenc_p50_ms",
            "hybrid_noenc_p50_ms", "hybrid_noenc_p95_ms", "hybrid_filtered_p50_ms", "peak_rss_mb"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---:|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(r[c]) for c in cols) + " |")
    print(f"\nembedding throughput of the bundled model: {embedding_throughput():.0f} chunks/s")


if __name__ == "__main__":
    main()
