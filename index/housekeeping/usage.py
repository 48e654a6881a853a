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

from ..store.layout import used_file

_HELD: dict[str, int] = {}  # index directory -> the open descriptor holding its shared lock


def mark_used(directory: Path) -> None:
    """Stamp ``directory`` as used now and hold its shared in-use lock until the process ends
    (taken before the index is read: a prune holding the exclusive lock is waited for, briefly).
    Never raises: an unwritable cache only loses the stamp."""
    directory = Path(directory)
    path = used_file(directory)
    try:
        key = str(directory.resolve())
        if key not in _HELD:
            directory.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH)
            except OSError:
                os.close(fd)
                raise
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


NOT_OPENED = -1  # try_exclusive's answer for an index no process ever opened (no stamp file)


def try_exclusive(directory: Path, create: bool = False) -> int | None:
    """An exclusive hold on the in-use lock: a descriptor to close (``NOT_OPENED`` when there is
    no stamp and ``create`` is False), or None when some process has the index open. Looking
    (``create`` False) never writes: it neither creates a stamp nor changes its time."""
    path = used_file(Path(directory))
    try:
        fd = os.open(path, (os.O_RDWR | os.O_CREAT) if create else os.O_RDONLY, 0o644)
    except FileNotFoundError:
        return NOT_OPENED
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def age_days(stamp: float | None, now: float | None = None) -> float | None:
    return None if stamp is None else ((now or time.time()) - stamp) / 86400
