"""Tests for section trees: Markdown and plain-text headings, repairs, chrome and changelogs."""

import pytest

from corpus import chrome_lines, load_corpus, load_documents, parse_sections
from corpus.headings import release_version
from tests.support.paths import CHANGELOGS, DATA

needs_changelogs = pytest.mark.skipif(not CHANGELOGS.is_dir(), reason="../shared/data/changelogs not available")


def bundled(title_start: str):
    (doc,) = [d for d in load_documents() if d.title.startswith(title_start)]
    return doc, parse_sections(doc)


def paths(sections) -> list[tuple[str, ...]]:
    return [s.path for s in sections]


def test_213_tree_from_plain_text():
    doc, sections = bundled("PyTorch 2.13")
    t = "PyTorch 2.13 Release Blog"
    got = paths(sections)
    for expected in [
        (t, "Featured projects"),
        (t, "Performance Improvements", "Deterministic Backward for FlexAttention Flash Backend"),
        (t, "Performance Improvements", "FlexAttention on Apple Silicon (MPS)"),
        (t, "Core Features", "nn.LinearCrossEntropyLoss"),
        (t, "Core Features", "Python 3.15 Binary Support – Release Engineering"),
        (t, "Distributed Training", "torchcomms Backend"),
        (t, "Compilation and Export", "torch.compiler.set_default_backend"),
        (t, "Platform Features and Updates", "CUDA", "CuTeDSL “Native DSL” Backend for Inductor"),
        (t, "Platform Features and Updates", "ROCm", "AOTriton 0.12b, Origami GEMM Selection, Native HIP CMake"),
        (t, "Platform Features and Updates", "XPU (Intel GPUs)", "Device Telemetry APIs"),
        (t, "Platform Features and Updates", "C++ ABI", "torch::stable::Generator"),
    ]:
        assert expected in got
    heads = {h for p in got for h in p}
    assert "API Unstable" not in heads  # a repeated label, not a heading
    assert not any(h.startswith(("(PR", "#", "pip3", "Updated")) for h in heads)
    assert all(s.version == "2.13" for s in sections)
    assert chrome_lines(doc) == ()
    cuda = next(s for s in sections if s.path[-1].startswith("CuTeDSL"))
    lines = doc.text.split("\n")
    assert lines[cuda.start_line - 1].startswith("CuTeDSL is a Python-native")
    assert lines[cuda.end_line - 1].startswith("(PR #181267")


def test_29_tree_and_chrome():
    doc, sections = bundled("PyTorch 2.9")
    t = "PyTorch 2.9 Release Blog"
    got = paths(sections)
    assert got[0] == (t,)
    assert (t, "API-UNSTABLE FEATURES", "[API-Unstable] torch::stable::Tensor") in got
    assert (t, "API-UNSTABLE FEATURES", "[API-Unstable] Symmetric memory programming") in got
    assert (t, "API-UNSTABLE FEATURES", "Arm Platform Enablement and Optimizations") in got
    heads = {h for p in got for h in p}
    assert not heads & {"Skip to main content", "Blog", "By October 15, 2025No Comments", "Release 2.9 will include:"}
    assert chrome_lines(doc) == (1, 2)
    assert sections[0].text.startswith("By October 15, 2025No Comments")  # the byline stays as text
    assert all(s.start_line > 2 for s in sections)


def test_news_article_is_one_section():
    doc, sections = bundled("PyTorch 2.14 Speeds Up")
    assert paths(sections) == [("PyTorch 2.14 Speeds Up Apple Silicon and GPU Workloads",)]
    assert (sections[0].start_line, sections[0].end_line) == (3, 9)
    assert chrome_lines(doc) == ()


def test_214_markdown_tree():
    doc, sections = bundled("PyTorch 2.14 Release Blog")
    t = doc.title
    got = paths(sections)
    for expected in [
        (t, "Featured projects"),
        (t, "Performance Improvements", "Large MPS Op Migration to Native Metal"),
        (t, "Core Features", "Installation"),
        (t, "Distributed Training", "Symmetric Memory: one-sided get"),
        (t, "Platform Features and Updates", "CUDA", "NVGEMM, a CuTeDSL GEMM Backend for Inductor"),
        (t, "Platform Features and Updates", "MPS (Apple Silicon)", "Native Linear Algebra"),
        (t, "Profiling and Debugging", "Memory Snapshots for Pinned CPU Memory"),
        (t, "Non-Feature Updates"),
    ]:
        assert expected in got
    nvgemm = next(s for s in sections if s.path[-1].startswith("NVGEMM"))
    assert nvgemm.anchor == "nvgemm-a-cutedsl-gemm-backend-for-inductor" and nvgemm.level == 4


