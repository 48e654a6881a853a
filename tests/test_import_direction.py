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
