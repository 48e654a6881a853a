"""What an index publishes for a package: the source archive of its newest (or a given) release,
with its hash and size, and the metadata the other sources of notes read (description or readme,
project URLs, repository and its directory).

PyPI-style indexes: the JSON API beside the simple index (``<root>/pypi/NAME/json``, or
``/pypi/NAME/VERSION/json``) where the index has one; else the simple API itself (PEP 691 JSON,
else PEP 503 HTML), the newest release read from the sdist file names. npm-style registries:
the package document (``<registry>/NAME``), its ``dist-tags.latest`` and the version's
``dist.tarball`` and ``dist.integrity`` (sha512). Only metadata is read; nothing is built or run.
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import replace

from packaging.utils import InvalidSdistFilename, parse_sdist_filename
from packaging.version import InvalidVersion, Version

from ..errors import NoSourceArchive, UnknownPackage
from .http import get
from .model import Archive, PackageRef, Published, normalized
from .simple import simple_files

CHANGELOG_LABELS = ("changelog", "changes", "release notes", "releasenotes", "release-notes", "history",
                    "news", "what's new", "whatsnew")
SDIST_SUFFIXES = (".tar.gz", ".tgz", ".zip", ".tar.bz2", ".tar.xz")


def find_release(ref: PackageRef, indexes: tuple[str, ...]) -> Published:
    """The release of ``ref`` on the first of ``indexes`` (PyPI-style, or one npm registry for an
    npm package) that knows the package: its source archive (None when it has only wheels, or its
    archive cannot be checked: ``no_archive`` says why) and its metadata.

    Raises:
        UnknownPackage: no index knows the package, or the version asked.
        IndexRefused, IndexUnreachable: as ``http.get``.
    """
    if ref.ecosystem == "npm":
        return _npm(ref, indexes[0])
    asked = [i for i in indexes if i.startswith(("http://", "https://"))]
    for index in asked:
        found = _pypi(ref, index)
        if found is not None:
            return found
    where = ", ".join(asked) or "no http(s) index"
    raise UnknownPackage(f"{ref}: no such package{' version' if ref.version else ''} on {where}; check the "
                         "name (and version), or the index (--index-url)")


def _root(index: str) -> str:
    """The server a simple index lives on: ``https://host/simple/`` -> ``https://host``."""
    base = index.rstrip("/")
    return base[: -len("/simple")] if base.endswith("/simple") else base


def _pypi(ref: PackageRef, index: str) -> Published | None:
    name = ref.key
    url = f"{_root(index)}/pypi/{urllib.parse.quote(name)}/{urllib.parse.quote(ref.version) + '/' if ref.version else ''}json"
    answer = get(url, str(ref))
    if answer.status == 200 and "json" in answer.content_type:
        try:
            return replace(_from_json_api(ref, answer.json(), index, url), metadata_url=url)
        except (ValueError, KeyError, TypeError, AttributeError):
            pass  # not the JSON API's shape: ask the simple index
    files = simple_files(index, name, str(ref))
    if files is None:
        return None
    try:
        archive = _from_simple(ref, files, index)
    except NoSourceArchive as exc:
        if not ref.version:  # the simple API alone names no version without an archive
            raise
        return Published("pypi", ref.name, ref.version, index, None, str(exc))
    return Published("pypi", archive.name, archive.version, index, archive)


def _from_json_api(ref: PackageRef, data: dict, index: str, base: str) -> Published:
    info = data["info"]
    version = info["version"]
    urls = info.get("project_urls") if isinstance(info.get("project_urls"), dict) else {}
    pairs = tuple((str(k), v) for k, v in urls.items() if isinstance(v, str))
    if isinstance(info.get("home_page"), str) and info["home_page"]:
        pairs += (("Homepage", info["home_page"]),)
    description = info.get("description") if isinstance(info.get("description"), str) else ""
    kind = str(info.get("description_content_type") or "").split(";")[0].strip().lower()
    sdists = [f for f in data["urls"] if f.get("packagetype") == "sdist" and not f.get("yanked")]
    archive, why = None, ""
    if sdists:
        best = sdists[0]
        archive = Archive("pypi", info["name"], version, urllib.parse.urljoin(base, best["url"]), best["filename"],
                          "sha256", best["digests"]["sha256"], index, best.get("size"), changelog_url(urls))
    else:
        why = "the index has no source archive for it (wheels only)"
    return Published("pypi", info["name"], version, index, archive, why, description, kind, pairs,
                     changelog_url=changelog_url(urls))


