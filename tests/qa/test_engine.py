"""The engine on the bundled corpus: release awareness, verbatim answers, not-found, bad questions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from qa.present import cite
from qa.errors import BadQuestion
from corpus.sentences import split_sentences
from tests.support.paths import REPO
from qa.model import Note
from qa.present.notes import joined

NOT_CONFIDENT = "No passage answers this confidently; the nearest passages follow."


def test_answer_sentences_are_verbatim_quotes_of_their_passages(engine) -> None:
    for question in ("lu_factor speedup on mps", "how do i enable nccl2", "what is torch.switch"):
        answer = engine.ask(question, top_k=5)
        assert answer.sentences, question
        for s in answer.sentences:
            assert s.text in answer.passages[s.passage - 1].text


def test_sentences_follow_passage_then_source_order(engine) -> None:
    answer = engine.ask("MPS native Metal kernels linear algebra lu_factor cholesky", top_k=5)
    keys = [(s.passage, answer.passages[s.passage - 1].text.index(s.text)) for s in answer.sentences]
    assert keys == sorted(keys)
    assert 1 <= len(answer.sentences) <= 3


def test_a_named_release_restricts_both_retrievers(engine) -> None:
    for mode in ("bm25", "dense", "hybrid"):
        answer = engine.ask("what changed for FlexAttention in 2.13", top_k=8, mode=mode)
        assert answer.releases == ("2.13",)
        assert {p.citation.version for p in answer.passages} == {"2.13"}


def test_explicit_release_option_and_inline_filter(engine) -> None:
    a = engine.ask("FlexAttention", releases=["2.9"])
    b = engine.ask("FlexAttention release:2.9")
    assert a.releases == b.releases == ("2.9",)
    assert [p.chunk_id for p in a.passages] == [p.chunk_id for p in b.passages]
    assert b.asked_as == "FlexAttention"


def test_a_release_the_corpus_lacks_is_said_not_answered(engine) -> None:
    answer = engine.ask("what is new for MPS in 2.11")
    assert answer.passages == () and not answer.confident
    assert joined(answer.notes).startswith("The corpus holds no release 2.11 (it has: 2.9, 2.13, 2.14)")


def test_which_release_names_the_earliest_with_strong_evidence(engine) -> None:
    answer = engine.ask("which release added deterministic FlexAttention backward?")
    assert answer.earliest_release == "2.13"
    assert answer.passages[0].citation.version == "2.13"
    assert "2.13" in joined(answer.notes)


def test_nothing_confident_still_shows_the_nearest_passages(engine) -> None:
    answer = engine.ask("what is the airspeed velocity of an unladen swallow")
    assert not answer.confident and answer.sentences == () and joined(answer.notes) == NOT_CONFIDENT and answer.notes == (Note("not_confident"),)
    assert len(answer.passages) == 5


def test_citations_carry_everything_a_reader_needs(engine) -> None:
    passage = engine.ask("nccl2 backend fault tolerant reconfiguration", top_k=1).passages[0]
    c = passage.citation
    assert (c.title, c.product, c.version) == ("PyTorch 2.14 Release Blog", "PyTorch", "2.14")
    assert c.section[0] == "PyTorch 2.14 Release Blog" and c.body_field == "body_md"
    assert c.url.startswith("https://pytorch.org/blog/pytorch-2-14-release-blog/#")
    where = cite.location(c)
    assert os.path.isabs(where) and "/corpus/data/pytorch-2.14-release-blog.json:" in where  # resolves anywhere
    assert cite.location(c).endswith(" (body_md)")


@pytest.mark.parametrize(
    "question",
    ["", "   \n\t ", "x" * 100_000, "what changed \x1b[31mred\x1b[0m", "nul \x00 byte"],
    ids=["empty", "whitespace", "100k", "ansi", "nul"],
)
def test_bad_questions_are_refused_with_a_reason(engine, question: str) -> None:
    with pytest.raises(BadQuestion):
        engine.ask(question)


@pytest.mark.parametrize(
    "question",
    ["x", "the of and to", "?!?...", "🔥🚀 mps", "MPS 加速 吗", "[bold]mps[/bold] [link=file:///etc/passwd]x[/]"],
    ids=["one-char", "stop-words", "punctuation", "emoji", "cjk", "markup"],
)
def test_odd_questions_never_crash(engine, question: str) -> None:
    answer = engine.ask(question, mode="bm25")
    assert all(s.text in answer.passages[s.passage - 1].text for s in answer.sentences)


def test_garbage_release_filter_is_a_clear_error(engine) -> None:
    with pytest.raises(BadQuestion, match="release:foo"):
        engine.ask("mps release:foo")


def test_split_sentences_are_verbatim_and_skip_attribution() -> None:
    text = "First sentence is here. `torch.compile` now works (e.g. on MPS).\n\n(PR #1 by A, Meta)"
    spans = split_sentences(text)
    assert [s.text for s in spans] == ["First sentence is here.", "`torch.compile` now works (e.g. on MPS)."]
    assert all(text[s.start : s.end] == s.text for s in spans)


def test_bm25_mode_never_imports_torch(bundled_index: Path) -> None:
    code = (
        "import sys\n"
        "from index.retrieve.reader import LoadedIndex\n"
        "from qa.answer.engine import Engine\n"
        f"a = Engine(LoadedIndex({str(bundled_index)!r})).ask('nccl2 backend', mode='bm25')\n"
        "assert a.passages\n"
        "heavy = [m for m in ('torch', 'sentence_transformers', 'faiss') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def test_sentence_vector_cache_is_bounded_and_changes_nothing(bundled_index: Path, monkeypatch) -> None:
    import index.retrieve.similarity as similarity_module
    from index.retrieve.reader import LoadedIndex
    from qa.answer.engine import Engine

    fresh = Engine(LoadedIndex(bundled_index))
    monkeypatch.setattr(fresh.index, "sentence_vectors", lambda: None)  # an index without build-time sentence vectors
    first = fresh.ask("how does MPS run linear algebra now", top_k=5)
    again = fresh.ask("how does MPS run linear algebra now", top_k=5)
    assert [s.text for s in first.sentences] == [s.text for s in again.sentences]
    assert [s.score for s in first.sentences] == [s.score for s in again.sentences]
    monkeypatch.setattr(similarity_module, "SENTENCE_CACHE", 5)
    fresh.ask("nccl2 backend fault tolerance", top_k=5)
    assert len(fresh.searcher.similarity._sentence_vectors) == 5


def test_typed_is_the_question_asked_as_is_the_text(engine) -> None:
    answer = engine.ask("FlexAttention in 2.9", mode="bm25", typed="  and   in 2.9? ")
    assert (answer.question, answer.asked_as) == ("and in 2.9?", "FlexAttention in 2.9")
    missing = engine.ask("MPS in 2.11", mode="bm25", typed="and in 2.11?")
    assert missing.question == "and in 2.11?" and joined(missing.notes).startswith("The corpus holds no release 2.11")
    with pytest.raises(BadQuestion):
        engine.ask("FlexAttention", mode="bm25", typed="bad \x1b[31m")


def test_passage_and_query_caches_are_bounded(bundled_index: Path, monkeypatch) -> None:
    """Memory does not grow with the number of questions: every cache has a bound."""
    import index.retrieve.similarity as similarity_module
    import qa.answer.engine as engine_module
    from index.retrieve.reader import LoadedIndex
    from qa.answer.engine import Engine

    monkeypatch.setattr(engine_module, "PASSAGE_CACHE", 4)
    monkeypatch.setattr(similarity_module, "QUERY_CACHE", 2)
    monkeypatch.setattr(engine_module, "TERMS_CACHE", 30)
    monkeypatch.setattr(similarity_module, "SENTENCE_CACHE", 30)
    fresh = Engine(LoadedIndex(bundled_index))
    questions = ["nccl2 backend", "MPS lu_factor", "which release added FlexAttention", "ROCm wheels", "cuBLASLt"]
    first = [fresh.ask(q, mode="hybrid") for q in questions]
    assert fresh._split.cache_info().currsize == 4 and fresh.searcher.similarity._query.cache_info().currsize == 2
    assert fresh._sentence_terms.cache_info().currsize <= 30 and len(fresh.searcher.similarity._sentence_vectors) <= 30
    again = [fresh.ask(q, mode="hybrid") for q in questions]
    for a, b in zip(first, again):
        assert [(s.text, s.score) for s in a.sentences] == [(s.text, s.score) for s in b.sentences]
        assert [(p.chunk_id, p.score) for p in a.passages] == [(p.chunk_id, p.score) for p in b.passages]


def test_length_groups() -> None:
    from index.retrieve.similarity import PAD_SLACK, SENTENCE_BATCH
    from index.retrieve.similarity import length_groups as _length_groups

    texts = ["x" * n for n in (5, 200, 30, 190, 41, 100, 160)]
    groups = _length_groups(texts)
    assert sorted(t for g in groups for t in g) == sorted(texts)
    assert [len(g[0]) for g in groups] == sorted((len(g[0]) for g in groups), reverse=True)
    assert all(len(g[0]) - len(t) <= PAD_SLACK for g in groups for t in g)
    assert [[len(t) for t in g] for g in groups] == [[200, 190, 160], [100], [41, 30, 5]]
    full, rest = divmod(130, SENTENCE_BATCH)
    assert [len(g) for g in _length_groups(["y"] * 130)] == [SENTENCE_BATCH] * full + [rest] * (rest > 0)


def test_grouping_sentences_by_length_keeps_their_vectors(engine) -> None:
    """Grouped or together, the encoder gives a sentence the same vector (padding is masked)."""
    import numpy as np

    sentences = [s.text for p in engine.ask("MPS native Metal kernels", mode="bm25", top_k=3).passages
                 for s in split_sentences(p.text)]
    encoder = engine.index.encoder()
    together = encoder.encode(sentences, batch_size=64)
    alone = np.stack([encoder.encode([s], batch_size=1)[0] for s in sentences])
    assert np.allclose(together, alone, atol=1e-5)


def test_answers_use_the_sentence_vectors_made_at_build_time(bundled_index: Path, monkeypatch) -> None:
    """No model pass for answer sentences, and the same answers as embedding them per question."""
    from index.retrieve.reader import LoadedIndex
    from qa.answer.engine import Engine

    stored = Engine(LoadedIndex(bundled_index))
    per_question = Engine(LoadedIndex(bundled_index))
    monkeypatch.setattr(per_question.index, "sentence_vectors", lambda: None)
    questions = ["how does MPS run linear algebra now", "how do i turn on nvgemm in inductor",
                 "which release added deterministic FlexAttention backward?"]
    expected = [per_question.ask(q, top_k=5) for q in questions]
    encoder = stored.index.encoder()
    encoded: list[str] = []
    real_encode = encoder.encode

    def spy(texts, **kwargs):
        encoded.extend(texts)
        return real_encode(texts, **kwargs)

    monkeypatch.setattr(encoder, "encode", spy)
    for question, want in zip(questions, expected):
        got = stored.ask(question, top_k=5)
        assert [s.text for s in got.sentences] == [s.text for s in want.sentences]
        assert [s.score for s in got.sentences] == pytest.approx([s.score for s in want.sentences], abs=1e-3)
    assert set(encoded) <= set(questions)  # only the questions themselves went through the model


@pytest.mark.parametrize("question", ["what is new in Django 5?", "what changed in Rust 1.80?", "numpy 2.0 release notes"])
def test_a_product_the_corpus_does_not_hold_is_said_not_answered(engine, question: str) -> None:
    answer = engine.ask(question, mode="bm25")
    assert answer.passages == () and not answer.confident
    assert joined(answer.notes).startswith("The corpus holds no ") and joined(answer.notes).endswith(
        "; it has: PyTorch. Not answering from another product; to ask about "
        f"{answer.notes[0].products[0]}, give its release notes with --corpus PATH, or fetch those a package ships: "
        f"relnotes add {answer.notes[0].products[0]}.")


@pytest.mark.parametrize("question", ["what changed for Python 3.15 in 2.14", "what is new in PyTorch 2.14",
                                      "what's new in torch 2.14", "does torch support numpy 2 arrays",
                                      "what changed in CUDA 13.2"])
def test_a_dependency_or_the_held_product_is_answered(engine, question: str) -> None:
    answer = engine.ask(question, mode="bm25")
    assert answer.passages and not any(n.kind in ("product_not_held", "release_not_held") for n in answer.notes)


def test_a_sentence_that_only_introduces_a_list_is_not_the_answer(engine) -> None:
    from qa.answer.evidence import says_something

    assert not says_something("The PyTorch 2.13 release features the following changes:")
    assert not says_something("Symmetric Memory unlocks three new programming opportunities:")
    assert not says_something("[GitHub release](https://github.com/pydantic/pydantic/releases/tag/v2.13.4)")
    assert says_something("Install it with:") and says_something(
        "Python 3.15 wheels are not on PyPI; they are available via download.pytorch.org, using any of the following commands:")
    answer = engine.ask("what changed for MPS in 2.13")
    assert answer.sentences and all(says_something(s.text) for s in answer.sentences)
