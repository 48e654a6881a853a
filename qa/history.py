"""The question history of the chat and ``relnotes ask``: one JSON object a line, in the user data folder.

The file is ``history.jsonl`` in ``platformdirs.user_data_dir("relnotes-qa")``, or the file
named by ``RELNOTES_HISTORY``. Each line is ``{"question", "asked_as", "releases", "time"}``,
with ``"products"`` when the question was restricted to some and ``"range"`` when it was asked
over a range of releases: the turn a conversation ended
with (``qa.service.Conversation``), so ``ask --follow-up`` reads on as the chat would.
Appends are one ``write`` of one line to a file opened for appending (no fsync): two chats
appending at once never interleave inside a line, and a line torn by a crash is skipped when
read. The last MAX_ENTRIES questions are kept in memory; when the file grows past COMPACT_AT
lines it is rewritten (a temporary file renamed into place) with the last MAX_ENTRIES.

History is a convenience: an unreadable or unwritable file gives a warning line (all of them
in ``History.warnings``, the first to the ``warn`` callback), never an error that stops the chat.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from .question import Turn
from .model import ReleaseRange
from .text import safe

HISTORY_ENV = "RELNOTES_HISTORY"
FILE_NAME = "history.jsonl"
MAX_ENTRIES = 1000  # questions kept when loading
COMPACT_AT = 2000  # lines in the file before it is rewritten with the last MAX_ENTRIES
MAX_READ = 4 * 1024 * 1024  # bytes read from the end of an oversized file


def user_data_dir() -> Path:
    """relnotes's user data folder (platformdirs: ``~/.local/share/relnotes-qa`` on Linux, or
    under ``$XDG_DATA_HOME``), which holds the history and the chat's exported transcripts."""
    import platformdirs

    return Path(platformdirs.user_data_dir("relnotes-qa", appauthor=False))


def default_path() -> Path:
    """``$RELNOTES_HISTORY`` when set, else ``history.jsonl`` in the user data folder."""
    named = os.environ.get(HISTORY_ENV, "").strip()
    if named:
        return Path(named).expanduser()
    return user_data_dir() / FILE_NAME


@dataclass(frozen=True, slots=True)
class Entry:
    """One asked question: as typed, as understood, its release filter, when (ISO 8601, UTC),
    and the products it was restricted to (a corpus of several products)."""

    question: str
    asked_as: str
    releases: tuple[str, ...] = ()
    time: str = ""
    products: tuple[str, ...] = ()
    span: ReleaseRange | None = None  # the range of releases it was asked over

    def __post_init__(self) -> None:
        if not isinstance(self.question, str) or not self.question.strip():
            raise ValueError("a history entry needs a question")
        if not isinstance(self.releases, tuple) or not all(isinstance(r, str) for r in self.releases):
            raise ValueError(f"releases must be a tuple of strings, got {self.releases!r}")

    @classmethod
    def from_turn(cls, turn: Turn) -> Entry:
        """The entry for an answered question, stamped now: the turn a conversation ended with
        (``qa.service.Conversation.turn``), so the next ``--follow-up`` reads on from it."""
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        return cls(turn.question, turn.asked_as or turn.question, tuple(turn.releases), stamp, tuple(turn.products),
                   turn.span)

    @classmethod
    def from_json(cls, data: object) -> Entry | None:
        """The entry a decoded line holds, or None when it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("question"), str):
            return None
        asked_as = data.get("asked_as")
        releases = data.get("releases")
        products = data.get("products")  # absent from lines written before products were kept
        stamp = data.get("time")

        def strings(value) -> tuple[str, ...]:
            return tuple(value) if isinstance(value, list) and all(isinstance(r, str) for r in value) else ()

        try:
            return cls(
                data["question"],
                asked_as if isinstance(asked_as, str) and asked_as.strip() else data["question"],
                strings(releases),
                stamp if isinstance(stamp, str) else "",
                strings(products),
                _span(data.get("range")),
            )
        except ValueError:
            return None

    def to_json(self) -> dict:
        """The line's object."""
        line = {"question": self.question, "asked_as": self.asked_as, "releases": list(self.releases),
                "time": self.time}
        if self.products:
            line["products"] = list(self.products)
        if self.span is not None:
            line["range"] = self.span.to_json()
        return line

    def turn(self) -> Turn:
        """The entry as the previous turn of a follow-up (``qa.question.read``)."""
        return Turn(self.question, self.asked_as, self.releases, self.products, self.span)


def _span(value: object) -> ReleaseRange | None:
    """The range a line holds (absent from lines written before ranges were kept), or None."""
    if not isinstance(value, dict):
        return None
    since, until = value.get("since"), value.get("until")
    if not all(b is None or isinstance(b, str) for b in (since, until)):
        return None
    try:
        return ReleaseRange(since, until, value.get("until_inclusive") is not False, value.get("since_inclusive") is True)
    except ValueError:  # no bound, or a bound that is no version: an edited line
        return None


