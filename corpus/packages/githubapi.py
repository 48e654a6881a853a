"""GitHub's REST API and raw files, as the repository and releases sources read them.

The API base is ``GITHUB_API_URL`` (GitHub Enterprise, Actions set it), else the public one; a
token is optional: ``GITHUB_TOKEN`` or ``GH_TOKEN``, else ``gh auth token`` when gh is installed.
Raw files come from ``RELNOTES_GITHUB_RAW_URL``, else the public raw host beside the public API,
else (an Enterprise API) the contents endpoint with the raw media type. A spent rate limit is
``RateLimited``, one line with the reset time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import urllib.parse
from datetime import datetime, timezone
from functools import cache

from ..errors import RateLimited, SourceRefused
from ..regex import lazy_compile
from . import web

PUBLIC_API = "https://api.github.com"
PUBLIC_RAW = "https://raw.githubusercontent.com"
API_VERSION = "2022-11-28"
_LINK = lazy_compile(r'<([^>]+)>\s*;\s*rel="?([\w ]+)"?')


def api_base() -> str:
    return (os.environ.get("GITHUB_API_URL") or PUBLIC_API).rstrip("/")


def raw_base() -> str | None:
    """Where raw files are served (``BASE/OWNER/REPO/REF/PATH``), or None: use the contents endpoint."""
    given = os.environ.get("RELNOTES_GITHUB_RAW_URL")
    if given:
        return given.rstrip("/")
    return PUBLIC_RAW if api_base() == PUBLIC_API else None


@cache
def _gh_token() -> str:
    if not shutil.which("gh"):
        return ""
    try:
        done = subprocess.run(["gh", "auth", "token"], capture_output=True, text=True, timeout=10,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def token() -> str:
    """The token to send, "" for none."""
    return (os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN") or _gh_token()).strip()


def _headers(accept: str, etag: str | None = None) -> dict[str, str]:
    headers = {"Accept": accept, "X-GitHub-Api-Version": API_VERSION}
    if token():
        headers["Authorization"] = f"Bearer {token()}"
    if etag:
        headers["If-None-Match"] = etag
    return headers


def rate_limit_message(what: str, headers: dict[str, str]) -> str:
    """The one line for a spent rate limit, with its reset time when the answer gives it."""
    reset = headers.get("x-ratelimit-reset", "")
    limit = headers.get("x-ratelimit-limit", "")
    when = ""
    if reset.isdigit():
        at = datetime.fromtimestamp(int(reset), timezone.utc)
        minutes = max(0, round((at - datetime.now(timezone.utc)).total_seconds() / 60))
        when = f"; it resets at {at:%Y-%m-%d %H:%M} UTC (in {minutes} min)"
    elif headers.get("retry-after", "").isdigit():
        when = f"; retry after {headers['retry-after']} s"
    hint = "run again then" if token() else "set GITHUB_TOKEN (or gh auth login) for a higher limit, or run again then"
    return f"{what}: GitHub's API rate limit is spent ({limit or '?'} requests an hour){when}; {hint}"


def api_get(path: str, what: str, *, etag: str | None = None, url: str | None = None,
            limit: int = web.PAGE_LIMIT, accept: str = "application/vnd.github+json") -> web.Answer:
    """GET the API ``path`` (``/repos/O/R/releases``) or a full ``url`` (a Link header's next page).

    Raises:
        RateLimited: a 403 or 429 saying the rate limit is spent.
        SourceRefused, UnsafeURL, IndexUnreachable, ArchiveTooLarge: as ``web.get``.
    """
    try:
        return web.get(url or api_base() + path, what, accept=accept, headers=_headers(accept, etag), limit=limit)
    except web.Refused as exc:
        if exc.status in (403, 429) and (exc.headers.get("x-ratelimit-remaining") == "0"
                                         or "retry-after" in exc.headers):
            raise RateLimited(rate_limit_message(what, exc.headers)) from None
        if exc.status in (401, 403):
            raise SourceRefused(f"{what}: GitHub's API answered {exc.status} for {url or api_base() + path}; "
                                "check GITHUB_TOKEN (or unset it), then run again") from None
        raise


def next_page(answer: web.Answer) -> str | None:
    """The ``rel="next"`` URL of a Link header, or None on the last page."""
    for target, rel in _LINK.findall(answer.headers.get("link", "")):
        if "next" in rel.split():
            return target
    return None


def raw_file(owner: str, name: str, ref: str, path: str, what: str) -> web.Answer:
    """A file of the repository at ``ref`` (a 404 comes back as the Answer)."""
    quoted = "/".join(urllib.parse.quote(p) for p in path.split("/"))
    base = raw_base()
    if base:
        try:
            return web.get(f"{base}/{owner}/{name}/{urllib.parse.quote(ref, safe='')}/{quoted}", what,
                           headers={"Authorization": f"Bearer {token()}"} if token() and base != PUBLIC_RAW else None)
        except web.Refused as exc:
            raise SourceRefused(str(exc)) from None
    return api_get(f"/repos/{owner}/{name}/contents/{quoted}?ref={urllib.parse.quote(ref, safe='')}", what,
                   accept="application/vnd.github.raw+json")  # the file's bytes, not its JSON description
