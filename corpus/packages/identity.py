"""What an archive's own metadata file says of its product (``corpus.metadata``'s Identity)."""

from __future__ import annotations

from ..metadata import PROJECT_FILES, Identity, identity_of
from .archive import Member

MAX_METADATA_BYTES = 4 * 1024**2  # a PKG-INFO holds the README (numpy's is ~50 kB); more is not metadata


def archive_identity(members: list[Member], read) -> Identity | None:
    """What the metadata file at an archive's top (an sdist's PKG-INFO, an npm tarball's
    package.json, else a pyproject.toml or Cargo.toml) says of its product; None when none does."""
    top = {m.name.split("/", 1)[1]: m for m in members if m.name.count("/") == 1 and m.size <= MAX_METADATA_BYTES}
    for filename in PROJECT_FILES:
        if filename in top:
            found = identity_of(filename, read(top[filename]).decode("utf-8", "replace"))
            if found is not None:
                return found
    return None
