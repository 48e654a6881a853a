"""A saved changelog web page is a corpus format (``corpus.html``): its headings are sections, its
list items are items, each release cited with the page URL and the heading's anchor."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from corpus import load_corpus
from corpus.errors import CorpusError
from qa.cli import cli

# As Chrome's "Save page as" writes a page: the saved-from line first, the page as served.
SAVED = """<!-- saved from url=(0047)https://docs.example.test/project/whatsnew.html -->
<html><head><title>What's new</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li>Release 0.0.1</li></ul></nav>
<main>
<h1>What's new</h1>
<p>Notes for every release of Gadget.</p>
<h2 id="v2-0-0">Gadget 2.0.0</h2>
<h3>Breaking changes</h3>
<ul>
  <li>Removed the <code>spin()</code> function; use <code>rotate()</code>.</li>
  <li>Dropped Python 3.8.
    <ul><li>Python 3.9 is the oldest supported.</li></ul></li>
</ul>
<h3>Deprecations</h3>
<ol><li>The <code>turbo</code> flag is deprecated.</li></ol>
<h2><a name="v1-5-0"></a>Gadget 1.5.0</h2>
<pre>pip install gadget==1.5.0</pre>
<ul><li>Added <code>rotate()</code>.</li></ul>
</main>
<footer>Built with love</footer>
</body></html>
"""


def test_a_saved_page_reads_as_sections_items_and_anchored_citations(tmp_path: Path) -> None:
    page = tmp_path / "whatsnew.html"
    page.write_text(SAVED, encoding="utf-8")
    corpus = load_corpus([page])
    by_version = {}
    for chunk in corpus.chunks:
        by_version.setdefault(chunk.version, []).append(chunk)
    assert set(by_version) >= {"2.0.0", "1.5.0"}
    urls = {c.version: c.url for c in corpus.chunks if c.version}
    assert urls == {"2.0.0": "https://docs.example.test/project/whatsnew.html#v2-0-0",
                    "1.5.0": "https://docs.example.test/project/whatsnew.html#v1-5-0"}
    sections = {c.section for c in by_version["2.0.0"]}
    assert any("Breaking changes" in s for s in sections) and any("Deprecations" in s for s in sections)
    items = [" ".join(c.text[i.start:i.end].split()) for c in by_version["2.0.0"] for i in c.items]
    assert any(t.endswith("Removed the `spin()` function; use `rotate()`.") for t in items), items
    assert any("The `turbo` flag is deprecated." in t for t in items), items
    whole = "\n".join(c.text for c in corpus.chunks)
    assert "Removed the `spin()` function; use `rotate()`." in whole
    assert "Python 3.9 is the oldest supported." in whole and "pip install gadget==1.5.0" in whole
    assert "Home" not in whole and "0.0.1" not in whole and "Built with love" not in whole


def test_the_cli_answers_from_a_saved_page_with_its_url(tmp_path: Path) -> None:
    page = tmp_path / "whatsnew.html"
    page.write_text(SAVED, encoding="utf-8")
    result = CliRunner().invoke(cli, ["search", "spin function removed", "--corpus", str(page), "--mode", "bm25",
                                      "--index", str(tmp_path / "index"), "--json"])
    assert result.exit_code == 0, result.output
    import json

    first = json.loads(result.stdout.splitlines()[0])
    assert (first["version"], first["url"]) == ("2.0.0", "https://docs.example.test/project/whatsnew.html#v2-0-0")


@pytest.mark.parametrize("text", ["<html><body><nav>menu</nav></body></html>", "<!-- only a comment -->"])
def test_a_page_with_no_content_is_a_one_line_error(tmp_path: Path, text: str) -> None:
    page = tmp_path / "empty.html"
    page.write_text(text, encoding="utf-8")
    with pytest.raises(CorpusError, match=r"empty\.html: an HTML page with no"):
        load_corpus([page])
