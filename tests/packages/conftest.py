"""Fixtures of the package tests: a local package index on 127.0.0.1 (``tests.support.package_index``)
that pip's and npm's settings point at, and the release notes its archives carry."""

from __future__ import annotations

import os

import pytest

from tests.support.package_index import PackageIndex

CHANGES_RST = b"""Changes
=======

Version 3.1.0
-------------

Released 2024-11-13

-   Drop support for Python 3.8. :pr:`5623`
-   Remove previously deprecated code: ``__version__``. :pr:`5648`
-   ``Flask.open_resource`` takes an ``encoding`` parameter. :issue:`5504`
-   Deprecate the ``should_ignore_error`` method; it will be removed in 4.0. :issue:`5816`


Version 3.0.1
-------------

Released 2024-01-18

-   Correct type for ``path`` argument to ``send_file``. :issue:`5230`


Version 3.0.0
-------------

Released 2023-09-30

-   Remove previously deprecated code. :pr:`5223`
-   Add the ``sansio`` package. :pr:`5127`
"""

STUB_INCLUDE = b"Changes\n=======\n\n.. include:: ../CHANGES.rst\n"
STUB_POINTER = (b"Changelog\n=========\n\nThe pytest CHANGELOG is located `here "
                b"<https://docs.pytest.org/en/stable/changelog.html>`__.\n\nThe source document can be found at: "
                b"https://github.com/pytest-dev/pytest/blob/main/doc/en/changelog.rst\n")
FRAGMENT = b"Fixed a crash when the session closes twice.\n"
RELEASE_5_1 = b"""========================
Django 5.1 release notes
========================

*August 7, 2024*

Welcome to Django 5.1!

Backwards incompatible changes in 5.1
=====================================

* The undocumented ``django.urls.converters.get_converter()`` function is removed.
"""
RELEASE_5_0 = b"""========================
Django 5.0 release notes
========================

*December 4, 2023*

What's new in Django 5.0
========================

* Facet filters in the admin.
"""
NPM_CHANGELOG = b"""# Changelog

## 2.0.0 (2024-05-01)

### Breaking changes

- Removed the `legacy` option.

## 1.1.0 (2024-01-10)

### Features

- Added the `pad` option.
"""


@pytest.fixture
def package_index(loopback, monkeypatch):
    """A running local index; pip's and npm's settings point at it (pip's config files are not read),
    and GitHub's API and raw files are its replay (no token: none from the environment, gh never run)."""
    from corpus.packages import githubapi

    index = PackageIndex().start()
    monkeypatch.setenv("GITHUB_API_URL", f"{index.url}/github")
    monkeypatch.setenv("RELNOTES_GITHUB_RAW_URL", f"{index.url}/raw")
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    monkeypatch.delenv("GH_TOKEN", raising=False)
    monkeypatch.setattr(githubapi, "_gh_token", lambda: "")
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_INDEX_URL", index.simple)
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    monkeypatch.setenv("npm_config_registry", index.registry)
    yield index
    index.stop()


@pytest.fixture
def flask_like(package_index):
    """A package whose sdist holds CHANGES.rst, a docs stub including it, and a changelog.d fragment."""
    package_index.publish("flasky", "3.1.0", {
        "CHANGES.rst": CHANGES_RST, "docs/changes.rst": STUB_INCLUDE, "changelog.d/123.bugfix.rst": FRAGMENT,
        "src/flasky/__init__.py": b"__version__ = '3.1.0'\n", "README.rst": b"Flasky\n======\n",
    }, project_urls={"Changes": "https://flasky.example/changes/"})
    return package_index
