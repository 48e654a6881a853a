"""``relnotes add`` against a local index: real sdists and npm tarballs, the notes picked, kept
with their origin, fetched again only when a newer version is published."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

from click.testing import CliRunner

from corpus.packages import Dependency, Indexes, PackageRef, add_packages, fetch
from corpus.packages.store import cache_home, package_folder
from qa.cli import cli
from tests.packages.conftest import CHANGES_RST, NPM_CHANGELOG, RELEASE_5_0, RELEASE_5_1, STUB_POINTER


def test_an_sdist_keeps_its_changelog_and_leaves_out_the_stub_and_the_fragment(flask_like) -> None:
    done = fetch(PackageRef("pypi", "flasky"), (flask_like.simple,))
    record = done.record
    assert (done.action, record.name, record.version) == ("fetched", "flasky", "3.1.0")
    assert [f.path for f in record.files] == ["CHANGES.rst"]
    assert (record.files_dir / "CHANGES.rst").read_bytes() == CHANGES_RST
    assert {s.member: s.why for s in record.skipped} == {
        "flasky-3.1.0/docs/changes.rst": "a stub that includes ../CHANGES.rst",
        "flasky-3.1.0/changelog.d/123.bugfix.rst": "an unreleased fragment (changelog.d/)",
    }
    kept = json.loads((record.folder / "record.json").read_text())
    published = flask_like.releases[0]
    assert kept["hash_name"] == "sha256" and kept["hash_value"] == hashlib.sha256(published.data).hexdigest()
    assert kept["index_url"] == flask_like.simple
    assert kept["file_url"] == f"{flask_like.url}/files/{published.filename}"
    assert kept["changelog_url"] == "https://flasky.example/changes/" and kept["fetched"].endswith("Z")
    assert sorted(p.name for p in record.folder.iterdir()) == ["files", "record.json"]
    assert record.folder == package_folder("pypi", "flasky") / "3.1.0"
    assert cache_home() in record.folder.parents


def test_a_folder_of_one_file_per_release_is_kept_and_a_pointer_stub_is_not(package_index) -> None:
    package_index.publish("djangoish", "5.1", {
        "docs/releases/5.1.txt": RELEASE_5_1, "docs/releases/5.0.txt": RELEASE_5_0,
        "docs/releases/index.txt": b"Release notes\n=============\n\n.. toctree::\n   :maxdepth: 1\n\n   5.1\n   5.0\n",
        "CHANGELOG.rst": STUB_POINTER, "docs/next_whats_new/new.rst": b"Something upcoming\n",
        "tests/CHANGES.rst": CHANGES_RST,
    })
    record = fetch(PackageRef("pypi", "djangoish"), (package_index.simple,)).record
    assert [f.path for f in record.files] == ["docs/releases/5.0.txt", "docs/releases/5.1.txt"]
    why = {s.member.split("/", 1)[1]: s.why for s in record.skipped}
    assert why == {"CHANGELOG.rst": "a stub that points elsewhere (https://docs.pytest.org/en/stable/changelog.html)",
                   "docs/next_whats_new/new.rst": "an unreleased fragment (next_whats_new/)"}


def test_adding_again_fetches_only_a_newer_version_and_keeps_the_older(flask_like) -> None:
    indexes = Indexes(None, None)
    first = add_packages(["flasky"], indexes)
    again = add_packages(["flasky"], Indexes(None, None))
    assert [o.action for o in first + again] == ["fetched", "up to date"]
    downloads = [r for r in flask_like.requests if r.startswith("/files/")]
    assert len(downloads) == 1  # the second run read the metadata only
    flask_like.publish("flasky", "3.2.0", {"CHANGES.rst": b"Version 3.2.0\n-------------\n\n-   New.\n\n" + CHANGES_RST})
    (newer,) = add_packages(["flasky"], Indexes(None, None))
    assert (newer.action, newer.dependency.notes.version) == ("fetched", "3.2.0")
    assert sorted(p.name for p in package_folder("pypi", "flasky").iterdir()) == ["3.1.0", "3.2.0"]


def test_a_given_version_is_fetched(flask_like) -> None:
    flask_like.publish("flasky", "3.2.0", {"CHANGES.rst": CHANGES_RST})
    record = fetch(PackageRef("pypi", "flasky", "3.1.0"), (flask_like.simple,)).record
    assert record.version == "3.1.0"
    assert "/pypi/flasky/3.1.0/json" in flask_like.requests


def test_an_index_with_only_the_simple_api_is_read_as_pep_691_json(flask_like) -> None:
    flask_like.json_api = False
    record = fetch(PackageRef("pypi", "Flasky"), (flask_like.simple,)).record
    assert (record.version, [f.path for f in record.files]) == ("3.1.0", ["CHANGES.rst"])
    assert "/simple/flasky/" in flask_like.requests


def test_a_simple_index_in_html_is_read_with_its_hash_fragments(flask_like, monkeypatch) -> None:
    from corpus.packages import simple

    flask_like.json_api = False
    monkeypatch.setattr(simple, "ACCEPT", "text/html")
    flask_like.publish("flasky", "3.2.0rc1", {"CHANGES.rst": CHANGES_RST})  # a pre-release is not the newest
    record = fetch(PackageRef("pypi", "flasky"), (flask_like.simple,)).record
    assert record.version == "3.1.0" and record.hash_value == hashlib.sha256(flask_like.releases[0].data).hexdigest()


def test_an_npm_package_is_checked_against_its_sha512_integrity(package_index) -> None:
    published = package_index.publish_npm("@acme/padder", "2.0.0", {"CHANGELOG.md": NPM_CHANGELOG,
                                                                    "package.json": b'{"name": "@acme/padder"}'})
    (outcome,) = add_packages(["npm:@acme/padder"], Indexes(None, None))
    record = outcome.dependency.notes
    assert (outcome.action, record.ecosystem, record.name, record.version) == ("fetched", "npm", "@acme/padder", "2.0.0")
    assert record.hash_value == base64.b64encode(hashlib.sha512(published.data).digest()).decode()
    assert [f.path for f in record.files] == ["CHANGELOG.md"]
    assert record.folder.parent.name == "@acme+padder"


def test_a_package_without_notes_says_so_and_names_its_changelog(package_index) -> None:
    package_index.publish_npm("left-padder", "1.3.0", {"index.js": b"module.exports = 1\n"},
                              repository="git+https://github.com/acme/left-padder.git")
    result = CliRunner().invoke(cli, ["add", "npm:left-padder"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "[1/1] left-padder 1.3.0: no release notes found (archive: no release notes in its archive "
        "(left-padder-1.3.0.tgz, 1 file looked at); metadata: the index's metadata has no readme; repository: "
        "github.com/acme/left-padder: no such repository, or not public (404); releases: github.com/acme/left-padder: "
        "no such repository, or not public (404); webpage: its metadata links no changelog page); its changelog: "
        "https://github.com/acme/left-padder/releases"]
    assert "1 package: 0 with notes, 1 not shipped, 0 failed (1 fetched, 0 already up to date)." in result.stdout


def test_the_cli_adds_packages_and_says_how_to_ask(flask_like) -> None:
    result = CliRunner().invoke(cli, ["add", "flasky", "--index-url", flask_like.simple])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == ["[1/1] flasky 3.1.0: fetched 1 notes file: CHANGES.rst from its archive"]
    folder = package_folder("pypi", "flasky") / "3.1.0" / "files"
    assert result.stdout.splitlines()[1] == f"flasky: relnotes ask QUESTION --corpus flasky={folder}"


def test_a_local_sdist_and_a_local_folder_are_picked_by_the_same_rules(tmp_path: Path) -> None:
    from tests.support.package_index import sdist

    archive = tmp_path / "localpkg-1.2.0.tar.gz"
    archive.write_bytes(sdist("localpkg", "1.2.0", {"HISTORY.md": NPM_CHANGELOG, "docs/changes.rst": b""}))
    checkout = tmp_path / "checkout"
    (checkout / "docs").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text('[project]\nname = "checked"\nversion = "0.3"\n')
    (checkout / "docs" / "changelog.rst").write_bytes(CHANGES_RST)
    outcomes = add_packages([str(archive), str(checkout)], Indexes(None, None))
    assert [(o.dependency.notes.name, o.dependency.notes.version, [f.path for f in o.dependency.notes.files])
            for o in outcomes] == [("localpkg", "1.2.0", ["HISTORY.md"]), ("checked", "0.3", ["docs/changelog.rst"])]


def test_a_malformed_spec_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["add", "flask>=2"])
    assert result.exit_code == 2 and "expected NAME, NAME==VERSION" in result.output
    assert CliRunner().invoke(cli, ["add"]).exit_code == 2
    missing = CliRunner().invoke(cli, ["add", "./gone-1.0.tar.gz"])
    assert missing.exit_code == 2 and "./gone-1.0.tar.gz: no such file or folder" in missing.output


def test_dependency_values_are_frozen() -> None:
    import dataclasses

    import pytest

    with pytest.raises(dataclasses.FrozenInstanceError):
        Dependency("pypi", "x").pin = "1"  # type: ignore[misc]
