"""A project's dependencies end to end: ``relnotes add --project`` over a local index, then,
with no network, ``relnotes deps``, ``ask --project``, the MCP ``dependencies`` tool and ``/v1/deps``."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from qa.cli import cli
from tests import conftest
from tests.packages.conftest import CHANGES_RST, NPM_CHANGELOG


@pytest.fixture
def project(package_index, tmp_path: Path) -> Path:
    """A project pinning flasky 3.0.0 (uv.lock) and @acme/padder 1.1.0 (package-lock.json), with
    widget (no notes shipped) unpinned; its notes fetched from the local index."""
    package_index.publish("flasky", "3.1.0", {"CHANGES.rst": CHANGES_RST})
    package_index.publish("widget", "0.9.0", {"setup.py": b""}, project_urls={"Changelog": f"{package_index.url}/pages/widget/changes"})
    package_index.publish_npm("@acme/padder", "2.0.0", {"CHANGELOG.md": NPM_CHANGELOG})
    root = tmp_path / "app"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "app"\ndependencies = ["flasky>=3", "widget"]\n')
    (root / "uv.lock").write_text('version = 1\n[[package]]\nname = "flasky"\nversion = "3.0.0"\n')
    (root / "package.json").write_text(json.dumps({"dependencies": {"@acme/padder": "^1.1.0"}}))
    (root / "package-lock.json").write_text(json.dumps({"packages": {"node_modules/@acme/padder": {"version": "1.1.0"}}}))
    result = CliRunner().invoke(cli, ["add", "--project", str(root)])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "[1/3] flasky 3.1.0: fetched 1 notes file: CHANGES.rst from its archive",
        "[2/3] widget 0.9.0: no release notes found (archive: no release notes in its archive (widget-0.9.0.tar.gz, "
        "2 files looked at); metadata: the index's metadata has no description; repository: its metadata names no GitHub "
        f"repository ({package_index.url}/pages/widget/changes); releases: its metadata names no GitHub repository "
        f"({package_index.url}/pages/widget/changes); webpage: its changelog page "
        f"{package_index.url}/pages/widget/changes answered 404); its changelog: {package_index.url}/pages/widget/changes",
        "[3/3] @acme/padder 2.0.0: fetched 1 notes file: CHANGELOG.md from its archive"]
    assert result.stdout.splitlines()[0] == "3 packages: 2 with notes, 1 not shipped, 0 failed (3 fetched, 0 already up to date)."
    return root


def offline() -> None:
    """From here on, not even the local index can be reached: what follows works without network."""
    conftest._LOOPBACK_ALLOWED[0] = False


def test_deps_ask_and_changes_answer_offline_from_the_projects_notes(project: Path, package_index) -> None:
    offline()
    result = CliRunner().invoke(cli, ["deps", "--project", str(project), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [d["name"] for d in report] == ["flasky", "@acme/padder", "widget"]  # attention first
    flasky, padder, widget = report
    assert (flasky["pinned"], flasky["pin_source"], flasky["pin_file"], flasky["newest"], flasky["releases_between"]) == (
        "3.0.0", "lockfile", "uv.lock", "3.1.0", 2)
    assert flasky["counts"]["removed"] == 2 and flasky["counts"]["deprecated"] == 1
    assert [(i["citation"]["version"], i["kind"]) for i in flasky["items"]] == [
        ("3.1.0", "removed"), ("3.1.0", "removed"), ("3.1.0", "deprecated")]
    assert "Drop support for Python 3.8" in flasky["items"][0]["text"]
    assert flasky["items"][0]["citation"]["source"].endswith("notes/pypi/flasky/3.1.0/files/CHANGES.rst")
    assert flasky["notes"]["status"] == "found" and flasky["notes"]["file_url"].endswith("/files/flasky-3.1.0.tar.gz")
    assert set(flasky["notes"]["hash"]) == {"sha256"} and flasky["notes"]["files"] == ["CHANGES.rst"]
    assert (padder["pinned"], padder["pin_source"], padder["newest"], padder["releases_between"]) == (
        "1.1.0", "lockfile", "2.0.0", 1)
    assert padder["counts"]["removed"] == 1 and "Removed the `legacy` option." in padder["items"][0]["text"]
    assert (widget["pinned"], widget["newest"], widget["releases_between"], widget["notes"]["status"]) == (
        None, None, None, "not shipped")
    assert widget["notes"]["why"].endswith("/pages/widget/changes answered 404); its changelog: "
                                          f"{widget['notes']['changelog_url']}")
    assert [t["source"] for t in widget["notes"]["tried"]] == ["archive", "metadata", "repository", "releases", "webpage"]

    text = CliRunner().invoke(cli, ["deps", "--project", str(project)])
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0] == f"Dependencies of {project.resolve()} (3, what needs attention first)"
    assert lines[2].startswith("flasky  pinned 3.0.0 (lockfile: uv.lock)  newest 3.1.0: 2 releases between; "
                               "2 breaking/removed, 1 deprecated")
    assert "no pin (any version: no lockfile entry, exact pin or installed version)" in text.stdout
    assert lines[-1] == (f"Without release notes (1): widget (each source tried and why: relnotes add --project "
                         f"{project.resolve()})")
    assert "  no release notes found (archive: no release notes in its archive" in text.stdout

    asked = CliRunner().invoke(cli, ["ask", "what was removed in flasky 3.1.0?", "--project", str(project), "--json",
                                     "--mode", "bm25", "--no-history"])
    assert asked.exit_code == 0, asked.output
    record = json.loads(asked.stdout)
    assert record["passages"] and {p["citation"]["product"] for p in record["passages"]} == {"flasky"}
    changes = CliRunner().invoke(cli, ["changes", "@acme/padder", "1.1.0", "2.0.0", "--project", str(project)])
    assert changes.exit_code == 0 and "Removed the `legacy` option." in changes.stdout
    assert not [r for r in package_index.requests if "2.0.0" in r and r.startswith("/npm")][1:]


def test_adding_the_project_again_fetches_nothing_unchanged(project: Path, package_index) -> None:
    package_index.publish("flasky", "3.2.0", {"CHANGES.rst": b"Version 3.2.0\n-------------\n\n-   New.\n\n" + CHANGES_RST})
    result = CliRunner().invoke(cli, ["add", "--project", str(project)])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0] == "[1/3] flasky 3.2.0: fetched 1 notes file: CHANGES.rst from its archive"
    assert lines[2].startswith("[3/3] @acme/padder 2.0.0: up to date (1 notes file: CHANGELOG.md from its archive; "
                               "fetched ")
    assert "(1 fetched, 2 already up to date)" in result.stdout


def test_a_failed_fetch_keeps_the_notes_the_project_had(project: Path, package_index) -> None:
    package_index.overrides["/pypi/flasky/json"] = 500
    package_index.overrides["/simple/flasky/"] = 500
    result = CliRunner().invoke(cli, ["add", "--project", str(project)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].startswith("[1/3] failed: flasky: the index answered 500")
    from corpus.packages import open_project

    flasky = open_project(project).dependency("flasky")
    assert flasky.notes.version == "3.1.0" and flasky.status == "found" and "answered 500" in flasky.problem


def test_project_and_corpus_together_or_a_project_never_fetched(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("httpx==0.26.0\n")
    both = CliRunner().invoke(cli, ["ask", "x", "--project", str(tmp_path), "--corpus", str(tmp_path)])
    assert both.exit_code == 2 and "--project and --corpus cannot be used together" in both.output
    never = CliRunner().invoke(cli, ["deps", "--project", str(tmp_path)])
    assert never.exit_code == 1
    assert never.stderr.strip() == (f"error: No release notes fetched for the project {tmp_path.resolve()} yet; "
                                    f"fetch them with: relnotes add --project {tmp_path.resolve()}")
    assert CliRunner().invoke(cli, ["deps"]).exit_code == 2


async def test_the_mcp_dependencies_tool(project: Path) -> None:
    from tests.mcp.test_mcp_server import TOOLS, session

    offline()
    async with session("--project", str(project)) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert tools == TOOLS | {"dependencies"}
        called = await client.call_tool("dependencies", {"names": ["flasky"]})
        assert not called.is_error, called.content
        record = called.structured_content
        assert record["project"] == str(project.resolve())
        assert [(d["name"], d["pinned"], d["newest"]) for d in record["dependencies"]] == [("flasky", "3.0.0", "3.1.0")]
        assert "flasky: pinned 3.0.0, newest 3.1.0, 2 releases between" in called.content[0].text
        wrong = await client.call_tool("dependencies", {"names": ["nope"]})
        assert wrong.is_error and "'nope' is no dependency of" in wrong.content[0].text


def test_the_http_deps_route(project: Path) -> None:
    from tests.http.test_serve import serving

    with serving("--project", str(project)) as base:
        answer = httpx.get(f"{base}/v1/deps", params={"name": "@acme/padder"}, timeout=60)
        assert answer.status_code == 200, answer.text
        (padder,) = answer.json()["dependencies"]
        assert (padder["pinned"], padder["newest"], padder["counts"]["removed"]) == ("1.1.0", "2.0.0", 1)
        small = httpx.get(f"{base}/v1/deps", params={"max_chars": "1000"}, timeout=60).json()
        assert len(json.dumps(small)) <= 1000 and small["omitted"] >= 1
        assert httpx.get(f"{base}/v1/deps", params={"name": "nope"}, timeout=60).status_code == 422
        assert "/v1/deps" in httpx.get(f"{base}/openapi.json", timeout=60).json()["paths"]


@pytest.mark.parametrize("command", [["ask", "x"], ["search", "x"], ["batch", "-"], ["changes", "1.0", "2.0"], ["chat"],
                                     ["mcp"], ["serve", "--port", "0"], ["deps"]], ids=lambda c: c[0])
def test_every_command_with_project_opens_it_first(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "requirements.txt").write_text("httpx==0.26.0\n")
    result = CliRunner().invoke(cli, [*command, "--project", str(tmp_path)], input="")
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("error: No release notes fetched for the project ")


def test_an_upgrade_question_starts_from_the_projects_pin(project: Path) -> None:
    offline()

    def asked(question: str) -> dict:
        result = CliRunner().invoke(cli, ["ask", question, "--project", str(project), "--json", "--mode", "bm25",
                                          "--no-history"])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    pinned = asked("what breaks if I upgrade flasky?")  # uv.lock pins flasky 3.0.0
    assert pinned["range"]["since"] == "3.0.0" and pinned["range"]["until"] is None
    assert [r["version"] for r in pinned["digest"]["releases"]] == ["3.1.0"]  # 3.0.0's removal is behind the pin
    assert pinned["notes"][0] == {"kind": "from_pin", "releases": ["3.0.0"], "products": ["flasky"]}
    assert pinned["note"] == ("From the version the project is on: flasky 3.0.0 (its pin); name a release to ask "
                              "from another. 1 of the 2 releases after 3.0.0 has removed or deprecated items.")
    own = asked("what breaks upgrading flasky from 3.0.1 to 3.1.0?")  # a from-release of its own wins
    assert [r["version"] for r in own["digest"]["releases"]] == ["3.1.0"]
    assert all(n["kind"] != "from_pin" for n in own.get("notes", []))
    removed = asked("what was removed in flasky 3.0.0?")  # no upgrade: the release asked
    assert all(n["kind"] != "from_pin" for n in removed.get("notes", []))


def test_a_pin_newer_than_the_notes_is_said(project: Path) -> None:
    offline()
    (project / "uv.lock").write_text('version = 1\n[[package]]\nname = "flasky"\nversion = "3.2.0"\n')
    result = CliRunner().invoke(cli, ["deps", "flasky", "--project", str(project), "--json"])
    assert result.exit_code == 0, result.output
    (flasky,) = json.loads(result.stdout)
    assert (flasky["pinned"], flasky["newest"], flasky["releases_between"], flasky["pin_ahead_of_notes"]) == (
        "3.2.0", "3.1.0", 0, True)
    text = CliRunner().invoke(cli, ["deps", "flasky", "--project", str(project)])
    assert "flasky  pinned 3.2.0 (lockfile: uv.lock)  up to date with its notes (the notes stop at 3.1.0)" in text.stdout
    upgrade = CliRunner().invoke(cli, ["ask", "what breaks if I upgrade flasky?", "--project", str(project), "--json",
                                       "--mode", "bm25", "--no-history"])
    assert upgrade.exit_code == 0, upgrade.output
    assert json.loads(upgrade.stdout)["note"] == (  # after 3.2.0: nothing, and said so
        "From the version the project is on: flasky 3.2.0 (its pin); name a release to ask from another. "
        "The corpus holds no release of flasky after 3.2.0 (it has: 3.0.0, 3.0.1, 3.1.0).")