def test_214_install_snippet_is_not_headings():
    doc, sections = bundled("PyTorch 2.14 Release Blog")
    top = {s.path[1] for s in sections if len(s.path) > 1}
    assert not top & {"CPU", "CUDA", "ROCm", "XPU"}
    assert not any(p[-1].startswith(("CPU", "CUDA (substitute", "ROCm (substitute", "XPU")) and len(p) == 2 for p in paths(sections))
    install = next(s for s in sections if s.path[-1] == "Installation")
    assert "# CUDA (substitute the CUDA version" in install.text
    assert "pip3 install torch –index-url https://download.pytorch.org/whl/xpu" in install.text
    assert (install.start_line, install.end_line) == (272, 292)


def test_214_split_inline_code_rejoined():
    doc, sections = bundled("PyTorch 2.14 Release Blog")
    mps = next(s for s in sections if s.path[-1] == "Large MPS Op Migration to Native Metal")
    assert "including `index_add`, `index_select`, `argmin`, `argmax`" in mps.text
    assert "`mish` and GLU." in mps.text
    assert "\n\n," not in mps.text
    body = doc.text.split("\n")
    assert body[mps.start_line - 1].startswith("Continuing the migration")  # lines still cite the original


def test_214_bold_run_in_items_and_headings():
    doc, sections = bundled("PyTorch 2.14 Release Blog")
    featured = sections[0]
    assert featured.path[-1] == "Featured projects"
    assert "alongside Triton and ATen\n**A new nccl2 backend for PyTorch Distributed,**" in featured.text
    one_sided = [s for s in sections if s.path[-1] == "Symmetric Memory: one-sided get"]
    assert len(one_sided) == 1 and one_sided[0].start_line == 449
    heads = {h for p in paths(sections) for h in p}
    assert not any(h.startswith(("(PR", "API Unstable", "**")) for h in heads)
    dyn = next(s for s in sections if s.path[-1] == "Declarative Dynamic Shapes with @dynamic_spec")
    assert "API Unstable**\n** (PR [#187639](https://github.com/pytorch/pytorch/pull/187639), [#185982]" in dyn.text


def test_rust_fixture_sections():
    c = load_corpus([DATA / "changelog-rust-mini.md"])
    (d,) = c.documents
    assert d.document.title == "changelog-rust-mini" and d.document.product == "Rust" and d.document.version is None
    assert d.releases == ("1.81.0", "1.80.1", "1.80.0", "0.3")
    by_path = {s.path[1:]: s for s in d.sections}
    assert by_path[("Version 1.81.0 (2024-09-05)", "Libraries")].version == "1.81.0"
    assert by_path[("Version 1.80.0 (2024-07-25)", "Compiler", "std & core")].version == "1.80.0"
    assert by_path[("Version 0.3 (2012-07-12)",)].version == "0.3"
    heads = {h for s in d.sections for h in s.path}
    assert "# fn main() {" not in heads and "fn main() {" not in heads  # inside a code fence
    assert by_path[("Version 1.81.0 (2024-09-05)", "Language")].anchor == "language"
    # "---" after a blank line is a thematic break: 1.80.1 keeps its text and no empty heading appears.
    assert "Fix miscompilation" in by_path[("Version 1.80.1 (2024-08-08)",)].text


def test_pydantic_fixture_sections():
    (d,) = load_corpus([DATA / "changelog-pydantic-mini.md"]).documents
    assert d.releases == ("2.11.0b1", "2.0", "1.9.0", "1.9.0a2", "1.9.0a1", "0.1.0")
    versions = {s.path[1:]: s.version for s in d.sections}
    assert versions[("New Contributors",)] == "2.11.0b1"  # not a release of its own
    assert versions[("v1.9.0 (2021-12-31)", "v1.9.0a2 (2021-12-24) Changes")] == "1.9.0a2"
    assert versions[("v2.11.0b1 (2025-03-06)", "What's Changed", "Fixes")] == "2.11.0b1"
    assert d.sections[0].path == ("changelog-pydantic-mini",)  # the HTML comments before any heading
    assert d.sections[0].text.startswith("<!-- markdownlint-disable")


