"""``relnotes index --quantize``: int8 weights for the model's ONNX export, only when a quality
check on the corpus itself says the answers hold.

Dynamic int8 quantization of the transformer's matrix multiplications (per output channel; the
embeddings and layer norms stay float) embeds about 2x the texts a second of the float export on
2 cores, with vectors at cosine ~0.99 of it (benchmarks/embed_throughput.py). Before an index is
built with it, the check embeds a sample of the corpus's sentences and, as questions, the same
sentences with their identifiers removed (``index.adapt_pairs.anchor``), with both exports; the
int8 export is used only when its MRR@10 of finding each sentence is within MAX_DROP of the
float one. Otherwise the build goes on at full precision and says why. The quantized export is
a cache entry of its own (``index.encoder_cache``), used for the documents and the questions.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from corpus.model import Chunk

RECIPE = {"version": 1, "weights": "int8", "per_channel": True, "ops": ["MatMul"]}
MAX_DROP = 0.005  # MRR@10 the check may lose against the float export
POOL = 2000  # sentences searched by the check
QUERIES = 300  # of them asked for, by their words without identifiers
MIN_QUERIES = 50  # fewer: the corpus is too small to check, and is not quantized

Notify = Callable[[str], None]


def quantized_record(record: dict) -> dict:
    """The cache record of the int8 export made from the float export ``record`` (written when missing).

    Raises:
        QueryEncoderUnavailable, IndexWriteError, IndexBusy: the float export or the cache is unusable.
        ImportError, OSError, RuntimeError, ValueError: onnxruntime's quantizer failed.
    """
    from .encoder_cache import ensure_entry, open_entry

    source = open_entry(record)
    spec = {k: v for k, v in record.items() if k != "key"} | {"quantized": RECIPE}
    blob = json.dumps({"from": record["key"], "recipe": RECIPE}, sort_keys=True).encode("utf-8")
    key = hashlib.sha256(blob).hexdigest()[:16]

    def write(tmp: Path) -> None:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        shutil.copyfile(source / spec["tokenizer"], tmp / spec["tokenizer"])
        logging.disable(logging.WARNING)  # its advice to pre-process goes to the root logger, on stderr
        try:
            quantize_dynamic(str(source / spec["file"]), str(tmp / spec["file"]), weight_type=QuantType.QInt8,
                             per_channel=RECIPE["per_channel"], op_types_to_quantize=list(RECIPE["ops"]))
        finally:
            logging.disable(logging.NOTSET)

    ensure_entry(key, spec, write, about={"quantized_from": record["key"]})
    return {**spec, "key": key}


def check_sample(chunks: Sequence[Chunk]) -> tuple[list[str], list[str], list[int]]:
    """The check's sentences (an even sample of the corpus's), its queries and each query's sentence row."""
    from .adapt_pairs import _WORD, MIN_WORDS, anchor
    from .sentence_vectors import corpus_sentences

    sentences, _ = corpus_sentences(c.text for c in chunks)
    pool = sentences[:: max(1, len(sentences) // POOL)][:POOL]
    asked = [(anchor(s), row) for row, s in enumerate(pool)]
    asked = [(q, row) for q, row in asked if len(_WORD.findall(q)) >= MIN_WORDS and q != pool[row].strip()]
    asked = asked[:: max(1, len(asked) // QUERIES)][:QUERIES]
    return pool, [q for q, _ in asked], [row for _, row in asked]


def mrr_at_10(encoder, pool: Sequence[str], queries: Sequence[str], targets: Sequence[int]) -> float:
    """MRR@10 of finding each query's sentence among ``pool`` by cosine, with ``encoder``."""
    docs = encoder.encode(list(pool))
    sims = encoder.encode(list(queries)) @ docs.T
    top = np.argsort(-sims, axis=1)[:, :10]
    return float(np.mean([1.0 / (list(row).index(t) + 1) if t in row else 0.0 for row, t in zip(top, targets)]))


def check(float_encoder, int8_encoder, sample: tuple[list[str], list[str], list[int]]) -> dict:
    """The quality check on ``check_sample``'s sample: ``{"queries", "float", "int8", "passed"}``
    (MRR@10 of each export), or ``{"queries", "passed": False}`` when it has too few queries."""
    pool, queries, targets = sample
    if len(queries) < MIN_QUERIES:
        return {"queries": len(queries), "passed": False}
    full, int8 = (round(mrr_at_10(e, pool, queries, targets), 4) for e in (float_encoder, int8_encoder))
    return {"queries": len(queries), "float": full, "int8": int8, "passed": full - int8 <= MAX_DROP}


def refusal(result: dict) -> str:
    """Why --quantize was refused, as a notice."""
    if "float" not in result:
        return (f"--quantize refused: the corpus has {result['queries']} sentences to check int8 against float "
                f"(at least {MIN_QUERIES} are needed); built at full precision")
    return (f"--quantize refused: int8 MRR@10 {result['int8']:.4f} against float {result['float']:.4f} on "
            f"{result['queries']} questions from the corpus (more than {MAX_DROP} lost); built at full precision")


def quantized_encoder(encoder, chunks: Sequence[Chunk], notify: Notify | None = None):
    """``encoder`` marked for int8 embedding when the check passes (``.quantized``: its record and
    result; the name gains " int8", so no vector is reused across precisions), else ``encoder``."""
    from .encoder_cache import open_entry
    from .onnx_export import cached_query_encoder
    from .onnx_query import OnnxQueryEncoder

    sample = check_sample(chunks)
    if len(sample[1]) < MIN_QUERIES:
        if notify:
            notify(refusal(check(None, None, sample)))
        return encoder
    record = cached_query_encoder(encoder, notify=notify)
    if record is None:
        if notify:
            notify("--quantize refused: the model has no ONNX export to quantize; built at full precision")
        return encoder
    try:
        int8 = quantized_record(record)
    except Exception as exc:  # noqa: BLE001 - onnxruntime's quantizer or the cache: build at full precision
        if notify:
            notify(f"--quantize refused: the int8 export failed ({type(exc).__name__}); built at full precision")
        return encoder
    float_onnx = OnnxQueryEncoder(open_entry(record), record, name=encoder.name, path=str(encoder.path))
    int8_onnx = OnnxQueryEncoder(open_entry(int8), int8, name=encoder.name, path=str(encoder.path))
    result = check(float_onnx, int8_onnx, sample)
    if not result["passed"]:
        if notify:
            notify(refusal(result))
        return encoder
    if notify:
        notify(f"Quantized to int8: MRR@10 {result['int8']:.4f} against float {result['float']:.4f} on "
               f"{result['queries']} questions from the corpus")
    return mark(encoder, {"recipe": RECIPE, "check": result})


def mark(encoder, quantized: dict):
    """``encoder`` set to embed through the int8 export (``quantized``: the manifest's record of it)."""
    encoder.name = f"{encoder.name} int8"
    encoder.quantized = quantized
    return encoder


def kept(manifest, encoder) -> dict | None:
    """The manifest's int8 record when that index was built quantized from ``encoder``'s model, else None."""
    info = manifest.model.get("quantized") if manifest is not None else None
    if isinstance(info, dict) and manifest.model.get("name") == f"{encoder.name} int8":
        return info
    return None
