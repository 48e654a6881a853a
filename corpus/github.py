"""GitHub release records: one release of one product, as ``gh api repos/O/R/releases`` (a list,
snake_case keys, ``url`` the API's) or ``gh release view --json ...`` (one object, camelCase
keys, ``url`` the release page) export them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from .products import canonical
from .regex import lazy_compile
from .versions import parse_version

TAG_FIELDS = ("tag_name", "tagName")
# A release page: https://github.com/encode/httpx/releases/tag/0.28.0 (any host but an API one).
_PAGE = lazy_compile(r"^https?://(?!api\.)[^/\s]+/(?!api/)([^/\s]+)/([^/\s]+)/releases(?:/\S*)?$", re.I)
# The REST API's URL of a release: https://api.github.com/repos/encode/httpx/releases/184221906
_API = lazy_compile(r"^https?://api\.github\.com/repos/([^/\s]+)/([^/\s]+)/releases(?:/\S*)?$", re.I)


@dataclass(frozen=True, slots=True)
class Release:
    """What a GitHub release record says besides its body."""

    tag: str
    title: str
    version: str | None
    product: str | None
    url: str | None
    date: str | None
    prerelease: bool = False


def is_release(obj: dict) -> bool:
    """Whether a JSON record is a GitHub release (it has a tag)."""
    return any(_text(obj, k) for k in TAG_FIELDS)


def is_draft(obj: dict) -> bool:
    """Whether a JSON record is a draft GitHub release (skipped: a draft is not published notes)."""
    return is_release(obj) and (obj.get("draft") is True or obj.get("isDraft") is True)


def tag_of(obj: dict) -> str | None:
    """The release's tag (``v2.9.0``), else None."""
    return next((t for t in (_text(obj, k) for k in TAG_FIELDS) if t), None)


def release_of(obj: dict) -> Release:
    """The tag, title, version, product, page URL, date and pre-release flag of a release record.

    The version comes from the tag (``pydantic-v2.10.1`` -> ``2.10.1``), else from the name;
    the title is the name, else the tag; the product is the repository's name (``httpx``;
    ``pytorch`` spelled as the known product ``PyTorch``); the URL is the release page, never
    the API's.
    """
    tag = tag_of(obj) or ""
    name = _text(obj, "name")
    title = name or tag
    page, repo = _page(obj, tag)
    return Release(
        tag=tag,
        title=title,
        version=parse_version(tag) or (parse_version(name) if name else None),
        product=canonical(repo) if repo else None,
        url=page,
        date=next(filter(None, (_text(obj, k) for k in ("published_at", "publishedAt", "created_at", "createdAt"))),
                  None),
        prerelease=obj.get("prerelease") is True or obj.get("isPrerelease") is True,
    )


def _text(obj: dict, key: str) -> str | None:
    v = obj.get(key)
    return v.strip() if isinstance(v, str) and v.strip() else None


def _page(obj: dict, tag: str) -> tuple[str | None, str | None]:
    """The release page and the repository's name: ``html_url``, or ``url`` when it is a page;
    from the API's ``url`` alone the page is built from the repository and the tag."""
    for key in ("html_url", "url"):
        m = _PAGE.match(_text(obj, key) or "")
        if m:
            return m.group(0), m.group(2)
    m = _API.match(_text(obj, "url") or "")
    if m:
        owner, repo = m.group(1), m.group(2)
        return (f"https://github.com/{owner}/{repo}/releases/tag/{quote(tag, safe='')}" if tag else None), repo
    return None, None

