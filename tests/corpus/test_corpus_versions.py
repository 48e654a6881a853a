"""Tests for release version parsing, ordering, matching and product detection."""

import pytest

from corpus import detect_product, parse_version, version_key, version_matches
from corpus.headings import release_version


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PyTorch 2.14 Release Blog", "2.14"),
        ("v2.1.0", "2.1.0"),
        ("Release 2.16.0", "2.16.0"),
        ("Version 1.80.0 (2024-07-25)", "1.80.0"),
        ("v2.14.0b1", "2.14.0b1"),
        ("pytorch-2.13-release-blog.txt", "2.13"),
        ("Version 1.0.0-alpha.2 (2015-02-20)", "1.0.0-alpha.2"),
        ("No version here", None),
        ("By October 15, 2025No Comments", None),
    ],
    ids=["title", "v-prefix", "release", "rust", "beta", "file-name", "rust-alpha", "none", "byline"],
)
def test_parse_version(text, expected):
    assert parse_version(text) == expected


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("v2.9.0 (2024-09-05)", "2.9.0"),
        ("Version 0.3  (2012-07-12)", "0.3"),
        ("[1.2.3] - 2024-01-01", "1.2.3"),
        ("Release 2.16.0", "2.16.0"),
        ("v1.9.0a2 (2021-12-24) Changes", "1.9.0a2"),
        ("New Contributors", None),
        ("PyTorch 2.14 Release Blog", None),
        ("Python 3.15 Support", None),
    ],
    ids=["pydantic", "rust-old", "keepachangelog", "release", "alpha-subheading", "not-release", "blog", "prose"],
)
def test_release_version(heading, expected):
    assert release_version(heading) == expected


def test_version_key_orders_as_versions():
    shuffled = ["2.14.0", "2.9", "1.0.0", "2.14.0b1", "2.10", "1.0.0-alpha.2", "2.14.0a1", "1.0.0-alpha"]
    assert sorted(shuffled, key=version_key) == [
        "1.0.0-alpha", "1.0.0-alpha.2", "1.0.0", "2.9", "2.10", "2.14.0a1", "2.14.0b1", "2.14.0",
    ]
    assert version_key("2.13") == version_key("2.13.0")


@pytest.mark.parametrize(
    ("chunk", "wanted", "expected"),
    [
        ("2.13", "2.13", True),
        ("2.13.0", "2.13", True),
        ("2.13.1", "2.13", True),
        ("2.13.0rc1", "2.13", True),
        ("2.14", "2.13", False),
        ("2.13", "2.13.0", True),
        ("2.13.1", "2.13.0", False),
        ("2.14.0b1", "2.14.0", False),
        ("2.14.0b1", "2.14.0b1", True),
        (None, "2.13", False),
    ],
    ids=["same", "point-zero", "point-release", "pre-release", "other-minor", "zero-padded",
         "exact-differs", "beta-vs-final", "beta-exact", "no-version"],
)
def test_version_matches(chunk, wanted, expected):
    assert version_matches(chunk, wanted) is expected


@pytest.mark.parametrize(
    ("title", "product"),
    [
        ("PyTorch 2.14 Release Blog", "PyTorch"),
        ("rust-RELEASES", "Rust"),
        ("pydantic-HISTORY", "pydantic"),
        ("Widget 3.2 Release Blog", "Widget"),
        ("Changelog", None),
        ("python-markdown2 Changelog", None),  # markdown2's, not Python's (its folder names it)
        ("django-cors-headers", None),
        ("pytorch-2.13-release-blog", "PyTorch"),
        ("cookiecutter-django", None),
        ("changelog-rust-mini", "Rust"),  # between words saying what the file is
    ],
    ids=["pytorch", "rust", "pydantic", "unknown-before-version", "none", "language-prefix", "plugin-prefix",
         "stem-with-version", "plugin-suffix", "notes-words-around"],
)
def test_detect_product(title, product):
    assert detect_product(title) == product


@pytest.mark.parametrize(
    ("heading", "version", "date", "status"),
    [
        ("pytest 9.1.0 (2026-06-13)", "9.1.0", "2026-06-13", None),
        ("9.1.0 (YANKED)", "9.1.0", None, "yanked"),
        ("NumPy 2.3.0 Release Notes", "2.3.0", None, None),
        ("## [8.2.7] - 2026-05-19".lstrip("# "), "8.2.7", "2026-05-19", None),
        ("0.28.0 (28th November, 2024)", "0.28.0", "2024-11-28", None),
        ("Version 1.80.0 (2024-07-25)", "1.80.0", "2024-07-25", None),
        ("Django 5.1.2 release notes - October 8, 2024", "5.1.2", "2024-10-08", None),
        ("pytest 3.9.0 (2018-10-15 - not published due to a release automation bug)", "3.9.0", "2018-10-15", None),
        ("[UNRELEASED]", None, None, "unreleased"),
        ("In development", None, None, "unreleased"),
    ],
)
def test_release_headings_of_the_family(heading, version, date, status) -> None:
    from corpus.headings import release_heading

    assert release_heading(heading) == __import__("corpus.headings", fromlist=["x"]).ReleaseHeading(version, date, status)


@pytest.mark.parametrize("heading", ["Python 3.12 support", "CUDA 13.2", "pytest 9.1.0", "PyTorch 2.14 Release Blog",
                                     "Version Compatibility", "Upgrading to 2.0"])
def test_feature_headings_with_a_number_are_not_releases(heading) -> None:
    from corpus.headings import release_heading

    assert release_heading(heading) is None