def changelog_url(project_urls) -> str | None:
    """The changelog link of a package's metadata (``Changelog``, ``Release notes``, ...), if any."""
    if not isinstance(project_urls, dict):
        return None
    for label, url in project_urls.items():
        words = re.sub(r"[\s_-]+", " ", str(label)).strip().lower()
        if isinstance(url, str) and any(words == w or words.startswith(w) for w in CHANGELOG_LABELS):
            return url
    return None


def _from_simple(ref: PackageRef, files: list[dict], index: str) -> Archive:
    releases: dict[Version, list[dict]] = {}
    for f in files:
        try:
            name, version = parse_sdist_filename(f["filename"])
        except (InvalidSdistFilename, InvalidVersion, KeyError):
            continue
        if normalized("pypi", str(name)) == ref.key and not f.get("yanked"):
            releases.setdefault(version, []).append(f)
    if ref.version:
        wanted = [v for v in releases if str(v) == ref.version or v == _version(ref.version)]
        if not wanted:
            raise UnknownPackage(f"{ref}: the index {index} lists no source archive of that version; check the version")
        version = wanted[0]
    else:
        final = [v for v in releases if not v.is_prerelease] or list(releases)
        if not final:
            raise NoSourceArchive(f"{ref}: the index {index} lists no source archive (wheels only), so no notes to read")
        version = max(final)
    chosen = releases[version][0]
    hashes = chosen.get("hashes") or {}
    if "sha256" not in hashes:
        raise NoSourceArchive(f"{ref}: the index {index} publishes no sha256 for {chosen['filename']}; "
                              "not downloading an archive it cannot check")
    url = urllib.parse.urljoin(chosen.get("base", index), chosen["url"])
    return Archive("pypi", ref.name, str(version), url.split("#")[0], chosen["filename"], "sha256", hashes["sha256"],
                   index, chosen.get("size"))


def _version(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


def _npm(ref: PackageRef, registry: str) -> Published:
    name = ref.name if not ref.name.startswith("@") else "@" + urllib.parse.quote(ref.name[1:], safe="")
    document = f"{registry.rstrip('/')}/{name}"
    answer = get(document, str(ref))
    if answer.status == 404:
        raise UnknownPackage(f"{ref}: no such package on {registry}; check the name (npm view {ref.name})")
    try:
        data = answer.json()
        version = ref.version or data["dist-tags"]["latest"]
        meta = data["versions"].get(version)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise UnknownPackage(f"{ref}: the registry {registry} answered with no package document; check --registry") from None
    if not isinstance(meta, dict):
        raise UnknownPackage(f"{ref}: {registry} has no version {version}; check the version (npm view {ref.name} versions)")
    dist = meta.get("dist") or {}
    integrity = str(dist.get("integrity") or "")
    name = str(data.get("name") or ref.name)
    repository = meta.get("repository") or data.get("repository")
    url = repository.get("url") if isinstance(repository, dict) else repository
    directory = repository.get("directory") if isinstance(repository, dict) else None
    readme = meta.get("readme") if isinstance(meta.get("readme"), str) else data.get("readme")
    releases = _repository_releases(url if isinstance(url, str) else None)
    archive, why = None, ""
    if integrity.startswith("sha512-") and dist.get("tarball"):
        tarball = str(dist["tarball"])
        archive = Archive("npm", name, version, tarball, tarball.rsplit("/", 1)[-1], "sha512",
                          integrity[len("sha512-"):], registry, None, releases)
    else:
        why = f"{registry} publishes no sha512 integrity for {version}; not downloading an archive it cannot check"
    return Published("npm", name, version, registry, archive, why, readme if isinstance(readme, str) else "",
                     "text/markdown", (), url if isinstance(url, str) else None,
                     directory if isinstance(directory, str) else None, releases, document)


def _repository_releases(url: str | None) -> str | None:
    """A GitHub repository's releases page, from npm's ``repository`` URL."""
    from .repository import github_repository

    found = github_repository(url) if url else None
    return f"https://github.com/{found[0]}/{found[1]}/releases" if found else None
