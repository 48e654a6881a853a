"""The values that flow through fetching notes: a package asked for, an archive an index offers,
the notes kept from it, and a project's dependencies with their pins."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..inputs import CorpusInput

Ecosystem = Literal["pypi", "npm"]
ECOSYSTEMS = ("pypi", "npm")
PinSource = Literal["lockfile", "project file", "installed"]
Status = Literal["found", "not shipped", "failed", "not fetched"]


def normalized(ecosystem: str, name: str) -> str:
    """The name an index knows a package by: PEP 503's for PyPI (``Flask_Login`` -> ``flask-login``),
    lower case for npm (scopes kept)."""
    if ecosystem == "pypi":
        return re.sub(r"[-_.]+", "-", name).lower()
    return name.lower()


@dataclass(frozen=True, slots=True)
class PackageRef:
    """A package asked for: ``flask``, ``flask==3.0.0``, ``npm:left-pad``."""

    ecosystem: Ecosystem
    name: str
    version: str | None = None  # None: the newest published

    def __post_init__(self) -> None:
        if self.ecosystem not in ECOSYSTEMS:
            raise ValueError(f"ecosystem must be one of {', '.join(ECOSYSTEMS)}, not {self.ecosystem!r}")
        if not self.name or self.name != self.name.strip():
            raise ValueError(f"a package name must be non-empty text, not {self.name!r}")

    @property
    def key(self) -> str:
        return normalized(self.ecosystem, self.name)

    def __str__(self) -> str:
        prefix = "npm:" if self.ecosystem == "npm" else ""
        return f"{prefix}{self.name}{'==' + self.version if self.version else ''}"


@dataclass(frozen=True, slots=True)
class Archive:
    """A source archive an index publishes for one release of a package, with its hash."""

    ecosystem: Ecosystem
    name: str  # as the index spells it ("Django")
    version: str
    url: str  # where the file is
    filename: str
    hash_name: str  # "sha256" (PyPI) or "sha512" (npm's dist.integrity)
    hash_value: str  # hex for sha256, the base64 of npm's integrity for sha512
    index_url: str  # the index asked
    size: int | None = None  # bytes, when the index says
    changelog_url: str | None = None  # from the metadata (project_urls; a repository's releases page)


@dataclass(frozen=True, slots=True)
class Published:
    """What the index says of one release: its source archive (None when it has none, ``no_archive``
    says why) and the metadata the other sources of notes read."""

    ecosystem: Ecosystem
    name: str  # as the index spells it
    version: str
    index_url: str
    archive: Archive | None = None
    no_archive: str = ""
    description: str = ""  # PyPI's info.description, npm's readme
    description_type: str = ""  # "text/markdown", "text/x-rst", "" (not said)
    project_urls: tuple[tuple[str, str], ...] = ()  # (label, URL), PyPI's project_urls
    repository: str | None = None  # npm's repository (its url), or None
    directory: str | None = None  # npm's repository.directory (a monorepo's package folder)
    changelog_url: str | None = None
    metadata_url: str = ""  # the metadata answer these come from


@dataclass(frozen=True, slots=True)
class NotesFile:
    """One notes file kept: where it is in the notes folder and where it was in the archive (or the
    URL it was read from, with the sha256 of its bytes, for a source other than the archive)."""

    path: str  # relative to the notes folder, "/"-separated
    member: str  # the archive member it came from, or the URL
    sha256: str = ""


@dataclass(frozen=True, slots=True)
class Tried:
    """A source of notes asked for a package that gave none, and why."""

    source: str  # "archive", "metadata", "repository", "releases", "webpage"
    why: str
    failed: bool = False  # the source could not be asked (no answer, a refusal, a rate limit): asked again next time


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file that looked like notes but was left out, and why (a stub, a fragment folder)."""

    member: str
    why: str


@dataclass(frozen=True, slots=True)
class NotesRecord:
    """The notes kept for one package and version, and where they came from (``record.json``)."""

    ecosystem: Ecosystem
    name: str  # the package name as the index spells it: the product of the notes
    version: str
    folder: Path  # the version's folder in the notes store; the notes are in ``files``
    index_url: str
    file_url: str
    hash_name: str
    hash_value: str
    fetched: str  # ISO 8601, UTC
    files: tuple[NotesFile, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    changelog_url: str | None = None
    rules: int = 0  # the version of the picking rules that chose ``files`` (``pick.RULES``)
    source: str = "archive"  # the source that gave the notes ("" when none did: ``tried`` says why)
    tried: tuple[Tried, ...] = ()  # the sources before it (or all of them) that gave none
    etag: str | None = None  # the ETag of the answer the notes came from (If-None-Match on refresh)
    chain: int = 0  # the version of the chain of sources (``sources.CHAIN``): an older one is fetched again

    @property
    def files_dir(self) -> Path:
        return self.folder / "files"

    @property
    def shipped(self) -> bool:
        """Whether notes were found (in the archive or another source)."""
        return bool(self.files)

    def corpus_input(self) -> CorpusInput:
        """The notes as a corpus input whose product is the package name."""
        return CorpusInput(self.files_dir, self.name)


@dataclass(frozen=True, slots=True)
class Dependency:
    """One dependency of a project, its pin and where the pin came from, and its notes.

    ``pin`` is the version the project is on: a lockfile's resolved version, else an exact
    ``==`` (or an exact npm version) in the project file, else the version installed in the
    project's own environment; None when none of these says (``pin_source`` None too).
    """

    ecosystem: Ecosystem
    name: str  # as the project file spells it
    requirement: str = ""  # the specifier as written (">=2.0,<3"), "" for none
    declared_in: tuple[str, ...] = ()  # the project files naming it
    pin: str | None = None
    pin_source: PinSource | None = None
    pin_file: str | None = None  # the file the pin came from (uv.lock, requirements.txt, .venv)
    notes: NotesRecord | None = None
    status: Status = "not fetched"
    problem: str = ""  # why a fetch failed, when it did

    @property
    def key(self) -> str:
        return normalized(self.ecosystem, self.name)

    @property
    def product(self) -> str:
        """The product its notes are read as: the package name as the index spells it."""
        return self.notes.name if self.notes else self.name


@dataclass(frozen=True, slots=True)
class Project:
    """A project folder's dependencies with their pins and fetched notes: what ``--project DIR``
    opens the answering service with (``corpus`` is its corpus, one input per notes folder)."""

    directory: Path
    dependencies: tuple[Dependency, ...] = field(default_factory=tuple)

    @property
    def corpus(self) -> tuple[CorpusInput, ...]:
        """The notes of every dependency that has some, each read as its package's product."""
        return tuple(d.notes.corpus_input() for d in self.dependencies if d.notes and d.notes.shipped)

    def dependency(self, name: str) -> Dependency | None:
        """The dependency a name or product means (``urllib3``, ``Django``, ``flask_login``), or None."""
        wanted = name.strip()
        for d in self.dependencies:
            if wanted.lower() in (d.name.lower(), d.product.lower()) or normalized(d.ecosystem, wanted) == d.key:
                return d
        return None

    def pin(self, name: str) -> str | None:
        """The version the project is on for the dependency ``name``, None when unpinned or unknown."""
        found = self.dependency(name)
        return found.pin if found else None
