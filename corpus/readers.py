"""Decode corpus files to text and read each into records (``corpus.records``); finding them is
``corpus.discovery``'s."""

from __future__ import annotations

import codecs
import errno

from .discovery import SUPPORTED_SUFFIXES, SourceFile, bundled_paths, discover, file_key  # noqa: F401 - their old home
from .errors import BinaryFile, EmptyFile, EncodingError, MalformedJSON, UnreadableFile
from .records import Record, json_records, parse_json
from .repair import as_lines
from .rst import looks_like_rst, plain_releases

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
    if suffix in (".html", ".htm"):  # a changelog web page: corpus.html
        from .html import html_records

        return html_records(f, text)
    if suffix in (".json", ".jsonl"):
        return json_records(f, parse_json(text, f.display, jsonl=suffix == ".jsonl"))
    if text.lstrip()[:1] in ("{", "["):
        try:
            return json_records(f, parse_json(text, f.display, jsonl=False))
        except MalformedJSON:
            pass  # Text that merely starts with a brace stays text.
    if suffix in (".md", ".markdown"):
        fmt = "markdown"
    elif suffix == ".rst":
        fmt = "text" if plain_releases(as_lines(text)) else "rst"  # pyflakes' NEWS.rst: no reST title at all
    elif looks_like_rst(as_lines(text)):  # Django's docs/releases/*.txt are reST
        fmt = "rst"
    else:
        fmt = "text"
    return [Record(f, text, fmt)]
