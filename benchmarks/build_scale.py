"""Building at scale (issue 18): corpora of N chunks made from the real changelogs, indexed by
``relnotes index`` in a child process, side by side with a plain sentence-transformers encode.

    .venv/bin/python benchmarks/build_scale.py --chunks 10000 [--chunks 100000] [--sample 1500]

Each copy of ../shared/data/changelogs (Rust RELEASES.md and pydantic HISTORY.md, 1,225 chunks)
is a product of its own (``rust-0002``, ``pydantic-0002``, ...) with its releases renumbered
(1.80.0 is 101.80.0 in the second copy), so every window (which starts with its release) is new
text; the items' sentences repeat across copies and are embedded once (as a repeated item in
real changelogs is). Reports chunks, windows, the texts
embedded, wall time, texts embedded a second, peak RSS of the build process, index size, and
the ratio to ``SentenceTransformer.encode`` (batch 32) on an even sample of the same texts.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "changelogs"
FILES = {"rust": "rust-RELEASES.md", "pydantic": "pydantic-HISTORY.md"}
CHUNKS_PER_COPY = 1225
VERSION_LINE = {"rust": re.compile(r"^(Version )(\d+)\.", re.M), "pydantic": re.compile(r"^(## v)(\d+)\.", re.M)}


def make_corpus(folder: Path, chunks: int) -> list[str]:
    """Copies of the two changelogs, a product each, until ``chunks`` is reached; the --corpus args."""
    args = []
    for copy in range(1, max(1, -(-chunks // CHUNKS_PER_COPY)) + 1):
        for product, name in FILES.items():
            target = folder / f"{product}-{copy:04d}"
            target.mkdir(parents=True)
            text = (SHARED / name).read_text(encoding="utf-8")
            if copy > 1:  # distinct releases: 1.80.0 -> 201.80.0 in copy 3 (every window names its release)
                text = VERSION_LINE[product].sub(lambda m: f"{m.group(1)}{100 * (copy - 1) + int(m.group(2))}.", text)
            (target / name).write_text(text, encoding="utf-8")
            args += ["--corpus", f"{product}-{copy:04d}={target}"]
    return args


def texts_of(corpus_args: list[str]) -> tuple[int, list[str], list[str]]:
    """Chunk count, the windows and the distinct sentences of the corpus (what a fresh build embeds)."""
    from corpus import CorpusInput, load_chunks
    from corpus.chunking import embedding_windows
    from index.retrieve.sentence_vectors import corpus_sentences

    inputs = [CorpusInput(Path(value.split("=", 1)[1]), value.split("=", 1)[0]) for value in corpus_args[1::2]]
    chunks = load_chunks(inputs)
    windows = list(dict.fromkeys(w for c in chunks for w in embedding_windows(c)))
    sentences, _ = corpus_sentences(c.text for c in chunks)
    return len(chunks), windows, sentences


def build(corpus_args: list[str], index: Path) -> tuple[float, int, str]:
    """Run ``relnotes index`` in a child; wall seconds, its peak RSS in bytes, its summary line."""
    cmd = [sys.executable, "-m", "qa", "index", *corpus_args, "--index", str(index), "--quiet"]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        child = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(child.pid, 0)  # the rusage of this child alone
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        summary, problem = out.read().strip(), err.read().strip()
    if child.returncode:
        sys.exit(f"relnotes index failed ({child.returncode}): {problem.splitlines()[-1] if problem else ''}")
    return wall, usage.ru_maxrss * 1024, summary


def plain_encode_rate(texts: list[str], sample: int) -> tuple[float, int]:
    """Texts a second of SentenceTransformer.encode (batch 32) on an even sample of ``texts``."""
    from index.encode.encoders import Encoder

    step = max(1, len(texts) // sample)
    picked = texts[::step][:sample]
    model = Encoder().sentence_transformer()
    started = time.perf_counter()
    model.encode(picked, batch_size=32, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False)
    return len(picked) / (time.perf_counter() - started), len(picked)


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, action="append", help="corpus size (repeatable); default 10000")
    parser.add_argument("--sample", type=int, default=1500, help="texts for the plain encode comparison")
    parser.add_argument("--keep", type=Path, help="build under this folder and keep it (default: a temporary one)")
    ns = parser.parse_args()
    if not SHARED.is_dir():
        sys.exit(f"{SHARED} is missing: this benchmark needs ../shared/data/changelogs")
    sys.path.insert(0, str(ROOT))
    rows = []
    for size in ns.chunks or [10000]:
        base = Path(tempfile.mkdtemp(prefix=f"build-scale-{size}-", dir=ns.keep))
        corpus_args = make_corpus(base / "corpus", size)
        n_chunks, windows, sentences = texts_of(corpus_args)
        rate, sampled = plain_encode_rate(windows + sentences, ns.sample)
        wall, peak, summary = build(corpus_args, base / "index")
        embedded = len(windows) + len(sentences)
        match = re.search(r"\((\d+) windows embedded", summary)
        assert match and int(match.group(1)) == len(windows), summary
        rows.append((n_chunks, len(windows), len(sentences), embedded, wall, embedded / wall, peak,
                     folder_size(base / "index"), rate, sampled))
        if ns.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    print(f"{os.cpu_count()} cores; plain encode = SentenceTransformer.encode(batch_size=32) on an even sample")
    print("| chunks | windows | sentences | texts embedded | wall s | texts/s | peak RSS | index size "
          "| plain encode texts/s (sample) | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for chunks, win, sen, emb, wall, tps, peak, size, rate, sampled in rows:
        print(f"| {chunks:,} | {win:,} | {sen:,} | {emb:,} | {wall:.0f} | {tps:.0f} | {peak / 2**30:.2f} GB "
              f"| {size / 2**20:.0f} MB | {rate:.0f} ({sampled:,}) | {tps / rate:.2f}x |")


if __name__ == "__main__":
    main()
