"""Document embedding side by side: a plain sentence-transformers ``encode`` (what a user would
write) against what relnotes builds embed with, on the same texts (the windows and sentences of a
corpus): the model's ONNX export (fp32, batches grouped by length), the bf16 embedder a build uses
on a CPU with bf16 arithmetic (``index.encode.bf16``), the int8 export ``--quantize`` embeds
through, and sentence-transformers under ``torch.autocast("cpu", dtype=torch.bfloat16)``. Texts a
second, the ratio to the plain encode, and the agreement with it. ``--rounds N`` times the plain
encode and the bf16 embedder N times each, alternated, and reports each one's median (a shared
machine's load moves both alike).

    .venv/bin/python benchmarks/embed_throughput.py [--corpus PATH] [--limit 3000] [--rounds 1]

Default corpus: ../shared/data/changelogs (Rust and pydantic), else the bundled notes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from corpus import load_chunks
from corpus.chunking import embedding_windows
from index.encode.encoders import Encoder
from index.encode.choice import document_encoder
from index.encode.onnx_export import cached_query_encoder
from index.retrieve.sentence_vectors import corpus_sentences

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "changelogs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=SHARED if SHARED.exists() else None)
    parser.add_argument("--limit", type=int, default=3000, help="texts embedded (evenly sampled)")
    parser.add_argument("--rounds", type=int, default=1, help="alternated timings of the plain encode and bf16")
    ns = parser.parse_args()
    chunks = load_chunks([ns.corpus] if ns.corpus else None)
    windows = [w for c in chunks for w in embedding_windows(c)]
    sentences, _ = corpus_sentences(c.text for c in chunks)
    texts = windows + sentences
    step = max(1, len(texts) // ns.limit)
    texts = texts[::step][: ns.limit]
    encoder = Encoder()
    model = encoder.sentence_transformer()
    record = cached_query_encoder(encoder)
    onnx = document_encoder(encoder, record)
    from index.encode.bf16 import Bf16Encoder, cpu_has_bf16

    bf16_build = Bf16Encoder(encoder, record)
    rows = []
    model.encode(texts[:64], batch_size=32, show_progress_bar=False)  # first passes warm both up
    bf16_build.encode(texts[:64])
    plain_times, bf16_times = [], []
    for _ in range(max(1, ns.rounds)):  # alternated: the load of a shared machine moves both alike
        t = time.perf_counter()
        plain = model.encode(texts, batch_size=32, convert_to_numpy=True, normalize_embeddings=True,
                             show_progress_bar=False)
        plain_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        ours_bf16 = bf16_build.encode(texts)
        bf16_times.append(time.perf_counter() - t)
    rows.append(("sentence-transformers encode (batch 32, as given)", statistics.median(plain_times)))
    rows.append((f"relnotes build on a bf16 CPU: Bf16Encoder (this CPU has bf16: {cpu_has_bf16()})",
                 statistics.median(bf16_times)))
    t = time.perf_counter()
    ours_st = encoder.encode(texts)
    rows.append(("sentence-transformers, longest first (relnotes before)", time.perf_counter() - t))
    t = time.perf_counter()
    ours = onnx.encode(texts)
    rows.append((f"relnotes build: {type(onnx).__name__}, longest first", time.perf_counter() - t))
    from index.encode.encoder_cache import open_entry
    from index.encode.onnx_query import OnnxQueryEncoder
    from index.encode.quantize import quantized_record

    int8_record = quantized_record(record)
    int8 = OnnxQueryEncoder(open_entry(int8_record), int8_record, name=encoder.name, path=str(encoder.path))
    t = time.perf_counter()
    quantized = int8.encode(texts)
    rows.append(("relnotes build --quantize: the int8 export, longest first", time.perf_counter() - t))
    import torch

    bf16 = {}
    for batch in (32,):  # sentence-transformers sorts by length itself; bf16 arithmetic under autocast
        t = time.perf_counter()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            bf16[batch] = model.encode(texts, batch_size=batch, convert_to_numpy=True, normalize_embeddings=True,
                                       show_progress_bar=False)
        rows.append((f"sentence-transformers under bf16 autocast (batch {batch})", time.perf_counter() - t))
    int8_cos = (plain * quantized).sum(axis=1)
    cos = (plain * ours).sum(axis=1)
    words = sum(len(x.split()) for x in texts)
    print(f"{len(texts)} texts ({len(windows)} windows and {len(sentences)} sentences in the corpus, every {step}th), "
          f"{words / len(texts):.0f} words on average, {os.cpu_count()} cores")
    print("| embedder | seconds | texts/s | vs plain encode |")
    print("|---|---:|---:|---:|")
    for label, seconds in rows:
        print(f"| {label} | {seconds:.1f} | {len(texts) / seconds:.0f} | {rows[0][1] / seconds:.2f}x |")
    print(f"agreement with plain encode: cosine min {cos.min():.6f}, mean {cos.mean():.6f};"
          f" sentence-transformers longest-first vs plain: {float(((plain * ours_st).sum(axis=1)).min()):.6f};"
          f" int8 vs plain: cosine mean {int8_cos.mean():.4f}, min {int8_cos.min():.4f}")
    c = (plain * ours_bf16).sum(axis=1)
    print(f"Bf16Encoder vs plain: cosine mean {c.mean():.6f}, min {c.min():.6f}; rounds: plain "
          f"{', '.join(f'{t:.1f}' for t in plain_times)} s, bf16 {', '.join(f'{t:.1f}' for t in bf16_times)} s")
    for batch, vectors in bf16.items():
        c = (plain * vectors.astype(plain.dtype)).sum(axis=1)
        print(f"bf16 batch {batch} vs plain: cosine mean {c.mean():.6f}, min {c.min():.6f}")


if __name__ == "__main__":
    main()
