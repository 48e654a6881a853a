"""The product of release notes whose headings do not name it: from a project file beside them
(pyproject.toml, package.json, Cargo.toml, an unpacked archive's PKG-INFO), else from the folder
they sit in; and the release a folder named by a version gives its files (matplotlib's
``api_changes_3.10.0/``)."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from .metadata import Identity, read_identity, valid_product  # noqa: F401 (valid_product: imported from here too)
from .regex import lazy_compile
from .versions import VERSION, detect_product, product_names

# Folders that say what a file is, not whose: their parent names the project
# (numpy/doc/source/release/2.3.0-notes.rst -> numpy).
GENERIC_FOLDERS = frozenset({
    "release", "releases", "release-notes", "release_notes", "releasenotes", "changelog", "changelogs",
    "change_log", "change-log",  # Python-Markdown's docs/change_log/
    "changes", "news", "notes", "history", "whatsnew", "whats-new", "docs", "doc", "source", "src",
    "data", "tests", "test", "api",
    "www", "site", "sites", "website",  # invoke's sites/www/changelog.rst: the project's web site
})
# Words that qualify a generic word in a folder's name ("prev_api_changes", "next_api_changes"): what
# the folder holds, still not whose.
QUALIFIERS = frozenset({"prev", "previous", "old", "older", "past", "next", "upcoming", "all"})
# A name ending in a version: a release folder ("api_changes_3.10.0", "v2.1") or an unpacked archive ("mypy-2.3.0").
_VERSIONED = lazy_compile(r"^(.*?)[-_ ]?v?" + VERSION + r"$", re.IGNORECASE)
# Folders that name a place, not a project: a file in ~/Downloads is nobody's "Downloads".
PLACE_FOLDERS = frozenset({
    "downloads", "desktop", "documents", "tmp", "temp", "home", "users", "root", "var", "srv", "opt", "mnt",
    "work", "projects", "code", "repos", "git", "share",
})
# Locale folders of translated docs (pytest's doc/en/changelog.rst): what language, not whose.
LOCALES = frozenset("en de fr es it ja zh ko ru pt pl nl sv tr uk cs fa ar he hi id vi th el da fi no hu ro".split())
PROJECT_FILES = ("pyproject.toml", "package.json", "Cargo.toml", "PKG-INFO")
PROJECT_DEPTH = 3  # parents above the file's folder searched for a project file (never the home folder or above)


def root_of(path: Path, relative: str) -> Path:
    """The corpus root a file was found under, from its path and its path relative to the root
    (a file given directly: its folder)."""
    return path.parents[len(PurePosixPath(relative).parts) - 1]


def product_near(path: Path, root: Path) -> str | None:
    """The product of the file at ``path`` (found under ``root``) from what is around it.

    A project file's name comes first: ``[project].name`` of pyproject.toml, ``name`` of
    package.json, ``[package].name`` of Cargo.toml, in the file's folder and up to two parents,
    never above ``root``. Else the name of the folder the file sits in, a generic one
    (release, docs, changelog, ...) skipped for its parent; the walk goes at most one folder
    above ``root`` (``--corpus numpy/release`` is numpy's). A known product keeps its spelling
    (``numpy`` -> ``NumPy``). None when nothing names one.
    """
    found = project_near(path, root)
    return found.name if found else None


def project_near(path: Path, root: Path) -> Identity | None:
    """The product of the file at ``path`` (as ``product_near``) with the other names its
    project file's metadata gives it (``corpus.metadata``: Python-Markdown for markdown); a
    product from a folder's name has none."""
    folder, root = path.parent, Path(root)
    project = _project_product(folder, root)
    if project is not None:
        return Identity(canonical(project.name), project.names)
    found = _folder_product(folder, root)
    return Identity(canonical(found)) if found else None


def canonical(name: str) -> str:
    """A project's name as the known products spell it ("numpy" -> "NumPy", "torch" -> "PyTorch"),
    so a folder's name and the titles beside it name one product; other names as they are."""
    known = detect_product(name)
    return known if known and name.lower() in product_names(known) else name


def project_files(folder: Path) -> list[Path]:
    """Where a project file naming the notes in ``folder`` may be, nearest first: the folder and up
    to ``PROJECT_DEPTH`` parents (release folders not counted), never the home folder or above."""
    places, depth = [], 0
    for where in (folder, *folder.parents):
        if depth > PROJECT_DEPTH:
            break
        places.extend(where / name for name in PROJECT_FILES)
        if _at_or_above_home(where.parent):
            break
        depth += release_folder(where.name) is None  # a release folder is part of the notes, not a level up
    return places


def _project_product(folder: Path, root: Path) -> Identity | None:
    return next(filter(None, map(read_identity, project_files(folder))), None)


def generic(name: str) -> bool:
    """Whether a folder's name says what it holds, not whose: "docs", "release", "prev_api_changes"."""
    words = [w for w in re.split(r"[-_. ]+", name.lower()) if w]
    return name.lower() in GENERIC_FOLDERS or (any(w in GENERIC_FOLDERS for w in words)
                                               and all(w in GENERIC_FOLDERS or w in QUALIFIERS for w in words))


def release_folder(name: str) -> str | None:
    """The release a folder's name gives the notes in it: a version alone or after generic words
    ("api_changes_3.10.0" -> "3.10.0", "v2.1" -> "2.1"); None for any other name ("mypy-2.3.0" is
    an unpacked mypy, not a release of its notes)."""
    m = _VERSIONED.match(name)
    return m.group(2) if m and (not m.group(1) or generic(m.group(1))) else None


def _at_or_above_home(folder: Path) -> bool:
    """Whether ``folder`` is the user's home folder or one of its ancestors (no project's folder)."""
    try:
        home = Path.home().absolute()
    except (RuntimeError, KeyError):
        return False
    folder = folder.absolute()
    return folder == home or folder in home.parents


def _within(folder: Path, root: Path) -> bool:
    return folder == root or root in folder.parents


def _folder_product(folder: Path, root: Path) -> str | None:
    folder, root = folder.absolute(), root.absolute()
    for where in (folder, *folder.parents):
        if _at_or_above_home(where) or where.name.lower() in PLACE_FOLDERS:
            return None  # ~/notes/CHANGELOG.md is nobody's "alice", ~/Downloads/CHANGELOG.md nobody's "Downloads"
        if (where.name and valid_product(where.name) and not generic(where.name) and not release_folder(where.name)
                and where.name.split("_")[0].split("-")[0].lower() not in LOCALES):  # "en", "pt_BR": a locale
            unpacked = _VERSIONED.match(where.name)  # "celery-5.4.0": an unpacked archive of celery
            return unpacked.group(1) if unpacked and unpacked.group(1) and valid_product(unpacked.group(1)) \
                else where.name
        if where == root.parent or not _within(where, root):
            break
    return None
