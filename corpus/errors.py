"""Errors a user can fix when loading a corpus; each message names the file and the fix."""


class CorpusError(Exception):
    """Base class: a corpus input problem the user can fix."""


class CorpusPathNotFound(CorpusError):
    """Raised when a --corpus path does not exist."""


class NoSupportedFiles(CorpusError):
    """Raised when a directory holds no .md, .markdown, .rst, .txt, .json or .jsonl file."""


class UnreadableFile(CorpusError):
    """Raised when a file cannot be read (permissions, symlink loop, I/O error)."""


class BinaryFile(CorpusError):
    """Raised when a file looks binary (NUL bytes, an image or archive signature)."""


class EncodingError(CorpusError):
    """Raised when a file is not valid UTF-8 (or UTF-16/32 with a BOM)."""


class EmptyFile(CorpusError):
    """Raised when a file holds no text."""


class MalformedJSON(CorpusError):
    """Raised when a JSON or JSONL file does not parse; the message gives line and column."""


class JSONShapeError(CorpusError):
    """Raised when JSON parses but is not a record, a list of records or JSONL records."""


class MissingBody(CorpusError):
    """Raised when a JSON record has none of the body fields (body_md, body, markdown, text, content)."""


class MalformedReST(CorpusError):
    """Raised when a reStructuredText title's overline has no matching underline; the message names the line."""


class LinksOnly(CorpusError):
    """Raised when a file named directly only links to other files (Django's releases/index.txt)."""


class DraftsOnly(CorpusError):
    """Raised when a JSON file holds only draft GitHub releases (drafts are skipped, so nothing is left)."""
