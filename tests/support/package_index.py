"""A package index on 127.0.0.1 for the tests of ``relnotes add``: real sdists and npm tarballs
built in a temporary folder, served as the real indexes answer.

Routes: ``/pypi/NAME/json`` and ``/pypi/NAME/VERSION/json`` (the JSON API: ``info`` with
``name``, ``version``, ``project_urls``; ``urls`` with ``packagetype``, ``filename``, ``url``,
``digests.sha256``, ``size``), ``/simple/NAME/`` (PEP 691 JSON when asked for, else PEP 503
HTML with ``#sha256=`` fragments), ``/files/FILE``, and an npm registry at ``/npm/NAME`` (the
package document: ``dist-tags.latest``, ``versions[v].dist.tarball`` and ``.integrity``).
``overrides`` answers a path with another status; ``lies`` changes what the metadata says.
``github`` replays GitHub's API and raw files (``tests.support.github_replay``), ``pages`` serves
web pages (path -> (content type, bytes)).
The server stops when the test ends, and by itself after ``LIFETIME`` seconds.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.support.github_replay import GitHubReplay

LIFETIME = 300  # seconds: a server a test forgot still stops


def tar_gz(members: dict[str, bytes | tuple[str, str]]) -> bytes:
    """A .tar.gz of ``members``: name -> bytes for a file, or ("symlink"|"hardlink", target)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            info.mtime = 1_700_000_000
            if isinstance(content, tuple):
                info.type = tarfile.SYMTYPE if content[0] == "symlink" else tarfile.LNKTYPE
                info.linkname = content[1]
                tar.addfile(info)
            else:
                info.size = len(content)
                tar.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


def sdist(name: str, version: str, files: dict[str, bytes | tuple[str, str]]) -> bytes:
    """A source distribution as setuptools writes one: ``NAME-VERSION/`` with PKG-INFO and ``files``."""
    top = f"{name.replace('-', '_')}-{version}"
    pkg_info = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    return tar_gz({f"{top}/PKG-INFO": pkg_info, **{f"{top}/{k}": v for k, v in files.items()}})


def npm_tarball(files: dict[str, bytes]) -> bytes:
    """An npm package tarball: everything under ``package/``."""
    return tar_gz({f"package/{k}": v for k, v in files.items()})


@dataclass
class Release:
    ecosystem: str
    name: str
    version: str
    filename: str
    data: bytes
    project_urls: dict = field(default_factory=dict)
    repository: str | None = None
    directory: str | None = None
    description: str = ""  # PyPI's info.description, npm's readme
    description_type: str | None = None


