"""Rebuild products.tsv, aliases.tsv and common.txt from downloaded public lists and the hand lists in hand/.

Standard library only; not imported by the package. The same inputs give byte-identical files.
See README.md beside this script for the sources and the commands that fetch them.

Example:
    python qa/question/data/refresh.py --pypi top-pypi-packages-30-days.min.json \\
        --npm top-download.js --npm top-dependent.js --crates crate-information.json \\
        --out qa/question/data/
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HAND = Path(__file__).resolve().parent / "hand"
# Order of the sources in products.tsv; also the set of valid sources.
SOURCES = ("platform", "tool", "pypi", "npm", "crates")
UNRANKED = 0  # rank of a name whose source has no popularity order (hand lists, the playground set)
_QUOTED = re.compile(r"""(['"])([^'"\s]+)\1""")  # a package name in a JS array literal
_PEP503 = re.compile(r"[-_.]+")
_COMMENT = re.compile(r"\s#")  # a comment after a name needs a space before it: "c#" is a name


class RefreshError(Exception):
    """An input file or a hand list is malformed, or an alias points at no product."""


def pep503(name: str) -> str:
    """A PyPI project name normalised as PEP 503 does (lower case, runs of -_. as one -)."""
    return _PEP503.sub("-", name).lower()


def keep(name: str) -> bool:
    """Whether a registry name is worth a line: not empty, not one character, not only digits."""
    return len(name) > 1 and not name.isdigit()


def read_pypi(path: Path) -> list[str]:
    """Project names, most downloaded first, from hugovk/top-pypi-packages JSON (``rows``)."""
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
        names = [pep503(row["project"]) for row in rows]
    except (ValueError, KeyError, TypeError) as err:
        raise RefreshError(f"{path}: not a top-pypi-packages JSON file ({err})") from err
    return [n for n in names if keep(n)]


def read_npm(path: Path) -> list[str]:
    """Package names in file order from one wooorm/npm-high-impact ``lib/*.js`` array, unscoped."""
    names = [m.group(2).lower() for m in _QUOTED.finditer(path.read_text(encoding="utf-8"))]
    if not names:
        raise RefreshError(f"{path}: no quoted package names found (expected lib/top-download.js or similar)")
    return [n for n in names if not n.startswith("@") and keep(n)]


def interleave(lists: list[list[str]]) -> list[str]:
    """One list taking each list's next unseen name in turn, so every list's top names come first."""
    merged: list[str] = []
    seen: set[str] = set()
    for i in range(max((len(x) for x in lists), default=0)):
        for names in lists:
            if i < len(names) and names[i] not in seen:
                seen.add(names[i])
                merged.append(names[i])
    return merged


def read_crates(path: Path) -> tuple[list[str], bool]:
    """Crate names and whether they are in download order.

    Either rust-lang/rust-playground's ``compiler/base/crate-information.json`` (a set in
    alphabetical order: unranked) or a text file of crate names, most downloaded first, one a line.
    """
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        try:
            names = [entry["name"].lower() for entry in json.loads(text)]
        except (ValueError, KeyError, TypeError) as err:
            raise RefreshError(f"{path}: not a crate-information.json list ({err})") from err
        return [n for n in names if keep(n)], False
    names = [line.strip().lower() for line in text.splitlines()]
    return [n for n in names if n and not n.startswith("#") and keep(n)], True


def read_hand(name: str) -> list[str]:
    """The names of one hand list (``hand/<name>.txt``): one a line, ``#`` starts a comment."""
    path = HAND / f"{name}.txt"
    names: list[str] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = _COMMENT.split(raw, 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line != line.lower() or "\t" in line or not keep(line):
            raise RefreshError(f"{path}:{number}: {line!r} must be lower case, tab-free, two characters or more")
        if line in names:
            raise RefreshError(f"{path}:{number}: {line!r} is listed twice")
        names.append(line)
    return names


def read_aliases() -> list[tuple[str, str]]:
    """(alias, name) pairs of ``hand/aliases.txt``: ``alias<TAB>name`` a line, ``#`` comments."""
    path = HAND / "aliases.txt"
    pairs: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        fields = raw.split("\t")
        if len(fields) != 2 or fields != [f.strip().lower() for f in fields] or not all(fields):
            raise RefreshError(f"{path}:{number}: expected 'alias<TAB>name' in lower case, got {raw!r}")
        alias, name = fields
        if alias == name or alias in seen:
            raise RefreshError(f"{path}:{number}: {alias!r} is its own name or listed twice")
        seen[alias] = name
        pairs.append((alias, name))
    return pairs


def products(pypi: list[str], npm: list[str], crates: list[str], crates_ranked: bool,
             top: dict[str, int]) -> list[tuple[str, str, int]]:
    """Every (name, source, rank) line, sources in SOURCES order, each in its list's order."""
    lines: list[tuple[str, str, int]] = []
    lines += [(n, "platform", UNRANKED) for n in read_hand("platforms")]
    lines += [(n, "tool", UNRANKED) for n in read_hand("tools")]
    lines += [(n, "pypi", rank) for rank, n in enumerate(dict.fromkeys(pypi), 1)][: top["pypi"]]
    lines += [(n, "npm", rank) for rank, n in enumerate(npm, 1)][: top["npm"]]
    ranked = [(n, "crates", rank if crates_ranked else UNRANKED) for rank, n in enumerate(dict.fromkeys(crates), 1)]
    lines += ranked[: top["crates"]]
    have = {n for n, _, _ in ranked[: top["crates"]]}
    lines += [(n, "crates", UNRANKED) for n in read_hand("crates") if n not in have]
    return lines


def write(out: Path, lines: list[tuple[str, str, int]], aliases: list[tuple[str, str]]) -> None:
    """Write products.tsv and aliases.tsv into ``out`` (aliases sorted, after checking their names)."""
    names = {n for n, _, _ in lines}
    missing = [(a, n) for a, n in aliases if n not in names]
    if missing:
        raise RefreshError(f"aliases point at names not in products.tsv: {missing}")
    out.mkdir(parents=True, exist_ok=True)
    body = "".join(f"{n}\t{s}\t{r}\n" for n, s, r in lines)
    (out / "products.tsv").write_text(body, encoding="utf-8", newline="\n")
    (out / "aliases.tsv").write_text("".join(f"{a}\t{n}\n" for a, n in sorted(aliases)), encoding="utf-8",
                                     newline="\n")


def write_common(out: Path, lines: list[tuple[str, str, int]], aliases: list[tuple[str, str]], english: Path) -> int:
    """Write common.txt: the names and aliases that are also common English words ("click", "rich",
    "select"), from a list of the most frequent English words, one a line; how many."""
    words = {w.strip().lower() for w in english.read_text(encoding="utf-8").splitlines() if w.strip()}
    names = {n for n, _, _ in lines} | {a for a, _ in aliases}
    common = sorted(n for n in names if n in words)
    (out / "common.txt").write_text("".join(f"{n}\n" for n in common), encoding="utf-8", newline="\n")
    return len(common)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, build both files, print counts per source to stderr."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pypi", type=Path, required=True, help="top-pypi-packages-30-days(.min).json")
    parser.add_argument("--npm", type=Path, action="append", required=True,
                        help="npm-high-impact lib/*.js; repeat to interleave lists (downloads, dependents)")
    parser.add_argument("--crates", type=Path, required=True,
                        help="rust-playground crate-information.json, or a text file of names by downloads")
    parser.add_argument("--out", type=Path, required=True, help="directory for products.tsv and aliases.tsv")
    parser.add_argument("--english", type=Path, required=True,
                        help="the most frequent English words, one a line (google-10000-english-no-swears.txt)")
    parser.add_argument("--pypi-top", type=int, default=5000)
    parser.add_argument("--npm-top", type=int, default=3000)
    parser.add_argument("--crates-top", type=int, default=1000)
    args = parser.parse_args(argv)
    try:
        crates, ranked = read_crates(args.crates)
        lines = products(read_pypi(args.pypi), interleave([read_npm(p) for p in args.npm]), crates, ranked,
                         {"pypi": args.pypi_top, "npm": args.npm_top, "crates": args.crates_top})
        aliases = read_aliases()
        write(args.out, lines, aliases)
        common = write_common(args.out, lines, aliases, args.english)
    except (OSError, RefreshError) as err:
        print(f"refresh: {err}", file=sys.stderr)
        return 1
    for source in SOURCES:
        print(f"{source}\t{sum(1 for _, s, _ in lines if s == source)}", file=sys.stderr)
    print(f"aliases\t{len(aliases)}", file=sys.stderr)
    print(f"common\t{common}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
