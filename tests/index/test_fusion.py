"""Reciprocal rank fusion and weighted min-max fusion, with expected values written as formulas."""

import pytest

from index.retrieve.fusion import DEFAULT_FUSION, FusionParams, fuse, minmax, rrf


def scores(fused):
    """Fused pairs as a dict id -> score."""
    return dict(fused)


def test_rrf_values_are_one_based():
    fused = scores(rrf([[1, 2, 3], [3, 1]]))
    assert fused[1] == pytest.approx(1 / (60 + 1) + 1 / (60 + 2))
    assert fused[2] == pytest.approx(1 / (60 + 2))
    assert fused[3] == pytest.approx(1 / (60 + 3) + 1 / (60 + 1))


def test_rrf_orders_by_score_desc():
    fused = rrf([[1, 2, 3], [3, 1]])
    assert [doc for doc, _ in fused] == [1, 3, 2]
    assert fused[0][1] >= fused[1][1] >= fused[2][1]


def test_rrf_custom_k():
    fused = scores(rrf([[7, 8], [8]], k=10))
    assert fused[7] == pytest.approx(1 / (10 + 1))
    assert fused[8] == pytest.approx(1 / (10 + 2) + 1 / (10 + 1))


def test_rrf_weights():
    fused = scores(rrf([[1, 2], [2, 1]], weights=[0.5, 2.0]))
    assert fused[1] == pytest.approx(0.5 / (60 + 1) + 2.0 / (60 + 2))
    assert fused[2] == pytest.approx(0.5 / (60 + 2) + 2.0 / (60 + 1))


def test_rrf_dedupes_ids_within_a_list():
    fused = rrf([[5, 5, 6]])
    assert [doc for doc, _ in fused] == [5, 6]
    assert scores(fused) == {5: pytest.approx(1 / (60 + 1)), 6: pytest.approx(1 / (60 + 2))}


def test_rrf_ties_break_by_best_rank_then_id():
    # 10 and 20 tie (each rank 1 in one list and absent from the other); 30 and 40 tie too.
    fused = rrf([[20, 30], [10, 40]])
    assert [doc for doc, _ in fused] == [10, 20, 30, 40]


def test_rrf_empty_inputs():
    assert rrf([]) == []
    assert rrf([[], []]) == []


@pytest.mark.parametrize("bad", [dict(k=-1), dict(weights=[1.0]), dict(weights=[1.0, -1.0])],
                         ids=["negative-k", "weight-count", "negative-weight"])
def test_rrf_rejects_bad_arguments(bad):
    with pytest.raises(ValueError):
        rrf([[1], [2]], **bad)


def test_minmax_values():
    fused = scores(minmax([[(1, 10.0), (2, 6.0), (3, 2.0)], [(3, 0.9), (4, 0.5)]], [0.3, 0.7]))
    assert fused[1] == pytest.approx(0.3 * (10 - 2) / (10 - 2))
    assert fused[2] == pytest.approx(0.3 * (6 - 2) / (10 - 2))
    assert fused[3] == pytest.approx(0.3 * 0 + 0.7 * (0.9 - 0.5) / (0.9 - 0.5))
    assert fused[4] == pytest.approx(0.7 * 0)


def test_minmax_order_and_missing_docs_get_zero():
    fused = minmax([[(1, 3.0), (2, 2.0)], [(2, 5.0), (3, 4.0), (4, 0.0)]], [1.0, 2.0])
    assert [doc for doc, _ in fused] == [2, 3, 1, 4]
    assert scores(fused) == {
        1: pytest.approx(1.0 * (3 - 2) / (3 - 2) + 0),
        2: pytest.approx(1.0 * 0 + 2.0 * (5 - 0) / (5 - 0)),
        3: pytest.approx(0 + 2.0 * (4 - 0) / (5 - 0)),
        4: pytest.approx(0 + 2.0 * 0),
    }


def test_minmax_ties_break_by_best_rank_then_id():
    fused = minmax([[(2, 3.0), (1, 1.0)], [(1, 5.0), (2, 0.0)]], [1.0, 1.0])
    assert fused == [(1, pytest.approx(1.0)), (2, pytest.approx(1.0))]


def test_minmax_all_equal_scores_count_as_top():
    fused = scores(minmax([[(1, 2.0), (2, 2.0)], [(2, 9.0), (3, 1.0)]], [0.5, 0.5]))
    assert fused == {1: pytest.approx(0.5), 2: pytest.approx(0.5 + 0.5), 3: pytest.approx(0.0)}


