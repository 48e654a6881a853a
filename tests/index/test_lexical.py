"""Tests for LexicalIndex: equal to rank_bm25, filtering, empty corpora, save/load."""

import json
import random

import numpy as np
import pytest

from index.errors import IndexCorrupt
from index.retrieve.bm25 import DEFAULT_PARAMS, BM25Params
from index.retrieve.lexical import LexicalIndex
from index.retrieve.tokenizer import tokenize
from tests.support.paths import BUNDLED

PARAMS = [
    DEFAULT_PARAMS,
    BM25Params("okapi", 1.5, 0.75, epsilon=0.25),
    BM25Params("okapi", 0.9, 0.4, epsilon=0.1),
    BM25Params("plus", 1.5, 0.75, delta=1.0),
    BM25Params("plus", 0.6, 0.3, delta=0.5),
    BM25Params("l", 1.5, 0.75, delta=0.5),
    BM25Params("l", 1.2, 0.9, delta=1.0),
]
PARAM_IDS = [f"{p.variant}-k1={p.k1}-b={p.b}" for p in PARAMS]

QUERIES = [
    "torch.compile support",
    "pytorch release pytorch release",  # repeated terms
    "nccl2 backend zzzunknownzzz",  # out-of-vocabulary term
    "zzzunknownzzz qqqmissingqqq",  # only out-of-vocabulary
    "What's new for Apple Silicon MPS in PyTorch 2.14?",
    "the",  # a stop word: no tokens
    "",
]
SYNTH_QUERIES = [["w0"], ["w0", "w0", "w1"], ["w3", "w50", "w400"], ["w7", "nope", "w7", "w7"], ["common", "w2"]]


def _paragraphs() -> list[str]:
    """The bundled PyTorch docs, split on blank lines."""
    out = []
    for path in sorted(BUNDLED.iterdir()):
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            record = json.loads(text)
            text = "\n\n".join(v for v in record.values() if isinstance(v, str))
        out += [p for p in text.split("\n\n") if p.strip()]
    return out


@pytest.fixture(scope="module")
def real_docs() -> list[list[str]]:
    docs = [tokenize(p) for p in _paragraphs()]
    assert len(docs) > 200
    return docs


@pytest.fixture(scope="module")
def synthetic_docs() -> list[list[str]]:
    """300 Zipf-ish docs; "common" is in most of them (exercises okapi's idf floor), some are empty."""
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(500)]
    weights = [1 / (i + 1) for i in range(500)]
    docs = []
    for i in range(300):
        doc = rng.choices(vocab, weights, k=rng.randint(1, 60)) if i % 50 else []
        if rng.random() < 0.8:
            doc += ["common"] * rng.randint(1, 3)
        docs.append(doc)
    return docs + [list(docs[1]), list(docs[1])]  # duplicates give tied scores


@pytest.mark.parametrize("params", PARAMS, ids=PARAM_IDS)
def test_scores_equal_rank_bm25_on_bundled_docs(real_docs, params):
    index, model = LexicalIndex.build(real_docs, params), params.model(real_docs)
    assert index.n_docs == len(real_docs)
    for query in QUERIES:
        tokens = tokenize(query)
        np.testing.assert_allclose(index.scores(tokens), model.get_scores(tokens), rtol=0, atol=1e-6)


@pytest.mark.parametrize("params", PARAMS, ids=PARAM_IDS)
def test_scores_equal_rank_bm25_on_synthetic_docs(synthetic_docs, params):
    index, model = LexicalIndex.build(synthetic_docs, params), params.model(synthetic_docs)
    for tokens in SYNTH_QUERIES:
        np.testing.assert_allclose(index.scores(tokens), model.get_scores(tokens), rtol=0, atol=1e-6)


def _expected_top_k(docs, params, tokens, k, allowed=None):
    """Brute force from rank_bm25: rows holding a query token (and allowed), score desc, row asc."""
    scores = params.model(docs).get_scores(tokens)
    rows = [i for i, doc in enumerate(docs) if set(tokens) & set(doc) and (allowed is None or allowed[i])]
    rows.sort(key=lambda i: (-scores[i], i))
    return [(i, scores[i]) for i in rows[:k]]


