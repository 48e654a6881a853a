"""``relnotes cache list`` / ``prune`` in a temporary HOME: sizes, last use, and never an index in use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from qa.cli import cli
from tests.support.paths import DATA


def build(corpus: Path) -> None:
    """``relnotes index`` in a child process (so this process holds no in-use lock of its own)."""
    env = {n: os.environ[n] for n in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "PATH") if n in os.environ}
    done = subprocess.run([sys.executable, "-m", "qa", "index", "--corpus", str(corpus), "--quiet"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr


def listed() -> list[dict]:
    result = CliRunner().invoke(cli, ["cache", "list", "--json"])
    assert result.exit_code == 0, result.output
    return [e for e in map(json.loads, result.output.splitlines()) if "directory" in e]  # indexes, not stores


def test_list_then_prune_the_idle_and_keep_the_one_in_use() -> None:
    from index.housekeeping.usage import mark_used, used_file

    widgetlib, gadget = DATA / "releases" / "widgetlib", DATA / "releases" / "gadget"
    assert CliRunner().invoke(cli, ["cache", "list"]).output.startswith("No index in ")
    build(widgetlib)
    build(gadget)
    entries = {tuple(e["inputs"]): e for e in listed()}
    assert set(entries) == {(str(widgetlib),), (str(gadget),)}
    for e in entries.values():
        assert e["chunks"] > 0 and e["bytes"] > 10_000 and e["last_used"] is not None and not e["in_use"]
    old, recent = Path(entries[(str(widgetlib),)]["directory"]), Path(entries[(str(gadget),)]["directory"])
    forty_days = time.time() - 40 * 86400
    os.utime(used_file(old), (forty_days, forty_days))
    text = CliRunner().invoke(cli, ["cache", "list"]).output
    assert "used 40 days ago" in text and "2 indexes" in text

    dry = CliRunner().invoke(cli, ["cache", "prune", "--older-than", "30d", "--dry-run"])
    assert dry.exit_code == 0 and f"Would remove {old}" in dry.output and old.is_dir()
    pruned = CliRunner().invoke(cli, ["cache", "prune", "--older-than", "30d"])
    assert pruned.exit_code == 0 and f"Removed {old}" in pruned.output and "Removed 1 indexes" in pruned.output
    assert not old.exists() and recent.is_dir()

    mark_used(recent)  # this process opens it, as a chat or a server would
    assert listed()[0]["in_use"] is True
    kept = CliRunner().invoke(cli, ["cache", "prune", "--all"])
    assert kept.exit_code == 0 and "another relnotes process has it open" in kept.stderr
    assert recent.is_dir() and "Removed 0 indexes" in kept.stdout


def test_prune_needs_to_be_told_what() -> None:
    assert CliRunner().invoke(cli, ["cache", "prune"]).exit_code == 2
    bad = CliRunner().invoke(cli, ["cache", "prune", "--older-than", "soon"])
    assert bad.exit_code == 2 and "'soon' is no age; write it like 30d, 12h or 2w" in bad.output


def test_looking_never_writes_and_a_never_opened_index_ages_by_its_folder(tmp_path: Path) -> None:
    from index.housekeeping.cache import list_indexes, prune

    build(DATA / "releases" / "widgetlib")
    (entry,) = list_indexes()
    from index.housekeeping.usage import used_file

    used_file(entry.directory).unlink()  # as if built by a relnotes before the stamp
    old = time.time() - 40 * 86400
    os.utime(entry.directory, (old, old))
    assert CliRunner().invoke(cli, ["cache", "list"]).exit_code == 0
    assert not used_file(entry.directory).exists()  # listing created no stamp, so it still looks 40 days old
    removed, busy = prune(30, dry_run=True)
    assert [e.directory for e in removed] == [entry.directory] and entry.directory.is_dir()
    removed, busy = prune(30)
    assert [e.directory for e in removed] == [entry.directory] and not entry.directory.exists() and not busy
    assert not list(entry.directory.parent.glob(f".{entry.directory.name}.tmp-*"))  # no litter


def test_a_damaged_manifest_is_listed_with_its_problem() -> None:
    build(DATA / "releases" / "gadget")
    (entry,) = listed()
    manifest = Path(entry["directory"]) / "manifest.json"
    data = json.loads(manifest.read_text())
    data["counts"]["chunks"] = None
    manifest.write_text(json.dumps(data))
    (damaged,) = listed()
    assert damaged["problem"] and damaged["chunks"] == 0
    assert CliRunner().invoke(cli, ["cache", "prune", "--older-than", ""]).exit_code == 2
