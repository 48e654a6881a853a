"""Which source gives the release notes of well-known packages, and how many releases relnotes reads.

    python benchmarks/fetch_notes.py                       # the packages below, from your pip's and npm's index
    python benchmarks/fetch_notes.py httpx npm:vite        # others
    python benchmarks/fetch_notes.py --cache /tmp/notes    # a cache of its own (default: a temporary one)
    python benchmarks/fetch_notes.py --sources archive,metadata   # only these sources (the ones reachable here)
    python benchmarks/fetch_notes.py --github-snapshots DIR      # GitHub answered from bare clones in DIR

Before the chain of sources, ``relnotes add`` read the archive alone: the "archive" column is that
(the package's notes come from its archive); "found" is what the chain's sources asked give.

Network: it asks the index your pip and npm use (``relnotes add``'s rules: PIP_INDEX_URL, pip's
configuration or its default; npm_config_registry, .npmrc or ``npm config get registry``) for
these named packages only, one after the other, and downloads each newest source archive once.
With ``--github-snapshots DIR`` the repository source reads GitHub as recorded in bare git clones
(``DIR/OWNER+NAME``, their tags and HEAD; ``github_snapshots.py``) instead of GitHub itself: where
this machine does not reach GitHub, that measures source 3 on the clones held; GitHub Releases and
repositories not in DIR answer "not recorded" (the chain goes on).
It prints one row a package: the version fetched, the notes files kept, the releases the corpus
reader finds in them (distinct versions of the chunks), or why there are none.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PYTHON = ["requests", "urllib3", "httpx", "flask", "werkzeug", "jinja2", "click", "django", "numpy", "pytest",
          "sqlalchemy", "pydantic", "attrs", "pillow", "matplotlib", "mypy", "celery", "black", "rich", "packaging",
          "fastapi", "uvicorn", "boto3", "pandas", "scipy", "setuptools", "certifi", "idna", "pyyaml", "cryptography"]
NPM = ["npm:react", "npm:vite", "npm:express", "npm:lodash", "npm:typescript", "npm:react-dom", "npm:vue", "npm:next",
       "npm:axios", "npm:webpack", "npm:eslint", "npm:prettier", "npm:jest", "npm:@babel/core", "npm:chalk"]


def releases_read(record) -> tuple[int, str]:
    """How many distinct releases the corpus reader finds in a package's notes (and an error, if any)."""
    from corpus import load_corpus
    from corpus.errors import CorpusError

    try:
        corpus = load_corpus([record.corpus_input()])
    except CorpusError as exc:
        return 0, str(exc)
    return len({c.version for c in corpus.chunks if c.version}), ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("packages", nargs="*", default=PYTHON + NPM)
    parser.add_argument("--cache", type=Path, default=None, help="XDG cache folder to fetch into (default: a new one)")
    parser.add_argument("--sources", default=None, help="comma-separated sources to ask (default: the whole chain)")
    parser.add_argument("--github-snapshots", type=Path, default=None,
                        help="answer GitHub's file lists and raw files from bare git clones in this folder")
    args = parser.parse_args()
    if args.github_snapshots:
        from github_snapshots import clones, serve

        api, raw, _server = serve(args.github_snapshots)
        os.environ.update(GITHUB_API_URL=api, RELNOTES_GITHUB_RAW_URL=raw)
        for name in ("GITHUB_TOKEN", "GH_TOKEN"):
            os.environ.pop(name, None)
        print(f"GitHub answered from {len(clones(args.github_snapshots))} clones in {args.github_snapshots}\n")
    cache = args.cache or Path(tempfile.mkdtemp(prefix="relnotes-fetch-bench-"))
    os.environ["XDG_CACHE_HOME"] = str(cache)

    from corpus.packages import Indexes, add_packages, registry, sources

    if args.sources:
        wanted = args.sources.split(",")
        sources.SOURCES = tuple(s for s in sources.SOURCES if s.NAME in wanted)
    indexes = Indexes(None, None)
    rows, started, named = [], time.perf_counter(), {}
    real_find = registry.find_release

    def remember(ref, indexes_):  # the metadata's links, for the sources not asked
        release = real_find(ref, indexes_)
        from corpus.packages.repository import repository_of

        repo, _ = repository_of(release)
        page = release.changelog_url if release.changelog_url and "github.com" not in release.changelog_url else None
        named[release.name] = ((repo.slug + (f" ({repo.directory})" if repo.directory else "")) if repo else "-",
                               page or "-")
        return release

    fetching = sys.modules["corpus.packages.fetch"]  # the module (the package exports its function by that name)
    fetching.find_release = remember
    for spec in args.packages:
        began = time.perf_counter()
        (outcome,) = add_packages([spec], indexes)
        seconds = time.perf_counter() - began
        d = outcome.dependency
        if outcome.action == "failed":
            rows.append((spec, "-", "failed", "0", "-", f"failed: {d.problem}", "-", "-", seconds))
            continue
        notes = d.notes
        repo, page = named.get(notes.name, ("-", "-"))
        if not notes.shipped:
            why = "; ".join(f"{t.source}: {t.why}" for t in notes.tried)
            rows.append((spec, notes.version, "none", "0", "-", why, repo, page, seconds))
            continue
        count, error = releases_read(notes)
        files = ", ".join(f.path for f in notes.files[:3]) + (f" +{len(notes.files) - 3}" if len(notes.files) > 3 else "")
        rows.append((spec, notes.version, notes.source, str(len(notes.files)), str(count), error or files, repo, page,
                     seconds))
    print("| package | version | source | notes files | releases read | files, or why none | GitHub repository "
          "named | changelog page named | s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec, version, source, files, count, what, repo, page, seconds in rows:
        print(f"| {spec} | {version} | {source} | {files} | {count} | {what} | {repo} | {page} | {seconds:.1f} |")
    for group, prefix in (("Python", False), ("npm", True)):
        mine = [r for r in rows if r[0].startswith("npm:") == prefix]
        if not mine:
            continue
        by = {k: sum(r[2] == k for r in mine) for k in ("archive", "metadata", "repository", "releases", "webpage")}
        none = [r for r in mine if r[2] in ("none", "failed")]
        repos = sum(r[6] != "-" for r in none)
        print(f"\n{group}: {len(mine)} packages; notes from the archive {by['archive']} (before the chain: "
              f"{by['archive']}), metadata {by['metadata']}, repository {by['repository']}, releases "
              f"{by['releases']}, web page {by['webpage']}; none {len(none)} ({repos} of them name a GitHub "
              f"repository, {sum(r[7] != '-' for r in none)} a changelog page)")
    print(f"\n{time.perf_counter() - started:.0f} s in all; cache {cache}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
