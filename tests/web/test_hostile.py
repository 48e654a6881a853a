"""Release notes holding markup (a <script>, an <img onerror=...>, a javascript: URL, markup in a
title) show on the page as text and run nothing, in answers, digests and /show."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import quote

from tests.support.paths import DATA
from tests.support.serving import serving

MARKUP = ("#transcript script, #transcript img, #transcript iframe, #transcript svg, #transcript b, "
          "main script, main img, main iframe, main svg, main b, a[href^='javascript:' i]")
SAFE = f"""({{pwned: typeof window.__pwned, markup: document.querySelectorAll("{MARKUP}").length}})"""


def test_markup_in_the_notes_is_text_and_runs_nothing(tmp_path: Path, loopback, browser) -> None:
    corpus = tmp_path / "hostile"
    shutil.copytree(DATA / "hostile", corpus)
    index = tmp_path / "idx"
    with serving("--corpus", f"widgetkit={corpus}", "--index", str(index), fake_model=True) as base:
        page = browser.page(1000, 900)
        page.goto(f"{base}/?q={quote('sanitizer for widget titles')}")
        page.wait("Number(document.getElementById('transcript').dataset.answers) === 1")
        for question, n in (("what changed in 1.1.0?", 2), ("embed mode for widget galleries <img src=x onerror=alert(1)>", 3)):
            page.eval("document.getElementById('question').focus()")
            page.type(question)
            page.press("Enter")
            page.wait(f"Number(document.getElementById('transcript').dataset.answers) === {n}"
                      " && document.body.dataset.state === 'idle'")
        text = page.eval("document.getElementById('transcript').textContent")
        assert '<script>window.__pwned = "script"; alert("script")</script> sanitizer' in text
        assert "<img src=x onerror=\"window.__pwned = 'img'; alert('img')\"> thumbnails" in text
        assert "<iframe srcdoc=" in text and "<svg onload=" in text  # a record's title, a JSON body
        assert "embed mode for widget galleries <img src=x onerror=alert(1)>" in text  # the question too
        assert page.eval(SAFE) == {"pwned": "undefined", "markup": 0}
        assert page.eval("document.querySelector('.digest h5').textContent") == "Added"

        page.eval("document.querySelector('#transcript article .ranked a.location').click()")
        page.wait("location.pathname === '/show' && document.body.dataset.state === 'idle'")
        shown = page.eval("document.querySelector('main').textContent")
        assert "<script>window.__pwned" in shown or "<iframe srcdoc=" in shown
        assert page.eval(SAFE) == {"pwned": "undefined", "markup": 0}
        assert page.dialogs() == []  # no alert() ran, on any page
