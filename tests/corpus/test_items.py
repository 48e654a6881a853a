"""Items: list items with continuation lines and sub-items, paragraphs, labels and kinds."""

from __future__ import annotations

import pytest

from corpus.items import item_kind, item_words, split_items
from corpus.model import Chunk, Item
from corpus.pipeline import load_chunks
from tests.support.paths import ZOO


def texts(text: str) -> list[str]:
    return [text[s.start : s.end] for s in split_items(text)]


def test_bullets_keep_continuation_lines_and_sub_items():
    text = (
        "-   Drop support for Python 3.9. :pr:`5730`\n"
        "-   ``RequestContext`` has merged with ``AppContext``. It is now\n"
        "    a deprecated alias.\n"
        "- parent item\n"
        "  - child one\n"
        "  - child two\n"
        "* lazy item\n"
        "continued lazily\n"
    )
    assert texts(text) == [
        "-   Drop support for Python 3.9. :pr:`5730`",
        "-   ``RequestContext`` has merged with ``AppContext``. It is now\n    a deprecated alias.",
        "- parent item\n  - child one\n  - child two",
        "* lazy item\ncontinued lazily",
    ]
    assert all(s.bullet for s in split_items(text))


def test_loose_lists_blank_lines_and_indented_continuation():
    text = "- `#14608 <url>`_: Fixed a regression.\n\n\n  This could cause hooks to not fire.\n\n\n- `#1 <u>`_: Other.\n"
    assert texts(text) == ["- `#14608 <url>`_: Fixed a regression.\n\n\n  This could cause hooks to not fire.",
                           "- `#1 <u>`_: Other."]


def test_paragraphs_code_blocks_and_numbered_items():
    text = (
        "The function now supports floats.\nIt is faster.\n\nExample::\n\n    >>> np.cbrt(8.0)\n    2.0\n\n"
        "```python\nx = 1\n\ny = 2\n```\n\n1. first\n2) second\n#. third\n"
    )
    assert texts(text) == [
        "The function now supports floats.\nIt is faster.",
        "Example::\n\n    >>> np.cbrt(8.0)\n    2.0\n\n```python\nx = 1\n\ny = 2\n```",
        "1. first", "2) second", "#. third",
    ]


def test_a_bold_label_is_no_item_but_names_the_kind_after_it():
    text = "**Deprecations**:\n\n* The `cert` argument is now a string.\n\n**Fixed**:\n\n* A crash.\n\n<a id='x'></a>\n"
    spans = split_items(text)
    assert [text[s.start : s.end] for s in spans] == ["* The `cert` argument is now a string.", "* A crash."]
    assert [s.label for s in spans] == ["deprecated", "fixed"]
    assert item_kind(text[spans[0].start : spans[0].end], None, spans[0].label) == "deprecated"


@pytest.mark.parametrize(("text", "section", "kind"), [
    ("-   Drop support for Python 3.9. :pr:`5730`", None, "removed"),
    ("- `#1 <u>`_: Removed the ``--foo`` option.", "other", "removed"),
    ("- The ``should_ignore_error`` is deprecated. Use teardown.", None, "deprecated"),
    ("- Fix SSL case where verify=False.", None, "fixed"),
    ("- Add `FunctionAuth` to the public API.", "changed", "added"),
    ("- Breaking change: `App.run` is now async.", "changed", "removed"),
    ("- Breaking change in a fix's words", "removed", "removed"),
    ("- Removed a stale cache entry", "fixed", "fixed"),  # a precise section wins
    ("- `redirect` returns 303 by default.", "changed", "changed"),
    ("- `redirect` returns 303 by default.", None, "changed"),  # a bullet right under its release
    ("`redirect` returns 303 by default.", None, None),  # prose under a release: no kind
    ("- Update minimum dependency versions.", None, "changed"),
    ("- Data-dependent loops kept breaking the capture.", "added", "added"),  # "breaking" alone is no break
])
def test_item_kind(text, section, kind):
    assert item_kind(text, section) == kind