def _assert_hits_equal(got, expected):
    assert [row for row, _ in got] == [row for row, _ in expected]
    np.testing.assert_allclose([s for _, s in got], [s for _, s in expected], rtol=0, atol=1e-6)


@pytest.mark.parametrize("params", PARAMS[:4], ids=PARAM_IDS[:4])
@pytest.mark.parametrize("k", [1, 5, 1000])
def test_top_k_matches_brute_force(synthetic_docs, params, k):
    index = LexicalIndex.build(synthetic_docs, params)
    for tokens in SYNTH_QUERIES:
        got = index.top_k(tokens, k)
        _assert_hits_equal(got, _expected_top_k(synthetic_docs, params, tokens, k))
        assert all(isinstance(row, int) and isinstance(score, float) for row, score in got)


def test_top_k_breaks_ties_by_row(synthetic_docs):
    index = LexicalIndex.build(synthetic_docs, DEFAULT_PARAMS)
    tokens = synthetic_docs[1][:1]
    last = len(synthetic_docs) - 1
    rows = [row for row, _ in index.top_k(tokens, len(synthetic_docs))]
    assert rows.index(1) < rows.index(last - 1) < rows.index(last)


def test_top_k_returns_only_rows_with_a_query_token(real_docs):
    index = LexicalIndex.build(real_docs, BM25Params("plus", 1.2, 0.75, delta=1.0))
    tokens = tokenize("nccl2")
    hits = index.top_k(tokens, 10_000)
    assert hits and len(hits) == sum(1 for doc in real_docs if set(tokens) & set(doc))
    assert index.top_k(tokenize("zzzunknownzzz"), 10) == []
    assert index.top_k(tokens, 0) == []


@pytest.mark.parametrize("k", [3, 1000])
def test_allowed_filters_before_ranking(synthetic_docs, k):
    index = LexicalIndex.build(synthetic_docs, DEFAULT_PARAMS)
    allowed = np.array([i % 3 == 0 for i in range(len(synthetic_docs))])
    for tokens in SYNTH_QUERIES:
        got = index.top_k(tokens, k, allowed=allowed)
        _assert_hits_equal(got, _expected_top_k(synthetic_docs, DEFAULT_PARAMS, tokens, k, allowed))
        assert len(got) == min(k, sum(1 for i, d in enumerate(synthetic_docs) if allowed[i] and set(tokens) & set(d)))
    assert index.top_k(["w0"], 5, allowed=np.zeros(len(synthetic_docs), dtype=bool)) == []


@pytest.mark.parametrize("bad", [np.ones(3, dtype=bool), np.ones(302, dtype=np.int64)], ids=["short", "not-bool"])
def test_allowed_must_be_a_bool_mask_of_n_docs(synthetic_docs, bad):
    index = LexicalIndex.build(synthetic_docs, DEFAULT_PARAMS)
    with pytest.raises(ValueError, match="bool array"):
        index.top_k(["w0"], 5, allowed=bad)


def test_plus_keeps_common_terms_informative(synthetic_docs):
    """Okapi floors "common" (in >half the docs) to one idf; plus still prefers more occurrences."""
    index = LexicalIndex.build(synthetic_docs, DEFAULT_PARAMS)
    scores = index.scores(["common"])
    with_term = [i for i, d in enumerate(synthetic_docs) if "common" in d]
    without = [i for i, d in enumerate(synthetic_docs) if "common" not in d]
    assert scores[with_term].min() > scores[without].max()


@pytest.mark.parametrize("docs", [[], [[]], [[], []]], ids=["no-docs", "one-empty", "two-empty"])
@pytest.mark.parametrize("params", PARAMS, ids=PARAM_IDS)
def test_empty_corpus_returns_no_hits(docs, params, tmp_path):
    index = LexicalIndex.build(docs, params)
    assert index.n_docs == len(docs)
    np.testing.assert_array_equal(index.scores(["torch"]), np.zeros(len(docs)))
    assert index.top_k(["torch"], 10) == []
    index.save(tmp_path)
    loaded = LexicalIndex.load(tmp_path)
    assert loaded.n_docs == len(docs) and loaded.top_k(["torch"], 10) == []


