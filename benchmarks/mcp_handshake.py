"""``relnotes mcp`` as an agent's client sees it: seconds from spawn to the ``initialize`` result and
to the tools listed, the first tool call (waits for the index and model), spawn to its result,
and warm calls; median of --runs fresh servers. ``--no-early`` sets RELNOTES_MCP_EARLY=0: the
SDK answers the handshake itself, as before the early reply (``qa.mcp.startup``).

    .venv/bin/python benchmarks/mcp_handshake.py [--runs 5] [--corpus PATH]... [--index DIR] [--no-early]

The index must be built first (``relnotes index`` with the same --corpus), as an agent's would be.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

QUESTIONS = ("how do I enable the nccl2 backend?", "what changed for MPS in 2.14?",
             "which release added deterministic FlexAttention backward?")


async def one_run(args: list[str], warm: int, early: bool) -> tuple[float, float, float, float, list[float]]:
    env = {k: v for k, v in os.environ.items() if k in ("HOME", "PATH", "XDG_CACHE_HOME", "XDG_DATA_HOME")}
    env["RELNOTES_MCP_EARLY"] = "1" if early else "0"
    params = StdioServerParameters(command=sys.executable, args=["-m", "qa", "mcp", *args], env=env)
    start = time.perf_counter()
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                handshake = time.perf_counter() - start
                await client.list_tools()  # what an agent asks next
                listed = time.perf_counter() - start
                t = time.perf_counter()
                result = await client.call_tool("ask_release_notes", {"question": QUESTIONS[0]})
                first = time.perf_counter() - t
                answered = time.perf_counter() - start
                if result.is_error:
                    raise SystemExit(f"the first call failed: {result.content[0].text}")
                warms = []
                for i in range(warm):
                    t = time.perf_counter()
                    await client.call_tool("ask_release_notes", {"question": QUESTIONS[i % len(QUESTIONS)]})
                    warms.append(time.perf_counter() - t)
    return handshake, listed, first, answered, warms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warm", type=int, default=20, help="warm calls a run")
    parser.add_argument("--corpus", action="append", default=[])
    parser.add_argument("--index", default=None)
    parser.add_argument("--no-early", action="store_true", help="leave the handshake to the SDK (RELNOTES_MCP_EARLY=0)")
    ns = parser.parse_args()
    args = [a for c in ns.corpus for a in ("--corpus", c)] + (["--index", ns.index] if ns.index else [])
    runs = [anyio.run(one_run, args, ns.warm, not ns.no_early) for _ in range(ns.runs)]
    warm = sorted(w for *_, ws in runs for w in ws)
    print(f"| measure ({ns.runs} fresh servers) | median | max |")
    print("|---|---:|---:|")
    for label, column in (("spawn -> initialize result", 0), ("spawn -> tools listed", 1),
                          ("first tool call, after the listing (index and model load)", 2),
                          ("spawn -> first tool result", 3)):
        values = [run[column] for run in runs]
        print(f"| {label} | {statistics.median(values):.3f} s | {max(values):.3f} s |")
    if warm:
        print(f"| warm tool call ({len(warm)}) | {statistics.median(warm) * 1000:.1f} ms | {warm[-1] * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
