"""The names a distribution's own metadata gives its product, beside the name it is held under:
Python-Markdown for ``markdown`` (its repository github.com/Python-Markdown/markdown),
``pyca/cryptography`` for ``cryptography``, ``dateutil`` for ``python-dateutil``,
``@scope/pkg`` for npm's ``pkg``.

Read from a project file (core metadata's PKG-INFO, pyproject.toml, package.json, Cargo.toml) or
from what a package index publishes: the name itself in its other spellings (PEP 503: ``-``,
``_`` and ``.`` are one), and the repositories its URLs name (Home-page, Project-URL, npm's
``repository``, ``homepage`` and ``bugs``, Cargo's ``repository``). A repository names the product
only where it is the product's own, by its name:

- ``owner/name`` and ``name`` when the repository's name is the product's, give or take a
  language (``python-``, ``py``, ``-python``, ``.py``, ``js``, ``node-``) or a trailing major
  (jinja for Jinja2): pyca/cryptography, dateutil/dateutil, msgpack/msgpack-python. A monorepo
  (babel/babel for ``@babel/core``, Azure/azure-sdk-for-python) names no one package of it;
- the owner when its name is the product's (with a language) or holds it as a word:
  Python-Markdown, python-attrs, vuejs; not pyca, pallets or encode, which own many products
  (a ``<owner>.github.io`` home page counts as the owner).

The Summary is prose and gives no names: Markdown's "Python implementation of John Gruber's
Markdown." names the format and its author, cryptography's "cryptography is a package which
provides cryptographic recipes and primitives to Python developers" only itself; reading names
out of prose would accept "Gruber" or "Python".
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .regex import lazy_compile

# https://github.com/o/r(.git)(/...), git+https://, git://, ssh://git@host/o/r, git@host:o/r.git
_HOSTED = lazy_compile(r"^(?:git\+)?(?:[a-z]+:)?/*(?:[\w.-]+@)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|"
                       r"codeberg\.org)[/:]([\w.-]+)/([\w.-]+?)(?:\.git)?(?:[/#?].*)?$", re.I)
_SHORTHAND = lazy_compile(r"^(?:github:|gitlab:|bitbucket:)?([\w.-]+)/([\w.-]+?)(?:\.git)?(?:#.*)?$")
_PAGES = lazy_compile(r"^https?://([\w-]+)\.(?:github|gitlab)\.io(?:[/#?].*)?$", re.I)
_SEPARATORS = lazy_compile(r"[-_.]+")
_LANGUAGE = ("python", "py", "js", "node", "rs", "rust")
NOT_OWNERS = frozenset({"sponsors", "orgs", "users", "features", "marketplace", "topics", "apps", "about", "www"})


@dataclass(frozen=True, slots=True)
class Identity:
    """A product's name as its metadata gives it, and its other names (``other_names``)."""

    name: str
    names: tuple[str, ...] = ()


def other_names(name: str, urls: Iterable[str] = ()) -> tuple[str, ...]:
    """The other names of the product ``name`` its metadata ``urls`` and spelling give (see the
    module docstring), each once, as written; never ``name`` itself (a scoped npm name is
    returned for the bare name a package.json's product is held as)."""
    scoped = name.startswith("@") and "/" in name
    bare = name[1:].split("/", 1)[1] if scoped else name
    # npm's "@scope/pkg" (held as "pkg" from a package.json) goes by its scoped name, never by "pkg"
    # alone elsewhere ("@sveltejs/kit": "kit" is anybody's); another name by its other spellings
    found = [name, name[1:]] if scoped else [_SEPARATORS.sub("-", name), _SEPARATORS.sub("_", name)]
    key = _key(bare)
    for url in urls:
        if not isinstance(url, str):
            continue
        url = url.strip()
        page = _PAGES.match(url)
        if page and _owner_names(page.group(1), key):
            found.append(page.group(1))
            continue
        hosted = _HOSTED.match(url) or (_SHORTHAND.match(url) if "://" not in url and "@" not in url[:1] else None)
        if not hosted:
            continue
        owner, repo = hosted.group(1), hosted.group(2)
        if owner.lower() in NOT_OWNERS:
            continue
        own_repo, own_owner = _same(_key(repo), key), _owner_names(owner, key)
        if own_repo or own_owner:
            found.append(f"{owner}/{repo}")
        if own_repo and not scoped:
            found.append(repo)
        if own_owner:
            found.append(owner)
    seen = {bare.lower()}
    out = []
    for other in found:
        if other and other.lower() not in seen:
            seen.add(other.lower())
            out.append(other)
    return tuple(out)


def _key(name: str) -> str:
    return _SEPARATORS.sub("-", name.lower())


