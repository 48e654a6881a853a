"""``relnotes index --adapt``: pairs from a corpus's items, a real (tiny) fine-tune of the bundled
model, the adapted model kept by the index through updates, and the way back to the base model."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import index.encode.adapt as adapt_module
from corpus import load_chunks
from index import AdaptError, Searcher, open_index
from index.encode.adapt import models_root, read_adapted
from index.encode.adapt_pairs import anchor, batches, training_pairs
from index.encode.encoders import Encoder, bundled_model_path
from index.retrieve.reader import LoadedIndex
from qa.cli import cli

TINY = {**adapt_module.RECIPE, "batch_size": 8, "batches": 3, "max_seq_length": 48}
TOPICS = ["cache folder", "progress bar", "config file", "lock file", "proxy server", "retry loop", "log output",
          "test runner", "plugin hook", "timeout value", "color output", "unicode paths"]
VERBS = ["crashing when", "hanging while", "ignoring", "leaking memory in", "slow with", "reporting wrong"]


def item(n: int) -> str:
    topic, verb = TOPICS[n % len(TOPICS)], VERBS[(n // len(TOPICS)) % len(VERBS)]
    return f"- Fix `opt_{n}` {verb} the {topic} is read from `Config.load()` (#{1000 + n})\n"


def changelog(releases: int, per_release: int = 10) -> str:
    out = ["# Changelog\n\n"]
    for r in range(releases, 0, -1):
        out.append(f"## [1.{r}.0] - 2025-01-0{1 + r % 9}\n\n### Fixed\n\n")
        out.extend(item(r * per_release + i) for i in range(per_release))
        out.append("\n")
    return "".join(out)


@pytest.fixture
def tiny_recipe(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three batches of eight pairs: seconds instead of minutes, the same code path."""
    monkeypatch.setattr(adapt_module, "RECIPE", TINY)


def test_anchor_keeps_the_words_and_drops_identifiers() -> None:
    text = ("- Respect `NO_COLOR` and stop drawing bars when stderr is not a TTY; see Console.print() "
            "and --no-progress by @someone in [#1234](https://github.com/x/y/pull/1234)")
    words = anchor(text)
    assert words == "Respect and stop drawing bars when stderr is not a TTY; see and"
    assert anchor("* Added :pr:`12` support for `snake_case` names in ``api.sub``") == "Added support for names in"


def test_training_pairs_skip_repeats_and_items_of_identifiers_only() -> None:
    notes = "## 1.0.0\n\n- Fix `a_b`\n- Fix the cache folder being ignored\n\n## 0.9.0\n\n- Fix the cache folder being ignored\n"
    chunks = load_chunks_from_text(notes)
    assert training_pairs(chunks) == [("Fix the cache folder being ignored", "- Fix the cache folder being ignored")]


def load_chunks_from_text(text: str, tmp: Path | None = None):
    import tempfile

    folder = Path(tmp or tempfile.mkdtemp()) / "proj"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "CHANGELOG.md").write_text(text)
    return load_chunks([folder])


def test_batches_never_hold_a_text_twice_and_stop_at_the_limit() -> None:
    pairs = [(f"anchor {i % 5}", f"item {i}") for i in range(40)]  # anchors repeat every 5 pairs
    plan = batches(pairs, size=5, limit=3, seed=0)
    assert len(plan) == 3
    for batch in plan:
        texts = [t for pair in batch for t in pair]
        assert len(batch) == 5 and len(set(texts)) == 10
    assert batches(pairs, size=5, limit=3, seed=0) == plan  # seeded: the same plan every time


def test_adapt_trains_once_keeps_the_model_and_goes_back(tmp_path: Path, tiny_recipe) -> None:
    notes = tmp_path / "proj"
    notes.mkdir()
    (notes / "CHANGELOG.md").write_text(changelog(6))
    idx = tmp_path / "idx"
    messages: list[str] = []

    loaded, report = open_index([notes], index_dir=idx, adapt=True, notify=messages.append)
    adapted = loaded.manifest.model["adapted"]
    assert report is not None and any(m.startswith("Adapting all-MiniLM-L6-v2 to this corpus (3 batches")
                                      for m in messages)
    folder = Path(loaded.manifest.model["path"])
    assert folder.parent == models_root() and read_adapted(folder) is not None
    assert adapted["base"]["path"] == str(bundled_model_path().resolve()) and adapted["batches"] == 3
    assert adapted["pairs"] == 60 and loaded.manifest.model["query_encoder"]["key"]  # its own ONNX export
    record = json.loads((folder / "adapted.json").read_text())
    assert record["recipe"] == TINY and record["corpus"] == loaded.manifest.corpus["fingerprint"]
    assert not list(folder.rglob("*.bin")) and list(folder.rglob("*.safetensors"))  # no pickle

    probe = ["the progress bar hangs while the config file is read"]
    base, tuned = Encoder().encode(probe), Encoder(folder).encode(probe)
    assert float((base * tuned).sum()) < 0.9999  # the weights moved
    query = LoadedIndex(idx).encoder()
    assert type(query).__name__ == "NumpyQueryEncoder"  # questions run the adapted model's own weights
    assert query.path == str(folder)
    assert float((query.encode(probe) * tuned).sum()) > 0.9999

    again, report = open_index([notes], index_dir=idx)  # a plain open keeps it: nothing to do
    assert report is None and again.manifest.model == loaded.manifest.model

    again, report = open_index([notes], index_dir=idx, adapt=True)  # the same corpus: no second training
    assert report is None and [p.name for p in models_root().iterdir() if not p.name.startswith(".")] == [folder.name]

    (notes / "CHANGELOG.md").write_text(changelog(7))  # a new release: embedded with the adapted model
    updated, report = open_index([notes], index_dir=idx)
    assert report is not None and report.reused > 0 and updated.manifest.model["path"] == str(folder)

    back, report = open_index([notes], index_dir=idx, adapt=False)
    assert report is not None and "adapted" not in back.manifest.model
    assert back.manifest.model["path"] == str(bundled_model_path().resolve())


