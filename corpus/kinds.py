"""Kinds of change: the section a note sits in, read as one of a small vocabulary.

Projects name their sections differently (Keep a Changelog's "Added", towncrier's "Bug fixes"
and "Removals and backward incompatible breaking changes", numpy's "Expired deprecations" and
"Compatibility notes", Rust's "Stabilized APIs", pydantic's "What's Changed") but mean a few
kinds of change. Under the release, the deepest heading naming a precise kind (fixed, removed,
deprecated, security, performance, docs) decides, else the deepest naming any: pydantic's
"What's Changed > Fixes" is fixed, numpy's "Compatibility notes > linalg.norm return type
changes" removed, "New Features > np.cbrt for floats" added. A release heading names no
kind; text right under it has none.
"""

from __future__ import annotations

from .regex import lazy_compile

KINDS = ("added", "changed", "deprecated", "removed", "fixed", "security", "performance", "docs", "other")
ALIASES = {"breaking": "removed", "fix": "fixed", "fixes": "fixed", "new": "added", "doc": "docs",
           "deprecations": "deprecated", "perf": "performance"}
# (kind, pattern) in order: the first match wins ("Deprecations (removal in next major release)" is
# deprecated, "Expired deprecations" removed, "Performance improvements" performance, "Documentation
# fixes" docs, "New Contributors" other).
_RULES = tuple((kind, lazy_compile(pattern)) for kind, pattern in (
    ("removed", r"expired deprecation|backwards? ?incompatib|breaking|compatibility notes?|incompatible"),
    ("deprecated", r"deprecat|^future ?warning|^future changes"),
    ("removed", r"\bremov|\bdrop(?:ped|s)?\b"),
    ("security", r"security|\bcves?\b|vulnerab"),
    ("performance", r"performance|speed ?ups?\b|faster|optimi[sz]"),
    ("other", r"contributor|pull requests|merged prs|packaging|internal|trivial|misc|licen[cs]e|provenance"),
    ("docs", r"\bdoc(?:s|umentation)?\b"),
    ("fixed", r"\bfix|\bbugs?\b"),
    ("changed", r"non-?features?"),
    ("added", r"^add(?:ed|itions?)?\b|^new\b|\bfeatures?\b|stabili[sz]ed|^highlights"),
    ("changed", r"chang|improv|updat|enhanc|behaviou?r|\bc[ -]?api\b|typing"),
))
# Kinds a heading names precisely; "added", "changed" and "other" are what containers say too
# ("What's Changed > Fixes" is fixed, "Compatibility notes > linalg.norm return type changes" removed).
STRONG = frozenset({"removed", "deprecated", "security", "performance", "fixed", "docs"})
_WORDS = lazy_compile(r"[^\w' -]+")


def kind_of(heading: str) -> str | None:
    """The kind a section heading names ("Bug fixes" -> "fixed"), or None ("np.cbrt for floats")."""
    text = " ".join(_WORDS.sub(" ", heading.lower().replace("’", "'")).split())
    for kind, pattern in _RULES:
        if pattern.search(text):
            return kind
    return None


# Tag words that name a kind no heading would (SQLAlchemy's "usecase": a use case newly supported).
_TAG_ALIASES = {"usecase": "added"}


def tags_kind(tags) -> str | None:
    """The kind a change's tags name ("bug, orm" -> fixed, "typing, feature" -> added): the first
    precise kind (fixed, removed, ...), else "added", else the first kind named; the other tags name
    areas ("orm", "postgresql")."""
    kinds = [k for k in (_TAG_ALIASES.get(t.strip().lower()) or kind_of(t) for t in tags if t.strip()) if k]
    strong = [k for k in kinds if k in STRONG]
    return (strong or [k for k in kinds if k == "added"] or kinds or [None])[0]


def section_kind(headings: tuple[str, ...], outer: str | None = None) -> str | None:
    """The kind of a section from its headings under the release, outermost first: the deepest
    precise kind (fixed, removed, ...) if any heading names one, else the deepest kind named,
    else "other" ("Libraries"); None when there is no heading (text right under the release).
    ``outer`` is the kind of the whole document, named before its first heading (matplotlib's
    api_changes_3.10.0/deprecations.rst is "deprecated")."""
    if not headings and outer is None:
        return None
    kinds = ([outer] if outer else []) + [k for k in map(kind_of, headings) if k is not None]
    strong = [k for k in kinds if k in STRONG]
    return strong[-1] if strong else (kinds[-1] if kinds else "other")


def check_kinds(names) -> tuple[str, ...]:
    """Kinds as the vocabulary spells them, each once, in the order given.

    Raises:
        ValueError: a name is no kind (``check_kind``).
    """
    return tuple(dict.fromkeys(check_kind(n) for n in names))


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
