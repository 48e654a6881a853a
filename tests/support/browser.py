"""A headless Chromium driven over the DevTools protocol, for the web page's tests and benchmark.

The protocol runs over ``--remote-debugging-pipe`` (Chromium reads commands on file descriptor
3 and writes replies and events on 4, each message JSON ending in a NUL byte), the transport
Puppeteer and Playwright use: no port is opened and no websocket library is needed. Chromium is
Debian's (``chromium`` on PATH, installed by .ci/run); nothing is downloaded. Each browser gets
a fresh profile folder and the flags that keep it from reaching the network on its own.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync")
TIMEOUT = 60.0  # seconds a command or a wait may take


def chromium() -> str | None:
    """The system Chromium, or None when the machine has none."""
    return shutil.which("chromium")


class BrowserError(AssertionError):
    """Chromium answered a command with an error, went away, or a wait timed out."""


class Browser:
    """One headless Chromium; ``page()`` opens tabs. Use as a context manager (it closes Chromium)."""

    def __init__(self, executable: str | None = None) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="relnotes-chromium-"))
        commands, self._to = os.pipe()  # we write, Chromium reads on 3
        self._from, replies = os.pipe()  # Chromium writes on 4, we read

        def onto_3_and_4() -> None:  # in the child: dup first, as a pipe end may already be 3 or 4
            read, write = os.dup(commands), os.dup(replies)
            os.dup2(read, 3)
            os.dup2(write, 4)

        self.process = subprocess.Popen(
            [executable or chromium() or "chromium", *FLAGS, f"--user-data-dir={self.profile}",
             "--remote-debugging-pipe", "about:blank"],
            preexec_fn=onto_3_and_4, close_fds=False, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(commands)
        os.close(replies)
        self._next = 0
        self._replies: dict[int, dict] = {}
        self._done = threading.Condition()
        self._writing = threading.Lock()  # the reader thread writes too (to dismiss a dialog)
        self.events: list[dict] = []
        self._reader = threading.Thread(target=self._read, name="chromium-pipe", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._done:
                    self._replies[-1] = {"error": {"message": "Chromium closed the pipe"}}
                    self._done.notify_all()
                return
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            for raw in messages:
                message = json.loads(raw)
                if message.get("method") == "Page.javascriptDialogOpening":  # recorded, then dismissed at once
                    self._dismiss(message.get("sessionId"))
                with self._done:
                    if "id" in message:
                        self._replies[message["id"]] = message
                    else:
                        self.events.append(message)
                    self._done.notify_all()

    def _dismiss(self, session: str | None) -> None:
        """Close an alert the page opened (it would block every later command); its reply is not awaited."""
        with self._done:
            self._next += 1
            number = self._next
        message = {"id": number, "method": "Page.handleJavaScriptDialog", "params": {"accept": False},
                   "sessionId": session}
        self._write(message)

    def _write(self, message: dict) -> None:
        data = json.dumps(message).encode() + b"\0"
        with self._writing:
            while data:
                data = data[os.write(self._to, data):]

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        """Send one command and wait for its result."""
        with self._done:
            self._next += 1
            number = self._next
        message = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self._write(message)
        deadline = time.monotonic() + TIMEOUT
        with self._done:
            while number not in self._replies and -1 not in self._replies:
                if not self._done.wait(max(0.0, deadline - time.monotonic())):
                    raise BrowserError(f"no reply to {method} in {TIMEOUT:.0f} s")
            reply = self._replies.pop(number, None) or self._replies[-1]
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def page(self, width: int = 1000, height: int = 800) -> "Page":
        """A new tab of ``width`` x ``height`` CSS pixels, with dialogs recorded and dismissed."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        for domain in ("Page.enable", "Runtime.enable"):
            page.send(domain)
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        return page

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                self.send("Browser.close")
            self.process.wait(timeout=15)
        except (BrowserError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        finally:
            for fd in (self._to, self._from):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Page:
    """One tab: navigate, evaluate JavaScript, wait for a condition, type and press keys."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def goto(self, url: str) -> None:
        self.send("Page.navigate", {"url": url})
        self.wait("document.readyState === 'complete' && location.href !== 'about:blank'")

    def eval(self, expression: str):
        """The value of ``expression`` (awaited when it is a promise), as JSON."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait(self, expression: str, timeout: float = TIMEOUT):
        """Evaluate ``expression`` until it is truthy (an error counts as false: a page loading); its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.eval(expression)
            except BrowserError as exc:  # a page between two documents has no body yet, or no context
                value, why = None, exc
            else:
                why = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"still false after {timeout:.0f} s: {expression}" + (f" ({why})" if why else ""))
            time.sleep(0.1)

    def type(self, text: str) -> None:
        """Type ``text`` into the focused element, as a keyboard would insert it."""
        self.send("Input.insertText", {"text": text})

    def press(self, key: str) -> None:
        """Press and release a key: "Enter", "Tab"."""
        codes = {"Enter": 13, "Tab": 9, "Escape": 27}
        base = {"key": key, "code": key, "windowsVirtualKeyCode": codes[key]}
        self.send("Input.dispatchKeyEvent", {**base, "type": "keyDown", **({"text": "\r"} if key == "Enter" else {})})
        self.send("Input.dispatchKeyEvent", {**base, "type": "keyUp"})

    def dialogs(self) -> list[dict]:
        """The JavaScript dialogs (alert, confirm, prompt) the page opened."""
        return [e["params"] for e in self.browser.events
                if e.get("method") == "Page.javascriptDialogOpening" and e.get("sessionId") == self.session]

    def screenshot(self, path: Path) -> None:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        Path(path).write_bytes(base64.b64decode(data))
