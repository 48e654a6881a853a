"""Metrics against hand-computed values and pytrec_eval; question-set relevance rules."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import pytest
import pytrec_eval

from qa.eval.questions import Question, QuestionSetError, load_questions, normalise
from qa.eval.metrics import Ranking, hit_at, mrr_at, ndcg_at
from tests.support.fakes import make_chunk
from tests.support.paths import QUESTION_SETS

RANKINGS = [
    Ranking("a", ("x", "r1", "y", "r2"), frozenset({"r1", "r2"})),  # first hit at 2
    Ranking("b", ("r3", "z"), frozenset({"r3"})),  # first hit at 1
    Ranking("c", ("p", "q", "s"), frozenset({"r4"})),  # never
]


def ndcg_reference(ranked: Sequence[str], relevant: set[str], k: int = 10) -> float:
    """nDCG@k written out: DCG over log2(rank + 1), ideal from the relevant count."""
    dcg = sum(1 / math.log2(i + 1) for i, pid in enumerate(ranked[:k], 1) if pid in relevant)
    ideal = sum(1 / math.log2(i + 1) for i in range(1, min(k, len(relevant)) + 1))
    return dcg / ideal if ideal else 0.0


def test_hit_and_mrr_by_hand() -> None:
    assert hit_at(RANKINGS, 1) == pytest.approx(1 / 3)
    assert hit_at(RANKINGS, 2) == pytest.approx(2 / 3)
    assert mrr_at(RANKINGS, 10) == pytest.approx((1 / 2 + 1 / 1 + 0) / 3)
    assert mrr_at(RANKINGS, 1) == pytest.approx(1 / 3)


def test_ndcg_by_hand_and_against_pytrec_eval() -> None:
    # a: hits at ranks 2 and 4 of 2 relevant; b: hit at 1; c: none.
    a = (1 / math.log2(3) + 1 / math.log2(5)) / (1 / math.log2(2) + 1 / math.log2(3))
    assert ndcg_reference(RANKINGS[0].ranked, set(RANKINGS[0].relevant)) == pytest.approx(a)
    assert ndcg_at(RANKINGS, 10) == pytest.approx((a + 1.0 + 0.0) / 3)


def test_hit_and_mrr_agree_with_pytrec_eval() -> None:
    qrels = {r.qid: {d: 1 for d in r.relevant} for r in RANKINGS}
    run = {r.qid: {d: float(len(r.ranked) - i) for i, d in enumerate(r.ranked)} for r in RANKINGS}
    scores = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank", "success"}).evaluate(run)
    assert mrr_at(RANKINGS, 10) == pytest.approx(sum(s["recip_rank"] for s in scores.values()) / 3)
    assert hit_at(RANKINGS, 1) == pytest.approx(sum(s["success_1"] for s in scores.values()) / 3)
    assert hit_at(RANKINGS, 5) == pytest.approx(sum(s["success_5"] for s in scores.values()) / 3)


def test_relevance_normalises_markup_quotes_and_space() -> None:
    chunk = make_chunk(1, "The **`lu_factor`** op is now\n  “hand-written” in Metal.", "2.14")
    assert Question("q", "x", version="2.14", answer='lu_factor op is now "hand-written"').relevant(chunk)
    assert not Question("q", "x", version="2.13", answer="lu_factor").relevant(chunk)
    assert Question("q", "x", section="section 1").relevant(chunk)
    assert normalise("A  `B`\n*c*") == "a b c"


def test_question_set_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "1", "question": "a", "answer": "b"}\n{"id": 2, "question": \n')
    with pytest.raises(QuestionSetError, match="line 2: invalid JSON"):
        load_questions(path)
    path.write_text('{"id": "1", "question": "a"}\n')
    with pytest.raises(QuestionSetError, match="line 1: a question needs an 'answer' or a 'section'"):
        load_questions(path)
    path.write_text('{"id": "1", "question": "a", "answer": "b"}\n{"id": "1", "question": "c", "answer": "d"}\n')
    with pytest.raises(QuestionSetError, match="duplicate id"):
        load_questions(path)


def test_the_shipped_question_set_is_well_formed() -> None:
    questions = load_questions(QUESTION_SETS / "pytorch.jsonl")
    assert len(questions) >= 80
    assert {q.version for q in questions} == {"2.9", "2.13", "2.14"}
    assert {q.kind for q in questions} == {"lexical", "paraphrase", "release", "number", "howto", "which-release"}


def test_a_numeric_version_is_refused_not_rounded(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "1", "question": "a", "answer": "b", "version": 2.10}\n')
    with pytest.raises(QuestionSetError, match="'version' must be a string"):
        load_questions(path)


def test_metrics_are_typed_and_read_as_a_table_row() -> None:
    from qa.eval.metrics import Metrics, summarise

    m = summarise(RANKINGS, ks=(1, 2))
    assert isinstance(m, Metrics) and m.hits == ((1, pytest.approx(1 / 3)), (2, pytest.approx(2 / 3)))
    assert list(m) == ["hit@1", "hit@2", "MRR@10", "nDCG@10"] and m["MRR@10"] == m.mrr10
    assert dict(Metrics(((1, 1.0),), 1.0, 1.0, recall100=0.5))["Recall@100"] == 0.5
    with pytest.raises(ValueError, match="within 0..1"):
        Metrics(((1, 1.5),), 0.0, 0.0)
