"""The chain of sources of ``relnotes add`` against the local index and its GitHub replay: the
metadata, a monorepo's files at its tag, GitHub Releases through Link pages with mixed tags, a
403 rate limit, a 404, If-None-Match on refresh, a changelog web page, and the URLs never read."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from corpus import load_corpus
from corpus.errors import ArchiveTooLarge, SourceRefused, UnsafeURL
from corpus.packages import Indexes, add_packages
from corpus.packages import web
from qa.cli import cli
from tests.packages.conftest import CHANGES_RST, NPM_CHANGELOG
from tests.support.github_replay import release

DESCRIPTION = """# wheely

A package published as wheels only.

## Changelog

### 2.1.0 (2024-06-01)

- Removed the `legacy` flag.

### 2.0.0 (2024-01-10)

- Added `wheely.spin()`.
"""
REACT_CHANGELOG = b"""## 19.0.0 (December 5, 2024)

### React

- `useActionState`: a new hook to order Actions inside of a Transition. ([#28491](https://github.com/facebook/react/pull/28491))
- Removed `propTypes` checks: they are silently ignored. ([#28328](https://github.com/facebook/react/pull/28328))

## 18.3.1 (April 26, 2024)

- Export `act` from `react` [f1338f](https://github.com/facebook/react/commit/f1338f8080abd1386454a10bbf93d67bfe37ce85)
"""
SPHINX_PAGE = b"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Changes &#8212; paged 3.1 documentation</title>
<link rel="canonical" href="https://paged.test/en/stable/changes/">
<script>var x = "## 9.9.9 not a release";</script></head>
<body><div class="related" role="navigation"><ul><li><a href="../index.html">index</a></li></ul></div>
<div class="document"><div class="body" role="main">
<section id="changes"><h1>Changes<a class="headerlink" href="#changes" title="Link to this heading">\xc2\xb6</a></h1>
<section id="version-3-1-0"><h2>Version 3.1.0<a class="headerlink" href="#version-3-1-0">\xc2\xb6</a></h2>
<p>Released 2024-11-13</p>
<ul class="simple">
<li><p>Drop support for Python 3.8. <a class="reference external" href="https://x.test/5623">#5623</a></p></li>
<li><p>Remove previously deprecated code: <code class="docutils literal"><span class="pre">__version__</span></code>.</p></li>
<li><p>Deprecate the <code>should_ignore_error</code> method; it will be removed in 4.0.</p>
<ul><li><p>Use <code>handle_error</code> instead.</p></li></ul></li>
</ul>
</section>
<section id="version-3-0-0"><h2>Version 3.0.0<a class="headerlink" href="#version-3-0-0">\xc2\xb6</a></h2>
<p>Released 2023-09-30</p>
<ul><li><p>Add the <code>sansio</code> package.</p></li></ul>
</section></section></div></div>
<div class="sphinxsidebar" role="navigation"><h3>Navigation</h3><ul><li>Version 9.0.0</li></ul></div>
<footer>&#169; Copyright 2010 Pallets.</footer></body></html>
"""


def _one(spec: str):
    (outcome,) = add_packages([spec], Indexes(None, None))
    return outcome


def test_a_wheels_only_release_whose_description_holds_releases_gets_them_from_the_metadata(package_index) -> None:
    package_index.publish_raw("wheely", "2.1.0", b"")
    package_index.releases[-1].description, package_index.releases[-1].description_type = DESCRIPTION, "text/markdown"
    notes = _one("wheely").dependency.notes
    assert (notes.source, [f.path for f in notes.files]) == ("metadata", ["description.md"])
    assert notes.tried[0].source == "archive" and "wheels only" in notes.tried[0].why
    assert notes.file_url.endswith("/pypi/wheely/json") and notes.files[0].sha256 == notes.hash_value
    corpus = load_corpus([notes.corpus_input()])
    assert {c.version for c in corpus.chunks if c.version} == {"2.1.0", "2.0.0"}


def test_a_readme_without_releases_is_no_notes_and_says_so(package_index) -> None:
    package_index.publish_npm("readmeonly", "1.0.0", {"index.js": b""}, readme="# readmeonly\n\n## Install\n\nnpm i\n")
    notes = _one("npm:readmeonly").dependency.notes
    assert not notes.shipped and notes.source == ""
    assert ("metadata", "its readme on the index holds no release sections (0 release headings)") in [
        (t.source, t.why) for t in notes.tried]


def test_a_monorepo_package_reads_its_own_folder_at_its_own_tag(package_index) -> None:
    package_index.publish_npm("@acme/pkg", "2.0.0", {"index.js": b""}, repository="git+https://github.com/acme/mono.git",
                              directory="packages/pkg")
    repo = package_index.github.repo("acme/mono")
    repo.files["@acme/pkg@2.0.0"] = {
        "packages/pkg/CHANGELOG.md": NPM_CHANGELOG, "packages/pkg/package.json": b"{}",
        "packages/other/CHANGELOG.md": b"# other\n\n## 9.0.0\n\n- Not pkg's.\n", "CHANGELOG.md": REACT_CHANGELOG}
    notes = _one("npm:@acme/pkg").dependency.notes
    assert notes.source == "repository" and [f.path for f in notes.files] == ["CHANGELOG.md"]
    assert (notes.files_dir / "CHANGELOG.md").read_bytes() == NPM_CHANGELOG
    assert notes.files[0].member == f"{package_index.url}/raw/acme/mono/%40acme%2Fpkg%402.0.0/packages/pkg/CHANGELOG.md"
    assert notes.file_url == "https://github.com/acme/mono/tree/@acme/pkg@2.0.0/packages/pkg"
    tried = [p for p, _ in package_index.github.seen if "/git/trees/" in p]
    assert tried == ["/github/repos/acme/mono/git/trees/%40acme%2Fpkg%402.0.0?recursive=1"]


def test_reacts_hint_and_its_root_changelog_at_the_version_tag(package_index) -> None:
    """react's packument: repository facebook/react, directory packages/react (read as react/react before)."""
    package_index.publish_npm("react", "19.0.0", {"index.js": b""}, repository="git+https://github.com/facebook/react.git",
                              directory="packages/react")
    package_index.github.repo("facebook/react").files["v19.0.0"] = {
        "packages/react/package.json": b"{}", "packages/react-dom/package.json": b"{}", "CHANGELOG.md": REACT_CHANGELOG}
    notes = _one("npm:react").dependency.notes
    assert notes.changelog_url == "https://github.com/facebook/react/releases"
    assert (notes.source, [f.path for f in notes.files]) == ("repository", ["CHANGELOG.md"])
    corpus = load_corpus([notes.corpus_input()])
    assert {c.version for c in corpus.chunks if c.version} == {"19.0.0", "18.3.1"}


def test_no_tag_reads_the_default_branch_and_says_so(package_index) -> None:
    package_index.publish("untagged", "1.0.0", {"setup.py": b""},
                          project_urls={"Source": "https://github.com/acme/untagged"})
    package_index.github.repo("acme/untagged").files["HEAD"] = {"docs/changelog.rst": CHANGES_RST}
    notes = _one("untagged").dependency.notes
    assert (notes.source, [f.path for f in notes.files]) == ("repository", ["docs/changelog.rst"])
    assert [s.why for s in notes.skipped] == ["no tag 1.0.0 or v1.0.0: read at the default branch"]


def _vite_like(index) -> None:
    index.publish_npm("vite", "5.1.0", {"index.js": b""}, repository="git+https://github.com/vitejs/vite.git",
                      directory="packages/vite")
    repo = index.github.repo("vitejs/vite")
    repo.files["v5.1.0"] = {"packages/vite/package.json": b"{}", "README.md": b"# vite\n"}
    slug = "vitejs/vite"
    repo.releases = [
        release(slug, 7, "create-vite@5.2.0", "## create-vite 5.2.0\n\n- New templates."),
        release(slug, 6, "v5.1.0", "Please refer to CHANGELOG.md\n\n### Features\n\n- Added `--open`."),
        release(slug, 5, "plugin-legacy@5.3.0", "- Legacy only."),
        release(slug, 4, "v5.1.0-beta.1", "- Beta.", prerelease=True),
        release(slug, 3, "v5.0.0", "### Breaking Changes\n\n- Removed Node 14 support."),
        release(slug, 2, "v4.9.9", "", draft=False),  # an empty body: left out
        release(slug, 1, "v6.0.0", "- Not out yet.", draft=True)]
    index.github.page_size = 2


def test_github_releases_through_link_pages_keep_only_the_packages_own_tags(package_index) -> None:
    _vite_like(package_index)
    notes = _one("npm:vite").dependency.notes
    assert notes.source == "releases" and [f.path for f in notes.files] == ["github-releases.json"]
    kept = json.loads((notes.files_dir / "github-releases.json").read_text())
    assert [r["tag_name"] for r in kept] == ["v5.1.0", "v5.1.0-beta.1", "v5.0.0"]
    pages = [p for p, _ in package_index.github.seen if "/releases" in p]
    assert pages == ["/github/repos/vitejs/vite/releases?per_page=100"] + [
        f"/github/repos/vitejs/vite/releases?per_page=100&page={n}" for n in (2, 3, 4)]
    assert [t.source for t in notes.tried] == ["archive", "metadata", "repository"]
    assert notes.etag and notes.etag.startswith('W/"')
    corpus = load_corpus([notes.corpus_input()])
    assert {c.version for c in corpus.chunks if c.version} >= {"5.1.0", "5.0.0"}
    assert {c.product for c in corpus.chunks} == {"vite"}
    legacy = own = None
    package_index.publish_npm("@vitejs/plugin-legacy", "5.3.0", {"index.js": b""},
                              repository="https://github.com/vitejs/vite", directory="packages/plugin-legacy")
    package_index.github.repo("vitejs/vite").files.pop("v5.1.0")
    legacy = _one("npm:@vitejs/plugin-legacy").dependency.notes
    own = json.loads((legacy.files_dir / "github-releases.json").read_text())
    assert [r["tag_name"] for r in own] == ["plugin-legacy@5.3.0"]


def test_a_refresh_asks_with_the_etag_and_a_304_keeps_the_releases(package_index) -> None:
    _vite_like(package_index)
    first = _one("npm:vite").dependency.notes
    package_index.publish_npm("vite", "5.1.1", {"index.js": b""}, repository="git+https://github.com/vitejs/vite.git",
                              directory="packages/vite")
    package_index.github.seen.clear()
    again = _one("npm:vite")
    notes = again.dependency.notes
    assert (again.action, notes.version, notes.source) == ("fetched", "5.1.1", "releases")
    first_page = [(p, h) for p, h in package_index.github.seen if p.endswith("/releases?per_page=100")]
    assert first_page[0][1].get("if-none-match") == first.etag
    assert not [p for p, _ in package_index.github.seen if "page=2" in p]  # the 304 ended it
    assert (notes.files_dir / "github-releases.json").read_bytes() == (first.files_dir / "github-releases.json").read_bytes()


def test_a_spent_rate_limit_is_one_line_with_its_reset_time_and_the_page_still_gives_notes(package_index) -> None:
    package_index.publish("paged", "3.1.0", {"setup.py": b""}, project_urls={
        "Source": "https://github.com/acme/paged", "Changelog": f"{package_index.url}/pages/paged/changes/"})
    package_index.pages["/pages/paged/changes/"] = ("text/html; charset=utf-8", SPHINX_PAGE)
    package_index.github.rate_limited = True
    result = CliRunner().invoke(cli, ["add", "paged"])
    assert result.exit_code == 0, result.output
    (line,) = result.stderr.splitlines()
    assert line == (f"[1/1] paged 3.1.0: fetched 1 notes file: changelog.html from its changelog page "
                    f"({package_index.url}/pages/paged/changes/)")
    notes = _one("paged").dependency.notes
    limits = [t.why for t in notes.tried if t.source in ("repository", "releases")]
    assert limits == ["paged 3.1.0: GitHub's API rate limit is spent (60 requests an hour); it resets at "
                      "2030-03-17 17:46 UTC (in " + limits[0].split("(in ")[1]] * 2
    assert limits[0].endswith("min); set GITHUB_TOKEN (or gh auth login) for a higher limit, or run again then")
    corpus = load_corpus([notes.corpus_input()])
    cited = {(c.version, c.url) for c in corpus.chunks if c.version}
    assert cited == {("3.1.0", "https://paged.test/en/stable/changes/#version-3-1-0"),
                     ("3.0.0", "https://paged.test/en/stable/changes/#version-3-0-0")}
    text = " ".join(c.text for c in corpus.chunks)
    assert "9.9.9" not in text and "Navigation" not in text and "Copyright" not in text and "\u00b6" not in text


def test_the_token_is_sent_when_set(package_index, monkeypatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_test")
    _vite_like(package_index)
    _one("npm:vite")
    api = [h for p, h in package_index.github.seen if p.startswith("/github/")]
    assert api and all(h.get("authorization") == "Bearer ghp_test" for h in api)
    assert all(h.get("x-github-api-version") == "2022-11-28" for h in api)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "/etc/passwd", "http://example.test/changes", "ftp://x.test/c"])
def test_a_changelog_url_that_is_not_https_is_never_read(package_index, url: str) -> None:
    package_index.publish("unsafe", "1.0.0", {"setup.py": b""}, project_urls={"Changelog": url})
    notes = _one("unsafe").dependency.notes
    (why,) = [t.why for t in notes.tried if t.source == "webpage"]
    assert why == (f"unsafe 1.0.0: not fetching {url!r}: only https URLs are read (plain http only on this "
                   "machine's loopback, file: and local paths never)")


def test_a_page_over_the_size_cap_is_not_read(package_index) -> None:
    package_index.pages["/pages/big"] = ("text/html", b"<p>x</p>" * 1000)
    with pytest.raises(ArchiveTooLarge, match="over the limit of 100; not read"):
        web.get(f"{package_index.url}/pages/big", "big", limit=100)
    with pytest.raises(UnsafeURL):
        web.check_url("https://", "x")


def test_a_source_that_could_not_be_asked_is_asked_again_next_time(package_index) -> None:
    package_index.publish("limited", "1.0.0", {"setup.py": b""}, project_urls={"Source": "https://github.com/acme/limited"})
    package_index.github.rate_limited = True
    first = _one("limited")
    assert not first.dependency.notes.shipped and [t.failed for t in first.dependency.notes.tried] == [
        False, False, True, True, False]
    package_index.github.rate_limited = False
    package_index.github.repo("acme/limited").files["v1.0.0"] = {"CHANGELOG.md": NPM_CHANGELOG}
    again = _one("limited")
    assert (again.action, again.dependency.notes.source) == ("fetched", "repository")
    assert _one("limited").action == "up to date"


def test_redirects_are_followed_checked_and_capped(package_index) -> None:
    package_index.pages["/pages/final"] = ("text/html", b"<p>here</p>")
    package_index.redirects["/pages/moved"] = "/pages/final"
    assert web.get(f"{package_index.url}/pages/moved", "moved").body == b"<p>here</p>"
    package_index.redirects["/pages/to-file"] = "file:///etc/passwd"
    with pytest.raises(UnsafeURL, match="not fetching 'file:///etc/passwd'"):
        web.get(f"{package_index.url}/pages/to-file", "to-file")
    for n in range(8):
        package_index.redirects[f"/pages/loop{n}"] = f"/pages/loop{n + 1}"
    with pytest.raises(SourceRefused, match="redirects more than 5 times"):
        web.get(f"{package_index.url}/pages/loop0", "loop")
