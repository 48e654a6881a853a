"""The web page of ``relnotes serve``: its weight (bytes of HTML, CSS, JavaScript and icon a first
visit downloads) and the time to the first answer on loopback, from navigation start to the
answer in the DOM, in a headless Chromium (median of --runs, each a fresh browser profile).

    .venv/bin/python benchmarks/web_page.py [--runs 5] [--index DIR] [--question Q]

The server runs as a child process on a free loopback port and stops by itself; it is asked one
untimed question first, so the runs measure a warm server (the model and index loaded), as a
team's long-running server is. The time is the page's own mark ("relnotes-answer", set when the
first answer is in the DOM), relative to the navigation's start (``performance.timeOrigin``); the
/v1/ask request's share is its resource timing. Chromium is Debian's, driven over the DevTools
protocol by tests/support/browser.py.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support.browser: the one DevTools client, shared with the tests

from tests.support.browser import Browser, chromium  # noqa: E402
from tests.support.serving import free_port  # noqa: E402

FILES = {"/": ("/", "/static/page.css", "/static/common.js", "/static/chat.js", "/static/icon.svg"),
         "/show": ("/show", "/static/page.css", "/static/common.js", "/static/show.js", "/static/icon.svg")}
TIMING = """(() => { const mark = performance.getEntriesByName('relnotes-answer')[0];
    const ask = performance.getEntriesByType('resource').find(r => r.name.includes('/v1/ask'));
    const nav = performance.getEntriesByType('navigation')[0];
    return mark && {answer: mark.startTime, ask: ask ? ask.duration : null, asked: ask ? ask.startTime : null,
                    html: nav.responseEnd, ready: nav.domContentLoadedEventEnd}; })()"""


def serve(index: str | None) -> tuple[subprocess.Popen, str]:
    port = free_port()
    args = [sys.executable, "-m", "qa", "serve", "--port", str(port), "--exit-after", "900"]
    process = subprocess.Popen(args + (["--index", index] if index else []), cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/v1/health", timeout=2).status_code == 200:
                return process, base
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    process.kill()
    raise SystemExit("the server did not come up in 300 s")


def weight(base: str) -> dict[str, int]:
    return {page: sum(len(httpx.get(base + path).content) for path in paths) for page, paths in FILES.items()}


def first_answer(base: str, question: str) -> tuple[dict, dict]:
    """A first visit (a fresh profile) and a second one (another tab: the files cached, revalidated)."""
    with Browser() as browser:
        visits = []
        for _ in range(2):
            page = browser.page(1000, 800)
            page.send("Page.navigate", {"url": f"{base}/?q={quote(question)}"})
            visits.append(page.wait(TIMING, timeout=120))
        return visits[0], visits[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--index", help="an index directory (default: the bundled notes' in the user cache)")
    parser.add_argument("--question", default="how do I enable the nccl2 backend?")
    options = parser.parse_args()
    if chromium() is None:
        raise SystemExit("no chromium on PATH: apt-get install chromium")
    process, base = serve(options.index)
    try:
        httpx.post(f"{base}/v1/ask", json={"question": options.question}, timeout=300)  # warm, untimed
        sizes = weight(base)
        runs, again = [], []
        for n in range(options.runs):
            run, second = first_answer(base, options.question)
            runs.append(run)
            again.append(second)
            print(f"run {n + 1}: {run['answer']:.0f} ms to the answer: HTML in at {run['html']:.0f} ms, scripts run at "
                  f"{run['ready']:.0f} ms, /v1/ask sent at {run['asked']:.0f} ms and answered in {run['ask']:.0f} ms; "
                  f"a second visit: {second['answer']:.0f} ms", file=sys.stderr)
    finally:
        process.terminate()
        process.wait()
    print(f"| page | bytes served (HTML + CSS + JS + icon) |\n|---|---|")
    for page, size in sizes.items():
        print(f"| `{page}` | {size:,} |")
    answer = statistics.median(r["answer"] for r in runs)
    ask = statistics.median(r["ask"] for r in runs)
    ready = statistics.median(r["ready"] for r in runs)
    print(f"\nTime to first answer (navigation start to the answer in the DOM), median of {len(runs)}: "
          f"{answer:.0f} ms (min {min(r['answer'] for r in runs):.0f}, max {max(r['answer'] for r in runs):.0f}); "
          f"the page's scripts ran at {ready:.0f} ms and the /v1/ask request took {ask:.0f} ms (medians). "
          f"A second visit (another tab, the files cached): {statistics.median(r['answer'] for r in again):.0f} ms. "
          f"Question: {options.question!r}; cpus: {os.cpu_count()}.")


if __name__ == "__main__":
    main()
