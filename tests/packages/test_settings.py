"""Which index ``relnotes add`` asks: the user's own pip and npm settings, never a name of ours."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from corpus.packages import settings


def test_the_environment_then_pips_files_then_pips_default(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PIP_INDEX_URL", "https://one.test/simple")
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "https://two.test/simple https://one.test/simple")
    assert settings.pypi_indexes() == ("https://one.test/simple", "https://two.test/simple")
    assert settings.pypi_indexes("https://given.test/simple/") == ("https://given.test/simple/",)
    monkeypatch.delenv("PIP_INDEX_URL")
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL")
    conf = tmp_path / "pip.conf"
    conf.write_text("[global]\nindex-url = https://mirror.test/simple\nextra-index-url = https://extra.test/simple\n")
    monkeypatch.setenv("PIP_CONFIG_FILE", str(conf))
    assert settings.pypi_indexes() == ("https://mirror.test/simple", "https://extra.test/simple")
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # nothing configured: pip's own documented default
    (default,) = settings.pypi_indexes()
    assert default.startswith("https://") and default.rstrip("/").endswith("/simple")


def test_npm_registry_from_the_environment_then_npmrc(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("npm_config_registry", "https://env.test/")
    assert settings.npm_registry() == "https://env.test/"
    assert settings.npm_registry("https://given.test/") == "https://given.test/"
    monkeypatch.delenv("npm_config_registry")
    monkeypatch.delenv("NPM_CONFIG_REGISTRY", raising=False)
    (tmp_path / ".npmrc").write_text("; a comment\n@acme:registry=https://scoped.test/\nregistry = https://project.test/\n")
    assert settings.npm_registry(project=tmp_path) == "https://project.test/"
    Path.home().joinpath(".npmrc").write_text("registry=https://user.test/\n")
    assert settings.npm_registry(project=tmp_path / "elsewhere") == "https://user.test/"


def test_a_registry_that_is_no_url_is_refused(monkeypatch) -> None:
    from corpus.errors import NoIndexConfigured

    monkeypatch.setenv("npm_config_registry", "not a url")
    with pytest.raises(NoIndexConfigured):
        settings.npm_registry()
