"""The source repository a package's metadata names: npm's ``repository`` (with ``directory``, a
monorepo's package folder: facebook/react's ``packages/react``), PyPI's project URLs (Source,
Repository, Code, Changelog, Homepage). Only GitHub repositories are read (their files and
releases over HTTPS); another host is named in the reason none was read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from ..regex import lazy_compile
from .model import Published

# https://github.com/o/r(.git), git+https://..., git://..., ssh://git@github.com/o/r, git@github.com:o/r.git
_GITHUB = lazy_compile(r"^(?:git\+)?(?:https?|git|ssh)?:?/*(?:[\w.-]+@)?(?:www\.)?github\.com[/:]([\w.-]+)/([\w.-]+?)"
                       r"(?:\.git)?(?:/(tree|blob)/([^/#?]+)/?([^#?]*))?/?(?:[#?].*)?$", re.I)
_SHORT = lazy_compile(r"^(?:github:)?([\w.-]+)/([\w.-]+?)(?:\.git)?(?:#.*)?$")
NOT_OWNERS = frozenset({"sponsors", "orgs", "users", "features", "marketplace", "topics", "apps", "about"})
SOURCE_LABELS = ("source", "source code", "repository", "code", "github", "git", "homepage", "home", "changelog",
                 "changes", "release notes", "history", "issues", "bug tracker", "documentation")
CHANGELOG_RANKS = frozenset(range(SOURCE_LABELS.index("changelog"), SOURCE_LABELS.index("issues")))


@dataclass(frozen=True, slots=True)
class Repository:
    """A GitHub repository, the package's folder in it ("" at its root), and a file the metadata
    points at (a Changelog URL into the repository: ``blob/main/CHANGES.md``)."""

    owner: str
    name: str
    directory: str = ""
    file: str = ""

    @property
    def slug(self) -> str:
        return f"{self.owner}/{self.name}"


def github_repository(url: str) -> tuple[str, str, str, str] | None:
    """(owner, name, "tree"|"blob"|"", path) of a GitHub URL or ``owner/name`` shorthand, else None."""
    text = url.strip()
    match = _GITHUB.match(text)
    if match:
        owner, name = match.group(1), match.group(2)
        kind, path = match.group(3) or "", (match.group(5) or "").strip("/")
    else:
        match = _SHORT.match(text) if "://" not in text and "@" not in text.split("/")[0] else None
        if not match:
            return None
        owner, name, kind, path = match.group(1), match.group(2), "", ""
    if owner.lower() in NOT_OWNERS:
        return None
    return owner, name, kind, path


def _clean_directory(directory: str | None) -> str:
    """A monorepo folder as a clean relative path ("" when absent or unsafe: ``..``, absolute)."""
    if not directory:
        return ""
    path = PurePosixPath(directory.replace("\\", "/").strip())
    if path.is_absolute() or ".." in path.parts:
        return ""
    return "/".join(p for p in path.parts if p not in (".", ""))


def repository_of(release: Published) -> tuple[Repository | None, str]:
    """The GitHub repository of ``release``'s metadata, or None and why none."""
    if release.repository:
        found = github_repository(release.repository)
        if found:
            owner, name, kind, path = found
            return Repository(owner, name, _clean_directory(release.directory or (path if kind == "tree" else ""))), ""
        return None, f"its repository ({release.repository}) is not on GitHub; only GitHub repositories are read"
    ranked = sorted(release.project_urls, key=lambda pair: _rank(pair[0]))
    others = []
    for label, url in ranked:
        found = github_repository(url) if "github.com" in url.lower() else None
        if found is None:
            others.append(url)
            continue
        owner, name, kind, path = found
        pointed = [g[3] for lab, u in release.project_urls if _rank(lab) in CHANGELOG_RANKS
                   and (g := github_repository(u)) and g[:2] == (owner, name) and g[2] == "blob"]
        return Repository(owner, name, _clean_directory(path if kind == "tree" else ""),
                          _clean_directory(pointed[0]) if pointed else ""), ""
    if others:
        return None, "its metadata names no GitHub repository (" + ", ".join(others[:3]) + ")"
    return None, "its metadata names no source repository"


def _rank(label: str) -> int:
    words = re.sub(r"[\s_-]+", " ", label).strip().lower()
    return next((n for n, w in enumerate(SOURCE_LABELS) if words == w or words.startswith(w)), len(SOURCE_LABELS))
