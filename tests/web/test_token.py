"""The token rule on the page: beyond loopback (here: a server started with --token) the page
loads, asks for the token once, keeps it for the tab, and shows nothing of the corpus before."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import httpx

from tests.support.serving import serving

DIALOG = "!!document.querySelector('dialog#token-dialog[open]')"


def enter(page, token: str) -> None:
    page.wait(DIALOG)
    page.eval("document.getElementById('token').focus()")
    page.type(token)
    page.press("Enter")


def test_the_page_asks_for_the_token_once_and_shows_nothing_without_it(bundled_index: Path, loopback,
                                                                         browser) -> None:
    with serving("--index", str(bundled_index), "--token", "s3cret") as base:
        assert httpx.get(f"{base}/").status_code == 200  # the page itself loads
        for path in ("/v1/releases", "/v1/show?c=pytorch-2.14-release-blog.json:304"):
            assert httpx.get(base + path).status_code == 401  # nothing of the corpus does
        page = browser.page(360, 740)
        page.goto(f"{base}/?q={quote('how do I enable the nccl2 backend?')}")
        page.wait(DIALOG)
        before = page.eval("""({releases: document.getElementById('release').options.length,
            answers: document.querySelectorAll('#transcript .answer, #transcript .ranked, #transcript .note').length,
            pending: document.querySelector('#transcript .pending').textContent, focus: document.activeElement.id,
            label: document.querySelector('label[for=token]').textContent})""")
        assert before == {"releases": 1, "answers": 0, "pending": "Answering…", "focus": "token", "label": "Token"}

        enter(page, "wrong")
        page.wait("document.getElementById('token-why') && "
                  "document.getElementById('token-why').textContent.startsWith('That token was refused')")
        assert page.eval("sessionStorage.getItem('relnotes-token')") is None
        page.eval("document.getElementById('token').value = ''")
        enter(page, "s3cret")
        page.wait("Number(document.getElementById('transcript').dataset.answers) === 1")
        assert page.eval("document.querySelector('.answer').textContent").startswith("Answer: In 2.14")
        # both calls waited on the one prompt and retry together: the list may land after the answer
        page.wait("document.getElementById('release').options.length > 1")
        assert page.eval("sessionStorage.getItem('relnotes-token')") == "s3cret"

        page.goto(f"{base}/show?c={quote('pytorch-2.14-release-blog.json:304-318')}")  # kept for the tab
        page.wait("document.body.dataset.state === 'idle'")
        assert not page.eval(DIALOG) and page.eval("document.querySelectorAll('.lines tr').length") == 15

        other = browser.page(360, 740)  # another tab asks again
        other.goto(f"{base}/show?c={quote('pytorch-2.14-release-blog.json:304-318')}")
        other.wait(DIALOG)
        assert other.eval("document.querySelectorAll('.lines tr').length") == 0


def test_a_refusal_of_an_older_token_keeps_the_newer_one(bundled_index: Path, loopback, browser) -> None:
    # two calls sent with a wrong token: the first refusal asks again and the right token is entered
    # while the second is still on its way; its late 401 must not forget that token nor ask again
    with serving("--index", str(bundled_index), "--token", "s3cret") as base:
        page = browser.page(360, 740)
        page.goto(f"{base}/")
        enter(page, "s3cret")
        page.wait("document.getElementById('release').options.length > 1")
        count = page.eval("""(async () => {
            sessionStorage.setItem('relnotes-token', 'wrong');
            const real = window.fetch;
            window.fetch = async (path, options) => {
                const response = await real(path, options);
                sessionStorage.setItem('relnotes-token', 's3cret');  // entered meanwhile
                return response;
            };
            const asked = new Promise((resolve) => setTimeout(() => resolve('asked again'), 10000));
            try { return await Promise.race([api('/v1/releases').then((b) => b.products.length), asked]); }
            finally { window.fetch = real; }
        })()""")
        assert isinstance(count, int) and count >= 1 and not page.eval(DIALOG)
        assert page.eval("sessionStorage.getItem('relnotes-token')") == "s3cret"
