"""A whole build's embedding against a plain sentence-transformers encode of the same texts
(issue 42's measure: the Rust and pydantic build), side by side in one process.

    .venv/bin/python benchmarks/build_throughput.py [--corpus PATH] [--rounds 1]

Each round: ``build_index`` of the corpus into a fresh folder (the shared vector store off, so every
window and sentence is embedded), once as builds embed on this machine (bf16 where the CPU has it)
and once with ``RELNOTES_BF16=0`` (the fp32 ONNX export), then ``SentenceTransformer.encode`` of
the very texts the build embedded (batch 32, as a user would write it). Prints the seconds of each
and the texts a second, with the ratio to the plain encode. Default corpus:
../shared/data/changelogs (Rust's RELEASES.md and pydantic's HISTORY.md).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data" / "changelogs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=SHARED)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    if not args.corpus.exists():
        raise SystemExit(f"No corpus at {args.corpus}; pass --corpus with a folder of release notes")
    os.environ["RELNOTES_VECTOR_STORE"] = "0"  # every text embedded by the build itself
    from corpus import load_chunks
    from index.build.pipeline import build_index
    from index.build.writer import Texts
    from index.encode.encoders import Encoder

    chunks = load_chunks([args.corpus])
    encoder = Encoder()
    model = encoder.sentence_transformer()
    texts = Texts.windows_of(chunks, encoder).with_sentences(chunks)
    every = list(dict.fromkeys([*texts.windows, *texts.sentences]))  # what a build embeds: each text once
    model.encode(every[:64], batch_size=32, show_progress_bar=False)  # warm-up
    times: dict[str, list[float]] = {"build": [], "build, RELNOTES_BF16=0": [], "plain encode": []}
    said: list[str] = []
    with tempfile.TemporaryDirectory(prefix="relnotes-build-throughput-") as tmp:
        for n in range(args.rounds):
            for label, bf16 in (("build", None), ("build, RELNOTES_BF16=0", "0")):
                os.environ.pop("RELNOTES_BF16", None) if bf16 is None else os.environ.update(RELNOTES_BF16=bf16)
                corpus = {"fingerprint": f"bench-{n}-{label}", "inputs": [str(args.corpus)], "documents": {}}
                report = build_index(Path(tmp) / f"{n}-{bf16}", chunks, encoder=encoder, corpus=corpus,
                                     notify=said.append)
                times[label].append(report.seconds)
            os.environ.pop("RELNOTES_BF16", None)
            started = time.perf_counter()
            model.encode(every, batch_size=32, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False)
            times["plain encode"].append(time.perf_counter() - started)
    plain = statistics.median(times["plain encode"])
    print(f"{args.corpus.name}: {len(chunks):,} chunks, {len(every):,} texts embedded, {os.cpu_count()} cores, "
          f"{args.rounds} round(s); notices: {'; '.join(dict.fromkeys(said)) or 'none'}")
    print("| what | seconds (median) | texts/s | vs plain encode | rounds |")
    print("|---|---:|---:|---:|---|")
    for label, values in times.items():
        seconds = statistics.median(values)
        print(f"| {label} | {seconds:.1f} | {len(every) / seconds:.0f} | {plain / seconds:.2f}x | "
              f"{', '.join(f'{v:.1f}' for v in values)} |")


if __name__ == "__main__":
    main()
