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


# index/'s own layers, lowest first. A module may import its own sub-package and any lower layer;
# the sub-packages of one layer never import each other. "base" is the top-level modules
# (errors, modes, runtime); index/__init__.py, the door, may import any of them.
INDEX_LAYERS = (("base",), ("store",), ("encode",), ("retrieve",), ("build", "housekeeping"), ("lifecycle",))


def index_part(module: str) -> str:
    """The sub-package a module of index/ belongs to ("base" for a top-level module, "door" for the package)."""
    parts = module.split(".")
    if len(parts) == 1:
        return "door"
    return parts[1] if len(parts) > 2 or (REPO / "index" / parts[1]).is_dir() else "base"


def layer_violations(graph: dict[str, set[str]], layers=INDEX_LAYERS) -> list[str]:
    """The imports of ``graph`` that go up a layer or across one, and modules in no layer."""
    rank = {part: level for level, parts in enumerate(layers) for part in parts}
    found = []
    for module, imported in sorted(graph.items()):
        source = index_part(module)
        if source == "door":
            continue
        if source not in rank:
            found.append(f"{module} is in no layer of INDEX_LAYERS")
            continue
        for target in sorted(imported):
            part = index_part(target)
            if part != source and (part not in rank or rank[part] >= rank[source]):
                found.append(f"{module} imports {target} ({source} -> {part})")
    return found


def test_index_sub_packages_import_one_way() -> None:
    from tests.support.imports import import_graph

    violations = layer_violations(import_graph("index"))
    assert not violations, "against " + " <- ".join("/".join(parts) for parts in INDEX_LAYERS) + ": " + "; ".join(violations)


def test_the_layer_check_catches_an_import_up_or_across() -> None:
    graph = {
        "index.store.layout": {"index.errors"},
        "index.retrieve.reader": {"index.encode.choice", "index.retrieve.dense"},
        "index.store.atomic": {"index.housekeeping.usage"},  # up
        "index.build.pipeline": {"index.housekeeping.cache"},  # across one layer
        "index.errors": {"index.modes"},
        "index": {"index.lifecycle.opening"},
    }
    assert layer_violations(graph) == [
        "index.build.pipeline imports index.housekeeping.cache (build -> housekeeping)",
        "index.store.atomic imports index.housekeeping.usage (store -> housekeeping)",
    ]
