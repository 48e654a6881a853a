"""The release notes of packages: fetched from the package index the user already uses (PyPI
or npm style), kept in the user cache, and a project's dependencies with their pins.

    project, outcomes = add_project(Path("."), Indexes(None, None))   # network: relnotes add --project
    project = open_project(Path("."))                                   # offline: --project
    project.corpus            # CorpusInputs, one per dependency's notes, named after the package
    project.pin("urllib3")    # "1.26.15" (project.dependency("urllib3").pin_source: "lockfile")
"""

from .adding import Indexes, Outcome, add_packages, add_project, parse_spec
from .fetch import MAX_ARCHIVE_BYTES, Fetched, fetch
from .model import Archive, Dependency, NotesRecord, PackageRef, Project
from .project import open_project, read_dependencies

__all__ = [
    "Archive", "Dependency", "Fetched", "Indexes", "MAX_ARCHIVE_BYTES", "NotesRecord", "Outcome", "PackageRef",
    "Project", "add_packages", "add_project", "fetch", "open_project", "parse_spec", "read_dependencies",
]
