"""Errors a user can fix when loading a corpus; each message names the file and the fix."""


class CorpusError(Exception):
    """Base class: a corpus input problem the user can fix."""


class CorpusPathNotFound(CorpusError):
    """Raised when a --corpus path does not exist."""


class NoSupportedFiles(CorpusError):
    """Raised when a directory holds no .md, .markdown, .rst, .txt, .json, .jsonl, .html or .htm file."""


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


class PackageError(CorpusError):
    """Base class: fetching a package's release notes failed in a way the user can fix."""


class NoIndexConfigured(PackageError):
    """Raised when no package index URL can be found (no setting, and pip or npm cannot say)."""


class UnknownPackage(PackageError):
    """Raised when the index has no such package, or no such version of it."""


class IndexUnreachable(PackageError):
    """Raised when the index or the file cannot be reached (no network, DNS, timeout)."""


class IndexRefused(PackageError):
    """Raised when the index answers a request with an error status (403, 404 for a file, 500)."""


class NoSourceArchive(PackageError):
    """Raised when a release has no source archive (only wheels) to read notes from."""


class HashMismatch(PackageError):
    """Raised when a downloaded archive's hash differs from the one the index published."""


class ArchiveTooLarge(PackageError):
    """Raised when an archive is over the size limit, by the index's metadata or while downloading."""


class BadArchive(PackageError):
    """Raised when a download is not a tar or zip archive, or cannot be read as one."""


class UnsafeArchive(PackageError):
    """Raised when an archive holds a member outside its folder, an absolute path or a link."""


class UnsafeURL(PackageError):
    """Raised when metadata or a redirect names a URL not fetched: not https (plain http only to loopback), file:, a path."""


class SourceRefused(PackageError):
    """Raised when a source of notes (a repository's files, GitHub's API, a web page) answers with an error status."""


class RateLimited(PackageError):
    """Raised when GitHub's API says its rate limit is spent (the message gives the reset time)."""


class ProjectError(PackageError):
    """Raised when a project folder holds no dependency files, or one that does not parse."""


class NothingFetched(PackageError):
    """Raised when a project's dependencies have no notes fetched yet (run relnotes add --project)."""
