"""SciFact (BEIR) benchmark: tune fusion on train, report nDCG@10 and Recall@100 on test.

Usage: .venv/bin/python benchmarks/scifact.py --data DIR [--model PATH] [--no-tune]
DIR is a BEIR SciFact folder with qrels/train.tsv and qrels/test.tsv, e.g. ../shared/data/beir-scifact.
Document vectors are cached under benchmarks/.cache/ (keyed by model and texts).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import math
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from index.runtime import configure_runtime

configure_runtime()

import numpy as np  # noqa: E402

from index.retrieve.dense import DenseIndex  # noqa: E402
from index.encode.encoders import Encoder  # noqa: E402
from index.retrieve.fusion import DEFAULT_FUSION, FusionParams, fuse  # noqa: E402
from qa.errors import BEIRError  # noqa: E402
from qa.eval.beir import load_corpus, load_qrels, load_queries  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache"
DEPTHS = (100, 200, 500, 1000)
RRF_KS = (1, 2, 5, 10, 20, 30, 40, 60, 80, 100, 150, 200)
RATIOS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
ALPHAS = tuple(round(a * 0.05, 2) for a in range(21))

Run = dict[str, list[tuple[int, float]]]  # query id -> [(row, score)], best first
Qrels = dict[str, dict[str, int]]


def cached_vectors(encoder: Encoder, texts: Sequence[str], kind: str) -> np.ndarray:
    """Encode texts, or load the vectors cached for this model and these exact texts."""
    h = hashlib.sha256()
    h.update(encoder.name.encode())
    for f in sorted(encoder.path.rglob("*")):
        if f.is_file():
            h.update(f"{f.relative_to(encoder.path)}:{f.stat().st_size}".encode())
    for t in texts:
        h.update(t.encode("utf-8") + b"\0")
    path = CACHE / f"{kind}-{encoder.name}-{h.hexdigest()[:16]}.npy"
    if path.is_file():
        vecs = np.load(path, allow_pickle=False)
        if vecs.shape == (len(texts), encoder.dim):
            return vecs
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        print(f"\r  encoding {kind}: {done}/{total}", end="", file=sys.stderr, flush=True)

    vecs = encoder.encode(texts, batch_size=32, progress=progress)
    print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, vecs, allow_pickle=False)
    tmp.replace(path)
    return vecs


def bm25_ranker(texts: Sequence[str]) -> tuple[str, Callable[[str, int], list[tuple[int, float]]]]:
    """A BM25 search function: index.retrieve.lexical when it exists, else rank_bm25 as a stand-in."""
    try:
        from index.retrieve.bm25 import DEFAULT_PARAMS
        from index.retrieve.lexical import LexicalIndex
        from index.retrieve.tokenizer import tokenize
    except ImportError:
        return _rank_bm25_ranker(texts)
    lex = LexicalIndex.build([tokenize(t) for t in texts], DEFAULT_PARAMS)
    return f"index.retrieve.lexical {DEFAULT_PARAMS}", lambda q, k: lex.top_k(tokenize(q), k)


def _rank_bm25_ranker(texts: Sequence[str]) -> tuple[str, Callable[[str, int], list[tuple[int, float]]]]:
    """Fallback BM25: rank_bm25.BM25Okapi over lowercase stemmed word tokens."""
    import Stemmer
    from rank_bm25 import BM25Okapi

    stem = Stemmer.Stemmer("english").stemWords

    def tok(text: str) -> list[str]:
        return stem(re.findall(r"\w+", text.lower()))

    bm25 = BM25Okapi([tok(t) for t in texts])

    def search(q: str, k: int) -> list[tuple[int, float]]:
        scores = bm25.get_scores(tok(q))
        top = np.argsort(-scores, kind="stable")[:k]
        return [(int(i), float(scores[i])) for i in top]

    return "rank_bm25.BM25Okapi (fallback: index.retrieve.lexical not found)", search


def evaluate(run: Run, qrels: Qrels, doc_ids: Sequence[str]) -> dict[str, float]:
    """Mean nDCG@10 and Recall@100 over the judged queries (pytrec_eval, cross-checked)."""
    own = _own_metrics(run, qrels, doc_ids)
    try:
        import pytrec_eval
    except ImportError:
        return own
    # Scores become (length - position), so trec_eval keeps our order, ties included.
    trec_run = {
        q: {doc_ids[row]: float(len(hits) - i) for i, (row, _) in enumerate(hits)}
        for q, hits in run.items() if q in qrels
    }
    for q in qrels:
        trec_run.setdefault(q, {})
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.100"}).evaluate(trec_run)
    ref = {
        "ndcg@10": float(np.mean([m["ndcg_cut_10"] for m in per_query.values()])),
        "recall@100": float(np.mean([m["recall_100"] for m in per_query.values()])),
    }
    for name in ref:
        if abs(ref[name] - own[name]) > 1e-6:
            raise RuntimeError(f"{name}: pytrec_eval {ref[name]:.6f} != own {own[name]:.6f}")
    return ref


def _own_metrics(run: Run, qrels: Qrels, doc_ids: Sequence[str]) -> dict[str, float]:
    """nDCG@10 (linear gain, log2 discount) and Recall@100, averaged over judged queries."""
    ndcgs, recalls = [], []
    for q, rels in qrels.items():
        ranked = [doc_ids[row] for row, _ in run.get(q, [])]
        dcg = sum(rels.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:10]))
        ideal = sorted(rels.values(), reverse=True)[:10]
        idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
        ndcgs.append(dcg / idcg if idcg > 0 else 0.0)
        relevant = {d for d, g in rels.items() if g > 0}
        recalls.append(len(relevant & set(ranked[:100])) / len(relevant) if relevant else 0.0)
    return {"ndcg@10": float(np.mean(ndcgs)), "recall@100": float(np.mean(recalls))}


def fused_run(bm25: Run, dense: Run, params: FusionParams) -> Run:
    """Fuse the two runs query by query, keeping the top 100."""
    return {q: fuse(bm25[q], dense[q], params)[:100] for q in bm25}


def tune(bm25: Run, dense: Run, qrels: Qrels, doc_ids: Sequence[str]) -> list[tuple[float, FusionParams]]:
    """Grid search on the train split; returns (nDCG@10, params), best first."""
    grid = []
    for depth in DEPTHS:
        for k, r in itertools.product(RRF_KS, RATIOS):
            grid.append(FusionParams("rrf", k, (r, 1.0), depth))
            if r < 1.0:
                grid.append(FusionParams("rrf", k, (1.0, r), depth))
        for a in ALPHAS:
            grid.append(FusionParams("minmax", 60, (a, round(1 - a, 2)), depth))
    judged = {q: bm25[q] for q in qrels}
    scored = []
    for i, params in enumerate(grid):
        ndcg = _own_metrics(fused_run(judged, dense, params), qrels, doc_ids)["ndcg@10"]
        scored.append((ndcg, params))
        print(f"\r  tuning {i + 1}/{len(grid)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    # Best nDCG; among equals prefer the shallower depth, then the plainer params.
    scored.sort(key=lambda s: (-round(s[0], 6), s[1].depth, s[1].method != "rrf", -s[1].k))
    return scored


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True,
                        help="BEIR SciFact folder (qrels/train.tsv and test.tsv), e.g. ../shared/data/beir-scifact")
    parser.add_argument("--model", type=Path, default=None, help="local sentence-transformers folder")
    parser.add_argument("--no-tune", action="store_true", help="only evaluate DEFAULT_FUSION")
    args = parser.parse_args(argv)
    try:
        doc_ids, texts = load_corpus(args.data)
        queries = load_queries(args.data)
        train = load_qrels(args.data, "train")
        test = load_qrels(args.data, "test")
    except BEIRError as exc:
        print(exc, file=sys.stderr)
        return 1
    wanted = sorted(set(train) | set(test), key=int)
    depth = max(DEPTHS)

    encoder = Encoder(args.model)
    doc_vecs = cached_vectors(encoder, texts, "docs")
    query_vecs = cached_vectors(encoder, [queries[q] for q in wanted], "queries")
    dense_index = DenseIndex.build(doc_vecs)
    dense = {q: dense_index.search(v, depth) for q, v in zip(wanted, query_vecs)}

    start = time.perf_counter()
    bm25_name, bm25_search = bm25_ranker(texts)
    bm25 = {q: bm25_search(queries[q], depth) for q in wanted}
    print(f"  BM25: {bm25_name} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)

    rows: list[tuple[str, dict[str, float], dict[str, float], str]] = []
    for name, run in (("bm25", bm25), ("dense", dense)):
        rows.append((name, evaluate(run, train, doc_ids), evaluate(run, test, doc_ids), ""))
    candidates = [("hybrid DEFAULT_FUSION", DEFAULT_FUSION)]
    candidates += [(f"  same at depth {d}", FusionParams(DEFAULT_FUSION.method, DEFAULT_FUSION.k,
                                                         DEFAULT_FUSION.weights, d))
                   for d in DEPTHS if d != DEFAULT_FUSION.depth]
    if not args.no_tune:
        scored = tune(bm25, dense, train, doc_ids)
        best_rrf = next(p for _, p in scored if p.method == "rrf")
        best_mm = next(p for _, p in scored if p.method == "minmax")
        candidates += [
            ("hybrid rrf k=60 1:1 (untuned)", FusionParams("rrf", 60, (1.0, 1.0), 100)),
            ("hybrid best rrf on train", best_rrf),
            ("hybrid best minmax on train", best_mm),
        ]
        print("top 10 on train (nDCG@10):", file=sys.stderr)
        for ndcg, p in scored[:10]:
            print(f"  {ndcg:.4f}  {p}", file=sys.stderr)
    for name, p in candidates:
        desc = f"{p.method} k={p.k} w={p.weights} depth={p.depth}"
        rows.append((name, evaluate(fused_run(bm25, dense, p), train, doc_ids),
                     evaluate(fused_run(bm25, dense, p), test, doc_ids), desc))

    print(f"SciFact: {len(texts)} docs, train {len(train)} / test {len(test)} queries; "
          f"model {encoder.name} (dim {encoder.dim}); BM25 {bm25_name}")
    print(f"| {'mode':<30} | train nDCG@10 | test nDCG@10 | test Recall@100 | params |")
    print(f"|{'-' * 32}|---------------|--------------|-----------------|--------|")
    for name, tr, te, desc in rows:
        print(f"| {name:<30} | {tr['ndcg@10']:13.4f} | {te['ndcg@10']:12.4f} | "
              f"{te['recall@100']:15.4f} | {desc} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
