"""The reading check: every release heading of real packages' notes, read by the corpus reader.

    python benchmarks/reading.py            # one row a notes file: releases true, found, exact or not
    python benchmarks/reading.py --diff     # and, for a file not exact, what is missing or extra

The notes are in benchmarks/data/reading/<package>-<version>/ (fetched once with ``relnotes add``;
PROVENANCE names the archive and its sha256), and TRUTH beside them lists every release heading
of each file, in order, written from the files (truth_recipes.py says how), never from this reader.
A file read as one document gives the versions of its release headings; a file of one release
(``release-2.0.md``) gives its document's version. No network.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT / "benchmarks" / "data" / "reading"


@dataclass(frozen=True)
class Row:
    package: str
    file: str
    true: tuple[str, ...]
    found: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def exact(self) -> bool:
        return self.true == self.found


def truth(package: Path) -> dict[str, tuple[str, ...]]:
    """file (relative to the package folder) -> its release versions, from TRUTH."""
    out: dict[str, list[str]] = {}
    current = None
    for line in (package / "TRUTH").read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            current = line[2:].strip()
            out[current] = []
        elif line.strip():
            out[current].append(line.strip())
    return {k: tuple(v) for k, v in out.items()}


def read(package: Path, relative: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The releases the corpus reader finds in one notes file, and its warnings."""
    from corpus import load_corpus

    (loaded,) = load_corpus([package / relative]).documents
    found = loaded.releases or ((loaded.document.version,) if loaded.document.version else ())
    return tuple(found), loaded.warnings


def rows() -> list[Row]:
    out = []
    for package in sorted(p for p in DATA.iterdir() if (p / "TRUTH").is_file()):
        for relative, true in truth(package).items():
            found, warnings = read(package, relative)
            out.append(Row(package.name, relative, true, found, warnings))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--diff", action="store_true", help="say what is missing or extra in a file not exact")
    args = parser.parse_args()
    table = rows()
    print(f"{'file':58} {'true':>5} {'found':>5}  exact")
    for r in table:
        print(f"{r.package + '/' + r.file:58} {len(r.true):5} {len(r.found):5}  {'yes' if r.exact else 'NO'}")
        if args.diff and not r.exact:
            missing = [v for v in r.true if v not in r.found]
            extra = [v for v in r.found if v not in r.true]
            print(f"    missing {missing[:12]}{' ...' if len(missing) > 12 else ''}")
            print(f"    extra   {extra[:12]}{' ...' if len(extra) > 12 else ''}")
            if not missing and not extra:
                print("    same versions, another order or repeats")
            for w in r.warnings[:3]:
                print(f"    warning: {w}")
    exact = sum(r.exact for r in table)
    print(f"\n{exact} of {len(table)} files exact, {len({r.package for r in table})} packages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
