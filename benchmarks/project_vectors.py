"""The hybrid index of a project's dependencies, cold and with a second project sharing them: one
Markdown table, every step a fresh ``relnotes`` process in an empty XDG_CACHE_HOME of its own.

    .venv/bin/python benchmarks/project_vectors.py [--keep DIR]

Project A pins 8 real packages (below); ``relnotes add --project A`` fetches their newest notes
from the package index pip uses (a handful of named packages: the only network this takes).
Rows: the fetch; the first answer after it (``ask``, mode auto: the BM25 part is built, the
answer says so); the first hybrid answer (``ask --mode hybrid``: the vectors built first, cold:
an empty shared vector store); then project B, pinning 7 of the same packages at other versions
(another corpus, so another index): its ``add``, ``relnotes index --project B`` (every vector
taken from the shared store) and its first hybrid answer; last, B's index again with the store
turned off (``RELNOTES_VECTOR_STORE=0``, in a fresh index folder): what B costs without it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
A = {"requests": "2.31.0", "urllib3": "1.26.18", "httpx": "0.25.2", "flask": "2.3.3", "click": "8.1.7",
     "attrs": "23.1.0", "werkzeug": "3.0.1", "packaging": "23.2"}
B = {"requests": "2.28.2", "urllib3": "2.0.7", "httpx": "0.27.0", "flask": "3.0.0", "click": "8.1.3",
     "attrs": "22.2.0", "werkzeug": "2.3.8"}  # 7 of A's 8, other pins
QUESTION = "which release removed the proxies argument?"


def relnotes(env: dict, *args: str) -> tuple[float, str, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "qa", *args], capture_output=True, text=True, env=env, timeout=1800)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"relnotes {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return seconds, done.stdout, done.stderr


def project(folder: Path, pins: dict) -> Path:
    folder.mkdir(parents=True)
    (folder / "requirements.txt").write_text("".join(f"{n}=={v}\n" for n, v in pins.items()))
    return folder


def mode_of(stdout: str) -> str:
    found = re.search(r'"mode": "(\w+)"', stdout)
    return found.group(1) if found else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="Keep the cache and projects in DIR (else a temporary folder).")
    args = parser.parse_args()
    work = Path(args.keep or tempfile.mkdtemp(prefix="relnotes-project-vectors-"))
    if args.keep and work.exists():
        shutil.rmtree(work)
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache"), "XDG_DATA_HOME": str(work / "data"),
           "PYTHONPATH": str(ROOT)}
    a, b = project(work / "a", A), project(work / "b", B)
    rows = []

    seconds, out, _ = relnotes(env, "add", "--project", str(a))
    rows.append(("A: `add --project` (8 packages fetched)", seconds, out.splitlines()[0] if out else ""))
    seconds, out, _ = relnotes(env, "ask", QUESTION, "--project", str(a), "--json", "--no-history")
    rows.append(("A: first answer (`ask`, mode auto; builds the BM25 part)", seconds, f"served by {mode_of(out)}"))
    seconds, out, err = relnotes(env, "ask", QUESTION, "--project", str(a), "--json", "--no-history", "--mode", "hybrid")
    rows.append(("A: first hybrid answer (`ask --mode hybrid`; builds the vectors, store empty)", seconds,
                 f"served by {mode_of(out)}"))
    seconds, out, _ = relnotes(env, "index", "--project", str(a))
    rows.append(("A: `index --project` afterwards", seconds, out.strip().splitlines()[0][:90]))

    seconds, out, _ = relnotes(env, "add", "--project", str(b))
    rows.append(("B: `add --project` (7 of A's packages, other pins)", seconds, out.splitlines()[0] if out else ""))
    seconds, out, _ = relnotes(env, "index", "--project", str(b))
    lines = out.strip().splitlines()
    embedded = re.search(r"\((\d+) windows embedded", out)
    rows.append(("B: hybrid index (`index --project`, shared store)", seconds,
                 f"{embedded.group(1) if embedded else '?'} windows embedded; {lines[-1][:70]}"))
    seconds, out, _ = relnotes(env, "ask", QUESTION, "--project", str(b), "--json", "--no-history", "--mode", "hybrid")
    rows.append(("B: first hybrid answer after its index", seconds, f"served by {mode_of(out)}"))
    off = {**env, "RELNOTES_VECTOR_STORE": "0"}
    seconds, out, _ = relnotes(off, "index", "--project", str(b), "--index", str(work / "b-no-store"))
    embedded = re.search(r"\((\d+) windows embedded", out)
    rows.append(("B: hybrid index without the store (`RELNOTES_VECTOR_STORE=0`)", seconds,
                 f"{embedded.group(1) if embedded else '?'} windows embedded"))

    print(f"Project A pins: {', '.join(f'{n}=={v}' for n, v in A.items())}")
    print(f"Project B pins: {', '.join(f'{n}=={v}' for n, v in B.items())}\n")
    print("| step | wall s | what |")
    print("|---|---:|---|")
    for name, secs, what in rows:
        print(f"| {name} | {secs:.1f} | {what} |")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
