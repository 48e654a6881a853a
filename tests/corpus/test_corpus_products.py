"""The product of notes whose headings do not name it: the user's name for it, else the title,
else a project file beside the notes, else the folder they sit in."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from corpus import CorpusInput, load_documents
from corpus.products import product_near
from tests.support.paths import BUNDLED, CHANGELOGS, DATA, ZOO

PROJECTS = DATA / "projects"  # py/ (pyproject.toml), node/ (package.json, notes in docs/), rust/ (Cargo.toml)
needs_zoo = pytest.mark.skipif(not ZOO.is_dir(), reason="../shared/data/zoo not available")
needs_changelogs = pytest.mark.skipif(not CHANGELOGS.is_dir(), reason="../shared/data/changelogs not available")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


CHANGELOG = "# Changelog\n\n## 1.1.0\n\n- Fixed a crash.\n\n## 1.0.0\n\n- First release.\n"


def test_a_project_file_beside_the_changelog_names_the_product() -> None:
    got = {Path(d.source).relative_to(DATA).as_posix(): d.product for d in load_documents([PROJECTS])}
    assert got == {
        "projects/node/docs/CHANGELOG.md": "gizmo",  # package.json one folder up, "@acme/" scope dropped
        "projects/py/CHANGELOG.md": "widgetry",  # [project].name, not the folder "py"
        "projects/rust/CHANGELOG.md": "sprocket",  # [package].name
    }  # and package.json itself is no release notes (no "record has no text body" error)


def test_a_project_file_above_the_corpus_root_still_names_the_product() -> None:
    (doc,) = load_documents([PROJECTS / "node" / "docs"])  # --corpus checkout/docs: package.json is in the checkout
    assert doc.product == "gizmo"  # pytest's doc/en/changelog.rst is pytest's, though --corpus names doc/


def test_a_project_file_up_to_three_folders_up(tmp_path: Path) -> None:
    write(tmp_path / "proj" / "pyproject.toml", '[project]\nname = "deep-thing"\n')
    write(tmp_path / "proj" / "a" / "b" / "CHANGELOG.md", CHANGELOG)
    write(tmp_path / "proj" / "a" / "b" / "c" / "CHANGELOG.md", CHANGELOG)
    write(tmp_path / "proj" / "a" / "b" / "c" / "d" / "CHANGELOG.md", CHANGELOG)
    got = {Path(d.source).parent.name: d.product for d in load_documents([tmp_path / "proj"])}
    assert got == {"b": "deep-thing", "c": "deep-thing", "d": "d"}


def test_places_locales_and_the_home_folder_name_no_product(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "alice"))
    write(tmp_path / "alice" / "notes" / "CHANGELOG.md", CHANGELOG)
    write(tmp_path / "alice" / "Downloads" / "CHANGELOG.md", CHANGELOG)
    write(tmp_path / "alice" / "pytest" / "doc" / "en" / "changelog.md", CHANGELOG)
    got = {Path(d.source).parent.name: d.product for d in load_documents([tmp_path / "alice"])}
    assert got == {"notes": None, "Downloads": None, "en": "pytest"}


@pytest.mark.parametrize(
    ("name", "text"),
    [("pyproject.toml", "[project\nname = 'x'"), ("pyproject.toml", "[tool.poetry]\nname = 'x'\n"),
     ("Cargo.toml", "[workspace]\nmembers = ['a']\n"), ("package.json", '{"name": ""}'),
     ("package.json", "[1, 2]"), ("package.json", '{"name": "bad\\u0007name"}')],
    ids=["toml-malformed", "no-project-table", "cargo-workspace", "npm-empty-name", "npm-not-object", "npm-control"],
)
def test_a_project_file_that_names_nothing_leaves_the_folder_name(tmp_path: Path, name: str, text: str) -> None:
    write(tmp_path / "gadget" / name, text)
    write(tmp_path / "gadget" / "CHANGES.md", CHANGELOG)
    assert [d.product for d in load_documents([tmp_path / "gadget" / "CHANGES.md"])] == ["gadget"]


@pytest.mark.parametrize(
    ("relative", "given", "product"),
    [
        ("zoo/httpx/CHANGELOG.md", "zoo", "httpx"),
        ("zoo/httpx/CHANGELOG.md", "zoo/httpx", "httpx"),
        ("zoo/httpx/CHANGELOG.md", "zoo/httpx/CHANGELOG.md", "httpx"),  # a file given directly: its folder
        ("zoo/numpy/release/2.3.0-notes.md", "zoo", "NumPy"),  # generic folder skipped; a known spelling
        ("zoo/numpy/release/2.3.0-notes.md", "zoo/numpy/release", "NumPy"),  # one folder above the root
        ("np/doc/source/release/notes.md", "np", "np"),
        ("data/notes/CHANGES.md", "data/notes", None),  # only generic names up to the root's parent
        ("repo/tests/data/CHANGES.md", "repo/tests/data/CHANGES.md", None),
        ("invoke/sites/www/changelog.md", "invoke", "invoke"),  # the project's web site, not a "www" product
    ],
    ids=["folder", "root-folder", "file", "generic-skipped", "generic-root", "generic-chain", "all-generic",
         "fixture-folder", "web-site"],
)
def test_the_folder_names_the_product(tmp_path: Path, relative: str, given: str, product: str | None) -> None:
    write(tmp_path / relative, CHANGELOG)
    (doc,) = load_documents([tmp_path / given])
    assert doc.product == product


def test_a_title_that_names_the_product_wins(tmp_path: Path) -> None:
    write(tmp_path / "widgetry" / "pyproject.toml", '[project]\nname = "widgetry"\n')
    write(tmp_path / "widgetry" / "RELEASES.md", "# Rust 1.80.0\n\n- Stabilised things.\n")
    assert [d.product for d in load_documents([tmp_path / "widgetry"])] == ["Rust"]


def test_the_bundled_notes_and_a_copy_of_them_stay_pytorch(tmp_path: Path) -> None:
    assert {d.product for d in load_documents()} == {"PyTorch"}
    shutil.copytree(BUNDLED, tmp_path / "mine", ignore=shutil.ignore_patterns("__pycache__"))
    assert {d.product for d in load_documents([tmp_path / "mine"])} == {"PyTorch"}


def test_a_named_input_gives_every_document_under_it_that_product() -> None:
    docs = load_documents([CorpusInput(PROJECTS, "Acme"), DATA / "github" / "httpx-releases.json",
                           CorpusInput(DATA / "changelog-rust-mini.md", "rustc")])
    assert {Path(d.source).name: d.product for d in docs} == {
        "CHANGELOG.md": "Acme", "httpx-releases.json": "httpx", "changelog-rust-mini.md": "rustc"}
    (release,) = {d.product for d in load_documents([CorpusInput(DATA / "github", "HTTPX")])}
    assert release == "HTTPX"  # the user's name wins over a GitHub repository's too


@pytest.mark.parametrize("bad", ["", " httpx", "a\x1bb", "tab\there", "new\nline"],
                         ids=["empty", "padded", "escape", "tab", "newline"])
def test_a_product_name_must_be_plain_text(bad: str) -> None:
    with pytest.raises(ValueError, match="product name"):
        CorpusInput(Path("x"), bad)


ZOO_PRODUCTS = {"flask": "flask", "pytest": "pytest", "numpy": "NumPy", "textual": "textual", "httpx": "httpx"}


@needs_zoo
def test_the_zoo_products_are_the_projects() -> None:
    for folder, product in ZOO_PRODUCTS.items():  # every file, loadable here or not (reStructuredText)
        for path in (ZOO / folder).rglob("*.*"):
            assert product_near(path, ZOO) == product, path
    loaded = {}
    for doc in load_documents([ZOO]):
        top = Path(doc.source).relative_to(ZOO).parts[0]
        if top in ZOO_PRODUCTS:
            loaded.setdefault(top, set()).add(doc.product)
    assert {"textual", "httpx"} <= loaded.keys()
    assert loaded == {top: {ZOO_PRODUCTS[top]} for top in loaded}


@needs_zoo
def test_a_zoo_project_given_alone_keeps_its_name() -> None:
    (doc,) = load_documents([ZOO / "httpx" / "CHANGELOG.md"])
    assert (doc.title, doc.product) == ("Changelog", "httpx")
    assert product_near(ZOO / "numpy" / "release" / "2.3.0-notes.rst", ZOO / "numpy" / "release") == "NumPy"


@needs_changelogs
def test_the_changelogs_stay_rust_and_pydantic() -> None:
    got = {Path(d.source).name: d.product for d in load_documents([CHANGELOGS])}
    assert got == {"README.md": None, "pydantic-HISTORY.md": "pydantic", "rust-RELEASES.md": "Rust"}


def test_a_named_known_product_keeps_its_spelling(tmp_path: Path) -> None:
    from corpus.inputs import CorpusInput

    write(tmp_path / "x" / "CHANGELOG.md", CHANGELOG)
    (doc,) = load_documents([CorpusInput(tmp_path / "x", "numpy")])
    assert doc.product == "NumPy"  # as the numpy folder and its titles say it: one product, not two
