"""The protocol's stdin and stdout, moved off file descriptors 0 and 1 for ``relnotes mcp``.

The SDK's ``stdio_server()`` does the same when it claims the standard streams (fd 0 then reads
the null device and fd 1 writes to stderr, so a stray print or a child process cannot corrupt
the protocol); here it is done at start-up, because the first line is read, and the
``initialize`` reply may be written, before the SDK has loaded (``qa.mcp.startup``). The SDK is
then given streams over the moved descriptors that replay what was already read, so it sees the
whole input, the first line included.
"""

from __future__ import annotations

import io
import os
import sys

_CHUNK = 1 << 16


class Wire:
    """The client's end of the protocol: reads from ``read_fd``, writes to ``write_fd``."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd = read_fd
        self.write_fd = write_fd

    @classmethod
    def claim(cls) -> Wire | None:
        """Move the protocol off fds 0 and 1 (fd 0 then reads the null device, fd 1 writes to
        stderr); None where that cannot be done (sys.stdin or sys.stdout is not fd 0 or 1, as
        under a test runner; no fcntl), and the SDK's own transport serves as before."""
        try:
            import fcntl
        except ImportError:  # Windows
            return None
        if not (_backed_by(sys.stdin, 0) and _backed_by(sys.stdout, 1)):
            return None
        sys.stdout.flush()
        read_fd = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)  # above 2: never one of the standard descriptors
        write_fd = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
        _point(0, os.open(os.devnull, os.O_RDONLY))
        try:
            os.dup2(2, 1)
        except OSError:  # no stderr: stray output goes nowhere
            _point(1, os.open(os.devnull, os.O_WRONLY))
        return cls(read_fd, write_fd)

    def release(self) -> None:
        """Point fds 0 and 1 back at the client (the moved descriptors stay open: a thread of the
        SDK may still be blocked reading one)."""
        os.dup2(self.read_fd, 0)
        os.dup2(self.write_fd, 1)

    def read_first_line(self) -> bytes:
        """Read until the first newline (or the end of input): the bytes read, which may run past it."""
        head = b""
        while b"\n" not in head:
            chunk = os.read(self.read_fd, _CHUNK)
            if not chunk:
                break
            head += chunk
        return head

    def write(self, data: bytes) -> None:
        """Write all of ``data`` to the client."""
        view = memoryview(data)
        while view:
            view = view[os.write(self.write_fd, view):]

    def text_streams(self, head: bytes) -> tuple[io.TextIOWrapper, io.TextIOWrapper]:
        """The protocol's input (``head``, the bytes already read, then the rest) and output as the
        SDK's transport wraps the standard streams: UTF-8 text, bad input bytes replaced."""
        reader = io.BufferedReader(_Replay(head, self.read_fd))
        writer = open(self.write_fd, "wb", closefd=False)  # noqa: SIM115 - lives as long as the server
        return (io.TextIOWrapper(reader, encoding="utf-8", errors="replace"),
                io.TextIOWrapper(writer, encoding="utf-8"))


class _Replay(io.RawIOBase):
    """``head``, then what ``fd`` reads."""

    def __init__(self, head: bytes, fd: int) -> None:
        self._head = head
        self._fd = fd

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = os.read(self._fd, len(buffer))
        buffer[:len(data)] = data
        return len(data)


def _point(fd: int, at: int) -> None:
    """Make ``fd`` the file ``at`` is open on, and close ``at``."""
    os.dup2(at, fd)
    os.close(at)


def _backed_by(stream, fd: int) -> bool:
    """Whether ``stream`` writes to or reads from file descriptor ``fd`` (as the SDK checks)."""
    try:
        return stream.buffer.fileno() == fd
    except (AttributeError, OSError, ValueError):
        return False
