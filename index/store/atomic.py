"""Atomic index writes: the build lock, signals held during the swap, fsync, and recovery.

A build writes everything into a temporary sibling directory, then swaps it into place with two
renames under an exclusive lock, so a crash, a full disk or Ctrl-C leaves the previous index
intact and two builders never mix files.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator

from ..errors import IndexBusy, IndexWriteError
from .layout import lock_file, old_prefix, shards_dir, tmp_prefix, used_file

LOCK_TIMEOUT_S = 600.0


@contextlib.contextmanager
def build_lock(directory: Path, timeout: float = LOCK_TIMEOUT_S,
               on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold an exclusive lock beside ``directory`` for the duration of a build; ``on_wait`` is
    called once when another process holds it (so the wait is said, not silent)."""
    lock_path = lock_file(directory)
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        reason = "a file is in the way" if isinstance(exc, FileExistsError) else exc.strerror
        raise IndexWriteError(
            f"Cannot write in {directory.parent} ({reason}); choose a writable place with --index DIR"
        ) from None
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if on_wait is not None:
                    on_wait()
                    on_wait = None
                if time.monotonic() > deadline:
                    raise IndexBusy(
                        f"Another relnotes process has been building {directory} for {timeout:.0f} s; "
                        "wait for it to finish, then run the command again"
                    ) from None
                time.sleep(0.1)
        yield
    finally:
        os.close(fd)  # closing releases the lock


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Turn SIGTERM into KeyboardInterrupt while building, so cleanup runs as for Ctrl-C."""
    def handler(signum, frame):  # noqa: ARG001
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block ends, then raise KeyboardInterrupt if one came.

    Python runs signal handlers in the main thread between bytecodes, so without this an
    interrupt could land between the two renames of a swap and leave no index in place.
    """
    caught: list[int] = []

    def hold(signum, frame):  # noqa: ARG001
        caught.append(signum)

    try:
        previous = {sig: signal.signal(sig, hold) for sig in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:  # not the main thread: no handler can run here anyway
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if caught:
        raise KeyboardInterrupt


def recover(directory: Path) -> None:
    """Undo a swap cut short by a hard kill, then delete temporary litter; call under the build lock.

    Between the two renames of a swap the index lives in ``.NAME.old-*``: when ``directory``
    is missing, the newest such copy is put back, so a SIGKILL there never loses the index.
    """
    olds = sorted(directory.parent.glob(f"{old_prefix(directory)}*"), key=lambda p: p.stat().st_mtime)
    if olds and not directory.exists():
        with contextlib.suppress(OSError):
            os.rename(olds[-1], directory)
    _remove_litter(directory)


def _remove_litter(directory: Path) -> None:
    """Delete temporary directories left by builds that were killed hard (SIGKILL, power loss)."""
    for pattern in (f"{tmp_prefix(directory)}*", f"{old_prefix(directory)}*"):
        for path in directory.parent.glob(pattern):
            shutil.rmtree(path, ignore_errors=True)


def swap_into_place(tmp: Path, directory: Path) -> None:
    """Replace ``directory`` by ``tmp`` with two renames; the old copy is removed last.

    Signals are held for the whole swap, so Ctrl-C or SIGTERM leaves either index, never none.
    """
    with _signals_held():
        old = None
        if directory.exists():
            old = Path(tempfile.mkdtemp(prefix=old_prefix(directory), dir=directory.parent))
            os.rmdir(old)
            os.rename(directory, old)
        try:
            os.rename(tmp, directory)
        except BaseException:
            if old is not None:
                os.rename(old, directory)
            raise
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def fsync_tree(directory: Path) -> None:
    """Flush every file of ``directory`` and the directory itself to disk before it is swapped in."""
    for path in directory.iterdir():
        with open(path, "rb") as fh:
            os.fsync(fh.fileno())
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_tmp(directory: Path) -> Path:
    """A new temporary sibling of ``directory`` for a build to write into.

    Raises:
        IndexWriteError: the parent folder is not writable.
    """
    try:
        return Path(tempfile.mkdtemp(prefix=tmp_prefix(directory), dir=directory.parent))
    except OSError as exc:
        raise IndexWriteError(
            f"Cannot write in {directory.parent} ({exc.strerror}); choose a writable place with --index DIR"
        ) from None


@contextlib.contextmanager
def written_in_place(directory: Path) -> Iterator[Path]:
    """A temporary sibling of ``directory`` to write a whole index into, swapped into place when
    the block ends (deleted if it raises); call under the build lock.

    Raises:
        IndexWriteError: the directory is not writable or the disk is full; the old index stays.
    """
    tmp = make_tmp(directory)
    try:
        yield tmp
        swap_into_place(tmp, directory)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        reason = "disk full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
        raise IndexWriteError(
            f"Could not write the index at {directory} ({reason}); the previous index is unchanged. "
            "Free space or choose another place with --index DIR"
        ) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def replace_index(source: Path, directory: Path) -> None:
    """Put the complete index at ``source`` in the place of ``directory`` (under its build lock,
    two renames as a build does), e.g. an int8 trial index that passed its answer check."""
    source, directory = Path(source), Path(directory)
    with build_lock(directory):
        recover(directory)
        swap_into_place(source, directory)


def discard_index(directory: Path) -> None:
    """Delete an index this process made and no other uses (a trial): the folder, its build lock
    and its in-use stamp."""
    directory = Path(directory)
    shutil.rmtree(directory, ignore_errors=True)
    shutil.rmtree(shards_dir(directory), ignore_errors=True)
    for path in (lock_file(directory), used_file(directory)):
        path.unlink(missing_ok=True)