def test_keepachangelog_fixture():
    (d,) = load_corpus([DATA / "keepachangelog.md"]).documents
    assert d.document.title == "Changelog"
    versions = {s.path[-1]: s.version for s in d.sections}
    assert versions == {"Changelog": None, "[Unreleased]": None, "[1.2.3] - 2024-01-01": "1.2.3",
                        "Fixed": "1.2.3", "Release 2.16.0": "2.16.0"}


def test_plaintext_fixture_chrome_and_nesting():
    (d,) = load_corpus([DATA / "notes.txt"]).documents
    t = "Widget 3.2 Release Blog"
    assert d.document.title == t and d.document.version == "3.2" and d.document.product == "Widget"
    assert [s.path for s in d.sections] == [
        (t,), (t, "NEW FEATURES"), (t, "NEW FEATURES", "Faster Parsing"), (t, "NEW FEATURES", "Plugin System"),
        (t, "NEW FEATURES", "Platform Support"), (t, "NEW FEATURES", "Platform Support", "Linux"),
    ]
    assert chrome_lines(d.document) == (1, 2)


@pytest.mark.parametrize(
    ("text", "heads"),
    [
        ("# Title\n\n```\n# not a heading\n```\n\n## Real\n\nx", ["Real"]),
        ("# Title\n\n~~~\n# open fence runs to the end\n\n## still code\n", []),
        ("# Title\n\n<!--\n# commented\n-->\n\n## Real\n\nx", ["Real"]),
        ("# Title\n\n<div>\n# inside html\n</div>\n\n## Real\n\nx", ["Real"]),
        ("# Title\n\nPara\n---\n\nx", ["Para"]),
        ("# Title\n\nPara\n\n---\n\nx", []),
        ("# Title\n\n## **Bold** `code` <a id=\"x\"></a> ##\n\nx", ["Bold code"]),
        ("# Title\n\n## [Link](https://x.y) text\n\nx", ["Link text"]),
        ("#NotHeading\n\ntext", []),
        ("---\ntitle: front\n---\n\n# T\n\nx", ["T"]),
    ],
    ids=["backtick-fence", "unclosed-fence", "html-comment", "html-block", "setext", "thematic-break",
         "markup-cleaned", "link-cleaned", "no-space", "front-matter"],
)
def test_markdown_heading_rules(tmp_path, text, heads):
    path = tmp_path / "t.md"
    path.write_text(text, encoding="utf-8")
    (doc,) = load_documents([path])
    got = [s.path[-1] for s in parse_sections(doc) if len(s.path) > 1]
    assert got == heads


@needs_changelogs
def test_pydantic_release_versions():
    (d,) = load_corpus([CHANGELOGS / "pydantic-HISTORY.md"]).documents
    versions = {s.version for s in d.sections if s.version}
    # 192 "## v..." releases plus v1.9.0a2 and v1.9.0a1, which only have "### ... Changes" headings.
    assert len(versions) == 192 + 2
    assert {"2.14.0b1", "0.1.0", "2.0", "1.9.0a2", "1.9.0a1"} <= versions
    contributors = [s for s in d.sections if s.path[-1] == "New Contributors" and s.level == 2]
    assert [s.version for s in contributors] == ["2.11.0b1"]
    assert all(s.version == release_version(s.path[-1]) for s in d.sections if release_version(s.path[-1]))


@needs_changelogs
def test_rust_release_versions():
    (d,) = load_corpus([CHANGELOGS / "rust-RELEASES.md"]).documents
    versions = {s.version for s in d.sections if s.version}
    assert len(versions) == 148
    assert {"1.95.0", "1.80.0", "1.0.0-alpha", "1.0.0-alpha.2", "0.1"} <= versions
    lang = next(s for s in d.sections if s.path[1:] == ("Version 1.80.0 (2024-07-25)", "Language"))
    assert lang.version == "1.80.0"
