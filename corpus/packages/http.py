"""HTTP for the package indexes (urllib from the standard library): JSON metadata, and a file
streamed to disk under a size cap with its hash computed on the way.

Every failure is one of our errors naming the package and what to do: a 404 for metadata is
``UnknownPackage`` (the caller decides), any other error status ``IndexRefused``, no answer at
all ``IndexUnreachable``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ..errors import ArchiveTooLarge, IndexRefused, IndexUnreachable

TIMEOUT = 30  # seconds without an answer before a request fails
BLOCK = 1 << 16
USER_AGENT = "relnotes-qa (release notes reader; no code from archives is run)"


@dataclass(frozen=True, slots=True)
class Response:
    """A metadata answer: its status and body (404s are answers too)."""

    status: int
    body: bytes
    content_type: str = ""

    def json(self):
        return json.loads(self.body.decode("utf-8"))


def _open(url: str, accept: str, what: str):
    try:
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": accept})
    except ValueError:
        raise IndexRefused(f"{what}: the index gave a URL that cannot be fetched ({url!r}); check the index "
                           "URL (--index-url, --registry)") from None
    try:
        return urllib.request.urlopen(request, timeout=TIMEOUT)  # noqa: S310 - http(s) and file URLs of indexes
    except urllib.error.HTTPError as exc:
        return exc
    except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise IndexUnreachable(f"{what}: cannot reach {url} ({reason}); check the network or the index URL "
                               "(--index-url, --registry), then run the command again") from None


def get(url: str, what: str, accept: str = "application/json", limit: int = 64 << 20) -> Response:
    """GET ``url`` (metadata for ``what``, the package named in errors); a 404 comes back as a
    Response, any other error status raises IndexRefused."""
    answer = _open(url, accept, what)
    with answer:
        status = getattr(answer, "status", None) or answer.getcode() or 200
        if status >= 400 and status != 404:
            raise IndexRefused(f"{what}: the index answered {status} for {url}; check the index URL and your "
                               "access to it (--index-url, --registry), or try again later")
        body = _read_capped(answer, limit, what, url)
        return Response(status, body, answer.headers.get("Content-Type", "") if answer.headers else "")


def _read_capped(answer, limit: int, what: str, url: str) -> bytes:
    chunks, size = [], 0
    while block := answer.read(BLOCK):
        size += len(block)
        if size > limit:
            raise ArchiveTooLarge(f"{what}: the answer from {url} is over {limit} bytes; not read")
        chunks.append(block)
    return b"".join(chunks)


def download(url: str, target: Path, limit: int, what: str, hash_name: str) -> str:
    """Stream ``url`` into ``target``, stopping at ``limit`` bytes; returns the ``hash_name``
    digest of what arrived (hex for sha256, base64 for sha512 as npm's integrity writes it).

    Raises:
        IndexRefused: an error status (404 included: the index listed a file it does not serve).
        ArchiveTooLarge: over ``limit`` bytes, by Content-Length or while streaming.
        IndexUnreachable: no answer, or the connection broke.
    """
    answer = _open(url, "*/*", what)
    digest = hashlib.new(hash_name)
    with answer:
        status = getattr(answer, "status", None) or answer.getcode() or 200
        if status >= 400:
            raise IndexRefused(f"{what}: the index answered {status} for the file {url}; try again later, or "
                               "check the index URL")
        length = answer.headers.get("Content-Length") if answer.headers else None
        if length and length.isdigit() and int(length) > limit:
            raise ArchiveTooLarge(f"{what}: the archive is {int(length)} bytes, over the limit of {limit}; not downloaded")
        size = 0
        try:
            with open(target, "wb") as out:
                while block := answer.read(BLOCK):
                    size += len(block)
                    if size > limit:
                        raise ArchiveTooLarge(f"{what}: the archive grew past the limit of {limit} bytes while "
                                              "downloading; stopped and removed")
                    digest.update(block)
                    out.write(block)
        except (socket.timeout, TimeoutError, ConnectionError) as exc:
            raise IndexUnreachable(f"{what}: the download of {url} broke off ({exc}); run the command again") from None
    if hash_name == "sha256":
        return digest.hexdigest()
    return base64.b64encode(digest.digest()).decode("ascii")
