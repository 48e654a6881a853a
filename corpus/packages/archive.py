"""A source archive read as data, never unpacked as a whole: its member list checked (no path out
of its folder, no absolute path, no link leaving it, no device), then the chosen members' bytes read.
A link whose target stays inside the archive (``docs/CONTRIBUTING.md -> ../CONTRIBUTING.md``) is
never followed: it is left out and listed in ``links``, the rest kept.

tar archives (gzip, bzip2, xz) and zip files are read. Nothing from an archive is run.
"""

from __future__ import annotations

import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..errors import BadArchive, UnsafeArchive

MEMBER_LIMIT = 20 << 20  # bytes of one notes file read at most (the largest real changelogs are ~2 MB)
ZIP_LINK = 0o120000  # the symlink bits of a zip member's Unix mode


@dataclass(frozen=True, slots=True)
class Member:
    """A regular file of an archive: its path inside it and its size."""

    name: str  # "/"-separated, "./" dropped
    size: int
    raw: str = ""  # the name as the archive spells it


def _check_name(name: str, what: str) -> str:
    """``name`` as a clean relative path; UnsafeArchive for an absolute one or one with ``..``."""
    clean = name.replace("\\", "/")
    if clean.startswith("/") or (len(clean) > 1 and clean[1] == ":"):
        raise UnsafeArchive(f"{what}: the archive holds an absolute path ({name!r}); refused, nothing kept from it: "
                            "report it to the package's maintainers")
    if ".." in PurePosixPath(clean).parts:
        raise UnsafeArchive(f"{what}: the archive holds a member outside its folder ({name!r}); refused, nothing "
                            "kept from it: report it to the package's maintainers")
    while clean.startswith("./"):
        clean = clean[2:]
    return clean


def _inside_link(name: str, target: str, hard: bool) -> bool:
    """Whether a link member's target stays inside the archive's folder (a hard link names a member,
    a symbolic link a path relative to the link's folder)."""
    clean = target.replace("\\", "/")
    if not clean or clean.startswith("/") or (len(clean) > 1 and clean[1] == ":"):
        return False
    base = PurePosixPath() if hard else PurePosixPath(name).parent
    depth = 0
    for part in (base / clean).parts:
        depth += -1 if part == ".." else 0 if part == "." else 1
        if depth < 1:  # at or above the archive's top folder
            return False
    return True


def _link(name: str, target: str, what: str) -> UnsafeArchive:
    return UnsafeArchive(f"{what}: the archive holds a link ({name!r} -> {target!r}); refused, nothing kept from it: "
                         "report it to the package's maintainers, or give its notes with --corpus PATH")


class ArchiveReader:
    """An open archive whose members were checked; use as a context manager."""

    def __init__(self, path: Path, what: str) -> None:
        """``what`` names the package in errors.

        Raises:
            BadArchive: not a tar or zip archive, or a damaged one.
            UnsafeArchive: a member with an absolute path, a ``..`` part, or that is a link or device.
        """
        self.what = what
        self._tar: tarfile.TarFile | None = None
        self._zip: zipfile.ZipFile | None = None
        self.links: list[tuple[str, str]] = []  # (member, why) of each link left out
        try:
            if zipfile.is_zipfile(path):
                self._zip = zipfile.ZipFile(path)
                self.members = self._zip_members()
            else:
                self._tar = tarfile.open(path, "r:*")
                self.members = self._tar_members()
        except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
            self.close()
            raise BadArchive(f"{what}: the download is not a readable tar or zip archive ({exc}); nothing kept: "
                             "try again later, or report it to the index") from None
        except UnsafeArchive:
            self.close()
            raise

    def _tar_members(self) -> list[Member]:
        found = []
        for info in self._tar:
            name = _check_name(info.name, self.what)
            if info.issym() or info.islnk():
                if not _inside_link(name, info.linkname, info.islnk()):
                    raise _link(info.name, info.linkname, self.what)
                self.links.append((name, f"a link to {info.linkname}, not followed"))
                continue
            if info.isdir():
                continue
            if not info.isfile():
                raise UnsafeArchive(f"{self.what}: the archive holds a special file ({info.name!r}: a device or "
                                    "pipe); refused, nothing kept from it: report it to the package's maintainers")
            found.append(Member(name, info.size, info.name))
        return found

    def _zip_members(self) -> list[Member]:
        found = []
        for info in self._zip.infolist():
            name = _check_name(info.filename, self.what)
            if (info.external_attr >> 16) & 0o170000 == ZIP_LINK:
                target = self._zip.read(info)[:4096].decode("utf-8", "replace") if info.file_size < 4096 else ""
                if not _inside_link(name, target, False):
                    raise _link(info.filename, target or "?", self.what)
                self.links.append((name, f"a link to {target}, not followed"))
                continue
            if not info.is_dir():
                found.append(Member(name, info.file_size, info.filename))
        return found

    def read(self, member: Member) -> bytes:
        """The bytes of ``member`` (at most MEMBER_LIMIT; BadArchive if it holds more)."""
        try:
            if self._zip is not None:
                stream = self._zip.open(member.raw or member.name)
            else:
                stream = self._tar.extractfile(member.raw or member.name)
            with stream:
                data = stream.read(MEMBER_LIMIT + 1)
        except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError, KeyError) as exc:
            raise BadArchive(f"{self.what}: {member.name} could not be read from the archive ({exc}); nothing kept: "
                             "try again later") from None
        if len(data) > MEMBER_LIMIT:
            raise BadArchive(f"{self.what}: {member.name} is over {MEMBER_LIMIT} bytes; not a notes file to keep")
        return data

    def close(self) -> None:
        for handle in (self._tar, self._zip):
            if handle is not None:
                handle.close()

    def __enter__(self) -> "ArchiveReader":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
