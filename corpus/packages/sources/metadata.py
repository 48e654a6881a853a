"""Source 2: the index's own text for the release (PyPI's ``info.description``, npm's ``readme``)
when it holds release sections (at least ``MIN_RELEASES`` release headings): many projects append
their changelog to the description they publish."""

from __future__ import annotations

from ..model import NotesFile, NotesRecord, Published

NAME = "metadata"
MIN_RELEASES = 2  # one release heading is a README's "What's new in 2.0", not a changelog


def _format(release: Published) -> tuple[str, str]:
    """The corpus format and file suffix of the text (PyPI: reST when the type is not said)."""
    from ...repair import as_lines
    from ...rst import looks_like_rst

    kind = release.description_type
    if "markdown" in kind:
        return "markdown", ".md"
    if "rst" in kind or (not kind and looks_like_rst(as_lines(release.description))):
        return "rst", ".rst"
    return ("text", ".txt") if kind == "text/plain" else ("markdown", ".md")


def release_count(text: str, fmt: str) -> int:
    """How many release headings the corpus reader finds in ``text`` (0 when it cannot read it)."""
    from ...errors import CorpusError
    from ...sections import build_outline

    try:
        return len(build_outline(text, fmt, None).releases)
    except CorpusError:
        return 0


def find(release: Published, earlier: NotesRecord | None, limit: int):
    from . import Found, NoNotesHere, sha256

    field = "description" if release.ecosystem == "pypi" else "readme"
    text = release.description
    if not text.strip():
        raise NoNotesHere(f"the index's metadata has no {field}")
    fmt, suffix = _format(release)
    count = release_count(text, fmt)
    if count < MIN_RELEASES:
        raise NoNotesHere(f"its {field} on the index holds no release sections ({count} release heading"
                          f"{'s' if count != 1 else ''})")
    data = text.encode("utf-8")
    digest = sha256(data)
    kept = NotesFile(f"{field}{suffix}", release.metadata_url, digest)
    return Found(((kept, data),), (), release.metadata_url, "sha256", digest)
