"""Which cached indexes are in use, and when each was last used (``relnotes cache``).

Opening an index (``open_index``) stamps ``.NAME.used`` beside it (its mtime is the last use)
and holds a shared lock on it for the life of the process, so ``relnotes cache prune`` (which
needs an exclusive lock) never removes an index a chat, an MCP server or ``relnotes serve`` has
open. The build lock (``.NAME.lock``) is apart: a rebuild never waits for a reader.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

_HELD: dict[str, int] = {}  # index directory -> the open descriptor holding its shared lock


def used_file(directory: Path) -> Path:
    return directory.parent / f".{directory.name}.used"


def mark_used(directory: Path) -> None:
    """Stamp ``directory`` as used now and hold its shared in-use lock until the process ends.
    Never raises: an unwritable cache only loses the stamp."""
    directory = Path(directory)
    path = used_file(directory)
    try:
        key = str(directory.resolve())
        if key not in _HELD:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            _HELD[key] = fd
        os.utime(path, None)
    except OSError:
        return


def last_used(directory: Path) -> float | None:
    """When ``directory`` was last opened (epoch seconds), else None (built but never opened)."""
    try:
        return used_file(Path(directory)).stat().st_mtime
    except OSError:
        return None


def try_exclusive(directory: Path) -> int | None:
    """An exclusive hold on the in-use lock (a descriptor to close), or None when some process
    has the index open."""
    fd = os.open(used_file(Path(directory)), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def age_days(stamp: float | None, now: float | None = None) -> float | None:
    return None if stamp is None else ((now or time.time()) - stamp) / 86400
