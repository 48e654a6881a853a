"""Load on ``relnotes serve``: N concurrent clients x M requests to /v1/ask; throughput, p50/p99
latency and errors, one sequential client against --clients concurrent ones, then the same load
while another process rebuilds the index (the server swaps it in without a restart).

    .venv/bin/python benchmarks/serve_load.py [--clients 8] [--requests 25] [--corpus PATH] [--index DIR]

The server runs as a child process on a free loopback port and stops by itself. The rebuild
phase runs ``relnotes index --rebuild`` on the same index meanwhile (it re-embeds everything:
on the bundled notes about half a minute on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = [json.loads(line)["question"] for line in (ROOT / "benchmarks" / "questions" / "pytorch.jsonl").open()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load(base: str, clients: int, requests: int, stop_when: threading.Event | None = None) -> dict:
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def client(n: int) -> None:
        with httpx.Client(timeout=120) as http:
            i = 0
            while i < requests or (stop_when is not None and not stop_when.is_set()):
                question = QUESTIONS[(n * requests + i) % len(QUESTIONS)]
                t = time.perf_counter()
                try:
                    r = http.post(f"{base}/v1/ask", json={"question": question})
                    ok = r.status_code == 200
                    detail = f"{r.status_code} {r.text[:80]}"
                except httpx.HTTPError as exc:
                    ok, detail = False, repr(exc)
                with lock:
                    (latencies.append(time.perf_counter() - t) if ok else errors.append(detail))
                i += 1

    start = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    latencies.sort()
    return {"requests": len(latencies) + len(errors), "errors": len(errors), "wall": wall,
            "throughput": len(latencies) / wall if wall else 0.0,
            "p50": statistics.median(latencies) if latencies else float("nan"),
            "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else float("nan"),
            "first_error": errors[0] if errors else ""}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=25, help="requests a client")
    parser.add_argument("--corpus", action="append", default=[])
    parser.add_argument("--index", default=None)
    parser.add_argument("--no-rebuild", action="store_true")
    ns = parser.parse_args()
    corpus = [a for c in ns.corpus for a in ("--corpus", c)] + (["--index", ns.index] if ns.index else [])
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "qa", "serve", "--port", str(port), "--exit-after", "3600", *corpus],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{base}/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        load(base, 1, 5)  # warm
        rows = [("1 client, sequential", load(base, 1, ns.clients * ns.requests)),
                (f"{ns.clients} concurrent clients", load(base, ns.clients, ns.requests))]
        if not ns.no_rebuild:
            done = threading.Event()

            def rebuild() -> None:
                subprocess.run([sys.executable, "-m", "qa", "index", "--rebuild", "--quiet", *corpus],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
                deadline = time.monotonic() + 60  # until the server has swapped the new index in
                before = reloads()
                while reloads() == before and time.monotonic() < deadline:
                    time.sleep(0.2)
                done.set()

            def reloads() -> int:
                return httpx.get(f"{base}/v1/health", timeout=10).json().get("reloads", 0)

            start_reloads = reloads()
            builder = threading.Thread(target=rebuild)
            builder.start()
            rows.append((f"{ns.clients} clients during a rebuild", load(base, ns.clients, 1, stop_when=done)))
            builder.join()
            rows[-1][1]["swapped"] = reloads() - start_reloads
        print(f"| load ({os.cpu_count()} cores) | requests | errors | throughput | p50 | p99 |")
        print("|---|---:|---:|---:|---:|---:|")
        for label, r in rows:
            extra = f" (index swapped {r['swapped']}x)" if "swapped" in r else ""
            print(f"| {label}{extra} | {r['requests']} | {r['errors']} | {r['throughput']:.1f} req/s | "
                  f"{r['p50'] * 1000:.0f} ms | {r['p99'] * 1000:.0f} ms |")
            if r["first_error"]:
                print(f"  first error: {r['first_error']}", file=sys.stderr)
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
