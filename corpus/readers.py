"""Find corpus files, decode them to text and read each into records (``corpus.records``)."""

from __future__ import annotations

import codecs
import errno
import os
from importlib import resources
from pathlib import Path

from .errors import (
    BinaryFile,
    CorpusPathNotFound,
    EmptyFile,
    EncodingError,
    MalformedJSON,
    NoSupportedFiles,
    UnreadableFile,
)
from .records import Record, SourceFile, json_records, parse_json
from .repair import as_lines
from .rst import looks_like_rst

SUPPORTED_SUFFIXES = (".md", ".markdown", ".rst", ".txt", ".json", ".jsonl")
# npm's project files sit beside a changelog (one names its product) but are no release notes.
PROJECT_JSON = frozenset({"package.json", "package-lock.json"})
_SIGNATURES = {
    b"\x89PNG": "a PNG image",
    b"PK\x03\x04": "a zip archive",
    b"%PDF": "a PDF",
    b"GIF8": "a GIF image",
    b"\xff\xd8\xff": "a JPEG image",
    b"\x1f\x8b": "a gzip archive",
}
_BOMS = (  # UTF-32 first: its little-endian BOM starts with UTF-16's.
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def bundled_paths() -> list[Path]:
    """The release notes shipped in ``corpus/data``, sorted by name."""
    root = resources.files("corpus") / "data"
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


def decode(data: bytes, display: str) -> str:
    """Bytes to text with LF line ends; raises BinaryFile, EncodingError or EmptyFile."""
    for sig, kind in _SIGNATURES.items():
        if data.startswith(sig):
            raise BinaryFile(f"{display}: looks like {kind}, not text; remove it from the corpus")
    text = None
    for bom, enc in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom):].decode(enc)
            except UnicodeDecodeError as e:
                raise EncodingError(
                    f"{display}: not valid {enc.upper()} at byte {e.start + len(bom)}; "
                    "re-save the file as UTF-8"
                ) from e
            break
    if text is None:
        if b"\x00" in data:
            raise BinaryFile(f"{display}: contains NUL bytes, so it is binary, not text; remove it from the corpus")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            raise EncodingError(
                f"{display}: not valid UTF-8 at byte {e.start} (line {line}); "
                "re-save the file as UTF-8, e.g. iconv -f latin1 -t utf-8"
            ) from e
    if "\x00" in text:
        raise BinaryFile(f"{display}: contains NUL characters; remove it from the corpus or re-save it as text")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise EmptyFile(f"{display}: the file holds no text; add release notes to it or remove it")
    return text


def read_records(f: SourceFile) -> list[Record]:
    """Read one file into records: one for Markdown or text, one per JSON record."""
    try:
        data = f.path.read_bytes()
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise UnreadableFile(f"{f.display}: a symbolic link loop; fix or remove the link") from None
        if f.path.is_symlink() and not f.path.exists():
            raise UnreadableFile(f"{f.display}: a broken symbolic link (its target is missing); fix or remove the link") from None
        raise UnreadableFile(f"{f.display}: cannot read the file ({e.strerror}); check its permissions") from None
    text = decode(data, f.display)
    suffix = f.path.suffix.lower()
    if suffix in (".json", ".jsonl"):
        return json_records(f, parse_json(text, f.display, jsonl=suffix == ".jsonl"))
    if text.lstrip()[:1] in ("{", "["):
        try:
            return json_records(f, parse_json(text, f.display, jsonl=False))
        except MalformedJSON:
            pass  # Text that merely starts with a brace stays text.
    if suffix in (".md", ".markdown"):
        fmt = "markdown"
    elif suffix == ".rst" or looks_like_rst(as_lines(text)):  # Django's docs/releases/*.txt are reST
        fmt = "rst"
    else:
        fmt = "text"
    return [Record(f, text, fmt)]
