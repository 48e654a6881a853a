"""Where a large build's memory goes (issue 18): ``relnotes index`` of N chunks made from the real
changelogs (as ``build_scale.py`` makes them), run in this process with the model's passes
replaced by random unit vectors, so a 100k-chunk build takes minutes, not two hours; everything
else (loading, chunking, the vector stores and their release, BM25, faiss, writing, reading the
index back) is the product's own.

    .venv/bin/python benchmarks/build_memory.py --chunks 100000 [--top 12]

Prints the peak RSS of the whole run (getrusage) and the highest RSS seen in each of the
product's functions (sampled every 50 ms from a thread). The model's own memory is not in it:
onnxruntime holds about 90 MB more for passes of ``index.encode.onnx_query.TOKEN_BUDGET`` tokens.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


class RandomEncoder:
    """Unit vectors in place of the model's, written where the build asks (``encode_into``)."""

    def __init__(self, dim: int) -> None:
        self.dim, self._rng = dim, np.random.default_rng(0)

    def encode_into(self, texts, out, rows, *, batch_size: int = 32, progress=None) -> None:
        vectors = self._rng.standard_normal((len(texts), self.dim), dtype=np.float32)
        out[list(rows)] = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        if progress is not None:
            progress(len(texts), len(texts))


class Sampler(threading.Thread):
    """The highest RSS seen while each of the product's functions was running on the main thread."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peaks: dict[str, int] = {}
        self._main = threading.main_thread().ident

    @staticmethod
    def rss_mb() -> int:
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS")) // 1024

    def where(self) -> str:
        frame = sys._current_frames().get(self._main)
        while frame is not None:
            path = frame.f_code.co_filename
            if path.startswith(str(ROOT)) and "/benchmarks/" not in path:
                return f"{Path(path).relative_to(ROOT)}:{frame.f_code.co_name}"
            frame = frame.f_back
        return "(outside the product)"

    def run(self) -> None:
        while True:
            rss, where = self.rss_mb(), self.where()
            self.peaks[where] = max(rss, self.peaks.get(where, 0))
            time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=100000, help="corpus size (default 100000)")
    parser.add_argument("--top", type=int, default=12, help="functions to list")
    ns = parser.parse_args()
    if not sys.platform.startswith("linux"):
        sys.exit("build_memory.py reads /proc/self/status: Linux only")
    import build_scale

    if not build_scale.SHARED.is_dir():
        sys.exit(f"{build_scale.SHARED} is missing: this benchmark needs ../shared/data/changelogs")
    import index.encode.choice
    from qa.cli.main import cli

    work = Path(tempfile.mkdtemp(prefix=f"build-memory-{ns.chunks}-"))
    corpus_args = build_scale.make_corpus(work / "corpus", ns.chunks)
    index.encode.choice.document_encoder = lambda encoder, record, notify=None: RandomEncoder(encoder.dim)
    sampler = Sampler()
    sampler.start()
    started = time.perf_counter()
    try:
        cli.main(args=["index", *corpus_args, "--index", str(work / "index"), "--quiet"], prog_name="relnotes")
    except SystemExit as exc:
        if exc.code:
            raise
    wall = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{ns.chunks:,} chunks asked; {wall:.0f} s; peak RSS {peak:,.0f} MB (model passes stubbed); index in {work}")
    print("| function | highest RSS MB |\n|---|---:|")
    for where, rss in sorted(sampler.peaks.items(), key=lambda kv: -kv[1])[: ns.top]:
        print(f"| {where} | {rss:,} |")


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    main()