def test_a_pruned_adapted_model_rebuilds_with_the_base_model(tmp_path: Path, tiny_recipe) -> None:
    notes = tmp_path / "proj"
    notes.mkdir()
    (notes / "CHANGELOG.md").write_text(changelog(5))
    loaded, _ = open_index([notes], index_dir=tmp_path / "idx", adapt=True)
    shutil.rmtree(loaded.manifest.model["path"])
    messages: list[str] = []
    again, report = open_index([notes], index_dir=tmp_path / "idx", notify=messages.append)
    assert report is not None and "adapted" not in again.manifest.model
    assert any("is gone from the cache" in m and "relnotes index --adapt" in m for m in messages)
    hits = Searcher(again).search("the cache folder crashes", k=3, mode="dense")
    assert len(hits) == 3


def test_adapt_on_a_corpus_of_few_items_is_a_clear_error(tmp_path: Path) -> None:
    notes = tmp_path / "proj"
    notes.mkdir()
    (notes / "CHANGELOG.md").write_text(changelog(2, per_release=5))
    result = CliRunner().invoke(cli, ["index", "--corpus", str(notes), "--index", str(tmp_path / "idx"), "--adapt"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (
        "error: --adapt needs at least 128 list items with words besides identifiers; this corpus has 10. "
        "It is for changelogs of many one-line items: index without --adapt")
    with pytest.raises(AdaptError):
        open_index([notes], index_dir=tmp_path / "idx", adapt=True)


def test_index_command_says_which_model_embeds(tmp_path: Path, tiny_recipe) -> None:
    notes = tmp_path / "proj"
    notes.mkdir()
    (notes / "CHANGELOG.md").write_text(changelog(5))
    runner = CliRunner()
    args = ["index", "--corpus", str(notes), "--index", str(tmp_path / "idx")]
    first = runner.invoke(cli, [*args, "--adapt", "--quiet"], catch_exceptions=False)
    assert first.exit_code == 0, first.output
    assert first.output.startswith("Embedding model: all-MiniLM-L6-v2 adapted to this corpus (50 item pairs, 3 batches")
    status = runner.invoke(cli, ["status", "--corpus", str(notes), "--index", str(tmp_path / "idx")])
    assert "state:     up to date" in status.output
    plain = runner.invoke(cli, [*args, "--quiet"], catch_exceptions=False)
    assert "up to date" in plain.output and "adapted to this corpus" in plain.output


def test_cache_lists_adapted_models_and_prunes_the_unused(tmp_path: Path, tiny_recipe) -> None:
    import os
    import time

    notes = tmp_path / "proj"
    notes.mkdir()
    (notes / "CHANGELOG.md").write_text(changelog(5))
    loaded, _ = open_index([notes], adapt=True)  # in the user cache, as a user's would be
    folder = Path(loaded.manifest.model["path"])
    runner = CliRunner()
    listing = runner.invoke(cli, ["cache", "list"], catch_exceptions=False).output
    assert f"adapted model {folder.name}" in listing and f"used by {loaded.directory.name}" in listing
    entries = [json.loads(line) for line in runner.invoke(cli, ["cache", "list", "--json"]).output.splitlines()]
    models = [e for e in entries if "vector_store" not in e]  # then the shared vector stores
    assert {"model": str(folder), "used_by": [str(loaded.directory)]}.items() <= models[-1].items()

    open_index([notes], adapt=False)  # back to the base model: the adapted one is used by nothing
    assert runner.invoke(cli, ["cache", "prune", "--older-than", "30d"]).output.endswith(
        "Removed 0 indexes, 0.0 MB\n")  # an hour's grace: its index might still be building
    old = time.time() - 7200
    os.utime(folder, (old, old))
    dry = runner.invoke(cli, ["cache", "prune", "--older-than", "1h", "--dry-run"]).output
    assert f"Would remove {folder}  (adapted model no index uses" in dry and folder.is_dir()
    export = models_root().parent / "encoders" / loaded.manifest.model["query_encoder"]["key"]
    assert export.is_dir()  # the adapted model's own ONNX export
    assert list((export.parent / ".checked").glob(f"{export.name}-*"))  # and the build's stamp of its folder
    pruned = runner.invoke(cli, ["cache", "prune", "--older-than", "1h"], catch_exceptions=False).output
    assert f"Removed {folder}  (adapted model no index uses" in pruned and " and 1 adapted models, " in pruned
    assert not folder.exists() and not export.exists()  # its export goes with it; the base model's stays
    assert not list((export.parent / ".checked").glob(f"{export.name}-*"))  # and the stamp of its folder
    assert (models_root().parent / "encoders" / LoadedIndex(loaded.directory).manifest.model["query_encoder"]["key"]
            ).is_dir()