def test_build_rejects_strings():
    with pytest.raises(TypeError, match="token lists"):
        LexicalIndex.build(["a plain string"])
    with pytest.raises(TypeError, match="token list"):
        LexicalIndex.build([["a"]]).scores("a")


@pytest.mark.parametrize("params", PARAMS, ids=PARAM_IDS)
def test_save_load_round_trip(real_docs, params, tmp_path):
    index = LexicalIndex.build(real_docs, params)
    names = index.save(tmp_path)
    assert sorted(names) == sorted(p.name for p in tmp_path.iterdir())
    loaded = LexicalIndex.load(tmp_path)
    assert loaded.params == params and loaded.n_docs == index.n_docs
    for query in QUERIES:
        tokens = tokenize(query)
        np.testing.assert_array_equal(loaded.scores(tokens), index.scores(tokens))
        assert loaded.top_k(tokens, 20) == index.top_k(tokens, 20)
    for name in names:
        if name.endswith(".npz"):
            with np.load(tmp_path / name, allow_pickle=False) as npz:
                assert all(npz[key].dtype != object for key in npz.files)


def _saved(tmp_path, docs):
    LexicalIndex.build(docs, DEFAULT_PARAMS).save(tmp_path)
    return tmp_path


def test_load_missing_directory_raises(tmp_path):
    with pytest.raises(IndexCorrupt, match="relnotes index"):
        LexicalIndex.load(tmp_path / "nothing")


def test_load_wrong_format_version_raises(tmp_path, synthetic_docs):
    meta = _saved(tmp_path, synthetic_docs) / "lexical.json"
    data = json.loads(meta.read_text())
    meta.write_text(json.dumps({**data, "format_version": 999}))
    with pytest.raises(IndexCorrupt, match="format 999"):
        LexicalIndex.load(tmp_path)


def test_load_truncated_arrays_raises(tmp_path, synthetic_docs):
    arrays = _saved(tmp_path, synthetic_docs) / "lexical.npz"
    arrays.write_bytes(arrays.read_bytes()[:100])
    with pytest.raises(IndexCorrupt):
        LexicalIndex.load(tmp_path)


def test_load_inconsistent_metadata_raises(tmp_path, synthetic_docs):
    meta = _saved(tmp_path, synthetic_docs) / "lexical.json"
    data = json.loads(meta.read_text())
    meta.write_text(json.dumps({**data, "vocab": data["vocab"][:-1]}))
    with pytest.raises(IndexCorrupt, match="disagree"):
        LexicalIndex.load(tmp_path)


def test_params_json_round_trip_and_validation():
    for params in PARAMS:
        assert BM25Params.from_json(json.loads(json.dumps(params.to_json()))) == params
    with pytest.raises(ValueError, match="okapi, plus, l"):
        BM25Params("bm25f", 1.2, 0.75)
    with pytest.raises(ValueError, match="b must be"):
        BM25Params("okapi", 1.2, 1.5)
    with pytest.raises(ValueError, match="k1"):
        BM25Params("okapi", -1.0, 0.5)


@pytest.mark.parametrize("params", PARAMS, ids=PARAM_IDS)
def test_a_generator_builds_the_same_index_with_rank_bm25s_idf(synthetic_docs, params):
    """A build reads its documents once (a large corpus streams its tokens); the statistics are
    rank_bm25's to the bit, okapi's epsilon floor for "common" included."""
    streamed = LexicalIndex.build((list(doc) for doc in synthetic_docs), params)
    listed, model = LexicalIndex.build(synthetic_docs, params), params.model(synthetic_docs)
    vocab = list(model.idf)
    assert streamed.idf(vocab) == listed.idf(vocab) == [model.idf[t] for t in vocab]
    for tokens in SYNTH_QUERIES:
        assert np.array_equal(streamed.scores(tokens), listed.scores(tokens))


def test_a_string_among_the_documents_is_refused():
    with pytest.raises(TypeError, match="token lists, not strings"):
        LexicalIndex.build(iter([["a"], "b c"]))
