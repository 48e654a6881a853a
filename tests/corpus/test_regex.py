"""Patterns compiled on first use (corpus.regex): the same answers as ``re.compile``, compiled once,
and every module-level pattern of the three packages valid."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

from corpus.regex import LazyPattern, lazy_compile


def test_nothing_is_compiled_until_the_pattern_is_used(monkeypatch) -> None:
    calls = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a: calls.append(a) or real(*a))
    words = lazy_compile(r"\bfix(?:e[sd])?\b", re.IGNORECASE)
    assert calls == [] and words.pattern == r"\bfix(?:e[sd])?\b"
    assert words.search("Fixed a crash").group(0) == "Fixed"
    assert words.findall("fix, fixes") == ["fix", "fixes"]
    assert words.sub("-", "a fix") == "a -"
    assert calls == [(r"\bfix(?:e[sd])?\b", re.IGNORECASE)]  # once, for every later use


def test_it_answers_as_the_compiled_pattern_does() -> None:
    source = r"(?P<major>\d+)\.(?P<minor>\d+)"
    lazy, compiled = lazy_compile(source), re.compile(source)
    text = "from 2.13 to 3.0, not 4"
    assert [m.groupdict() for m in lazy.finditer(text)] == [m.groupdict() for m in compiled.finditer(text)]
    assert lazy.fullmatch("2.13").span() == compiled.fullmatch("2.13").span()
    assert lazy.match(text) is None and lazy.split(text) == compiled.split(text)
    assert lazy.subn("v", text) == compiled.subn("v", text)
    assert (lazy.flags, lazy.groups, lazy.groupindex) == (compiled.flags, compiled.groups, compiled.groupindex)
    assert lazy.compiled is lazy.compiled and lazy.search(text).re is lazy.compiled
    assert re.sub(lazy.compiled, "v", text) == compiled.sub("v", text)


def test_a_bad_pattern_fails_when_used_and_is_no_half_made_pattern() -> None:
    bad = lazy_compile(r"(unclosed")
    with pytest.raises(re.error):
        bad.search("x")
    with pytest.raises(re.error):  # tried again, never a stale half-bound object
        bad.search("x")


def test_copy_and_pickle_probes_are_not_taken_for_pattern_attributes() -> None:
    lazy = lazy_compile("a")
    assert not hasattr(lazy, "__deepcopy__") and "lazy_compile('a', 0)" == repr(lazy)
    assert "_compiled" not in vars(lazy)


def _module_patterns():
    for package in ("corpus", "index", "qa"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                values = value.values() if isinstance(value, dict) else value if isinstance(value, (tuple, list)) else [value]
                for item in values:
                    for part in item if isinstance(item, tuple) else (item,):
                        if isinstance(part, LazyPattern):
                            yield f"{info.name}.{name}", part


def test_every_module_level_pattern_of_the_packages_compiles() -> None:
    """They no longer compile at import, so a typo would only show on the path that uses it."""
    found = list(_module_patterns())
    assert len(found) > 150
    for where, pattern in found:
        assert isinstance(pattern.compiled, re.Pattern), where