def test_minmax_single_list():
    fused = minmax([[(4, 0.2), (9, 0.8)]], [1.0])
    assert fused == [(9, pytest.approx(1.0)), (4, pytest.approx(0.0))]


def test_minmax_empty_lists():
    assert minmax([], []) == []
    assert minmax([[], []], [1.0, 1.0]) == []
    assert minmax([[], [(3, 1.0)]], [1.0, 1.0]) == [(3, pytest.approx(1.0))]


def test_minmax_dedupes_keeping_best_score():
    # The dropped duplicate (1, 1.0) does not set the list's minimum either.
    fused = scores(minmax([[(1, 1.0), (1, 3.0), (2, 2.0), (3, 1.5)]], [1.0]))
    assert fused == {1: pytest.approx(1.0), 2: pytest.approx((2 - 1.5) / (3 - 1.5)), 3: pytest.approx(0.0)}


def test_minmax_needs_one_weight_per_list():
    with pytest.raises(ValueError):
        minmax([[(1, 1.0)], [(2, 1.0)]], [1.0])


def test_fuse_truncates_each_side_to_depth():
    lexical = [(1, 9.0), (2, 8.0), (3, 7.0)]
    dense = [(3, 0.9), (4, 0.8), (5, 0.7)]
    fused = scores(fuse(lexical, dense, FusionParams("rrf", 60, (1.0, 1.0), depth=2)))
    assert set(fused) == {1, 2, 3, 4}
    assert fused[3] == pytest.approx(1 / (60 + 1))


def test_fuse_minmax():
    fused = fuse([(1, 2.0), (2, 1.0)], [(2, 0.5), (1, 0.1)], FusionParams("minmax", 0, (0.25, 0.75), 10))
    assert fused == [(2, pytest.approx(0.75)), (1, pytest.approx(0.25))]


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(method="sum", k=60, weights=(1.0, 1.0), depth=100),
        dict(method="rrf", k=-1, weights=(1.0, 1.0), depth=100),
        dict(method="rrf", k=60, weights=(1.0,), depth=100),
        dict(method="rrf", k=60, weights=(1.0, -0.5), depth=100),
        dict(method="rrf", k=60, weights=(1.0, 1.0), depth=0),
    ],
    ids=["method", "k", "weight-count", "negative-weight", "depth"],
)
def test_fusion_params_validate(kwargs):
    with pytest.raises(ValueError):
        FusionParams(**kwargs)


def test_unknown_method_message_lists_valid_ones():
    with pytest.raises(ValueError, match="rrf, minmax"):
        FusionParams("sum", 60, (1.0, 1.0), 100)


def test_default_fusion_takes_enough_candidates():
    assert DEFAULT_FUSION.depth >= 100


def test_the_list_share_tells_a_changelog_from_a_blog() -> None:
    from corpus.items import list_share

    assert list_share(["- Fix the parser", "* Add retry", "1. Drop Python 3.9", "Prose about it."]) == 0.75
    assert list_share(["PyTorch 2.14 brings native Metal kernels.", "They are faster."]) == 0.0
    assert list_share([]) == 0.0


def test_the_searcher_picks_the_fusion_by_the_shape_of_the_corpus(tmp_path) -> None:
    """Item lists (a changelog) get LIST_FUSION, prose (the bundled blogs) DEFAULT_FUSION,
    and a fusion passed in wins over both."""
    from corpus import load_chunks
    from index.build import pipeline as store
    from index.retrieve.fusion import LIST_FUSION
    from index.retrieve.reader import LoadedIndex
    from index.retrieve.search import Searcher
    from tests.support.fakes import FakeEncoder
    from tests.support.paths import DATA

    corpus = {"fingerprint": "f0", "inputs": ["<test>"], "documents": {"d": {"source": "x", "sha256": "0"}}}
    picked = {}
    for name, paths in (("changelog", [DATA / "releases" / "widgetlib"]), ("blogs", None)):
        encoder = FakeEncoder()
        store.build_index(tmp_path / name, load_chunks(paths), encoder=encoder, corpus=corpus)
        loaded = LoadedIndex(tmp_path / name)
        loaded.set_encoder(encoder)
        picked[name] = Searcher(loaded).fusion
        assert Searcher(loaded, DEFAULT_FUSION if name == "changelog" else LIST_FUSION).fusion != picked[name]
    assert picked == {"changelog": LIST_FUSION, "blogs": DEFAULT_FUSION}
    assert LIST_FUSION.weights[1] < DEFAULT_FUSION.weights[1] and LIST_FUSION.sentences > DEFAULT_FUSION.sentences
