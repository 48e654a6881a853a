"""Evaluate retrieval on a BEIR-format dataset (corpus.jsonl, queries.jsonl, qrels/SPLIT.tsv).

The corpus goes through the same loader, chunker and index as release notes (its own cached
index); chunk hits are turned into document hits by each document's best chunk.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator, Sequence

from ..errors import BEIRError
from .metrics import Metrics


@dataclass(frozen=True, slots=True)
class BEIRResult:
    """Mean metrics of one mode over the judged queries."""

    mode: str
    metrics: Metrics


def _records(directory: Path, name: str, expected: str, fields: tuple[str, ...]) -> Iterator[dict]:
    """The JSON objects of ``directory/name``, one a line (blank lines skipped), each with ``fields``.

    Raises:
        BEIRError: the file cannot be read, or a line is not such an object (``expected`` says what is).
    """
    path = directory / name
    try:
        with open(path, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                    if not isinstance(obj, dict) or any(f not in obj for f in fields):
                        raise KeyError
                except (json.JSONDecodeError, KeyError):
                    raise BEIRError(f"{path} line {number}: expected {expected}") from None
                yield obj
    except OSError as exc:
        raise BEIRError(f"Cannot read {path} ({exc.strerror}); is {directory} a BEIR folder?") from None


def load_corpus(directory: Path) -> tuple[list[str], list[str]]:
    """Document ids and texts (title + " " + text, stripped) from corpus.jsonl, in file order.

    Raises:
        BEIRError: the file cannot be read, or a line is not a JSON object with "_id".
    """
    ids, texts = [], []
    for obj in _records(directory, "corpus.jsonl", "a JSON object with '_id'", ("_id",)):
        ids.append(str(obj["_id"]))
        texts.append(f"{obj.get('title') or ''} {obj.get('text') or ''}".strip())
    return ids, texts


def load_queries(directory: Path) -> dict[str, str]:
    """Query id -> text from queries.jsonl."""
    expected = '{"_id": ..., "text": ...}'
    return {str(o["_id"]): str(o["text"]) for o in _records(directory, "queries.jsonl", expected, ("_id", "text"))}


def load_qrels(directory: Path, split: str) -> dict[str, dict[str, int]]:
    """Query id -> {doc id: relevance} from qrels/SPLIT.tsv (header row, CRLF or LF)."""
    path = directory / "qrels" / f"{split}.tsv"
    qrels: dict[str, dict[str, int]] = {}
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh, delimiter="\t"))
    except OSError as exc:
        raise BEIRError(f"Cannot read {path} ({exc.strerror}); pass --split test or train") from None
    for number, row in enumerate(rows, 1):
        if number == 1 and row and not row[-1].strip().lstrip("-").isdigit():
            continue  # header
        if len(row) < 3:
            raise BEIRError(f"{path} line {number}: expected query-id, corpus-id, score")
        qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    return qrels


def evaluate_beir(
    directory: Path,
    split: str,
    modes: Sequence[str],
    ks: Sequence[int],
    *,
    open_service: Callable,
    depth: int = 100,
) -> tuple[list[BEIRResult], int]:
    """Metrics per mode (hit@k, MRR@10, nDCG@10, Recall@100) over the split's judged queries.

    Args:
        directory: the BEIR folder.
        split: "test" or "train" (the qrels file name).
        modes: retrieval modes to compare.
        ks: the k of each hit@k.
        open_service: called with the corpus path list; returns a ``qa.service.AnswerService`` over its index.
        depth: documents ranked per query.

    Returns:
        The results and the number of judged queries.
    """
    from corpus import load_documents

    from .metrics import Ranking, summarise

    corpus = directory / "corpus.jsonl"
    if not corpus.is_file():
        raise BEIRError(f"No corpus.jsonl in {directory}; pass a BEIR folder to --beir")
    queries = load_queries(directory)
    qrels = {q: r for q, r in load_qrels(directory, split).items() if q in queries}
    if not qrels:
        raise BEIRError(f"No judged query of qrels/{split}.tsv is in {directory / 'queries.jsonl'}")
    doc_ids, _ = load_corpus(directory)
    service = open_service([corpus])
    record_of = {d.id: d.record for d in load_documents([corpus], skip_bad=True, on_skip=lambda e: None)}
    results = []
    for mode in modes:
        rankings = []
        for qid, judged in qrels.items():
            hits = service.engine.searcher.search(queries[qid], k=depth * 5, mode=mode)
            ranked: list[str] = []
            for hit in hits:
                record = record_of.get(hit.chunk.document)
                doc = doc_ids[record] if record is not None and record < len(doc_ids) else None
                if doc is not None and doc not in ranked:
                    ranked.append(doc)
                if len(ranked) >= depth:
                    break
            rankings.append(Ranking(qid, tuple(ranked), frozenset(d for d, rel in judged.items() if rel > 0)))
        recall = sum(len(r.relevant & set(r.ranked[:100])) / len(r.relevant) for r in rankings if r.relevant)
        results.append(BEIRResult(mode, replace(summarise(rankings, ks), recall100=recall / len(rankings))))
    return results, len(qrels)
