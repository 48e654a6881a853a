"""Whether a question asks which release did something ("which release added X?", "since which Express 4
release ...", "when did ...", "what's the minimum X version ..."), not another thing's version ("what cuDNN
version does 2.14 use"), and the series of releases it asks within ("which pydantic 1.x release")."""

from __future__ import annotations

import re

from corpus.regex import lazy_compile

from .called import called
from .changes import asks_last


_WHICH_RELEASE = lazy_compile(
    # "which Express 4 release", "which 2.0 release", "which pydantic 1.x release": a series the release is of
    r"\b(?:which|what)\s+(?:(?:old|older|oldest|early|earlier)\s+)?(?:(?P<word>[\w.-]+)\s+)?"
    r"(?:(?P<series>v?\d+(?:\.\d+)?(?:\.x)?)\s+)?(?:release|version)s?\b|\bsince when\b"
    # "what was the first pyopenssl release that could negotiate TLS 1.1?"
    # "what's the minimum typing_extensions version I need to import TypeIs?"
    r"|\b(?:(?:which|what)\s+(?:was|is)|what['\u2019]s)\s+the\s+(?:first|earliest|minimum|oldest|lowest)\s+"
    r"(?:(?P<first>[\w.-]+)\s+)?(?:release|version)\b"
    r"|\bwhen\s+(?:did|was|were)\b|\bwhen\s+(?:could|can)\s+(?:i|we|you|one)\s+first\b"
    r"|\bfirst\s+(?:added|introduced|appeared|shipped|supported)\b"
    # "is there a release of the decorator package that supports Python 3.15?": the release that does
    r"|\b(?:(?:is|was|has)\s+there\s+(?:been\s+)?(?:a|any)|are\s+there\s+any)\s+(?:(?P<there>[\w.-]+)\s+)?"
    r"(?:release|version)s?\b(?!\s+notes?\b)(?=(?:\s+of\s+(?:the\s+)?[\w.@/-]+(?:\s+(?:package|library|module|project))?)?"
    r",?\s+(?:that|which|where|with|in\s+which|supporting|adding|dropping)\b)",
    re.IGNORECASE,
)
# what stands for the product after "of the" ("what version of the package"): no other thing's version
_ITSELF = frozenset({"package", "library", "module", "project", "tool", "app", "lib", "crate"})
_SERIES = lazy_compile(r"(?<![\w.])v?\d+\.x(?![\w.])", re.IGNORECASE)  # "which pydantic 1.x release": no topic word
_NUMBER = lazy_compile(r"v?\d+(?:\.\d+)?", re.IGNORECASE)  # "which 2.0 release": a series of the product's
# "which point release fixed it?", "which bugfix release": a release of the product
_RELEASE_WORDS = frozenset({"first", "earliest", "exact", "stable", "major", "minor", "point", "patch", "bugfix",
                            "bug-fix", "maintenance", "later", "newer"})


def which_spans(text: str, products: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where ``text`` says which release of the product it asks of, no topic word: "1.x", "4" of "which Express 4
    release", "point" of "which point release" (not "2.3" of "which Werkzeug 2.3 version": another thing's)."""
    spans = [m.span() for m in _SERIES.finditer(text)]
    for m in _asking(text, products):
        spans.extend(m.span(g) for g in ("series", "word") if m.group(g) and (g == "series" or _release_word(m.group(g))))
    return spans


def series_named(question: str, products: tuple[str, ...]) -> tuple[str, ...]:
    """The major release series a question names ("which pydantic 1.x release ..." -> ("1",), "since which
    Express 4 release" -> ("4",); not "which Werkzeug 2 version")."""
    found = [m.group(0) for m in _SERIES.finditer(question)]
    found += [m.group("series") for m in _asking(question, products) if m.group("series")]
    return tuple(dict.fromkeys(f.lower().lstrip("v").split(".")[0] for f in found))


def asks_which_release(question: str, products: tuple[str, ...]) -> bool:
    """"which release added X", "what PyTorch version ...", "since when ...", "when did ...";
    not "what cuDNN version does 2.14 use" (another thing's version)."""
    # "what was the last Babel version that still supported Python 3.7?"
    return asks_last(question) or bool(_asking(question, products))


def _asking(question: str, products: tuple[str, ...]) -> list[re.Match]:
    """The places ``question`` asks which release of a held product (``_WHICH_RELEASE``, of none other)."""
    names = called(tuple(products))
    found = []
    for m in _WHICH_RELEASE.finditer(question):
        word = (m.group("word") or m.group("there") or m.group("first") or "").lower()
        # "what version of python", "... of the docs": another thing's; "of pypa/build" names the product by
        # its repository ("owner/name"), "of the decorator package" by its name
        of = re.match(r"\s+of\s+(?:(?:the|this|that)\s+)?([\w.@/-]+)(?:\s+([`'\"][\w.@/-]+[`'\"]|[\w.@/-]+(?=\s+(?:package|module"
                      r"|library|project)\b)))?", question[m.end():])
        if of and not _of_itself(of.group(1), of.group(2), names):
            continue
        word = re.sub(r"\.py$", "", word)  # "which jmespath.py version": the product by its repository's name
        if not word or word in names or _release_word(word) or _joined(word, names):
            found.append(m)
    return found


def _of_itself(first: str, second: str | None, names: frozenset[str]) -> bool:
    """Whether "which version of <first> <second>" names the product: by its name or repository, as "the
    package", or by its name after its owner's, quoted or called a module ("of the mrab `regex` module"; not
    "of cuDNN does torch use", "of urllib3 requests requires")."""
    own = lambda word: word.lower().rstrip("/").rsplit("/", 1)[-1] in names | _ITSELF  # noqa: E731
    return own(first) or (second is not None and first.lower() not in _NOT_OWNER and own(second.strip("`'\"")))


def _release_word(word: str) -> bool:
    """Whether ``word`` says which release of the product ("point", "2.0", "1.x"), no thing of its topic."""
    return word.lower() in _RELEASE_WORDS or bool(_SERIES.fullmatch(word) or _NUMBER.fullmatch(word))


_NOT_OWNER = frozenset("does do did is was are were has have can will would should in for with on to and or".split())


def _joined(word: str, names: frozenset[str]) -> bool:
    """Whether ``word`` joins a held product's name to another word and is no package of its own: "which
    hyper-h2 release" (h2's old name), "which mako-render version" (mako's tool); not "pytest-xdist"."""
    from .products import known

    return "-" in word and any(part in names for part in word.split("-")) and not known(word)
