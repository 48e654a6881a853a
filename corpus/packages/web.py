"""HTTPS for the sources of notes beyond the index (a repository's files, GitHub's API, a changelog
page): only ``https`` URLs (plain ``http`` only to a loopback address, for tests), no ``file:`` or
local path from metadata, at most ``MAX_REDIRECTS`` redirects (each checked the same way), bodies
capped at ``limit`` bytes. Nothing fetched is run.

A 404 or 304 comes back as a Response (the caller decides); any other error status is
``SourceRefused`` with its headers kept on the exception (GitHub's rate limit reads them).
"""

from __future__ import annotations

import ipaddress
import socket
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

from ..errors import ArchiveTooLarge, SourceRefused, UnsafeURL
from .http import TIMEOUT, USER_AGENT

MAX_REDIRECTS = 5
PAGE_LIMIT = 8 << 20  # bytes of one page or file read at most (the largest real changelogs are ~2 MB)
BLOCK = 1 << 16
KEPT = (200, 304, 404)


@dataclass(frozen=True, slots=True)
class Answer:
    """A response: its final URL, status, headers (lower-case names) and body."""

    url: str
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()


class Refused(SourceRefused):
    """An error status, with the answer's headers (``SourceRefused`` to callers)."""

    def __init__(self, message: str, status: int, headers: dict[str, str]) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_url(url: str, what: str) -> str:
    """``url`` when it may be fetched: https, or http to a loopback address; UnsafeURL otherwise."""
    parts = urllib.parse.urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    if parts.scheme == "https" and host:
        return url.strip()
    if parts.scheme == "http" and host and _loopback(host):
        return url.strip()
    raise UnsafeURL(f"{what}: not fetching {url!r}: only https URLs are read (plain http only on this machine's "
                    "loopback, file: and local paths never)")


class _Redirects(urllib.request.HTTPRedirectHandler):
    max_redirections = MAX_REDIRECTS

    def __init__(self, what: str) -> None:
        self.what = what

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        check_url(urllib.parse.urljoin(req.full_url, newurl), self.what)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def get(url: str, what: str, *, accept: str = "*/*", headers: dict[str, str] | None = None,
        limit: int = PAGE_LIMIT) -> Answer:
    """GET ``url`` for ``what`` (named in errors).

    Raises:
        UnsafeURL: ``url`` or a redirect is not one to fetch.
        SourceRefused: an error status other than 404 (``Refused``, with the headers), or too many redirects.
        ArchiveTooLarge: a body over ``limit`` bytes.
        IndexUnreachable: no answer.
    """
    from ..errors import IndexUnreachable

    request = urllib.request.Request(check_url(url, what), headers={"User-Agent": USER_AGENT, "Accept": accept,
                                                                    **(headers or {})})
    opener = urllib.request.build_opener(_Redirects(what))
    try:
        answer = opener.open(request, timeout=TIMEOUT)
    except urllib.error.HTTPError as exc:
        answer = exc
        if exc.code in (301, 302, 303, 307, 308):
            target = exc.headers.get("Location", "") if exc.headers else ""
            check_url(urllib.parse.urljoin(exc.geturl() or url, target), what)  # urllib refuses file: itself
            raise SourceRefused(f"{what}: {url} redirects more than {MAX_REDIRECTS} times; not followed") from None
    except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise IndexUnreachable(f"{what}: cannot reach {url} ({reason}); check the network, then run the command "
                               "again") from None
    with answer:
        status = getattr(answer, "status", None) or answer.getcode() or 200
        found = {k.lower(): v for k, v in (answer.headers.items() if answer.headers else ())}
        final = answer.geturl() if hasattr(answer, "geturl") else url
        if status not in KEPT:
            raise Refused(f"{what}: {final} answered {status}; try again later", status, found)
        length = found.get("content-length", "")
        if length.isdigit() and int(length) > limit:
            raise ArchiveTooLarge(f"{what}: {final} is {int(length)} bytes, over the limit of {limit}; not read")
        chunks, size = [], 0
        while block := answer.read(BLOCK):
            size += len(block)
            if size > limit:
                raise ArchiveTooLarge(f"{what}: {final} is over {limit} bytes; not read")
            chunks.append(block)
    return Answer(final, status, found, b"".join(chunks))
