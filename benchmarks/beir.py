"""A BEIR dataset for the benchmarks (read by ``qa.eval.beir``), and runs scored against its qrels."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from qa.eval.beir import load_corpus, load_qrels, load_queries


@dataclass(frozen=True, slots=True)
class BeirData:
    """A BEIR corpus (doc text = title + " " + text), its queries and its qrels by split."""

    doc_ids: tuple[str, ...]
    doc_texts: tuple[str, ...]
    queries: dict[str, str]
    qrels: dict[str, dict[str, dict[str, int]]]


def available(directory: Path) -> bool:
    """True when `directory` holds corpus.jsonl, queries.jsonl and a qrels folder."""
    return all((directory / name).exists() for name in ("corpus.jsonl", "queries.jsonl", "qrels"))


def load(directory: Path) -> BeirData:
    """Corpus, queries and every qrels/*.tsv split, read by ``qa.eval.beir`` (raises its BEIRError)."""
    doc_ids, doc_texts = load_corpus(directory)
    splits = sorted(path.stem for path in (directory / "qrels").glob("*.tsv"))
    qrels = {split: load_qrels(directory, split) for split in splits}
    return BeirData(tuple(doc_ids), tuple(doc_texts), load_queries(directory), qrels)


def own_metrics(run: dict[str, list[str]], qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    """Mean nDCG@10 (binary gain, log2 discount, ideal DCG from qrels) and Recall@100 over the qrels queries."""
    ndcg, recall = [], []
    for qid, judged in qrels.items():
        relevant = {d for d, rel in judged.items() if rel > 0}
        ranked = run.get(qid, [])
        dcg = sum(1 / math.log2(i + 2) for i, d in enumerate(ranked[:10]) if d in relevant)
        ideal = sum(1 / math.log2(i + 2) for i in range(min(10, len(relevant))))
        ndcg.append(dcg / ideal if ideal else 0.0)
        recall.append(len(relevant & set(ranked[:100])) / len(relevant) if relevant else 0.0)
    return {"ndcg@10": sum(ndcg) / len(ndcg), "recall@100": sum(recall) / len(recall)}


def metrics(run: dict[str, list[tuple[str, float]]], qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    """nDCG@10 and Recall@100 with pytrec_eval when installed, else `own_metrics`; `source` says which."""
    try:
        import pytrec_eval
    except ImportError:
        ranked = {qid: [d for d, _ in hits] for qid, hits in run.items()}
        return {**own_metrics(ranked, qrels), "source": "own"}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.100"})
    # pytrec_eval wants every judged query present; an empty run scores 0 for it.
    results = evaluator.evaluate({qid: {d: s for d, s in run.get(qid, [])} for qid in qrels})
    n = len(qrels)
    return {
        "ndcg@10": sum(r.get("ndcg_cut_10", 0.0) for r in results.values()) / n,
        "recall@100": sum(r.get("recall_100", 0.0) for r in results.values()) / n,
        "source": "pytrec_eval",
    }
