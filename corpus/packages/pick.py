"""Which files of a package archive are its release notes: rules on paths and text, no list of projects.

Kept:
- a file at the archive's root named CHANGES*, CHANGELOG*, HISTORY*, VERSIONHISTORY*, NEWS*,
  RELEASE(S)*, RELEASE-NOTES*, WHATSNEW* (``.md``, ``.markdown``, ``.rst``, ``.txt`` or no extension);
- under a docs tree (``doc/``, ``docs/``, ``documentation/``): a file named that way at any
  depth (``docs/changelog.rst``, ``doc/en/changelog.rst``), and in a folder of one file per
  release (``releases/``, ``release/``, ``releasenotes/``, ``history/``, ``prev_whats_new/``,
  ``prev_api_changes/``, ...) each file whose name, or whose folder's name, holds a version
  (``docs/releases/5.1.txt``, ``doc/source/release/2.3.0-notes.rst``, ``api_changes_3.9.0/behavior.rst``).
Left out, and said why: a stub that only includes or points elsewhere (``.. include::
../CHANGES.rst``, "The changelog is at https://..."), a toctree of other files, a file whose text
repeats one already kept, and unreleased fragments (``changelog.d/``, ``newsfragments/``,
``unreleased_*``, ``next_whats_new/``, ``upcoming_changes/``, ``123.bugfix.rst``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from ..regex import lazy_compile
from .model import NotesFile, Skipped

# A name, then at most a version ("changelog-5.0", "whatsnew_20"): "release-process", "release_guide" are not notes.
RULES = 3  # bump when the rules below change: a version picked by older rules is fetched again
# 3: "versionhistory" (agronholm's docs/versionhistory.rst: anyio, typeguard, apscheduler)
NOTES_NAME = lazy_compile(
    r"^(changelog|changes|change[-_]log|history|version[-_]?history|news|release[-_]?notes|releases?|whats[-_]?new)"
    r"([-_.]?v?\d[\w.-]*)?$", re.I)
NOTES_FOLDER = lazy_compile(
    r"^(releases?|release[-_]?notes|changelogs?|changes|history|news|whats[-_]?new|prev[-_]whats[-_]new|"
    r"prev[-_]api[-_]changes|api[-_]changes.*)$", re.I)
FRAGMENT_FOLDER = lazy_compile(
    r"^(.+\.d|news[-_]?fragments|changelog[-_]fragments|fragments|unreleased.*|next[-_]whats[-_]new|"
    r"next[-_]api[-_]changes|upcoming[-_]changes)$", re.I)
FRAGMENT_FILE = lazy_compile(
    r"^[+\w-]*\d+\.(feature|bugfix|bug|doc|docs|removal|misc|breaking|deprecation|trivial|improvement|vendor|"
    r"process|packaging|contrib|security|change|fix|added|changed|removed|fixed|perf|performance|api|compat|"
    r"highlight|expired|new_feature|c_api|deprecated|internal|other)(\.\d+)?\.(rst|md|txt)$", re.I)
DOCS_TREES = frozenset({"doc", "docs", "documentation", "doc-src"})
NEVER = frozenset({"tests", "test", "testing", "node_modules", "vendor", "_vendor", "vendored", "third_party",
                   "site-packages", "examples", "example", "benchmarks", ".github", "fixtures"})
SUFFIXES = frozenset({".md", ".markdown", ".rst", ".txt", ""})
VERSION = lazy_compile(r"\d+[._]\d+")
STUB_WORDS = 40  # a file with at most this many words of its own that includes or points elsewhere is a stub
DIRECTIVE = lazy_compile(r"^\.\.\s+([\w:-]+)::")
SKIPPED_DIRECTIVES = frozenset({"include", "literalinclude", "mdinclude", "toctree"})
UNDERLINE = lazy_compile(r"^\s*([=\-~^\"'`#*+.:_])\1{2,}\s*$")
MD_HEADING = lazy_compile(r"^\s{0,3}#{1,6}\s")
URL = lazy_compile(r"https?://[^\s)<>\]`]+|<[^>]+>`_")
INCLUDE = lazy_compile(r"^\.\.\s+(include|literalinclude|mdinclude|toctree)::|\{include\}|\{toctree\}", re.M)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A member that may be notes, and the path it is kept under (relative to the notes folder)."""

    member: str
    path: str


def strip_top(names: list[str]) -> tuple[str, list[str]]:
    """The folder every member sits in (``flask-3.0.0``, npm's ``package``) and the names under it."""
    parts = [PurePosixPath(n).parts for n in names]
    tops = {p[0] for p in parts if len(p) > 1}
    if len(tops) == 1 and all(len(p) > 1 for p in parts):
        return tops.pop(), ["/".join(p[1:]) for p in parts]
    return "", list(names)