class PackageIndex:
    """The published releases, the server over them, and what it was asked."""

    def __init__(self) -> None:
        self.releases: list[Release] = []
        self.overrides: dict[str, int] = {}  # path -> status to answer instead
        self.lies: dict[str, dict] = {}  # filename -> fields the metadata states falsely ("size", "sha256")
        self.json_api = True  # False: /pypi/ answers 404, as an index with only the simple API
        self.send_length = True  # False: files are sent with no Content-Length (ended by closing)
        self.requests: list[str] = []
        self.server: ThreadingHTTPServer | None = None
        self.github = GitHubReplay("")
        self.pages: dict[str, tuple[str, bytes]] = {}
        self.redirects: dict[str, str] = {}  # path -> Location answered with a 302

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def simple(self) -> str:
        return f"{self.url}/simple/"

    @property
    def registry(self) -> str:
        return f"{self.url}/npm/"

    def publish(self, name: str, version: str, files: dict, *, project_urls: dict | None = None,
                description: str = "", description_type: str | None = None) -> Release:
        """Publish an sdist of ``name`` ``version`` holding ``files`` (the newest published last)."""
        release = Release("pypi", name, version, f"{name.replace('-', '_')}-{version}.tar.gz", sdist(name, version, files),
                          project_urls or {}, description=description, description_type=description_type)
        self.releases.append(release)
        return release

    def publish_raw(self, name: str, version: str, data: bytes, filename: str | None = None) -> Release:
        """Publish ``data`` as the sdist of ``name`` ``version`` whatever it holds (a broken archive)."""
        release = Release("pypi", name, version, filename or f"{name}-{version}.tar.gz", data)
        self.releases.append(release)
        return release

    def publish_npm(self, name: str, version: str, files: dict, repository: str | None = None,
                    directory: str | None = None, readme: str = "") -> Release:
        filename = f"{name.rsplit('/', 1)[-1]}-{version}.tgz"
        release = Release("npm", name, version, filename, npm_tarball(files), repository=repository,
                          directory=directory, description=readme)
        self.releases.append(release)
        return release

    def of(self, ecosystem: str, name: str) -> list[Release]:
        key = name.lower().replace("_", "-")
        return [r for r in self.releases if r.ecosystem == ecosystem and r.name.lower().replace("_", "-") == key]

    def file_entry(self, release: Release) -> dict:
        lie = self.lies.get(release.filename, {})
        return {"filename": release.filename, "url": f"{self.url}/files/{release.filename}", "packagetype": "sdist",
                "digests": {"sha256": lie.get("sha256", hashlib.sha256(release.data).hexdigest())},
                "hashes": {"sha256": lie.get("sha256", hashlib.sha256(release.data).hexdigest())},
                "size": lie.get("size", len(release.data)), "yanked": False}

    def start(self) -> "PackageIndex":
        index = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server name
                index.requests.append(self.path)
                replayed = index.github.answer(self.path, {k.lower(): v for k, v in self.headers.items()})
                extra: dict[str, str] = {}
                if replayed is not None:
                    status, body, kind, extra = replayed
                elif self.path in index.redirects:
                    status, body, kind, extra = 302, b"", "text/html", {"Location": index.redirects[self.path]}
                elif self.path in index.pages:
                    status, body, kind = 200, index.pages[self.path][1], index.pages[self.path][0]
                else:
                    status, body, kind = index.answer(self.path, self.headers.get("Accept", ""))
                self.send_response(status)
                self.send_header("Content-Type", kind)
                for key, value in extra.items():
                    self.send_header(key, value)
                if index.send_length or not self.path.startswith("/files/"):
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.github.base = self.url
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        timer = threading.Timer(LIFETIME, self.stop)
        timer.daemon = True
        timer.start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def answer(self, path: str, accept: str) -> tuple[int, bytes, str]:
        if path in self.overrides:
            return self.overrides[path], b'{"message": "refused"}', "application/json"
        parts = [p for p in path.split("?")[0].split("/") if p]
        if parts[:1] == ["files"] and len(parts) == 2:
            found = [r for r in self.releases if r.filename == parts[1]]
            return (200, found[0].data, "application/octet-stream") if found else (404, b"", "text/plain")
        if parts[:1] == ["pypi"] and parts[-1:] == ["json"] and self.json_api:
            return self._json_api(parts[1], parts[2] if len(parts) == 4 else None)
        if parts[:1] == ["simple"] and len(parts) == 2:
            return self._simple(parts[1], accept)
        if parts[:1] == ["npm"] and len(parts) >= 2:
            return self._npm("/".join(parts[1:]).replace("%2f", "/").replace("%2F", "/"))
        return 404, b'{"message": "Not Found"}', "application/json"

    def _json_api(self, name: str, version: str | None) -> tuple[int, bytes, str]:
        releases = self.of("pypi", name)
        chosen = [r for r in releases if r.version == version] if version else releases[-1:]
        if not chosen:
            return 404, b'{"message": "Not Found"}', "application/json"
        release = chosen[0]
        info = {"name": release.name, "version": release.version, "project_urls": release.project_urls,
                "description": release.description, "description_content_type": release.description_type}
        body = {"info": info, "urls": [self.file_entry(release)] if release.data else []}
        return 200, json.dumps(body).encode(), "application/json"

    def _simple(self, name: str, accept: str) -> tuple[int, bytes, str]:
        releases = self.of("pypi", name)
        if not releases:
            return 404, b"Not Found", "text/plain"
        files = [self.file_entry(r) for r in releases]
        if "application/vnd.pypi.simple.v1+json" in accept:
            body = {"meta": {"api-version": "1.1"}, "name": name, "files": files,
                    "versions": [r.version for r in releases]}
            return 200, json.dumps(body).encode(), "application/vnd.pypi.simple.v1+json"
        links = "".join(f'<a href="{f["url"]}#sha256={f["hashes"]["sha256"]}">{f["filename"]}</a><br/>' for f in files)
        return 200, f"<html><body>{links}</body></html>".encode(), "text/html"

    def _npm(self, name: str) -> tuple[int, bytes, str]:
        releases = self.of("npm", name)
        if not releases:
            return 404, b'{"error": "Not found"}', "application/json"
        versions = {}
        for r in releases:
            lie = self.lies.get(r.filename, {})
            integrity = "sha512-" + lie.get("sha512", base64.b64encode(hashlib.sha512(r.data).digest()).decode())
            versions[r.version] = {"name": r.name, "version": r.version,
                                   "dist": {"tarball": f"{self.url}/files/{r.filename}", "integrity": integrity},
                                   **({"repository": {"type": "git", "url": r.repository,
                                                      **({"directory": r.directory} if r.directory else {})}}
                                      if r.repository else {})}
        body = {"name": releases[0].name, "dist-tags": {"latest": releases[-1].version}, "versions": versions,
                "readme": releases[-1].description}
        return 200, json.dumps(body).encode(), "application/json"
