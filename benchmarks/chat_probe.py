"""One chat launch, headless: seconds from process start to the UI on screen and to the first answer.

Run by benchmarks/startup.py (it passes the launch time in PROBE_T0); by hand:
  PROBE_T0=$(date +%s.%N) .venv/bin/python benchmarks/chat_probe.py "what changed for MPS?"
The question is typed as soon as the UI is up, as a person would, and answered when the model
and index have loaded. Prints one JSON line.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

T0 = float(os.environ.get("PROBE_T0", time.time()))


def main() -> None:
    from qa.cli.chat import chat_app

    question = sys.argv[1] if len(sys.argv) > 1 else "what changed for MPS?"
    app = chat_app(update=False)
    times: dict[str, float] = {}

    async def probe(pilot) -> None:
        times["ui"] = time.time() - T0
        card = app.ask(question)
        while card.answer is None:
            if app.load_failed or card.has_class("failed"):
                times["error"] = 1.0
                break
            await asyncio.sleep(0.01)
        times["answer"] = time.time() - T0
        app.exit()

    app.run(headless=True, size=(100, 30), auto_pilot=probe)
    print(json.dumps(times))


if __name__ == "__main__":
    main()
