"""While another process rebuilds the index and the server swaps it in, the page keeps answering,
and the next questions are answered from the new index."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

from tests.support.hardening import cli, fake_model  # noqa: F401 (fake_model: a fixture)
from tests.support.paths import DATA
from tests.support.serving import serving

ANSWERED = "Number(document.getElementById('transcript').dataset.answers) === {n} && document.body.dataset.state === 'idle'"


def test_the_page_keeps_answering_while_the_index_is_swapped(tmp_path: Path, loopback, browser, fake_model) -> None:
    corpus = tmp_path / "widgetlib"
    shutil.copytree(DATA / "releases" / "widgetlib", corpus)
    index = tmp_path / "idx"
    with serving("--corpus", str(corpus), "--index", str(index), fake_model=True) as base:
        page = browser.page(1000, 800)
        page.goto(base + "/")
        changelog = corpus / "CHANGELOG.md"
        changelog.write_text(changelog.read_text().replace(
            "## [2.1.0]", "## [2.2.0] - 2026-04-01\n\n### Added\n\n- Added the gizmo exporter\n\n## [2.1.0]", 1))
        rebuilt: list[int] = []
        rebuild = threading.Thread(target=lambda: rebuilt.append(
            cli("index", "--corpus", str(corpus), "--index", str(index), "--quiet").exit_code))
        rebuild.start()
        n = 0
        while rebuild.is_alive() or n < 3:
            n += 1
            page.eval("document.getElementById('question').focus()")
            page.type("config parser")
            page.press("Enter")
            page.wait(ANSWERED.format(n=n))
        rebuild.join()
        assert rebuilt == [0]
        errors = page.eval("[...document.querySelectorAll('#transcript .error')].map(e => e.textContent)")
        assert errors == [] and page.eval("document.querySelectorAll('#transcript .ranked li').length") >= n
        for _ in range(100):  # the server looks at the index at most once a second, then swaps it in
            n += 1
            page.eval("document.getElementById('question').focus()")
            page.type("gizmo exporter")
            page.press("Enter")
            page.wait(ANSWERED.format(n=n))
            if page.eval("document.querySelector('#transcript article:last-child .badge').textContent") == "2.2.0 · added":
                break
        assert page.eval("document.querySelector('#transcript article:last-child .badge').textContent") == "2.2.0 · added"
        assert page.eval("document.querySelectorAll('#transcript .error').length") == 0