def _parse(raw: bytes) -> Entry | None:
    """The entry on one line; None for a torn, edited or foreign line."""
    try:
        return Entry.from_json(json.loads(raw.decode("utf-8")))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None


class History:
    """The question history file, read once and appended to."""

    def __init__(self, path: Path | str | None = None, warn: Callable[[str], None] | None = None) -> None:
        """Args:
            path: the history file; default ``default_path()``.
            warn: called with each warning line (also kept in ``warnings``).
        """
        self.path = Path(path).expanduser() if path is not None else default_path()
        self.warnings: list[str] = []
        self._warn = warn
        self._entries: list[Entry] | None = None
        self._lines = 0  # lines in the file as far as this process knows

    def entries(self) -> list[Entry]:
        """The last MAX_ENTRIES questions, oldest first."""
        return list(self._load())

    def questions(self) -> list[str]:
        """The questions as typed, oldest first."""
        return [e.question for e in self._load()]

    def last(self) -> Entry | None:
        """The most recent question, or None."""
        entries = self._load()
        return entries[-1] if entries else None

    def record(self, turn: Turn) -> list[str]:
        """Record the question a conversation ended with (``qa.service.Conversation.turn``), as
        ``relnotes ask`` and the chat both do.

        Returns:
            The warnings this raised that were not raised before (a file it could not write).
        """
        known = len(self.warnings)
        self.append(Entry.from_turn(turn))
        return self.warnings[known:]

    def append(self, entry: Entry) -> None:
        """Record a question (in memory even when the file cannot be written)."""
        entries = self._load()
        entries.append(entry)
        del entries[:-MAX_ENTRIES]
        line = (json.dumps(entry.to_json(), ensure_ascii=False) + "\n").encode("utf-8")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                size = os.fstat(fd).st_size
                if size:
                    os.lseek(fd, size - 1, os.SEEK_SET)
                    if os.read(fd, 1) != b"\n":
                        line = b"\n" + line  # a torn last line keeps a line of its own
                os.write(fd, line)
            finally:
                os.close(fd)
        except OSError as exc:
            self._warning(f"Cannot write the question history {safe(str(self.path))} ({_reason(exc, self.path)}); "
                          f"questions are not recorded (set {HISTORY_ENV} to another file)")
            return
        self._lines += 1
        if self._lines > COMPACT_AT:
            self._compact()

    def _load(self) -> list[Entry]:
        if self._entries is None:
            entries, self._lines = self._read(warn=True)
            self._entries = entries[-MAX_ENTRIES:]
        return self._entries

    def _read(self, warn: bool) -> tuple[list[Entry], int]:
        """Entries in the file and its line count; nothing (and a warning) when it cannot be read."""
        try:
            with open(self.path, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                if size > MAX_READ:
                    fh.seek(size - MAX_READ)
                    fh.readline()  # the first line read from the middle is partial
                data = fh.read()
        except (FileNotFoundError, NotADirectoryError):  # no file yet (or no folder): nothing asked
            return [], 0
        except OSError as exc:
            if warn:
                self._warning(f"Cannot read the question history {safe(str(self.path))} ({_reason(exc, self.path)}); "
                              "starting without it and not recording")
            return [], 0
        lines = [raw for raw in data.splitlines() if raw.strip()]
        entries = [e for e in map(_parse, lines) if e is not None]
        return entries, COMPACT_AT + 1 if size > MAX_READ else len(lines)

    def _compact(self) -> None:
        """Rewrite the file with its last MAX_ENTRIES entries (re-read: another chat may have appended)."""
        entries, _ = self._read(warn=False)
        keep = entries[-MAX_ENTRIES:]
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with open(fd, "wb") as fh:
                fh.write(b"".join((json.dumps(e.to_json(), ensure_ascii=False) + "\n").encode("utf-8") for e in keep))
            os.replace(tmp, self.path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            self._warning(f"Cannot compact the question history {safe(str(self.path))} ({_reason(exc, self.path)})")
            return
        self._lines = len(keep)

    def _warning(self, message: str) -> None:
        """Keep ``message``; only the first goes to ``warn``: one line per session, not one per question."""
        if message not in self.warnings:
            self.warnings.append(message)
            if self._warn is not None and len(self.warnings) == 1:
                self._warn(message)


def _reason(exc: OSError, path: Path) -> str:
    """The OS's reason, naming the file it concerns when that is not the history file itself."""
    reason = exc.strerror or type(exc).__name__
    where = getattr(exc, "filename", None)
    return f"{safe(str(where))}: {reason}" if where and str(where) != str(path) else reason
