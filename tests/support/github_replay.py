"""GitHub as ``relnotes add``'s repository and releases sources see it, replayed on the local
package index (``tests.support.package_index``) in the real API's shapes:

- ``/github/repos/O/R/releases?per_page=N&page=P``: release objects (``url``, ``html_url``, ``id``,
  ``tag_name``, ``name``, ``draft``, ``prerelease``, ``published_at``, ``body``, ``author``,
  ``assets``), ``page_size`` a page, a ``Link`` header with ``rel="next"``/``rel="last"``, a weak
  ``ETag`` and a 304 for a matching ``If-None-Match``;
- ``/github/repos/O/R/git/trees/REF?recursive=1``: ``{"sha", "url", "tree": [{"path", "mode",
  "type", "sha", "size", "url"}], "truncated"}``, 404 ``{"message": "Not Found", ...}`` for an
  unknown ref, as GitHub answers;
- ``/raw/O/R/REF/PATH``: the raw file, 404 ``404: Not Found`` as text;
- ``rate_limited``: every API call answers 403 with the rate-limit headers GitHub sends.
"""

from __future__ import annotations

import hashlib
import json
import urllib.parse
from dataclasses import dataclass, field

NOT_FOUND = {"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "status": "404"}
RATE_LIMITED = {"message": "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated "
                           "requests get a higher rate limit. Check out the documentation for more details.)",
                "documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}
RESET = 1_900_000_000  # 2030-03-17 17:46:40 UTC


def release(slug: str, number: int, tag: str, body: str, *, draft: bool = False, prerelease: bool = False,
            published: str = "2024-05-01T10:00:00Z") -> dict:
    """A release object as GET /repos/O/R/releases lists it."""
    return {"url": f"https://api.github.com/repos/{slug}/releases/{number}", "assets_url": "",
            "html_url": f"https://github.com/{slug}/releases/tag/{urllib.parse.quote(tag)}", "id": number,
            "author": {"login": "octocat", "id": 1, "type": "User"}, "node_id": f"RE_{number}", "tag_name": tag,
            "target_commitish": "main", "name": tag, "draft": draft, "prerelease": prerelease,
            "created_at": published, "published_at": published, "assets": [], "tarball_url": "", "zipball_url": "",
            "body": body}


@dataclass
class Repo:
    files: dict[str, dict[str, bytes]] = field(default_factory=dict)  # ref ("HEAD", a tag) -> path -> bytes
    releases: list[dict] = field(default_factory=list)  # newest first, as the API lists them


@dataclass
class GitHubReplay:
    base: str  # the package index's URL
    repos: dict[str, Repo] = field(default_factory=dict)
    page_size: int = 100
    rate_limited: bool = False
    seen: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (path, request headers, lower case)

    def repo(self, slug: str) -> Repo:
        return self.repos.setdefault(slug, Repo())

    def answer(self, path: str, headers: dict[str, str]) -> tuple[int, bytes, str, dict[str, str]] | None:
        split = urllib.parse.urlsplit(path)
        parts = [urllib.parse.unquote(p) for p in split.path.split("/") if p]
        query = dict(urllib.parse.parse_qsl(split.query))
        if parts[:1] == ["raw"] and len(parts) >= 5:
            self.seen.append((path, headers))
            files = self.repos.get(f"{parts[1]}/{parts[2]}", Repo()).files.get(parts[3], {})
            found = files.get("/".join(parts[4:]))
            return (200, found, "text/plain; charset=utf-8", {}) if found is not None else \
                (404, b"404: Not Found", "text/plain; charset=utf-8", {})
        if parts[:2] != ["github", "repos"] or len(parts) < 5:
            return None
        self.seen.append((path, headers))
        if self.rate_limited:
            return 403, json.dumps(RATE_LIMITED).encode(), "application/json; charset=utf-8", {
                "X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(RESET),
                "X-RateLimit-Used": "60", "X-RateLimit-Resource": "core"}
        slug = f"{parts[2]}/{parts[3]}"
        repo = self.repos.get(slug)
        if repo is None:
            return 404, json.dumps(NOT_FOUND).encode(), "application/json; charset=utf-8", {}
        if parts[4:] == ["releases"]:
            return self._releases(slug, repo, int(query.get("page", "1")), headers)
        if parts[4:6] == ["git", "trees"] and len(parts) == 7:
            files = repo.files.get(parts[6])
            if files is None:
                return 404, json.dumps(NOT_FOUND).encode(), "application/json; charset=utf-8", {}
            tree = [{"path": p, "mode": "100644", "type": "blob", "sha": hashlib.sha1(d).hexdigest(), "size": len(d),
                     "url": ""} for p, d in sorted(files.items())]
            folders = sorted({p.rsplit("/", 1)[0] for p in files if "/" in p})
            tree += [{"path": f, "mode": "040000", "type": "tree", "sha": "0" * 40, "url": ""} for f in folders]
            body = {"sha": "1" * 40, "url": "", "tree": tree, "truncated": False}
            return 200, json.dumps(body).encode(), "application/json; charset=utf-8", {}
        return 404, json.dumps(NOT_FOUND).encode(), "application/json; charset=utf-8", {}

    def _releases(self, slug: str, repo: Repo, page: int, headers: dict[str, str]):
        etag = 'W/"' + hashlib.sha256(json.dumps(repo.releases).encode()).hexdigest()[:32] + '"'
        if page == 1 and headers.get("if-none-match") == etag:
            return 304, b"", "application/json; charset=utf-8", {"ETag": etag}
        size = self.page_size
        last = max(1, -(-len(repo.releases) // size))
        body = repo.releases[(page - 1) * size: page * size]
        link = f"{self.base}/github/repos/{slug}/releases?per_page=100&page="
        links = []
        if page < last:
            links += [f'<{link}{page + 1}>; rel="next"', f'<{link}{last}>; rel="last"']
        if page > 1:
            links += [f'<{link}{page - 1}>; rel="prev"', f'<{link}1>; rel="first"']
        extra = {"ETag": etag, "X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "59"}
        if links:
            extra["Link"] = ", ".join(links)
        return 200, json.dumps(body).encode(), "application/json; charset=utf-8", extra
