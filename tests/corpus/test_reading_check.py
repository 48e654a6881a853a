"""The reading check: every release heading of 101 real notes files (92 packages, in
benchmarks/data/reading with their provenance) is read, in order, nothing more. TRUTH was written
from the files (truth_recipes.py), never from this reader; benchmarks/reading.py prints the table.
Files still misread are listed in MISREAD with why, and fail strictly: a fix must take them out."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import load_corpus
from tests.support.invariants import check_invariants

READING = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "reading"


def _truth() -> list[tuple[Path, str, tuple[str, ...]]]:
    cases = []
    for package in sorted(p for p in READING.iterdir() if (p / "TRUTH").is_file()):
        current, versions = None, []
        for line in (package / "TRUTH").read_text(encoding="utf-8").splitlines() + ["# end"]:
            if line.startswith("# "):
                if current is not None:
                    cases.append((package, current, tuple(versions)))
                current, versions = line[2:].strip(), []
            elif line.strip():
                versions.append(line.strip())
    return cases


CASES = _truth()
# Known misreads, not yet fixed: file -> why.
MISREAD = {
    "ecdsa-0.19.2/NEWS.txt": "its releases are bullets at the margin, '* Release 0.19.1 (13 Mar 2025)', over text and "
                             "'* ...' items also at the margin: no shape reads them (0 of 23)",
    "pyrsistent-0.20.0/CHANGES.txt": "read as reST for its underlined 'Revision history': '0.20.0, 2023-10-25' right "
                                     "under the underline and '0.19.0 - Never released ...' are missed (73 of 75)",
}


def test_the_check_holds_thirty_packages_or_more_with_their_provenance() -> None:
    packages = {package for package, _, _ in CASES}
    assert len(packages) >= 30 and len(CASES) >= 40
    for package in packages:
        provenance = (package / "PROVENANCE").read_text(encoding="utf-8")
        assert "sha256: " in provenance and f"version: {package.name.rsplit('-', 1)[1]}" in provenance
    assert sum(len(true) for _, _, true in CASES) > 2000  # releases, not files


@pytest.mark.parametrize(("package", "relative", "true"), [
    pytest.param(p, r, t, marks=pytest.mark.xfail(reason=MISREAD[f"{p.name}/{r}"], strict=True))
    if f"{p.name}/{r}" in MISREAD else (p, r, t) for p, r, t in CASES], ids=[f"{p.name}/{r}" for p, r, _ in CASES])
def test_every_release_heading_is_read_and_nothing_else(package: Path, relative: str, true: tuple[str, ...]) -> None:
    (loaded,) = load_corpus([package / relative]).documents
    found = loaded.releases or ((loaded.document.version,) if loaded.document.version else ())
    assert found == true
    check_invariants(loaded)
    if true:
        assert not [w for w in loaded.warnings if "not release headings" in w or "no release found" in w]
