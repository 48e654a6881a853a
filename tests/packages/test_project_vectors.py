"""A project's notes get their vectors from the CLI: ``relnotes index --project DIR``; ``--mode
hybrid`` builds them first and never answers by BM25 in its name, ``auto`` answers by BM25 and
names the command for this project; a second project with the same dependencies takes every
vector from the shared store (real bundled model)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from qa.cli import cli
from tests.packages.test_project_corpus import offline, project  # noqa: F401 - the fixture

QUESTION = "what was removed in flasky 3.1.0?"


def test_auto_says_the_projects_command_and_hybrid_by_name_builds_the_vectors(project: Path) -> None:  # noqa: F811
    offline()
    runner = CliRunner()
    auto = runner.invoke(cli, ["ask", QUESTION, "--project", str(project), "--json", "--no-history"])
    assert auto.exit_code == 0, auto.output
    record = json.loads(auto.stdout)
    assert record["mode"] == "bm25"
    assert record["notes"][-1] == {"kind": "dense_pending", "command": f"relnotes index --project {project.resolve()}"}
    status = runner.invoke(cli, ["status", "--project", str(project)])
    assert f"build them with: relnotes index --project {project.resolve()}" in status.stdout

    batch = runner.invoke(cli, ["batch", "-", "--project", str(project), "--mode", "hybrid", "--format", "trec"],
                          input=QUESTION + "\n")
    assert batch.exit_code == 0, batch.output
    assert "Building the vectors of the index at" in batch.stderr  # built first, said on stderr
    assert batch.stdout.splitlines() and all(line.endswith("relnotes-hybrid") for line in batch.stdout.splitlines())
    again = json.loads(runner.invoke(cli, ["ask", QUESTION, "--project", str(project), "--json", "--no-history"]).stdout)
    assert again["mode"] == "hybrid" and not [n for n in again["notes"] if n["kind"].startswith("dense")]


def test_a_second_project_with_the_same_dependencies_embeds_nothing(project: Path, tmp_path: Path) -> None:  # noqa: F811
    runner = CliRunner()
    other = tmp_path / "other-app"
    shutil.copytree(project, other)
    (other / "uv.lock").write_text('version = 1\n[[package]]\nname = "flasky"\nversion = "3.0.1"\n')
    (other / "package.json").unlink()  # flasky alone: another corpus (another index), its notes all held
    (other / "package-lock.json").unlink()
    assert runner.invoke(cli, ["add", "--project", str(other)]).exit_code == 0  # the same notes, already fetched
    offline()
    first = runner.invoke(cli, ["index", "--project", str(project)])
    assert first.exit_code == 0, first.output
    assert "windows embedded" in first.stdout and "shared vector store" not in first.stdout
    second = runner.invoke(cli, ["index", "--project", str(other)])
    assert second.exit_code == 0, second.output
    assert "Indexed 1 documents" in second.stdout
    assert "(0 windows embedded, 0 reused)" in second.stdout
    assert "vectors from the shared vector store" in second.stdout
    listed = runner.invoke(cli, ["cache", "list", "--json"])
    stores = [json.loads(line) for line in listed.stdout.splitlines() if '"vector_store"' in line]
    assert len(stores) == 1 and stores[0]["model"] == "all-MiniLM-L6-v2" and stores[0]["texts"] > 0
    pruned = runner.invoke(cli, ["cache", "prune", "--all"])
    assert pruned.exit_code == 0, pruned.output
    assert "the whole store" in pruned.stdout
    assert not [line for line in runner.invoke(cli, ["cache", "list", "--json"]).stdout.splitlines()
                if '"vector_store"' in line]
