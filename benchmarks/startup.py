"""Start-up cost of the CLI: median wall time and peak RSS of 5 fresh runs per command.

Usage: .venv/bin/python benchmarks/startup.py [--runs N] [--question Q]
The chat rows launch the app headless (benchmarks/chat_probe.py) and time the UI and the first answer.
One untimed run first builds the default index if needed (with its ONNX query encoder). The
"hybrid, RELNOTES_ONNX=0" row is the same question on the sentence-transformers query path.
The batch rows give the per-question cost of 200 questions: (time of 200 - time of 1) / 199.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELNOTES = Path(sys.executable).parent / "relnotes"
QUESTION = "how do i turn on nvgemm in inductor"


def run_once(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one run; the child's own rusage from wait4."""
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: a chatty child never blocks
        start = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{shlex.join(argv)} failed ({proc.returncode}): {err.read().decode().strip()}")
    return seconds, int(usage.ru_maxrss)


def main() -> None:
    """Print a Markdown table of median wall time and peak RSS per command."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--question", default=QUESTION)
    args = parser.parse_args()
    base = os.environ.copy()
    base.pop("RELNOTES_ONNX", None)
    scratch = tempfile.TemporaryDirectory()
    base["RELNOTES_HISTORY"] = str(Path(scratch.name) / "history.jsonl")  # timed asks stay out of the user's history
    cases = [
        ("relnotes --help", [str(RELNOTES), "--help"], {}),
        ("relnotes ask --help", [str(RELNOTES), "ask", "--help"], {}),
        ("ask, hybrid (numpy query encoder)", [str(RELNOTES), "ask", args.question], {}),
        ("ask, hybrid, RELNOTES_ONNX=0", [str(RELNOTES), "ask", args.question], {"RELNOTES_ONNX": "0"}),
        ("ask, --mode bm25", [str(RELNOTES), "ask", args.question, "--mode", "bm25"], {}),
    ]
    run_once([str(RELNOTES), "index", "--quiet"], base)  # build or check the index, untimed
    print(f"| command | command line | median s ({args.runs} runs) | peak RSS MiB (max) |")
    print("|---|---|---|---|")
    for label, argv, extra in cases:
        env = {**base, **extra}
        samples = [run_once(argv, env) for _ in range(args.runs)]
        median = statistics.median(s for s, _ in samples)
        rss = max(r for _, r in samples) / 1024
        line = " ".join(f"{k}={v}" for k, v in extra.items()) + (" " if extra else "") + shlex.join(
            ["relnotes", *argv[1:]]
        )
        print(f"| {label} | `{line}` | {median:.2f} | {rss:.0f} |", flush=True)
    chat_times(base, args.runs, args.question)
    batch_cost(base, args.runs)


def chat_times(env: dict[str, str], runs: int, question: str) -> None:
    """`relnotes chat`, headless: seconds from launch to the UI on screen and to the first answer.

    benchmarks/chat_probe.py builds the app exactly as `relnotes chat` does, types the question
    as soon as the UI is up and exits when the answer card is shown.
    """
    import json

    ui, answer = [], []
    for _ in range(runs):
        start = time.time()
        out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "chat_probe.py"), question],
                             env={**env, "PROBE_T0": repr(start)}, capture_output=True, text=True, check=False)
        if out.returncode != 0 or not out.stdout.strip():
            raise SystemExit(f"chat probe failed ({out.returncode}): {out.stderr.strip()[-500:]}")
        times = json.loads(out.stdout.strip().splitlines()[-1])
        if "error" in times:
            raise SystemExit(f"chat probe: the question was not answered: {out.stderr.strip()[-500:]}")
        ui.append(times["ui"])
        answer.append(times["answer"])
    print(f"| chat: UI on screen | `relnotes chat` (headless, benchmarks/chat_probe.py) | "
          f"{statistics.median(ui):.2f} | |")
    print(f"| chat: first answer, typed at once | `relnotes chat` then `{question}` | "
          f"{statistics.median(answer):.2f} | |", flush=True)


def batch_cost(env: dict[str, str], runs: int) -> None:
    """Per-question cost of `relnotes batch`: (200 questions - 1 question) / 199, median of runs."""
    import json

    questions = [json.loads(line)["question"] for line in (ROOT / "benchmarks" / "questions" / "pytorch.jsonl")
                 .read_text(encoding="utf-8").splitlines() if line.strip()]
    questions = (questions * (200 // len(questions) + 1))[:200]
    print("\n| batch | mode | per-question ms (median) | peak RSS MiB, 1 / 200 questions |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        one, many = Path(tmp) / "one.txt", Path(tmp) / "many.txt"
        one.write_text(questions[0] + "\n", encoding="utf-8")
        many.write_text("\n".join(questions) + "\n", encoding="utf-8")
        for mode in ("hybrid", "bm25"):
            costs, rss = [], (0, 0)
            for _ in range(runs):
                t1, r1 = run_once([str(RELNOTES), "batch", str(one), "--mode", mode], env)
                t200, r200 = run_once([str(RELNOTES), "batch", str(many), "--mode", mode], env)
                costs.append((t200 - t1) / 199 * 1000)
                rss = (max(rss[0], r1), max(rss[1], r200))
            print(f"| `relnotes batch FILE --mode {mode}` (200 questions, the shipped set twice) | {mode} | "
                  f"{statistics.median(costs):.1f} | {rss[0] / 1024:.0f} / {rss[1] / 1024:.0f} |", flush=True)


if __name__ == "__main__":
    main()
