"""Kinds of change: section names as projects write them, read as one small vocabulary."""

from __future__ import annotations

import pytest

from corpus import load_corpus
from corpus.kinds import KINDS, check_kind, kind_of, section_kind
from tests.support.paths import CHANGELOGS, DATA, ZOO

NAMES = {
    # Keep a Changelog
    "Added": "added", "Changed": "changed", "Deprecated": "deprecated", "Removed": "removed", "Fixed": "fixed",
    "Security": "security", "[Fixed]": "fixed",
    # towncrier (pytest)
    "Removals and backward incompatible breaking changes": "removed", "Deprecations (removal in next major release)":
    "deprecated", "New features": "added", "Improvements in existing functionality": "changed", "Bug fixes": "fixed",
    "Improved documentation": "docs", "Trivial/Internal Changes": "other", "Contributor-facing changes": "other",
    "Packaging updates and notes for downstreams": "other", "Breaking Changes": "removed", "Features": "added",
    # numpy
    "Highlights": "added", "New functions": "added", "Expired deprecations": "removed", "Compatibility notes": "removed",
    "Performance improvements and changes": "performance", "C API changes": "changed", "Future Changes": "deprecated",
    "New deprecations": "deprecated", "Issues fixed": "fixed", "Build system changes": "changed",
    "Typing improvements and changes": "changed", "Dropped Support": "removed", "Security Notes": "security",
    # Rust, pydantic, httpx
    "Stabilized APIs": "added", "Compatibility Notes": "removed", "Internal Changes": "other", "What's Changed": "changed",
    "New Features": "added", "Fixes": "fixed", "Performance": "performance", "New Contributors": "other",
    "Packaging": "other", "Deprecations and Removals": "deprecated",
    # Django, the bundled PyTorch notes
    "Features deprecated in 5.1": "deprecated", "Features removed in 5.1": "removed", "Documentation fixes": "docs",
    "Dropped Python 3.8 support": "removed", "Non-Feature Updates": "changed",
    "Deprecations and Backwards-Incompatible Changes": "removed",
}


@pytest.mark.parametrize(("name", "kind"), sorted(NAMES.items()))
def test_section_names_of_real_projects(name: str, kind: str) -> None:
    assert kind_of(name) == kind


def test_the_deepest_precise_kind_decides_then_the_deepest_named() -> None:
    assert section_kind(("Compatibility notes", "np.dot now raises TypeError instead of ValueError")) == "removed"
    assert section_kind(("Compatibility notes", "linalg.norm return type changes")) == "removed"
    assert section_kind(("What's Changed", "Fixes")) == "fixed" and section_kind(("What's Changed", "New Features")) == "added"
    assert section_kind(("What's Changed", "Packaging")) == "other"
    assert section_kind(("Platform Features and Updates", "Deprecations and Backwards-Incompatible Changes")) == "removed"
    assert section_kind(("Libraries",)) == "other" and section_kind(()) is None
    assert section_kind(("Python 2.6 support",)) == "other"


def test_kind_names_and_aliases() -> None:
    assert [check_kind(k) for k in ("Fixed", "breaking", "perf")] == ["fixed", "removed", "performance"]
    with pytest.raises(ValueError, match="unknown kind 'nope'; use one of: added, changed"):
        check_kind("nope")


def test_chunks_carry_the_kind_of_their_section() -> None:
    chunks = load_corpus([DATA / "rst" / "changelog.rst", DATA / "keepachangelog.md"]).chunks
    by_section = {c.section[-1]: c.kind for c in chunks}
    assert by_section["Bug fixes"] == "fixed" and by_section["Features"] == "added"
    assert {c.kind for c in chunks} <= {*KINDS, None}


@pytest.mark.skipif(not ZOO.is_dir() or not CHANGELOGS.is_dir(), reason="../shared/data not available")
def test_every_section_name_of_the_zoo_and_the_changelogs_has_a_kind() -> None:
    corpus = load_corpus([ZOO, CHANGELOGS])
    kinds = {c.kind for c in corpus.chunks}
    assert kinds <= {*KINDS, None} and {"added", "changed", "deprecated", "removed", "fixed", "performance"} <= kinds
    keep_a_changelog = [c for c in corpus.chunks if c.product in ("textual", "httpx") and len(c.section) > 2]
    named = [c for c in keep_a_changelog if c.kind not in (None, "other")]
    assert len(named) / len(keep_a_changelog) > 0.95  # Added / Changed / Fixed / Removed, nearly all
