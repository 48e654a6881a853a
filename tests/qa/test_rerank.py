"""Re-ranking passages by their best sentence: the mix on hand-made scores, then through the engine."""

from __future__ import annotations

import numpy as np
import pytest

from qa.answer.rerank import DEFAULT_RERANK, RerankConfig, Statement, rerank
from qa.answer.rerank import restated_first as restated_by_text

RERANK_DEPTH = DEFAULT_RERANK.depth
RESTATED = DEFAULT_RERANK.restated


def restated_first(statements):
    """``restated_first`` over statements that carry unit vectors: cosines are their dot products."""
    vectors = {f"s{i}": s.text for i, s in enumerate(statements) if s.text is not None}
    by_text = [s._replace(text=f"s{i}" if s.text is not None else None) for i, s in enumerate(statements)]

    def cosines(first, others):
        return [float(np.dot(vectors[first], vectors[o])) for o in others]

    return restated_by_text(by_text, cosines, RESTATED)


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


def test_the_config_refuses_what_makes_no_sense() -> None:
    with pytest.raises(ValueError, match="top, minmax"):
        RerankConfig(normalise="zscore")
    with pytest.raises(ValueError, match="within 0..1"):
        RerankConfig(weight=1.5)
    assert not RerankConfig(weight=0.0).applies("hybrid") and DEFAULT_RERANK.applies("bm25")


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


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


FACT = _unit(1.0, 0.0, 0.0)
SAME_FACT = _unit(1.0, 0.3, 0.0)  # cosine 0.96
OTHER_FACT = _unit(0.0, 1.0, 0.0)


def test_a_restatement_in_another_document_of_the_release_with_a_better_sentence_goes_first() -> None:
    statements = [
        Statement("blog", "2.14", 0.60, FACT),
        Statement("blog", "2.14", 0.90, SAME_FACT),  # same document: not a restatement by another
        Statement("news", "2.13", 0.95, SAME_FACT),  # another release
        Statement("news", "2.14", 0.70, SAME_FACT),
        Statement("news", "2.14", 0.80, OTHER_FACT),  # another fact
        Statement("news2", "2.14", 0.75, SAME_FACT),  # the better of two restatements wins
    ]
    assert restated_first(statements) == 5
    assert restated_first(statements[:5]) == 3


@pytest.mark.parametrize(
    "statements",
    [
        [Statement("blog", "2.14", 0.6, FACT), Statement("news", "2.14", 0.6, SAME_FACT)],  # not better
        [Statement("blog", "2.14", 0.6, FACT), Statement("news", "2.14", 0.9, OTHER_FACT)],  # another fact
        [Statement("blog", "2.14", 0.6, None), Statement("news", "2.14", 0.9, SAME_FACT)],  # no sentence
        [Statement("blog", None, 0.6, FACT), Statement("news", None, 0.9, SAME_FACT)],  # no release known
        [Statement("blog", "2.14", 0.6, FACT), Statement("news", "2.14", 0.9, None)],
        [Statement("blog", "2.14", 0.6, FACT)],
        [],
    ],
)
def test_nothing_moves_without_a_better_restatement(statements) -> None:
    assert restated_first(statements) is None


def test_the_restatement_threshold_is_a_cosine() -> None:
    just_below = _unit(RESTATED - 0.01, np.sqrt(1 - (RESTATED - 0.01) ** 2), 0.0)
    just_above = _unit(RESTATED + 0.01, np.sqrt(1 - (RESTATED + 0.01) ** 2), 0.0)
    top = Statement("blog", "2.14", 0.5, FACT)
    assert restated_first([top, Statement("news", "2.14", 0.9, just_below)]) is None
    assert restated_first([top, Statement("news", "2.14", 0.9, just_above)]) == 1


def test_engine_puts_the_news_wording_first_when_it_answers_better(engine) -> None:
    """The 2.14 news article restates the blog; asked in the article's words, its passage leads,
    the blog section that says the same follows, and scores still fall with rank."""
    answer = engine.ask("prefill attention speedup on m5 mac", top_k=3)
    first, second = answer.passages[:2]
    assert "speedup for fp16 and bf16 dtypes on M5" in first.text and first.citation.document != second.citation.document
    assert second.citation.section[-1] == "MPS Prefill Attention Acceleration"
    assert first.score > second.score > answer.passages[2].score


@pytest.mark.parametrize(
    "question",
    ["prefill attention speedup on m5 mac", "which release added deterministic FlexAttention backward?",
     "when was torchcomms introduced", "what changed for MPS in 2.14"],
)
def test_scores_fall_with_rank_whatever_moved_first(engine, question: str) -> None:
    scores = [p.score for p in engine.ask(question, top_k=10).passages]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)


def test_falling_lifts_only_what_was_moved() -> None:
    from tests.support.fakes import make_chunk
    from index.retrieve.search import Hit
    from qa.answer.engine import SCORE_STEP, _falling

    hits = [Hit(make_chunk(i, "x"), s) for i, s in enumerate([0.749, 0.8999, 0.38, 0.5, 0.1])]
    assert [h.score for h in _falling(hits)] == pytest.approx([0.8999 + SCORE_STEP, 0.8999, 0.5 + SCORE_STEP, 0.5, 0.1])
    assert [h.chunk for h in _falling(hits)] == [h.chunk for h in hits]
