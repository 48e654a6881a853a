"""Re-ranking passages by their best sentence: the mix on hand-made scores, then through the engine."""

from __future__ import annotations

import pytest

from qa.rerank import RERANK_DEPTH, rerank


def test_minmax_mix_promotes_the_passage_with_the_answering_sentence() -> None:
    order, mixed = rerank([1.0, 0.8, 0.2], [0.1, 0.9, 0.5], weight=0.3, normalise="minmax")
    # retrieval mapped to 0..1 over the candidates: 1, (0.8 - 0.2) / (1 - 0.2), 0
    assert mixed == pytest.approx([0.7 * 1 + 0.3 * 0.1, 0.7 * 0.75 + 0.3 * 0.9, 0.7 * 0 + 0.3 * 0.5])
    assert order == [1, 0, 2]


def test_top_normalisation_divides_by_the_best_score() -> None:
    order, mixed = rerank([2.0, 1.6, 0.4], [0.1, 0.9, 0.5], weight=0.3, normalise="top")
    assert mixed == pytest.approx([0.7 * 1 + 0.3 * 0.1, 0.7 * 0.8 + 0.3 * 0.9, 0.7 * 0.2 + 0.3 * 0.5])
    assert order == [1, 0, 2]


def test_candidates_beyond_the_evidence_stay_behind_in_retrieval_order() -> None:
    order, mixed = rerank([1.0, 0.8, 0.2, 0.1], [0.0, 1.0, 0.0], weight=0.3, normalise="minmax")
    assert order == [1, 0, 2, 3]
    assert mixed[3] == pytest.approx(0.7 * (0.1 - 0.2) / (1.0 - 0.2))
    assert [mixed[i] for i in order] == sorted(mixed, reverse=True)


def test_ties_keep_retrieval_order_and_weight_zero_changes_nothing() -> None:
    assert rerank([0.5, 0.5, 0.5], [0.2, 0.2, 0.2])[0] == [0, 1, 2]
    assert rerank([3.0, 2.0, 1.0], [0.0, 0.5, 1.0], weight=0.0)[0] == [0, 1, 2]
    assert rerank([], []) == ([], [])


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="3 evidence values for 2 scores"):
        rerank([1.0, 0.5], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="top, minmax"):
        rerank([1.0], [0.1], normalise="zscore")


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_engine_ranking_does_not_depend_on_top_k(engine, mode: str) -> None:
    """The first RERANK_DEPTH are re-ranked whatever top_k, so a shorter list is a prefix of a longer one;
    the passage scores are the mixed scores, falling with rank (a TREC run sorts by score)."""
    question = "how do i turn on nvgemm in inductor"
    short = engine.ask(question, top_k=5, mode=mode).passages
    long = engine.ask(question, top_k=RERANK_DEPTH + 10, mode=mode).passages
    assert [p.chunk_id for p in short] == [p.chunk_id for p in long[:5]]
    scores = [p.score for p in long]
    assert scores == sorted(scores, reverse=True)
