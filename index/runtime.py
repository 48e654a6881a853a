"""Process set-up for the dense side: offline Hugging Face flags and one steady threading config.

torch (its libgomp + MKL) and faiss-cpu (another libgomp, shared with scikit-learn, + OpenBLAS)
each bring an OpenMP runtime. Left alone, torch's idle workers spin after each parallel region
while faiss's two threads try to search, and on 2 cores a query (encode, then search
100k x 384) spiked to 500-900 ms. Measured with benchmarks/dense_scale.py (400 queries,
2 cores shared with other work; encode + search, ms):

| config                              | p50   | p95   | max   |
|-------------------------------------|-------|-------|-------|
| defaults (nothing set)              | 40.5  | 556.0 | 600.0 |
| OMP_WAIT_POLICY=ACTIVE              | 140.6 | 819.9 | 919.0 |
| torch 2 / faiss 1                   | 19.9  | 521.0 | 570.9 |
| torch 1 / faiss 1                   | 19.3  | 25.4  | 28.3  |
| PASSIVE, torch 2 / faiss 2          | 44.4  | 55.8  | 62.4  |
| PASSIVE, torch 2 / faiss 1 (chosen) | 22.8  | 26.3  | 33.9  |

The chosen config, applied by configure_runtime() and the import helpers below:

- OMP_WAIT_POLICY=PASSIVE: idle OpenMP threads sleep at once instead of spinning.
- torch: one intra-op thread per CPU (bulk encoding at index time uses both cores).
- faiss: 1 OpenMP thread. A query is one vector; faiss's database-parallel path for a single
  query was 2x slower than one thread here (14-29 ms vs 6-7 ms at 100k).
- faiss.cvar.distance_compute_blas_threshold = 3072. In faiss 1.15 it is compared with
  nx * d (query floats), default 128000: at d=384 BLAS starts at 8 queries (64 queries x 100k:
  435 ms -> 72 ms). The often-quoted value 20 sends even one query to BLAS (7 ms -> 28 ms).
- KMP_BLOCKTIME=0, KMP_AFFINITY=disabled: the same for an Intel OpenMP runtime, if one loads.
- TOKENIZERS_PARALLELISM=false: no extra Rust thread pool competing for the cores.

Thread variables the user already set win (setdefault), as do RELNOTES_TORCH_THREADS and
RELNOTES_FAISS_THREADS; the offline flags are forced, so nothing ever reaches for a model hub.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
}
THREAD_ENV = {
    "OMP_WAIT_POLICY": "PASSIVE",
    "KMP_BLOCKTIME": "0",
    "KMP_AFFINITY": "disabled",
    "TOKENIZERS_PARALLELISM": "false",
}
# faiss 1.15 compares nx * d (query floats, not queries) with this: 3072 = 8 queries at d=384.
BLAS_THRESHOLD = 3072

_tuned: set[str] = set()


def cpu_count() -> int:
    """Number of CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def _env_threads(name: str, default: int) -> int:
    """A positive thread count from the environment; the default when unset or not a number."""
    value = os.environ.get(name, "")
    return int(value) if value.strip().isdigit() and int(value) > 0 else default


def _torch_threads() -> int:
    """Intra-op threads for torch (query and batch encoding)."""
    return _env_threads("RELNOTES_TORCH_THREADS", cpu_count())


def _faiss_threads() -> int:
    """OpenMP threads for faiss search: 1, since a query is one vector (see the module docstring)."""
    return _env_threads("RELNOTES_FAISS_THREADS", 1)


def configure_runtime() -> None:
    """Set offline flags and thread settings; idempotent; call before importing torch or faiss."""
    os.environ.update(OFFLINE_ENV)
    for name, value in THREAD_ENV.items():
        os.environ.setdefault(name, value)
    if "torch" in sys.modules:
        _tune_torch(sys.modules["torch"])
    if "faiss" in sys.modules:
        _tune_faiss(sys.modules["faiss"])


def _tune_torch(torch: ModuleType) -> None:
    """Apply the torch thread count once per process."""
    if "torch" in _tuned:
        return
    torch.set_num_threads(_torch_threads())
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # only settable before the first parallel work; harmless later
        pass
    _tuned.add("torch")


def _tune_faiss(faiss: ModuleType) -> None:
    """Apply the faiss thread count and BLAS threshold once per process."""
    if "faiss" in _tuned:
        return
    faiss.omp_set_num_threads(_faiss_threads())
    faiss.cvar.distance_compute_blas_threshold = BLAS_THRESHOLD
    _tuned.add("faiss")


def import_faiss() -> ModuleType:
    """Configure the runtime, import faiss and tune it."""
    configure_runtime()
    import faiss

    _tune_faiss(faiss)
    return faiss


def import_sentence_transformers() -> ModuleType:
    """Configure the runtime, import sentence_transformers (and torch) and tune torch."""
    configure_runtime()
    import sentence_transformers
    import torch

    _tune_torch(torch)
    return sentence_transformers
