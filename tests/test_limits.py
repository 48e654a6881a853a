"""Keep modules short and imports untangled: no module over 300 lines, no function over 80, and no
import circle inside a package (module-level and function-level imports alike)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.imports import REPO, circles, import_graph

PACKAGES = ("corpus", "index", "qa")  # the packages held to the limits
MAX_MODULE_LINES = 300
MAX_FUNCTION_LINES = 80


def long_modules(package: str, root: Path = REPO) -> list[str]:
    """The modules of ``package`` over MAX_MODULE_LINES lines, with their length."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            found.append(f"{path.relative_to(root)}: {lines} lines")
    return found


def long_functions(package: str, root: Path = REPO) -> list[str]:
    """The functions and methods of ``package`` over MAX_FUNCTION_LINES lines (``def`` to last line)."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                if size > MAX_FUNCTION_LINES:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name}: {size} lines")
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_300_lines(package: str) -> None:
    assert not long_modules(package), "split by job: " + "; ".join(long_modules(package))


@pytest.mark.parametrize("package", PACKAGES)
def test_no_function_is_over_80_lines(package: str) -> None:
    assert not long_functions(package), "split by job: " + "; ".join(long_functions(package))


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(package: str) -> None:
    found = circles(import_graph(package))
    assert not found, "modules that import each other: " + "; ".join(" <-> ".join(group) for group in found)


def test_the_checks_catch_a_circle_a_long_module_and_a_long_function(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    # A function-level import closes the circle as surely as a module-level one.
    (package / "sub" / "b.py").write_text("def f():\n    from ..a import x\n")
    (package / "c.py").write_text("import pkg.a\n" + "\n" * MAX_MODULE_LINES)
    (package / "d.py").write_text("def long():\n" + "    pass\n" * MAX_FUNCTION_LINES)
    assert import_graph("pkg", tmp_path) == {
        "pkg": set(), "pkg.sub": set(), "pkg.a": {"pkg.sub.b"}, "pkg.sub.b": {"pkg.a"}, "pkg.c": {"pkg.a"}, "pkg.d": set(),
    }
    assert circles(import_graph("pkg", tmp_path)) == [["pkg.a", "pkg.sub.b"]]
    assert long_modules("pkg", tmp_path) == [f"pkg/c.py: {MAX_MODULE_LINES + 1} lines"]
    assert long_functions("pkg", tmp_path) == [f"pkg/d.py:1 long: {MAX_FUNCTION_LINES + 1} lines"]
