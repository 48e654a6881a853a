"""Read a BEIR dataset folder (corpus.jsonl, queries.jsonl, qrels/*.tsv) and score runs against its qrels."""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SCIFACT = REPO.parent / "shared" / "data" / "beir-scifact"


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
    """Load corpus, queries and every qrels/*.tsv split (CRLF-safe)."""
    doc_ids, doc_texts = [], []
    with open(directory / "corpus.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                record = json.loads(line)
                doc_ids.append(str(record["_id"]))
                doc_texts.append(f"{record.get('title', '')} {record.get('text', '')}")
    queries = {}
    with open(directory / "queries.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                record = json.loads(line)
                queries[str(record["_id"])] = record["text"]
    qrels: dict[str, dict[str, dict[str, int]]] = {}
    for path in sorted((directory / "qrels").glob("*.tsv")):
        split: dict[str, dict[str, int]] = {}
        with open(path, encoding="utf-8", newline="") as f:
            rows = csv.reader((line.rstrip("\r\n") for line in f), delimiter="\t")
            next(rows)  # header
            for row in rows:
                if len(row) >= 3:
                    split.setdefault(row[0], {})[row[1]] = int(row[2])
        qrels[path.stem] = split
    return BeirData(tuple(doc_ids), tuple(doc_texts), queries, qrels)


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
