"""Document embedding side by side: a plain sentence-transformers ``encode`` (what a user would
write) against the build's embedder (the model's ONNX export, batches grouped by length), on the
same texts: the windows and sentences of a corpus; and the int8 export ``--quantize`` embeds
through; and sentence-transformers under ``torch.autocast("cpu", dtype=torch.bfloat16)`` (batch
32 and 64), the lead for issue 42's 2x. Texts a second, the ratio, and the agreement.

    .venv/bin/python benchmarks/embed_throughput.py [--corpus PATH] [--limit 3000]

Default corpus: ../shared/data/changelogs (Rust and pydantic), else the bundled notes.
"""

from __future__ import annotations

import argparse
import os
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
    rows = []
    t = time.perf_counter()
    plain = model.encode(texts, batch_size=32, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False)
    rows.append(("sentence-transformers encode (batch 32, as given)", time.perf_counter() - t))
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
    for batch in (32, 64):  # sentence-transformers sorts by length itself; bf16 arithmetic under autocast
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
    for batch, vectors in bf16.items():
        c = (plain * vectors.astype(plain.dtype)).sum(axis=1)
        print(f"bf16 batch {batch} vs plain: cosine mean {c.mean():.6f}, min {c.min():.6f}")


if __name__ == "__main__":
    main()
