"""Find corpus files: the bundled notes, or the supported files under the paths given (a light
module: the corpus stamp lists files on every question without loading the readers)."""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from .errors import CorpusPathNotFound, NoSupportedFiles, UnreadableFile

SUPPORTED_SUFFIXES = (".md", ".markdown", ".rst", ".txt", ".json", ".jsonl", ".html", ".htm")
# npm's project files sit beside a changelog (one names its product) but are no release notes.
PROJECT_JSON = frozenset({"package.json", "package-lock.json"})


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to load: where it is, how to show it (its absolute path, so a printed citation resolves
    from any folder), and its path relative to the root given."""

    path: Path
    display: str
    relative: str


def bundled_paths() -> list[Path]:
    """The release notes shipped in ``corpus/data``, sorted by name."""
    root = Path(__file__).parent / "data"  # as importlib.resources names it, without its import (~15 ms)
    return sorted(
        (Path(str(p)) for p in root.iterdir() if _supported(p.name) and not p.name.startswith(".")),
        key=lambda p: p.name,
    )


def _supported(name: str) -> bool:
    return name.lower().endswith(SUPPORTED_SUFFIXES)


def file_key(path: Path) -> str:
    """The real path of a file, to read a file reached through two inputs once (never raises on a link loop)."""
    return os.path.realpath(path)


def discover(paths: list[Path] | None) -> list[SourceFile]:
    """Expand the given files and folders (recursively, hidden entries skipped) into files."""
    if paths is None:
        return [SourceFile(p, os.path.abspath(p), p.name) for p in bundled_paths()]
    found: list[SourceFile] = []
    seen: set[str] = set()
    for given in paths:
        given = Path(given)
        try:
            given.stat()
        except FileNotFoundError:
            raise CorpusPathNotFound(f"{given}: no such file or directory; check the --corpus path") from None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise UnreadableFile(f"{given}: a symbolic link loop; fix the link or the --corpus path") from None
            raise UnreadableFile(f"{given}: {exc.strerror or exc}; check its permissions or the --corpus path") from None
        shown = Path(os.path.abspath(given))  # printed paths resolve from any folder
        if given.is_file():
            files = [SourceFile(given, str(shown), given.name)]
        else:
            files = _walk(shown)
        for f in files:
            key = file_key(f.path)
            if key not in seen:
                seen.add(key)
                found.append(f)
    return found


def _walk(folder: Path) -> list[SourceFile]:
    """Supported files under ``folder``, sorted by relative path; an unreadable folder is an error.

    (``Path.rglob`` skips folders it cannot list without a word, which would lose their notes.)
    """

    def refuse(exc: OSError) -> None:
        where = exc.filename or folder
        raise UnreadableFile(f"{where}: cannot list the folder ({exc.strerror}); check its permissions")

    files = []
    for root, dirs, names in os.walk(folder, onerror=refuse):  # symlinked folders are not followed
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            p = Path(root) / name
            if name.startswith(".") or not _supported(name) or name in PROJECT_JSON:
                continue
            if not p.is_file() and not (p.is_symlink() and not p.exists()):
                continue  # a broken link is kept, so reading it reports it
            rel = p.relative_to(folder)
            files.append(SourceFile(p, str(folder / rel), rel.as_posix()))
    files.sort(key=lambda f: f.relative)
    if not files:
        raise NoSupportedFiles(
            f"{folder}: no {', '.join(SUPPORTED_SUFFIXES)} files in this folder; "
            "point --corpus at release notes in one of those formats"
        )
    return files