def test_item_words_drop_bullets_and_leading_links():
    assert item_words("- `#14220 <https://x/14220>`_: Fixed a bug.") == "Fixed a bug."
    assert item_words("* [#3699](https://x): Expose it.") == "Expose it."


def test_chunks_carry_items_with_source_lines_and_kinds(tmp_path):
    text = "# Changelog\n\n## [1.1.0] - 2026-01-02\n\n### Removed\n\n- Drop the `--old` flag\n  (use `--new`).\n\n### Added\n\n- A new thing\n- Another\n"
    path = tmp_path / "CHANGELOG.md"
    path.write_text(text)
    chunks = load_chunks([path])
    items = [(c.version, c.item_text(i), i.lines, i.kind) for c in chunks for i in c.items]
    assert items == [
        ("1.1.0", "- Drop the `--old` flag\n  (use `--new`).", (7, 8), "removed"),
        ("1.1.0", "- A new thing", (12, 12), "added"),
        ("1.1.0", "- Another", (13, 13), "added"),
    ]
    again = Chunk.from_json(chunks[0].to_json())
    assert again == chunks[0] and isinstance(again.items[0], Item)


@pytest.mark.skipif(not ZOO.is_dir(), reason="needs ../shared/data/zoo")
def test_every_zoo_item_starts_on_its_cited_line():
    chunks = load_chunks([ZOO / "flask", ZOO / "pytest", ZOO / "textual"])
    files: dict[str, list[str]] = {}
    count = 0
    for c in chunks:
        for it in c.items:
            lines = files.setdefault(c.source, open(c.source, encoding="utf-8").read().split("\n"))
            first = c.item_text(it).split("\n")[0].strip()
            assert first in lines[it.lines[0] - 1], (c.source, it.lines)
            assert c.item_text(it).split("\n")[-1].strip() in lines[it.lines[1] - 1]
            count += 1
    assert count > 4000


def test_a_sentence_never_runs_from_one_item_into_the_next():
    from corpus.sentences import split_sentences

    text = ("Highlights of the release\n"
            "  * faster imports for the whole package\n"
            "  * a new `--quiet` flag for the runner\n"
            "    that silences the progress bar\n"
            "  * smaller wheels on every platform we ship\n")
    got = [s.text for s in split_sentences(text)]
    assert got == ["Highlights of the release", "faster imports for the whole package",
                   "a new `--quiet` flag for the runner\n    that silences the progress bar",
                   "smaller wheels on every platform we ship"]
    assert all(text[s.start : s.end] == s.text for s in split_sentences(text))


def test_a_rename_listed_in_a_few_words_is_a_sentence() -> None:
    """django-cors-headers' 3.5.0 lists its renamed settings as "``OLD`` -> ``NEW``": each is quotable (fewer
    words than a sentence needs otherwise); a short item saying nothing is not."""
    from corpus.sentences import split_sentences

    text = ("* The following settings have been renamed:\n\n"
            "  * ``CORS_ORIGIN_WHITELIST`` -> ``CORS_ALLOWED_ORIGINS``\n"
            "  * ``CORS_ORIGIN_ALLOW_ALL`` \u2192 ``CORS_ALLOW_ALL_ORIGINS``\n"
            "  * ``CORS_URLS_REGEX``\n")
    assert [s.text for s in split_sentences(text)] == [
        "The following settings have been renamed:", "``CORS_ORIGIN_WHITELIST`` -> ``CORS_ALLOWED_ORIGINS``",
        "``CORS_ORIGIN_ALLOW_ALL`` \u2192 ``CORS_ALLOW_ALL_ORIGINS``"]


