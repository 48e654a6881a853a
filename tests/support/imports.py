"""Which modules of a package import which (read with ast, nothing imported), and the circles among
them: for tests/test_import_direction.py and tests/test_limits.py."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent


def module_name(path: Path, root: Path = REPO) -> str:
    """The dotted name of a module file under ``root`` (a package is its ``__init__.py``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_modules(package: str, root: Path = REPO) -> dict[str, Path]:
    """Every module of ``package`` (sub-packages included), by dotted name."""
    return {module_name(path, root): path for path in sorted((root / package).rglob("*.py"))}


def _targets(node: ast.AST, base: list[str], modules: dict[str, Path]) -> list[str]:
    """The dotted names an import statement asks for (a name imported from a package is its
    submodule when there is one)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        parts = base[: len(base) - (node.level - 1)]
        source = ".".join(parts + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    return [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names]


def import_graph(package: str, root: Path = REPO) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports, at module level or inside a function."""
    modules = package_modules(package, root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            for target in _targets(node, base, modules):
                while target and target not in modules:  # a name imported from a module: that module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.add(target)
        graph[name] = found
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: each group of modules that reach one another (Tarjan)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found
