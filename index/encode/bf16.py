"""The build's document embedder on a CPU with bf16 arithmetic: the model's transformer in torch under
``torch.autocast("cpu", dtype=torch.bfloat16)``, fed by the export's own tokenizer in wide passes.

Why (docs/decisions/0020-bf16-document-embedder.md): onnxruntime's CPU provider has no bf16
arithmetic, torch's oneDNN kernels have, and a CPU with ``avx512_bf16`` (or AMX) runs a bf16 matrix
product at about twice the fp32 rate. Mean pooling and normalisation stay in fp32, so the vectors
agree with sentence-transformers' fp32 ones to a cosine of 0.99995 or more (checked on the build's
own texts before it is used, as the ONNX export is checked); questions are still embedded in fp32.

Used only where it pays: the CPU says it has bf16 arithmetic (``/proc/cpuinfo``; emulated bf16 is
slower than fp32), the build has ``MIN_TEXTS`` texts or more to embed (torch and the model take a
few seconds to load), the model is one the export reproduces (plain BERT, mean pooling), and
``RELNOTES_BF16`` is not "0".
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

import numpy as np

from .encoders import TextEncoder
from .onnx_query import load_tokenizer, padded, passes
from ..runtime import torch_threads

BF16_ENV = "RELNOTES_BF16"  # "0" keeps builds on the fp32 export
# why: below this many texts the torch import and model load (about 4 s) cost more than bf16 saves
# (about 6 ms a text against the export here): docs/benchmarks.md, "Embedding throughput".
MIN_TEXTS = 1500
# A pass of at most this many texts and padded tokens, one core's at a time (64 / 2,048 and 32 / 1,024
# measured alike, 128 / 4,096 slower with a core each: docs/decisions/0020-bf16-document-embedder.md).
PASS_TEXTS = 64
PASS_TOKENS = 2048
CHECK_TEXTS = 32  # the build's own texts compared with the fp32 export before bf16 is used
MIN_COSINE = 0.9999  # as the ONNX export's check (index.encode.onnx_export)
_CPU_FLAGS = ("avx512_bf16", "amx_bf16")

Notify = Callable[[str], None]


def bf16_allowed() -> bool:
    """Whether builds may embed in bf16 (``RELNOTES_BF16`` is not "0")."""
    return os.environ.get(BF16_ENV, "").strip() != "0"


@cache
def cpu_has_bf16(cpuinfo: str = "/proc/cpuinfo") -> bool:
    """Whether this CPU does bf16 arithmetic itself (its flags name avx512_bf16 or amx_bf16)."""
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith("flags"):
                    return any(flag in line.split() for flag in _CPU_FLAGS)
    except OSError:
        pass
    return False


def wanted(record: dict | None, todo: int) -> bool:
    """Whether a build of ``todo`` texts, with the export ``record``, should embed in bf16."""
    return (record is not None and "quantized" not in record and todo >= MIN_TEXTS and bf16_allowed()
            and cpu_has_bf16())


class Bf16Encoder(TextEncoder):
    """Embeds texts like the fp32 export does, in bf16 arithmetic on torch (see module docstring)."""

    def __init__(self, encoder, record: dict) -> None:
        """A copy of the ``encoder``'s transformer with its linear layers in bf16 (autocast would
        cast the same weights to the same values at every pass; the layer norms and embeddings
        stay fp32), the export's tokenizer settings from its manifest ``record``, and one worker
        thread a core."""
        import copy

        import torch

        self.name = encoder.name
        self.path = str(encoder.path)
        self.dim = int(record["dim"])
        self._torch = torch
        model = copy.deepcopy(encoder.sentence_transformer()[0].auto_model).eval()
        if getattr(model, "pooler", None) is not None:
            model.pooler = None  # BERT's [CLS] pooler: sentence-transformers mean-pools the tokens instead
        for module in model.modules():
            if isinstance(module, torch.nn.Linear):
                module.to(torch.bfloat16)
        self._model = model
        self._tokenizer, self._pad_id = load_tokenizer(Path(encoder.path) / "tokenizer.json",
                                                       int(record["max_seq_length"]))
        self._workers = torch_threads()  # one a CPU, or RELNOTES_TORCH_THREADS
        self._pool = None
        self._threads = torch.get_num_threads()

    def __repr__(self) -> str:
        return f"Bf16Encoder(name={self.name!r}, path={self.path!r})"

    def _slice_size(self, batch_size: int, total: int, progress) -> int:
        """All texts of a piece in one call: the passes are cut by ``PASS_TEXTS`` and ``PASS_TOKENS``."""
        return total

    def _embed_slice(self, texts: list[str], batch_size: int) -> np.ndarray:
        """Tokenize, then run the passes on the worker threads, each pass one core's.

        why: a pass of a few thousand tokens is too small for two cores to share each operation
        (they wait on each other at every layer); a pass a core embeds 1.15-1.3x as fast
        (docs/decisions/0020-bf16-document-embedder.md)."""
        groups = passes(self._tokenizer.encode_batch(texts), PASS_TEXTS, PASS_TOKENS)
        if not groups:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._workers < 2 or len(groups) < 2:
            return np.concatenate([self._run(group) for group in groups])
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            torch = self._torch
            self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="relnotes-bf16",
                                            initializer=lambda: torch.set_num_threads(1))
        try:
            return np.concatenate(list(self._pool.map(self._run, groups)))
        finally:  # the workers' set_num_threads(1) set MKL's process-wide count too: the caller's back
            self._torch.set_num_threads(self._threads)

    def _run(self, group: list) -> np.ndarray:
        """One pass in bf16: mean-pooled over real tokens and normalised in fp32."""
        torch = self._torch
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
            feed = {name: torch.from_numpy(array) for name, array in padded(group, self._pad_id).items()}
            tokens = self._model(**feed)[0]
        mask = feed["attention_mask"].unsqueeze(-1).float()
        pooled = (tokens.float() * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
        return torch.nn.functional.normalize(pooled, dim=1).numpy()  # float32: the pooling ran on .float()

    def close(self) -> None:
        """Let the worker threads go (the build is over)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


def bf16_encoder(encoder, record: dict, reference: TextEncoder, sample: Sequence[str],
                 notify: Notify | None = None) -> TextEncoder | None:
    """A checked ``Bf16Encoder``, or None (said through ``notify``) when it cannot be had or its
    vectors of ``sample`` (the build's own texts) stray from ``reference``'s (the fp32 export)."""
    candidate = None
    try:
        candidate = Bf16Encoder(encoder, record)
        texts = list(sample[:CHECK_TEXTS]) or ["release notes"]
        cosines = (candidate.encode(texts) * reference.encode(texts)).sum(axis=1)
    except Exception as exc:  # noqa: BLE001 - torch or the model cannot do it here: the fp32 export serves
        if candidate is not None:
            candidate.close()
        if notify:
            detail = str(exc).splitlines()[0] if str(exc) else "no detail"
            notify(f"Not embedding in bf16 ({type(exc).__name__}: {detail}); the fp32 export serves")
        return None
    if float(cosines.min()) < MIN_COSINE:
        candidate.close()
        if notify:
            notify(f"Not embedding in bf16: its vectors disagree with fp32 (cosine {float(cosines.min()):.6f}); "
                   "the fp32 export serves")
        return None
    return candidate
