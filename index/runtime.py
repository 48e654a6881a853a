"""Process set-up for the dense side: offline Hugging Face flags and one steady threading config.

torch and faiss-cpu each bring an OpenMP runtime; left alone, idle threads spin and on 2 cores
a query stalls. configure_runtime() and the import helpers below set
OMP_WAIT_POLICY=PASSIVE (and KMP_BLOCKTIME=0, KMP_AFFINITY=disabled for an Intel runtime),
TOKENIZERS_PARALLELISM=false, one torch intra-op thread per CPU, one faiss thread and faiss's
BLAS threshold. Why each, with the measurements (benchmarks/dense_scale.py): docs/measurements.md.

Thread variables the user already set win (setdefault), as do RELNOTES_TORCH_THREADS and
RELNOTES_FAISS_THREADS; the offline flags are forced, so nothing ever reaches for a model hub.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from functools import cache
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
# faiss 1.15 compares nx * d (query floats, not queries) with this: 3072 = 8 queries at d=384
# (docs/measurements.md).
BLAS_THRESHOLD = 3072

_tuned: set[str] = set()
_BLAS_LOCK = threading.Lock()  # one product at a time sets and restores the BLAS thread count


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


def torch_threads() -> int:
    """Intra-op threads for torch (query and batch encoding): RELNOTES_TORCH_THREADS, else one a CPU."""
    return _env_threads("RELNOTES_TORCH_THREADS", cpu_count())


def faiss_threads() -> int:
    """OpenMP threads for faiss search: 1, since a query is one vector (docs/measurements.md)."""
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
    torch.set_num_threads(torch_threads())
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # only settable before the first parallel work; harmless later
        pass
    _tuned.add("torch")


def _tune_faiss(faiss: ModuleType) -> None:
    """Apply the faiss thread count and BLAS threshold once per process."""
    if "faiss" in _tuned:
        return
    faiss.omp_set_num_threads(faiss_threads())
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


@contextlib.contextmanager
def one_blas_thread():
    """numpy's BLAS on one thread for the products inside, then as before.

    why: a question's matrices are small (a few tokens x 384; one vector against a few thousand),
    and waking OpenBLAS's other threads costs more than they save: a 12 x 384 by 384 x 1536
    product took 23 ms on two threads of a busy 2-core machine, 0.3 ms on one
    (docs/decisions/0015-questions-embedded-in-numpy.md); faiss searched on one thread a query too.
    Without threadpoolctl (scikit-learn's, a dependency) BLAS runs as it is set.
    """
    controller = _blas_controller()
    if controller is None:
        yield
        return
    with _BLAS_LOCK, controller.limit(limits=1, user_api="blas"):
        yield


@cache
def _blas_controller():
    """threadpoolctl's view of the BLAS libraries loaded (numpy's among them), or None."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController()
