"""Choose tokenizer options and BM25 parameters on SciFact train, report test, and time LexicalIndex.

Usage: .venv/bin/python benchmarks/scifact_bm25.py --data DIR [--quick] [--synthetic-docs N]
DIR is a BEIR SciFact folder with qrels/train.tsv and qrels/test.tsv, e.g. ../shared/data/beir-scifact.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from index.retrieve.bm25 import DEFAULT_PARAMS, BM25Params
from index.retrieve.lexical import LexicalIndex
from index.retrieve.tokenizer import make_tokenizer, tokenize, tokenizer_settings
from qa.errors import BEIRError

import beir  # benchmarks/beir.py: a script's own folder comes first on sys.path

# Anserini's BM25 (k1=0.9, b=0.4) and rank_bm25's own defaults, for reference rows.
REFERENCE = {
    "anserini-like okapi": BM25Params("okapi", 0.9, 0.4),
    "rank_bm25 default okapi": BM25Params("okapi", 1.5, 0.75, epsilon=0.25),
    "rank_bm25 default plus": BM25Params("plus", 1.5, 0.75, delta=1.0),
    "rank_bm25 default l": BM25Params("l", 1.5, 0.75, delta=0.5),
}
TOKENIZER_PROBES = (BM25Params("okapi", 0.9, 0.4), BM25Params("plus", 1.2, 0.75, delta=1.0))


def log(message: str) -> None:
    """Progress to stderr, so stdout holds only the tables."""
    print(message, file=sys.stderr, flush=True)


def naive_tokenize(text: str) -> list[str]:
    """Baseline: lowercase \\w+ runs, no stemming, no stop words, no parts."""
    return re.findall(r"\w+", text.lower())


def evaluate(index: LexicalIndex, data: beir.BeirData, queries: dict[str, list[str]], split: str) -> dict:
    """nDCG@10 and Recall@100 of `index` on one qrels split."""
    qrels = data.qrels[split]
    run = {q: [(data.doc_ids[row], score) for row, score in index.top_k(queries[q], 100)] for q in qrels}
    return beir.metrics(run, qrels)


def tokenizer_configs() -> dict[str, object]:
    """Named tokenizers to compare (stemmer x stop words x letter/digit split, plus ablations)."""
    configs: dict[str, object] = {"naive \\w+ lowercase": naive_tokenize}
    for stem, stop, split in itertools.product(("english", "porter", None), ("lucene", None), (True, False)):
        name = f"stem={stem} stop={stop} split_alnum={split}"
        configs[name] = make_tokenizer(stemmer=stem, stopwords=stop, split_alnum=split)
    configs["stem=english stop=lucene parts=False"] = make_tokenizer(stemmer="english", stopwords="lucene", parts=False)
    return configs


def choose_tokenizer(data: beir.BeirData) -> None:
    """Print train nDCG@10 for each tokenizer under two BM25 settings."""
    print("\n## Tokenizer options (train split, nDCG@10)\n")
    header = " | ".join(f"{p.variant} k1={p.k1} b={p.b}" for p in TOKENIZER_PROBES)
    print(f"| tokenizer | {header} | mean |\n|---|" + "---|" * (len(TOKENIZER_PROBES) + 1))
    for name, tok in tokenizer_configs().items():
        log(f"tokenizer {name}")
        docs = [tok(text) for text in data.doc_texts]
        queries = {q: tok(text) for q, text in data.queries.items()}
        values = [evaluate(LexicalIndex.build(docs, p), data, queries, "train")["ndcg@10"] for p in TOKENIZER_PROBES]
        cells = " | ".join(f"{v:.4f}" for v in values)
        print(f"| {name} | {cells} | {statistics.mean(values):.4f} |", flush=True)


def grid() -> list[BM25Params]:
    """Every BM25 setting the train split is searched over."""
    k1s, bs = (0.6, 0.9, 1.2, 1.5, 2.0), (0.3, 0.5, 0.75, 0.9, 1.0)
    out = [BM25Params("okapi", k1, b, epsilon=0.25) for k1, b in itertools.product(k1s, bs)]
    # BM25Plus's delta adds the same idf*delta to every document: it cannot change a ranking.
    out += [BM25Params("plus", k1, b, delta=1.0) for k1, b in itertools.product(k1s, bs)]
    for delta in (0.5, 1.0):
        out += [BM25Params("l", k1, b, delta=delta) for k1, b in itertools.product(k1s, bs)]
    return out


def label(p: BM25Params) -> str:
    """Short text for a parameter set."""
    extra = f"eps={p.epsilon}" if p.variant == "okapi" else f"delta={p.delta}"
    return f"{p.variant} k1={p.k1} b={p.b} {extra}"


def search_params(docs: list[list[str]], data: beir.BeirData, queries: dict[str, list[str]]) -> BM25Params:
    """Grid search on train; print the best rows overall and per variant; return the best."""
    results = []
    for params in grid():
        results.append((evaluate(LexicalIndex.build(docs, params), data, queries, "train"), params))
        log(f"grid {label(params)}: {results[-1][0]['ndcg@10']:.4f}")
    results.sort(key=lambda r: -r[0]["ndcg@10"])
    print(f"\n## BM25 grid on train ({len(results)} settings): top 10, then best per variant\n")
    print("| params | train nDCG@10 | train R@100 |\n|---|---|---|")
    best_per_variant = {}
    for m, p in results:
        best_per_variant.setdefault(p.variant, (m, p))
    for m, p in results[:10] + [best_per_variant[v] for v in ("okapi", "plus", "l")]:
        print(f"| {label(p)} | {m['ndcg@10']:.4f} | {m['recall@100']:.4f} |")
    return results[0][1]


def final_table(docs, data, queries, rows: dict[str, BM25Params]) -> None:
    """Train and test nDCG@10 / Recall@100 for named parameter sets."""
    print("\n## Train vs test (shipped tokenizer)\n")
    print("| setting | params | train nDCG@10 | train R@100 | test nDCG@10 | test R@100 |\n|---|---|---|---|---|---|")
    for name, params in rows.items():
        index = LexicalIndex.build(docs, params)
        tr, te = evaluate(index, data, queries, "train"), evaluate(index, data, queries, "test")
        print(
            f"| {name} | {label(params)} | {tr['ndcg@10']:.4f} | {tr['recall@100']:.4f} | "
            f"{te['ndcg@10']:.4f} | {te['recall@100']:.4f} |",
            flush=True,
        )
    print(f"\nmetrics computed by: {tr['source']}")


def percentiles(seconds: list[float]) -> str:
    """p50 / p95 in milliseconds."""
    ms = np.array(seconds) * 1000
    return f"{np.percentile(ms, 50):.2f} / {np.percentile(ms, 95):.2f}"


def time_queries(index: LexicalIndex, queries: list[list[str]], model=None) -> dict[str, str]:
    """p50/p95 ms of top_k(100), scores() and (optionally) rank_bm25 get_scores."""
    out = {}
    for name, fn in (("top_k(100)", lambda q: index.top_k(q, 100)), ("scores()", index.scores)):
        fn(queries[0])
        times = []
        for q in queries:
            start = time.perf_counter()
            fn(q)
            times.append(time.perf_counter() - start)
        out[name] = percentiles(times)
    if model is not None:
        times = []
        for q in queries[:20]:
            start = time.perf_counter()
            model.get_scores(q)
            times.append(time.perf_counter() - start)
        out["rank_bm25 get_scores (20 queries)"] = percentiles(times)
    return out


def latency(docs: list[list[str]], queries: list[list[str]], n_synthetic: int, params: BM25Params) -> None:
    """Build time and query latency at SciFact size and on a synthetic corpus of n_synthetic ~100-token docs."""
    print(f"\n## Latency ({label(params)}; p50 / p95 ms per query, {len(queries)} queries)\n")
    print("| corpus | docs | build s (rank_bm25 + postings) | rank_bm25 init s | top_k(100) | scores() | rank_bm25 get_scores |")
    print("|---|---|---|---|---|---|---|")
    rng = random.Random(0)
    stream = [t for doc in docs for t in doc]
    synthetic = []
    for _ in range(n_synthetic):
        length = rng.randint(60, 140)
        start = rng.randrange(len(stream) - length)
        synthetic.append(stream[start : start + length])
    for name, corpus in (("SciFact", docs), ("synthetic (SciFact windows of 60-140 tokens)", synthetic)):
        log(f"latency on {name}")
        start = time.perf_counter()
        model = params.model(corpus)
        model_s = time.perf_counter() - start
        start = time.perf_counter()
        index = LexicalIndex.build(corpus, params)
        build_s = time.perf_counter() - start
        t = time_queries(index, queries, model)
        print(
            f"| {name} | {len(corpus)} | {build_s:.1f} | {model_s:.1f} | {t['top_k(100)']} | {t['scores()']} | "
            f"{t['rank_bm25 get_scores (20 queries)']} |",
            flush=True,
        )


def main() -> int:
    """Run the measurements and print markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True,
                        help="BEIR SciFact folder (qrels/train.tsv and test.tsv), e.g. ../shared/data/beir-scifact")
    parser.add_argument("--quick", action="store_true", help="skip the tokenizer comparison and the grid search")
    parser.add_argument("--synthetic-docs", type=int, default=100_000, help="docs in the latency corpus (0: skip)")
    args = parser.parse_args()
    if not beir.available(args.data):
        print(f"No BEIR folder at {args.data} (corpus.jsonl, queries.jsonl, qrels/); pass --data DIR", file=sys.stderr)
        return 1
    try:
        data = beir.load(args.data)
    except BEIRError as exc:
        print(exc, file=sys.stderr)
        return 1
    if not {"train", "test"} <= set(data.qrels):
        print(f"{args.data / 'qrels'} needs train.tsv and test.tsv", file=sys.stderr)
        return 1
    log(f"loaded {len(data.doc_ids)} docs, {len(data.queries)} queries")
    print(f"# BM25 on BEIR SciFact ({len(data.doc_ids)} docs; train {len(data.qrels['train'])} / test {len(data.qrels['test'])} queries)")
    print(f"\nshipped tokenizer: {tokenizer_settings()}; shipped BM25: {label(DEFAULT_PARAMS)}")
    docs = [tokenize(text) for text in data.doc_texts]
    queries = {q: tokenize(text) for q, text in data.queries.items()}
    rows = {"shipped DEFAULT_PARAMS": DEFAULT_PARAMS}
    if not args.quick:
        choose_tokenizer(data)
        rows["best on train (grid)"] = search_params(docs, data, queries)
    final_table(docs, data, queries, {**rows, **REFERENCE})
    if args.synthetic_docs:
        test_queries = [queries[q] for q in data.qrels["test"]]
        latency(docs, test_queries, args.synthetic_docs, DEFAULT_PARAMS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
