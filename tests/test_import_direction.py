"""Imports flow corpus <- index <- qa only; heavy libraries stay out of corpus."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ORDER = {"corpus": 0, "index": 1, "qa": 2}
FORBIDDEN_IN = {
    "corpus": {"torch", "sentence_transformers", "faiss", "textual", "click", "rank_bm25", "index", "qa"},
    "index": {"textual", "click", "qa"},
}


def imported_packages(path: Path) -> set[str]:
    """Top-level names a module imports (absolute imports only; relative ones stay in-package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def modules() -> list[tuple[str, Path]]:
    return [(pkg, path) for pkg in ORDER for path in sorted((REPO / pkg).rglob("*.py"))]


@pytest.mark.parametrize(("package", "path"), modules(), ids=lambda v: str(v).rsplit("/", 2)[-1] if isinstance(v, Path) else v)
def test_imports_flow_one_way(package: str, path: Path) -> None:
    imported = imported_packages(path)
    backwards = {name for name in imported if name in ORDER and ORDER[name] > ORDER[package]}
    assert not backwards, f"{path.relative_to(REPO)} imports {backwards} against corpus <- index <- qa"
    assert not imported & FORBIDDEN_IN.get(package, set()), (
        f"{path.relative_to(REPO)} imports {imported & FORBIDDEN_IN[package]}"
    )


def test_the_check_catches_a_back_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import qa.cli\nfrom index import store\n")
    assert imported_packages(bad) == {"qa", "index"}


QA_NEVER = {"numpy", "faiss", "torch", "sentence_transformers", "onnxruntime"}  # arrays stay inside index/


def index_imports(path: Path) -> set[str]:
    """The ``index`` modules a file imports other than the package itself (its public API)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("index."))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.startswith("index."):
            found.add(node.module)
    return found


@pytest.mark.parametrize("path", sorted((REPO / "qa").rglob("*.py")), ids=lambda p: str(p.relative_to(REPO)))
def test_qa_uses_only_the_public_index_api_and_no_arrays(path: Path) -> None:
    assert not index_imports(path), f"{path.relative_to(REPO)} imports {index_imports(path)}; use `from index import ...`"
    heavy = imported_packages(path) & QA_NEVER
    assert not heavy, f"{path.relative_to(REPO)} imports {heavy}: numpy and faiss objects stay inside index/"


def test_the_public_api_check_catches_a_private_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from index.search import Searcher\nimport index.reader\nfrom index import Hit\nimport numpy as np\n")
    assert index_imports(bad) == {"index.search", "index.reader"}
    assert imported_packages(bad) & QA_NEVER == {"numpy"}


def test_every_name_of_the_public_index_api_resolves() -> None:
    import index

    for name in index.__all__:
        assert getattr(index, name) is not None, name
    assert callable(index.tokenize) and index.tokenize("Tokens") == ["token"]
