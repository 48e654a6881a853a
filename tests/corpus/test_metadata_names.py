"""The other names a distribution's own metadata gives its product (``corpus.metadata``), and a
folder of notes beside that metadata carrying them into its documents and chunks (issue 43)."""

from __future__ import annotations

import json
from pathlib import Path

from corpus import CorpusInput, load_chunks, load_documents
from corpus.metadata import Identity, identity_of, other_names, pkg_info_identity
from corpus.model import Chunk
from tests.support.metadata_samples import (CRYPTOGRAPHY_CHANGELOG, CRYPTOGRAPHY_PKG_INFO, MARKDOWN_CHANGELOG,
                                            MARKDOWN_PKG_INFO)


def test_the_real_pkg_info_of_markdown_and_cryptography() -> None:
    markdown = pkg_info_identity(MARKDOWN_PKG_INFO.decode())
    assert markdown == Identity("Markdown", ("Python-Markdown", "Python-Markdown/markdown"))
    cryptography = pkg_info_identity(CRYPTOGRAPHY_PKG_INFO.decode())
    assert cryptography == Identity("cryptography", ("pyca/cryptography",))  # pyca owns bcrypt, pynacl too: not a name
    # the Summary is prose: neither "Gruber" nor "Python" nor "developers" becomes a name
    assert not {"gruber", "python", "developers", "john"} & {n.lower() for n in markdown.names + cryptography.names}


def test_a_repository_names_its_product_only_by_the_products_name() -> None:
    assert other_names("python-dateutil", ["https://github.com/dateutil/dateutil"]) == (
        "python_dateutil", "dateutil/dateutil", "dateutil")
    assert other_names("Jinja2", ["https://github.com/pallets/jinja/"]) == ("pallets/jinja", "jinja")
    assert other_names("msgpack", ["https://github.com/msgpack/msgpack-python"]) == (
        "msgpack/msgpack-python", "msgpack-python")
    assert other_names("attrs", ["https://github.com/python-attrs/attrs"]) == ("python-attrs/attrs", "python-attrs")
    assert other_names("vue", ["git+https://github.com/vuejs/core.git"]) == ("vuejs/core", "vuejs")
    # owners of many products, and monorepos, name none of them
    assert other_names("flask", ["https://github.com/pallets/flask/"]) == ("pallets/flask",)
    assert other_names("httpx", ["https://github.com/encode/httpx"]) == ("encode/httpx",)
    monorepo = "https://github.com/Azure/azure-sdk-for-python/tree/main/sdk/core/azure-core"
    assert other_names("azure-core", [monorepo]) == ("azure_core",)
    assert other_names("@babel/core", ["https://github.com/babel/babel.git"]) == ("@babel/core", "babel/core")
    # a scoped npm package never goes by its bare name ("kit" is anybody's)
    assert "kit" not in other_names("@sveltejs/kit", ["git+https://github.com/sveltejs/kit.git"])
    assert other_names("cryptography", ["https://cryptography.io/", "not a url", ""]) == ()


def test_package_json_pyproject_and_cargo() -> None:
    npm = identity_of("package.json", json.dumps({
        "name": "@acme/padder", "repository": {"type": "git", "url": "git+https://github.com/acme/padder.git"},
        "bugs": {"url": "https://github.com/acme/padder/issues"}}))
    assert npm == Identity("padder", ("@acme/padder", "acme/padder"))
    pyproject = identity_of("pyproject.toml", '[project]\nname = "Flask_Login"\n[project.urls]\n'
                                              'Source = "https://github.com/maxcountryman/flask-login"\n')
    assert pyproject == Identity("Flask_Login", ("Flask-Login", "maxcountryman/flask-login"))
    cargo = identity_of("Cargo.toml",
                        '[package]\nname = "serde_json"\nrepository = "https://github.com/serde-rs/json"\n')
    assert cargo == Identity("serde_json", ("serde-json",))  # serde-rs/json: "json" is not serde_json's name
    assert identity_of("package.json", "{not json") is None and identity_of("PKG-INFO", "Version: 1.0\n") is None


def test_a_folder_with_pkg_info_gives_its_documents_and_chunks_the_other_names(tmp_path: Path) -> None:
    for top, pkg_info, notes, name in (("Markdown-3.7", MARKDOWN_PKG_INFO, MARKDOWN_CHANGELOG, "docs/changelog.md"),
                                       ("cryptography-44.0.0", CRYPTOGRAPHY_PKG_INFO, CRYPTOGRAPHY_CHANGELOG,
                                        "CHANGELOG.rst")):
        folder = tmp_path / top
        (folder / name).parent.mkdir(parents=True)
        (folder / "PKG-INFO").write_bytes(pkg_info)
        (folder / name).write_bytes(notes)
    docs = load_documents([tmp_path / "Markdown-3.7" / "docs", tmp_path / "cryptography-44.0.0" / "CHANGELOG.rst"])
    assert [(d.product, d.other_names) for d in docs] == [
        ("Markdown", ("Python-Markdown", "Python-Markdown/markdown")), ("cryptography", ("pyca/cryptography",))]
    chunks = load_chunks([tmp_path / "Markdown-3.7" / "docs", tmp_path / "cryptography-44.0.0" / "CHANGELOG.rst"])
    assert {c.other_names for c in chunks if c.product == "cryptography"} == {("pyca/cryptography",)}
    again = Chunk.from_json(json.loads(json.dumps(chunks[0].to_json())))
    assert again == chunks[0] and again.other_names == ("Python-Markdown", "Python-Markdown/markdown")
    # a product the user names takes no names from a file of another product's
    (tmp_path / "Markdown-3.7" / "docs" / "PKG-INFO").write_text("Name: other\n")
    named = load_documents([CorpusInput(tmp_path / "Markdown-3.7" / "docs", "Markdown", ("Python-Markdown",))])
    assert {d.other_names for d in named} == {("Python-Markdown",)}