def candidates(names: list[str]) -> tuple[list[Candidate], list[tuple[str, str]]]:
    """The members (paths inside the archive) that may be notes, and those left out as fragments (with why)."""
    top, relative = strip_top(names)
    kept, fragments = [], []
    for member, rel in zip(names, relative):
        path = PurePosixPath(rel)
        folders = [p.lower() for p in path.parts[:-1]]
        if path.suffix.lower() not in SUFFIXES or any(f in NEVER or f.startswith(".") for f in folders):
            continue
        if _root_notes(path) or _docs_notes(path, folders):
            fragment = next((f for f in path.parts[:-1] if FRAGMENT_FOLDER.match(f)), None)
            if fragment or FRAGMENT_FILE.match(path.name):
                fragments.append((member, f"an unreleased fragment ({fragment or path.name})"))
                continue
            kept.append(Candidate(member, rel if path.suffix else rel + ".txt"))
        elif folders and (folders[0] in DOCS_TREES or len(folders) == 1) and (
                fragment := next((f for f in path.parts[:-1] if FRAGMENT_FOLDER.match(f)), None)
                or (FRAGMENT_FILE.match(path.name) and path.parts[-2])):
            fragments.append((member, f"an unreleased fragment ({fragment}/)"))
    kept.sort(key=lambda c: (c.path.count("/"), c.path))  # root files first: of two copies, the root's is kept
    return kept, fragments


def _root_notes(path: PurePosixPath) -> bool:
    return len(path.parts) == 1 and bool(NOTES_NAME.match(_stem(path.name)))


def _stem(name: str) -> str:
    for suffix in (".markdown", ".md", ".rst", ".txt"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def _docs_notes(path: PurePosixPath, folders: list[str]) -> bool:
    if not folders or folders[0] not in DOCS_TREES:
        return False
    if NOTES_NAME.match(_stem(path.name)):
        return True
    for depth, folder in enumerate(path.parts[1:-1], 1):
        if NOTES_FOLDER.match(folder):
            below = path.parts[depth + 1:]  # the file, or a release's folder and the file
            return bool(VERSION.search(below[0])) and len(below) <= 2
    return False


def stub_reason(text: str) -> str | None:
    """Why ``text`` is a stub rather than notes (it only includes or points elsewhere), or None."""
    words, body = _own_words(text)
    if words > STUB_WORDS:
        return None
    included = INCLUDE.search(text)
    if included:
        target = text[included.end():].split("\n", 1)[0].strip()
        return f"a stub that includes {target or 'other files'}" if "toctree" not in included.group(0) else \
            "a table of contents of other files"
    if URL.search(body) and not VERSION.search(URL.sub("", text)):
        return "a stub that points elsewhere (" + URL.search(body).group(0).strip("<>`_") + ")"
    if words == 0:
        return "no text of its own"
    return None


def _own_words(text: str) -> tuple[int, str]:
    """How many words ``text`` has outside headings, underlines and directives, and that text."""
    kept, in_directive, lines = [], False, text.splitlines()
    for number, line in enumerate(lines):
        directive = DIRECTIVE.match(line)
        if line.startswith(".. ") and (not directive or directive.group(1) in SKIPPED_DIRECTIVES):
            in_directive = True  # a comment, target, include or toctree: its body is not the file's own text
            continue
        if directive:  # ".. changelog::", ".. note::": the body is text of its own
            in_directive = False
            continue
        if in_directive and (not line.strip() or line[:1].isspace()):
            continue
        in_directive = False
        following = lines[number + 1] if number + 1 < len(lines) else ""
        if UNDERLINE.match(line) or UNDERLINE.match(following) or MD_HEADING.match(line):
            continue
        kept.append(line)
    body = "\n".join(kept)
    return len(URL.sub(" ", body).split()), body


def fingerprint(data: bytes) -> str:
    """A file's text with its line endings and outer spaces evened out, hashed (one copy kept of each)."""
    return hashlib.sha256(b"\n".join(line.strip() for line in data.splitlines()).strip()).hexdigest()


def notes(members: list[Member], read,
               links: list[tuple[str, str]] = ()) -> tuple[list[tuple[NotesFile, bytes]], list[Skipped]]:
    """The notes files among ``members`` (the rules above), with their bytes, and what was left out
    and why (``links``: the links inside the archive, never followed)."""
    by_name = {m.name: m for m in members}
    chosen, fragments = candidates(list(by_name))
    files: list[tuple[NotesFile, bytes]] = []
    skipped = [Skipped(member, why) for member, why in [*links, *fragments]]
    seen: dict[str, str] = {}
    for candidate in chosen:
        data = read(by_name[candidate.member])
        reason = stub_reason(data.decode("utf-8", "replace"))
        same = seen.get(fingerprint(data))
        if reason or same:
            skipped.append(Skipped(candidate.member, reason or f"the same text as {same}"))
            continue
        seen[fingerprint(data)] = candidate.path
        files.append((NotesFile(candidate.path, candidate.member), data))
    return files, skipped