def test_a_list_run_together_in_a_paragraph_is_split_into_its_items() -> None:
    """Release blogs converted to text glue a list into one paragraph: bold lead-ins with no
    separator, or "- " items after a full stop; each is its own item (to quote, and in digests)."""
    text = ("**NVGEMM brings kernels to Inductor,** with fusion and ATen**A new nccl2 backend,** ported from "
            "torchcomms**Fault tolerance becomes first-class,** with reconfiguration.\n\n"
            "**Warnings are now visible** and kept out of imports. See #189914.- Python function events are "
            "excluded by default. - In the profiler, `use_cuda` is removed.\n\n"
            "A plain paragraph with **bold words** inside and a dash - like this - stays whole.")
    items = [text[i.start:i.end] for i in split_items(text)]
    assert items == [
        "**NVGEMM brings kernels to Inductor,** with fusion and ATen",
        "**A new nccl2 backend,** ported from torchcomms",
        "**Fault tolerance becomes first-class,** with reconfiguration.",
        "**Warnings are now visible** and kept out of imports. See #189914.",
        "- Python function events are excluded by default.",
        "- In the profiler, `use_cuda` is removed.",
        "A plain paragraph with **bold words** inside and a dash - like this - stays whole.",
    ]


def test_a_bullet_naming_only_a_kind_heads_its_list():
    # more-itertools' notes: "* Other changes:" over its own bullets is a label, its bullets the items
    text = (
        "* Potentially breaking changes\n"
        "    * Python 3.9 support was dropped\n"
        "    * :func:`zip_equal` was removed. Use :func:`zip` instead.\n"
        "* Other changes:\n"
        "    * Test coverage was improved\n"
        "* A change of its own\n"
    )
    spans = split_items(text)
    assert [text[s.start:s.end].strip() for s in spans] == [
        "* Python 3.9 support was dropped", "* :func:`zip_equal` was removed. Use :func:`zip` instead.",
        "* Test coverage was improved", "* A change of its own"]
    assert [s.label for s in spans] == ["removed", "removed", "changed", None]


def test_a_bullet_naming_a_subject_stays_one_item_with_its_list():
    # pygments' "- New lexers:" over "* JSON5": the sub-item alone would not say it is a lexer
    text = "- New lexers:\n\n  * CodeQL (#2819)\n  * JSON5 (#2734)\n- New tier 3 targets:\n  - `x86_64-foo`\n"
    assert texts(text) == ["- New lexers:\n\n  * CodeQL (#2819)\n  * JSON5 (#2734)", "- New tier 3 targets:\n  - `x86_64-foo`"]
    # a bullet naming two kinds is no label of one: its list stays with it
    mixed = "- General changes/fixes:\n  - Exception messages can now be customized\n"
    assert texts(mixed) == [mixed.rstrip("\n")]


def test_a_list_indented_under_its_heading_is_items_of_one_depth(tmp_path) -> None:
    # isort's CHANGELOG.md: "### 5.10.0 November 3 2021" over "  - Implemented #1796 ..." and
    # "  - Fixed #1801 ...": read from the chunk's margin, every bullet after the first was its sub-item
    from tests.support.fakes import read_written

    text = ("# Changelog\n\n### 5.10.0 November 3 2021\n  - Implemented #1796: Switch to `tomli` for pyproject.toml.\n"
            "  - Fixed #1801: CLI bug (--exend-skip-glob, overrides instead of extending).\n"
            "    - a sub-item of the fix\n  - Added official support for Python 3.10\n")
    (chunk,) = read_written(tmp_path, "CHANGELOG.md", text).chunks
    items = [chunk.item_text(i).strip() for i in chunk.items]
    assert [i.splitlines()[0] for i in items] == ["- Implemented #1796: Switch to `tomli` for pyproject.toml.",
                                                  "- Fixed #1801: CLI bug (--exend-skip-glob, overrides instead of extending).",
                                                  "- Added official support for Python 3.10"]
    assert "a sub-item of the fix" in items[1]
    assert [i.lines for i in chunk.items] == [(4, 4), (5, 6), (7, 7)]
    assert [i.kind for i in chunk.items] == ["added", "fixed", "added"]
