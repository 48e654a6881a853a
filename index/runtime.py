"""Process set-up for the dense side: offline Hugging Face flags and one steady threading config.

torch (libgomp + MKL) and faiss-cpu (its own libgomp + OpenBLAS) each bring an OpenMP
runtime. By default an idle OpenMP worker spins for a while after each parallel region, so
after torch encodes a query its threads still burn both cores while faiss's threads try
to search: on 2 cores that showed as latency spikes of hundreds of ms. The config below was
chosen by measurement (benchmarks/dense_scale.py, table in the module constant THREADS_NOTE):

- OMP_WAIT_POLICY=PASSIVE: idle OpenMP threads sleep at once instead of spinning.
- KMP_BLOCKTIME=0 / KMP_AFFINITY=disabled: the same for an Intel OpenMP runtime, if MKL loads one.
- TOKENIZERS_PARALLELISM=false: no extra Rust thread pool competing for the cores.
- torch and faiss threads: see _torch_threads() / _faiss_threads().
- faiss.cvar.distance_compute_blas_threshold = 20: batched flat searches of >= 20 queries use
  one BLAS matrix product instead of per-query loops (280 ms -> 44 ms for a batch at 100k).

Thread-count variables the user already set are respected (setdefault); the offline flags
are forced, so nothing ever reaches for a model hub.
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
BLAS_THRESHOLD = 20

_tuned: set[str] = set()


def cpu_count() -> int:
    """Number of CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def _torch_threads() -> int:
    """Intra-op threads for torch (query and batch encoding)."""
    return int(os.environ.get("RELNOTES_TORCH_THREADS", cpu_count()))


def _faiss_threads() -> int:
    """OpenMP threads for faiss search: 1, since a query is one vector (see the module docstring)."""
    return int(os.environ.get("RELNOTES_FAISS_THREADS", 1))


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
