"""Start-up stays low: each command, run whole in a fresh process, imports no heavy module it does
not need (torch, sentence-transformers, onnxruntime, faiss, tokenizers; for --help not numpy either,
nor the corpus readers)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
HEAVY = ("torch", "sentence_transformers", "transformers", "onnxruntime", "tokenizers", "faiss", "numpy",
         "corpus.chunking")
RUN = """
import atexit, sys
atexit.register(lambda: print("HEAVY:" + ",".join(m for m in {heavy!r} if m in sys.modules), file=sys.stderr))
from qa.cli import main
sys.argv = ["relnotes", *{args!r}]
main()
"""


def imported(*args: str, watch: tuple[str, ...] = HEAVY) -> set[str]:
    """The modules of ``watch`` (the heavy ones) loaded by ``relnotes ARGS`` (it must succeed)."""
    done = subprocess.run([sys.executable, "-c", RUN.format(heavy=watch, args=list(args))], capture_output=True,
                          text=True, cwd=REPO, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    line = [x for x in done.stderr.splitlines() if x.startswith("HEAVY:")][-1]
    return set(filter(None, line[len("HEAVY:"):].split(",")))


@pytest.mark.parametrize("args", [("--help",), ("ask", "--help"), ("chat", "--help"), ("mcp", "--help")],
                         ids=["help", "ask-help", "chat-help", "mcp-help"])
def test_help_imports_nothing_heavy(args) -> None:
    assert imported(*args) == set()


def test_help_imports_no_command_module_and_one_command_imports_its_own() -> None:
    modules = ("qa.cli.add", "qa.cli.ask", "qa.cli.batch", "qa.cli.cache", "qa.cli.changes", "qa.cli.chat",
               "qa.cli.deps", "qa.cli.evaluate", "qa.cli.indexing", "qa.cli.mcp", "qa.cli.search",
               "qa.cli.sections", "qa.cli.serve", "qa.cli.show", "qa.errors")
    assert imported("--help", watch=modules) == set()
    assert imported("status", "--help", watch=modules) - {"qa.errors"} == {"qa.cli.indexing"}


def test_a_bm25_ask_loads_no_model_and_no_faiss(bundled_index: Path) -> None:
    found = imported("ask", "nccl2 backend", "--mode", "bm25", "--index", str(bundled_index), "--no-history")
    assert found <= {"numpy", "corpus.chunking"}


def test_a_hybrid_ask_embeds_and_searches_in_numpy_alone(bundled_index: Path) -> None:
    found = imported("ask", "nccl2 backend", "--index", str(bundled_index), "--no-history")
    assert "numpy" in found  # the exact vectors searched without faiss (index.retrieve.flat)
    # the question's word pieces without tokenizers (index.encode.wordpiece)
    assert not found & {"faiss", "onnxruntime", "tokenizers", "torch", "sentence_transformers", "transformers"}


def test_a_question_after_a_rebuild_is_embedded_in_numpy(bundled_index: Path, tmp_path: Path) -> None:
    """A changed corpus is rebuilt before the answer (its new windows embedded through the export);
    the question is then embedded in numpy: the build's model, never loaded, was once handed to the
    question, and importing sentence-transformers took ~15 s of a 2 s answer."""
    index = Path(shutil.copytree(bundled_index, tmp_path / "idx"))
    notes = Path(shutil.copytree(REPO / "corpus" / "data", tmp_path / "notes"))
    (notes / "extra.md").write_text("# Extra\n\n## 9.9.0\n\n- Added the frobnicate option to sessions.\n")
    found = imported("ask", "frobnicate option", "--corpus", str(notes), "--index", str(index), "--no-history")
    assert not found & {"torch", "sentence_transformers", "transformers", "faiss"}
    assert "numpy" in found


def test_a_first_ask_on_a_new_corpus_loads_no_model(tmp_path: Path) -> None:
    found = imported("ask", "uncaught panics", "--corpus", str(DATA / "changelog-rust-mini.md"),
                     "--index", str(tmp_path / "idx"), "--no-history")
    assert found <= {"numpy", "corpus.chunking"}  # BM25 only: the vectors are left to relnotes index


COMPILES = """
import re, re._compiler, sys
ours = tuple({repo!r} + "/" + package + "/" for package in ("corpus", "index", "qa"))
compiled = []
_compile = re._compiler.compile

def counted(pattern, flags=0):
    frame = sys._getframe(1)
    while frame is not None and "/re/" in frame.f_code.co_filename.replace("\\\\", "/"):
        frame = frame.f_back
    if frame is not None and frame.f_code.co_filename.startswith(ours):
        compiled.append(f"{{frame.f_code.co_filename}}:{{frame.f_lineno}}")
    return _compile(pattern, flags)

re._compiler.compile = counted
import qa.cli.main, qa.service, qa.answer.engine, qa.history, qa.present.formats, index.retrieve.search
import corpus.chunking, corpus.pipeline, corpus.packages.adding, qa.tui.screens
print("\\n".join(compiled))
"""


def test_importing_the_question_path_compiles_no_regular_expression() -> None:
    """Patterns are compiled on first use (corpus.regex): a module-level ``re.compile`` was 80-90 ms
    of a cold ask, half of it for patterns the question never used."""
    done = subprocess.run([sys.executable, "-c", COMPILES.format(repo=str(REPO))], capture_output=True, text=True,
                          cwd=REPO, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == []
