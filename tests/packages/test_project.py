"""A project's dependencies and pins: every project file and lockfile the issue names, the pin's
precedence (lockfile, exact pin, the project's .venv, none), and the project remembered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpus.errors import NothingFetched, ProjectError
from corpus.packages import open_project, read_dependencies


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _pins(root: Path) -> dict[str, tuple]:
    return {d.name: (d.pin, d.pin_source, d.pin_file) for d in read_dependencies(root)}


PYPROJECT = """
[project]
name = "demo"
dependencies = ["httpx>=0.26", "flask==3.0.0", "urllib3", "click>=8; python_version >= '3.8'", "local @ file:///x"]
[project.optional-dependencies]
docs = ["sphinx==7.2.6"]
[dependency-groups]
dev = ["pytest>=8", {include-group = "docs"}]
"""


def test_pyproject_pins_come_from_the_lockfile_then_the_exact_pin_then_the_venv(tmp_path: Path) -> None:
    _write(tmp_path, {
        "pyproject.toml": PYPROJECT,
        "uv.lock": 'version = 1\n[[package]]\nname = "httpx"\nversion = "0.26.0"\n'
                   '[[package]]\nname = "urllib3"\nversion = "1.26.15"\n',
        ".venv/lib/python3.11/site-packages/pytest-8.1.1.dist-info/METADATA": "",
        ".venv/lib/python3.11/site-packages/urllib3-2.0.0.dist-info/METADATA": "",
    })
    assert _pins(tmp_path) == {
        "httpx": ("0.26.0", "lockfile", "uv.lock"),
        "flask": ("3.0.0", "project file", "pyproject.toml"),
        "urllib3": ("1.26.15", "lockfile", "uv.lock"),  # the lockfile wins over what is installed
        "click": (None, None, None),
        "sphinx": ("7.2.6", "project file", "pyproject.toml"),
        "pytest": ("8.1.1", "installed", ".venv/"),
    }
    httpx = read_dependencies(tmp_path)[0]
    assert (httpx.requirement, httpx.declared_in) == (">=0.26", ("pyproject.toml",))


def test_poetry_tables_and_poetry_lock(tmp_path: Path) -> None:
    _write(tmp_path, {
        "pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.10"\nrequests = "^2.31"\nattrs = "23.2.0"\n'
                          'mine = {path = "../mine"}\n[tool.poetry.group.test.dependencies]\npytest = {version = "^8"}\n',
        "poetry.lock": '[[package]]\nname = "requests"\nversion = "2.31.0"\n',
    })
    assert _pins(tmp_path) == {"requests": ("2.31.0", "lockfile", "poetry.lock"),
                               "attrs": ("23.2.0", "project file", "pyproject.toml"), "pytest": (None, None, None)}


def test_requirements_files_follow_their_includes(tmp_path: Path) -> None:
    _write(tmp_path, {
        "requirements.txt": "# app\nDjango==5.0.1  # pinned\n-r requirements/base.txt\n--index-url https://x.test/\n"
                            "-e .\n./vendored.whl\n",
        "requirements/base.txt": "Pillow>=10\n-r ../requirements.txt\n",  # a cycle is read once
        "requirements-dev.txt": "black===24.1.0\n",
    })
    deps = {d.name: d for d in read_dependencies(tmp_path)}
    assert {n: (d.pin, d.pin_source, d.pin_file) for n, d in deps.items()} == {
        "black": ("24.1.0", "project file", "requirements-dev.txt"),
        "Django": ("5.0.1", "project file", "requirements.txt"),
        "Pillow": (None, None, None),
    }
    assert deps["Pillow"].declared_in == ("requirements/base.txt",)


def test_pipfile_lock_alone_gives_the_dependencies(tmp_path: Path) -> None:
    _write(tmp_path, {"Pipfile.lock": json.dumps({"default": {"requests": {"version": "==2.31.0"}},
                                                  "develop": {"pytest": {"version": "==8.0.0"}}})})
    assert _pins(tmp_path) == {"requests": ("2.31.0", "lockfile", "Pipfile.lock"),
                               "pytest": ("8.0.0", "lockfile", "Pipfile.lock")}


def test_package_json_with_its_lockfile_and_node_modules(tmp_path: Path) -> None:
    _write(tmp_path, {
        "package.json": json.dumps({"name": "web", "dependencies": {"react": "^18.2.0", "left-pad": "1.3.0",
                                                                    "mine": "file:../mine"},
                                    "devDependencies": {"vite": "~5.0.0", "@types/node": "^20"}}),
        "package-lock.json": json.dumps({"lockfileVersion": 3, "packages": {
            "": {"name": "web"}, "node_modules/react": {"version": "18.2.0"},
            "node_modules/react/node_modules/loose-envify": {"version": "1.4.0"}}}),
        "node_modules/@types/node/package.json": json.dumps({"name": "@types/node", "version": "20.11.5"}),
    })
    deps = read_dependencies(tmp_path)
    assert all(d.ecosystem == "npm" for d in deps)
    assert {d.name: (d.pin, d.pin_source) for d in deps} == {
        "react": ("18.2.0", "lockfile"), "left-pad": ("1.3.0", "project file"), "vite": (None, None),
        "@types/node": ("20.11.5", "installed")}


@pytest.mark.parametrize(("files", "message"), [
    ({}, "no dependencies found"),
    ({"pyproject.toml": "[project\nname ="}, "pyproject.toml: not readable TOML"),
    ({"package.json": "{nope"}, "package.json: not readable JSON"),
    ({"package-lock.json": "{}", "uv.lock": "version = 1\n"}, "no dependencies found"),
], ids=["empty", "bad-toml", "bad-json", "lock-without-packages"])
def test_a_folder_without_usable_project_files_is_one_clear_error(tmp_path: Path, files, message) -> None:
    _write(tmp_path, files)
    with pytest.raises(ProjectError, match=message):
        read_dependencies(tmp_path)


def test_a_missing_folder_and_a_project_with_nothing_fetched(tmp_path: Path) -> None:
    with pytest.raises(ProjectError, match="no such project folder"):
        read_dependencies(tmp_path / "nope")
    _write(tmp_path, {"requirements.txt": "httpx==0.26.0\n"})
    with pytest.raises(NothingFetched, match=f"fetch them with: relnotes add --project {tmp_path.resolve()}"):
        open_project(tmp_path)
