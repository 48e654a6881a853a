"""Release versions and product names found in titles, headings and file names."""

from __future__ import annotations

import re

from .regex import lazy_compile

# A version, wherever one is read (headings, titles, questions): two or more dotted numbers, then
# an optional pre-release or post-release tag (b1, rc2, -alpha.2, .dev3, .post1, and the old "final
# candidate", feedparser's 3.0fc1, and "c", PEP 440's other spelling of rc, dnspython's 1.1.0c1) or a pre-release number alone, as npm's first pre-release of a
# version is written (handlebars' 4.1.2-0; not "0.10.6-0.10.9", a range), or a semver tag of other
# words ending in a dot and its number (rxjs' 0.0.0-prealpha.3 and 6.0.0-uncanny-rc.7, each a
# release of its own; "3.8-only" stays 3.8); one group.
VERSION = (r"(\d+(?:\.\d+)+(?:(?:[-.]?(?:a|b|rc|fc|c|alpha|beta|pre|dev|post)\.?\d*)(?![A-Za-z])|-\d+(?![\w.])"
           r"|-[A-Za-z][A-Za-z-]*\.\d+(?![\w.]))?)")
_ANY_VERSION = lazy_compile(r"(?<![\w.])v?" + VERSION + r"(?![\w]|\.\d)", re.IGNORECASE)
_PRE = lazy_compile(r"^[-.]?(a|alpha|b|beta|pre|rc|fc|c|dev|post)\.?(\d*)$", re.IGNORECASE)
_PRE_RANK = {"dev": -1, "a": 0, "alpha": 0, "b": 1, "beta": 1, "pre": 2, "c": 2, "rc": 2, "fc": 2, "post": 9}

_PRODUCTS = {
    "pytorch": "PyTorch",
    "torch": "PyTorch",
    "rust": "Rust",
    "pydantic": "pydantic",
    "python": "Python",
    "numpy": "NumPy",
    "django": "Django",
}


def product_names(product: str) -> frozenset[str]:
    """The lower-case words that name ``product`` on their own: its name and its known aliases
    ("PyTorch" -> pytorch, torch). A prefix cut from a name is not one ("right" is no Pyright)."""
    name = product.lower()
    return frozenset({name, *(alias for alias, known in _PRODUCTS.items() if known.lower() == name)})


def parse_version(s: str) -> str | None:
    """The first release version in ``s`` ("PyTorch 2.14 Release Blog" -> "2.14"), without "v"."""
    m = _ANY_VERSION.search(s.replace("_", " "))
    return m.group(1) if m else None


def _split(v: str) -> tuple[tuple[int, ...], tuple[int, int] | None]:
    """Numeric release parts and an optional (rank, number) pre-release tag."""
    m = re.match(r"v?(\d+(?:\.\d+)*)(.*)$", v.strip(), re.IGNORECASE)
    if not m:
        raise ValueError(f"not a version: {v!r}")
    nums = tuple(int(p) for p in m.group(1).split("."))
    tail = m.group(2)
    if not tail:
        return nums, None
    pm = _PRE.match(tail)
    if not pm:  # a tag of other words ("-prealpha.3"): before every known one, in its number's order
        last = re.search(r"(\d+)$", tail)
        return nums, (-2, int(last.group(1)) if last else 0)
    return nums, (_PRE_RANK[pm.group(1).lower()], int(pm.group(2) or 0))


def version_key(v: str) -> tuple:
    """A sort key that orders versions as versions: 2.9 < 2.10, 2.14.0b1 < 2.14.0 < 2.14.0.post1."""
    nums, pre = _split(v)
    padded = nums + (0,) * max(0, 4 - len(nums))
    if pre is None:
        return (padded, (5, 0))
    return (padded, pre) if pre[0] != 9 else (padded, (9, pre[1]))


def version_matches(chunk_version: str | None, wanted: str) -> bool:
    """Whether a chunk of ``chunk_version`` answers for ``wanted``.

    A wanted version of one or two parts ("2.13") matches its whole series (2.13, 2.13.0,
    2.13.1, 2.13.0rc1); a longer one ("2.13.1") matches only itself, trailing zeros aside
    ("2.13" == "2.13.0"). A pre-release in ``wanted`` must match exactly.
    """
    if not chunk_version:
        return False
    try:
        c_nums, c_pre = _split(chunk_version)
        w_nums, w_pre = _split(wanted)
    except ValueError:
        return False
    if len(w_nums) <= 2 and w_pre is None:
        padded = c_nums + (0,) * max(0, len(w_nums) - len(c_nums))
        return padded[: len(w_nums)] == w_nums
    width = max(len(c_nums), len(w_nums))
    pad = lambda t: t + (0,) * (width - len(t))  # noqa: E731
    return pad(c_nums) == pad(w_nums) and c_pre == w_pre


# Words a file's name joins to its product's ("rust-RELEASES", "pydantic-HISTORY"): about the notes, no other name.
_NOTES_WORDS = frozenset("release releases notes note changelog changes change log news history blog docs whatsnew whats "
                          "new security lang nightly stable latest dev old older legacy all full upgrade upgrading "
                          "migration guide announcement announcements main master doc edition".split())
_NOTES_VERSION = lazy_compile(r"v?\d[\w.]*|v")  # "pytorch-v2": a version of the product's, no other name


def detect_product(title: str) -> str | None:
    """The product a title is about ("PyTorch 2.14 Release Blog" -> "PyTorch"), else None. A known
    name that starts or ends a name joined by hyphens names another project ("python-markdown2 Changelog",
    "django-cors-headers", "cookiecutter-django"), unless the word joined to it says what the file is
    ("rust-RELEASES", "changelog-rust-mini")."""
    for joined in re.findall(r"[A-Za-z][A-Za-z0-9+]*(?:-[A-Za-z][A-Za-z0-9+]*)*", title.replace("_", " ")):
        words = joined.lower().split("-")
        for at, word in enumerate(words):
            known = _PRODUCTS.get(word)
            beside = words[1] if at == 0 and len(words) > 1 else words[-2] if at == len(words) - 1 and at else None
            if known and (beside is None or beside in _NOTES_WORDS or _NOTES_VERSION.fullmatch(beside)):
                return known
    m = re.match(r"^\s*([A-Z][\w+-]*)\s+v?\d+\.\d+", title)
    if m and m.group(1).lower() not in ("version", "release", "v"):
        return m.group(1)
    return None


def after(version: str, since: str) -> bool:
    """Whether ``version`` is a later release than ``since``; a bound of one or two parts
    ("1.10") stands for its whole series, so 1.10.13 is not after 1.10."""
    return not version_matches(version, since) and version_key(version) > version_key(since)


def up_to(version: str, until: str, inclusive: bool = True) -> bool:
    """Whether ``version`` is no later than ``until`` (its series included when ``inclusive``:
    "up to 2.0" holds 2.0.2; "before 2.0" holds neither 2.0 nor 2.0b1)."""
    if version_matches(version, until):
        return inclusive
    return version_key(version) < version_key(until)
