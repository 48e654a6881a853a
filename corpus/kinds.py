"""Kinds of change: the section a note sits in, read as one of a small vocabulary.

Projects name their sections differently (Keep a Changelog's "Added", towncrier's "Bug fixes"
and "Removals and backward incompatible breaking changes", numpy's "Expired deprecations" and
"Compatibility notes", Rust's "Stabilized APIs", pydantic's "What's Changed") but mean a few
kinds of change. The outermost heading under the release that names a kind decides: in
numpy's "Compatibility notes > np.dot now raises TypeError", the section is breaking, whatever
its own title says. A release heading names no kind; text right under it has none.
"""

from __future__ import annotations

import re

KINDS = ("added", "changed", "deprecated", "removed", "fixed", "security", "performance", "docs", "other")
ALIASES = {"breaking": "removed", "fix": "fixed", "fixes": "fixed", "new": "added", "doc": "docs",
           "deprecations": "deprecated", "perf": "performance"}
# (kind, pattern) in order: the first match wins ("Deprecations (removal in next major release)" is
# deprecated, "Expired deprecations" removed, "Performance improvements" performance, "New Contributors" other).
_RULES = tuple((kind, re.compile(pattern)) for kind, pattern in (
    ("removed", r"expired deprecation"),
    ("deprecated", r"^(?:new |future )?deprecat|deprecated features|^future ?warning|^future changes"),
    ("removed", r"backwards? ?incompatib|breaking|compatibility notes?|incompatible|^remov|\bremovals?\b"
                r"|removed features|dropp?(?:ed)? support|api removals"),
    ("security", r"security|\bcves?\b|vulnerab"),
    ("performance", r"performance|speed ?ups?\b|faster|optimi[sz]"),
    ("other", r"contributor|pull requests|merged prs|packaging|internal|trivial|misc|licen[cs]e|provenance"),
    ("fixed", r"\bfix|\bbugs?\b"),
    ("added", r"^add(?:ed|itions?)?\b|^new\b|\bfeatures?\b|stabili[sz]ed|^highlights"),
    ("docs", r"\bdoc(?:s|umentation)?\b"),
    ("changed", r"chang|improv|updat|enhanc|behaviou?r|\bc[ -]?api\b|typing|deprecation"),
))
_WORDS = re.compile(r"[^\w' -]+")


def kind_of(heading: str) -> str | None:
    """The kind a section heading names ("Bug fixes" -> "fixed"), or None ("np.cbrt for floats")."""
    text = " ".join(_WORDS.sub(" ", heading.lower().replace("’", "'")).split())
    for kind, pattern in _RULES:
        if pattern.search(text):
            return kind
    return None


def section_kind(headings: tuple[str, ...]) -> str | None:
    """The kind of a section from its headings under the release, outermost first: "other" when
    none names a kind ("Libraries"), None when there is none (text right under the release)."""
    if not headings:
        return None
    return next((k for k in map(kind_of, headings) if k is not None), "other")


def check_kind(name: str) -> str:
    """A kind as the vocabulary spells it ("Fixed", "breaking" -> "fixed", "removed").

    Raises:
        ValueError: ``name`` is no kind; the message lists the kinds.
    """
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in KINDS:
        raise ValueError(f"unknown kind {name!r}; use one of: {', '.join(KINDS)} (or breaking for removed)")
    return key
