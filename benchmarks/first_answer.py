"""First answer on a corpus never indexed, and start-up: one Markdown table for the code at --code.

    .venv/bin/python benchmarks/first_answer.py [--code ROOT] [--runs 5] [--timeout 600]
        [--skip-startup] [--skip-cold] [--skip-resume] [--kill-after SECONDS]

Rows: the floor (``python -c pass``, and importing click, numpy and rich, which an ask needs);
cold ``relnotes --help``; ``relnotes ask`` over the bundled index (bm25 and hybrid; the index
is built first, untimed); ``relnotes mcp`` spawn -> initialize result (the real MCP client); each a
median of --runs fresh processes. Then, from a cold start (an empty XDG_CACHE_HOME: no index, no
encoder export), the wall time to the first cited answer on the Rust + pydantic changelogs and on
the zoo, and until answers are hybrid (that first ask, then ``relnotes index``). Last, a
``relnotes index`` of the changelogs from an empty cache gets SIGINT once half its texts are
embedded (by the pieces it keeps; code that keeps none: at half its time to hybrid, or
--kill-after), and the row says what the next build embeds.

--code runs another checkout's code with this Python (PYTHONPATH=ROOT, every run in a scratch
folder so the current folder's code is never imported), e.g. the code before a change:
``git worktree add --detach /tmp/before COMMIT`` then ``--code /tmp/before``.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
CHANGELOGS = [SHARED / "changelogs" / "rust-RELEASES.md", SHARED / "changelogs" / "pydantic-HISTORY.md"]
ZOO = [SHARED / "zoo"]
QUESTIONS = {"changelogs": "cargo info subcommand", "zoo": "httpx proxies argument removed"}
BUNDLED_QUESTION = "how do i turn on nvgemm in inductor"


def command(code: Path | None, *args: str) -> list[str]:
    """``relnotes ARGS`` as ``python -m qa`` of the code at ``code`` (this checkout's when None)."""
    return [sys.executable, "-m", "qa", *args]


def environment(code: Path | None, cache: Path, scratch: Path) -> dict[str, str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "RELNOTES_HISTORY": str(scratch / "history.jsonl"),
           "RELNOTES_SCRATCH": str(scratch)}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    return env


def timed(argv: list[str], env: dict[str, str], timeout: float | None = None) -> tuple[float, str]:
    """Wall seconds and stdout+stderr of one run (raises on failure); run in the scratch folder, so
    ``python -m qa`` never imports the qa of the current folder instead of --code's."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout, cwd=env["RELNOTES_SCRATCH"])
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return seconds, done.stdout + done.stderr


def median(argv: list[str], env: dict[str, str], runs: int) -> float:
    return statistics.median(timed(argv, env)[0] for _ in range(runs))


def mcp_initialize(code: Path | None, env: dict[str, str], runs: int) -> float:
    """Median seconds from spawning ``relnotes mcp`` to its initialize result (the real MCP client)."""
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def once() -> float:
        params = StdioServerParameters(command=sys.executable, args=["-m", "qa", "mcp"], env=env,
                                       cwd=env["RELNOTES_SCRATCH"])
        start = time.perf_counter()
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as client:
                    await client.initialize()
                    return time.perf_counter() - start

    return statistics.median(anyio.run(once) for _ in range(runs))


def corpus_args(paths: list[Path]) -> list[str]:
    return [a for p in paths for a in ("--corpus", str(p))]


def cold_answer(code, name: str, paths: list[Path], scratch: Path, timeout: float) -> tuple[str, float | None, dict]:
    """Seconds to the first cited answer from an empty cache (as text: "> N s" when it ran out), as a
    number too (None when it ran out), and the environment of that cache."""
    env = environment(code, scratch / f"cold-{name}", scratch)
    try:
        seconds, output = timed(command(code, "ask", QUESTIONS[name], *corpus_args(paths), "-k", "3"), env, timeout)
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f} s (stopped)", None, env
    cited = re.search(r"^\[1\] .*:\d+-\d+", output, re.M)
    return (f"{seconds:.2f} s" if cited else f"{seconds:.2f} s (no citation!)"), seconds, env


def shard_progress(cache: Path) -> tuple[int, int]:
    """Texts embedded so far and to embed, from the pieces a build keeps (0, 0 where it keeps none)."""
    import json

    done = total = 0
    for folder in cache.glob("relnotes-qa/indexes/.*.shards"):
        for meta in folder.glob("*.json"):
            try:
                record = json.loads(meta.read_text())
            except (OSError, ValueError):
                continue
            if meta.name == "plan.json":
                total += record.get("total", 0)
            else:
                done += len(record.get("keys", []))
    return done, total


def killed_halfway(argv: list[str], env: dict[str, str], after: float) -> str:
    """Run ``argv`` and send it SIGINT (Ctrl+C) once half its texts are embedded (by the pieces it
    keeps), or ``after`` seconds in when it keeps none; wait for it to stop; say when it was."""
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               cwd=env["RELNOTES_SCRATCH"],  # Ctrl+C acts even when this script runs in the background:
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    start = time.monotonic()
    while process.poll() is None:
        done, total = shard_progress(Path(env["XDG_CACHE_HOME"]))
        if (total and done >= total / 2) or (not total and time.monotonic() - start >= after):
            process.send_signal(signal.SIGINT)
            process.wait(timeout=120)
            return f"{done} of {total} texts kept" if total else f"{time.monotonic() - start:.0f} s in"
        time.sleep(0.2)
    return "finished before the kill"


def embedded_by(output: str) -> str:
    windows = re.search(r"\((\d+) windows embedded", output)
    resumed = re.search(r"Resumed an interrupted build: (\d+) texts kept, (\d+) embedded now", output)
    if resumed:
        return f"{resumed.group(2)} texts ({windows.group(1)} windows); {resumed.group(1)} kept from the killed build"
    return f"all: {windows.group(1)} windows and every sentence (nothing kept)" if windows else output[-300:]


class Rows(list):
    """The table's rows, each printed as it is measured (a long run shows what it has so far)."""

    def append(self, row: tuple[str, str]) -> None:
        super().append(row)
        print(f"| {row[0]} | {row[1]} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", type=Path, default=None, help="checkout whose code runs (default: this one)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a cold first answer may take")
    parser.add_argument("--skip-startup", action="store_true", help="no start-up rows")
    parser.add_argument("--skip-cold", action="store_true", help="no cold-start rows")
    parser.add_argument("--skip-resume", action="store_true", help="no killed and resumed build")
    parser.add_argument("--kill-after", type=float, default=None,
                        help="seconds into a build that keeps no pieces to kill it (default: half its time to hybrid)")
    ns = parser.parse_args()
    code = ns.code.resolve() if ns.code else None
    scratch = Path(tempfile.mkdtemp(prefix="first-answer-"))  # also the working folder of every run
    env = environment(code, scratch / "cache", scratch)
    print(f"code: {code or Path(__file__).resolve().parents[1]}; python: {sys.executable}")
    print("| measure | value |")
    print("|---|---|", flush=True)
    rows = Rows()
    if not ns.skip_startup:
        # The floor no code of ours can go under, on this machine now (its speed varies ~2x in a day):
        # Python itself, and the libraries a hybrid ask must import (click, numpy, rich).
        rows.append(("floor: python -c pass (median)", f"{median([sys.executable, '-c', 'pass'], env, ns.runs):.3f} s"))
        floor = [sys.executable, "-c", "import click, numpy, rich.console"]
        rows.append(("floor: python importing click, numpy, rich (median)", f"{median(floor, env, ns.runs):.3f} s"))
        rows.append(("relnotes --help (median)", f"{median(command(code, '--help'), env, ns.runs):.3f} s"))
        timed(command(code, "index", "--quiet"), env)  # the bundled index, untimed
        for mode in ("bm25", "hybrid"):
            argv = command(code, "ask", BUNDLED_QUESTION, "--mode", mode)
            rows.append((f"ask over the bundled index, {mode} (median)", f"{median(argv, env, ns.runs):.3f} s"))
        rows.append(("relnotes mcp: spawn -> initialize (median)", f"{mcp_initialize(code, env, ns.runs):.3f} s"))
    hybrid = ns.kill_after * 2 if ns.kill_after else None
    if not ns.skip_cold:
        for name, paths in (("changelogs", CHANGELOGS), ("zoo", ZOO)):
            first, seconds, cold_env = cold_answer(code, name, paths, scratch, ns.timeout)
            rows.append((f"cold start -> first cited answer, {name}", first))
            if name == "changelogs" and seconds is not None:
                more, _ = timed(command(code, "index", *corpus_args(paths)), cold_env)
                hybrid = hybrid or seconds + more
                rows.append(("cold start -> hybrid (that ask, then relnotes index), changelogs",
                             f"{seconds + more:.1f} s ({more:.1f} s of it relnotes index)"))
    if not ns.skip_resume:
        resume_env = environment(code, scratch / "resume", scratch)
        argv = command(code, "index", *corpus_args(CHANGELOGS))
        when = killed_halfway(argv, resume_env, (hybrid or 200.0) / 2)
        _, output = timed(argv, resume_env)
        rows.append((f"changelogs build killed (SIGINT) at half ({when}), next build embeds", embedded_by(output)))


if __name__ == "__main__":
    main()