def _same(repo: str, name: str) -> bool:
    """Whether a repository's name (normalised) is the product's, give or take a language or a
    trailing major ("msgpack-python" for msgpack, "dateutil" for python-dateutil, "jinja" for jinja2)."""
    return bool(name) and (_strip(repo) == _strip(name) or _strip(repo) == _strip(name).rstrip("0123456789"))


def _strip(name: str) -> str:
    """A name without a language said before or after it ("python-dateutil" -> "dateutil", "vuejs" -> "vue")."""
    for lang in _LANGUAGE:
        for before in (f"{lang}-", lang):
            if name.startswith(before) and len(name) > len(before) + 2:
                name = name[len(before):]
                break
        for after in (f"-{lang}", f".{lang}", lang):
            if name.endswith(after) and len(name) > len(after) + 2:
                name = name[: -len(after)]
                break
    return name.strip("-")


def _owner_names(owner: str, name: str) -> bool:
    """Whether a repository owner is named after the product: its name with a language, or holding
    it as whole words ("Python-Markdown" for markdown, "pytest-dev" for pytest; not "pyca")."""
    owner = _key(owner)
    if _same(owner, name) and owner != name:
        return True
    words, wanted = owner.split("-"), name.split("-")
    return len(words) > len(wanted) and any(words[i: i + len(wanted)] == wanted for i in range(len(words)))


def read_identity(path: Path) -> Identity | None:
    """The product a project file names and its other names; None when absent, unreadable or
    malformed (a broken neighbour file is not the corpus's problem)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return identity_of(path.name, text)


PROJECT_FILES = ("PKG-INFO", "package.json", "pyproject.toml", "Cargo.toml")  # most telling first


def identity_of(filename: str, text: str) -> Identity | None:
    """The product and other names of the project file ``filename`` (one of ``PROJECT_FILES``)
    holding ``text``; None when it names none or is malformed."""
    try:
        if filename == "PKG-INFO":
            return pkg_info_identity(text)
        if filename == "package.json":
            return package_json_identity(json.loads(text))
        if filename not in ("pyproject.toml", "Cargo.toml"):
            return None
        try:  # here, not at the top: a project file is rarely read, and the import is ~5 ms of a question
            import tomllib
        except ModuleNotFoundError:  # Python 3.10 has no TOML reader: pyproject.toml and Cargo.toml are skipped
            return None
        data = tomllib.loads(text)
    except ValueError:  # json.JSONDecodeError and tomllib.TOMLDecodeError are ValueErrors
        return None
    table = data.get("project" if filename == "pyproject.toml" else "package")
    if not isinstance(table, dict):
        return None
    urls = table.get("urls") if filename == "pyproject.toml" else {k: table.get(k) for k in ("repository", "homepage")}
    return _identity(table.get("name"), urls.values() if isinstance(urls, dict) else ())


def pkg_info_identity(text: str) -> Identity | None:
    """Core metadata (PKG-INFO, METADATA): ``Name``, and the URLs of ``Home-page``, ``Download-URL``
    and ``Project-URL`` ("Repository, https://github.com/o/r"), among the headers before the first blank line."""
    name, urls = None, []
    for line in text.replace("\r\n", "\n").split("\n\n", 1)[0].split("\n"):
        if line[:1] in (" ", "\t") or ":" not in line:
            continue  # a continued header (License's text), or no header
        field, value = (part.strip() for part in line.split(":", 1))
        field = field.lower()
        if field == "name" and name is None:
            name = value
        elif field in ("home-page", "download-url"):
            urls.append(value)
        elif field == "project-url":
            urls.append(value.split(",", 1)[-1].strip())
    return _identity(name, urls)


def package_json_identity(data) -> Identity | None:
    """package.json's ``name`` and the URLs of its ``repository`` (a string or ``{url}``), ``homepage``
    and ``bugs``; the product is the name without its scope ("@scope/pkg" names pkg)."""
    if not isinstance(data, dict):
        return None
    urls = [data.get("homepage")]
    for field in ("repository", "bugs"):
        value = data.get(field)
        urls.append(value.get("url") if isinstance(value, dict) else value)
    name = data.get("name")
    if not isinstance(name, str):
        return None
    identity = _identity(name, urls)
    return identity and Identity(name.strip().rsplit("/", 1)[-1], identity.names)


def valid_product(name: str) -> bool:
    """Whether ``name`` can name a product: non-empty, no surrounding space, no control characters."""
    return bool(name) and name == name.strip() and not any(
        unicodedata.category(ch).startswith("C") for ch in name
    )


def _identity(name, urls: Iterable) -> Identity | None:
    if not isinstance(name, str) or not valid_product(name.strip()):
        return None
    name = name.strip()
    return Identity(name, tuple(n for n in other_names(name, [u for u in urls if isinstance(u, str)])
                                if valid_product(n)))
