"""GitHub recorded as git snapshots: a loopback server answering the two calls the repository
source makes (the recursive file list of a ref, and a raw file at a ref) from bare git clones, so
``fetch_notes.py --github-snapshots DIR`` measures that source where GitHub itself does not answer.

DIR holds one bare clone a repository, named ``OWNER+NAME`` (a ``repo`` folder inside it is used when
there is one); the clone's tags and HEAD are the refs served. The answers take the API's shapes (as
``tests/support/github_replay.py`` does): ``GET /api/repos/O/R/git/trees/REF?recursive=1`` ->
``{"sha", "tree": [{"path", "mode", "type", "sha", "size"}], "truncated": false}``, a 404 for a ref
the clone lacks; ``GET /raw/O/R/REF/PATH`` -> the file's bytes. What a clone cannot answer is a 503
(a repository not in DIR, GitHub Releases, which git does not hold): the chain reports that source
as not asked, never as "no notes", so the measurement counts only what the snapshots record.
"""

from __future__ import annotations

import json
import subprocess
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

NOT_FOUND = json.dumps({"message": "Not Found", "status": "404"}).encode()


def clones(folder: Path) -> dict[str, Path]:
    """owner/name (lower case) -> the bare clone's git folder."""
    found = {}
    for entry in sorted(folder.iterdir()) if folder.is_dir() else []:
        if "+" in entry.name:
            git = entry / "repo" if (entry / "repo").is_dir() else entry
            found[entry.name.replace("+", "/", 1).lower()] = git
    return found


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True, timeout=120)


def tree(repo: Path, ref: str) -> dict | None:
    commit = _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if commit.returncode != 0:
        return None
    listing = _git(repo, "ls-tree", "-r", "-l", "--full-tree", commit.stdout.decode().strip())
    entries = []
    for line in listing.stdout.decode("utf-8", "replace").splitlines():
        meta, _, path = line.partition("\t")
        mode, kind, sha, size = meta.split()
        if kind == "blob":  # a blob the snapshot lacks (its largest files) has size "BAD": listed, unreadable
            entries.append({"path": path, "mode": mode, "type": "blob", "sha": sha,
                            "size": int(size) if size.isdigit() else 0, "url": ""})
    return {"sha": commit.stdout.decode().strip(), "url": "", "tree": entries, "truncated": False}


class _Handler(BaseHTTPRequestHandler):
    repos: dict[str, Path] = {}
    asked: list[str] = []

    def log_message(self, *args) -> None:  # quiet
        pass

    def _send(self, status: int, body: bytes, kind: str = "application/json; charset=utf-8") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        split = urllib.parse.urlsplit(self.path)
        parts = [urllib.parse.unquote(p) for p in split.path.split("/") if p]
        self.asked.append(split.path)
        if parts[:1] == ["raw"] and len(parts) >= 5:
            repo = self.repos.get(f"{parts[1]}/{parts[2]}".lower())
            if repo is None:
                return self._send(503, b"not recorded", "text/plain")
            blob = _git(repo, "cat-file", "blob", f"{parts[3]}:{'/'.join(parts[4:])}")
            return self._send(200, blob.stdout, "text/plain; charset=utf-8") if blob.returncode == 0 else \
                self._send(404, b"404: Not Found", "text/plain; charset=utf-8")
        if parts[:2] == ["api", "repos"] and len(parts) == 7 and parts[4:6] == ["git", "trees"]:
            repo = self.repos.get(f"{parts[2]}/{parts[3]}".lower())
            if repo is None:
                return self._send(503, b'{"message": "not recorded"}')
            listing = tree(repo, parts[6])
            return self._send(200, json.dumps(listing).encode()) if listing else self._send(404, NOT_FOUND)
        return self._send(503, b'{"message": "not recorded"}')


def serve(folder: Path) -> tuple[str, str, ThreadingHTTPServer]:
    """Start the server on a free loopback port: (API base, raw base, server to shut down)."""
    handler = type("Handler", (_Handler,), {"repos": clones(folder), "asked": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    return base + "/api", base + "/raw", server
