"""Opening a corpus's index for the answering service: the index built or updated as allowed, and a
project's dependencies' notes as corpus inputs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from corpus import CorpusInput
    from corpus.packages import Project
    from index import BuildReport, LoadedIndex


def open_corpus_index(corpus_paths: Sequence[Path | CorpusInput] = (), index_dir: Path | None = None,
                      model_path: Path | None = None, **options) -> tuple[LoadedIndex, BuildReport | None]:
    """The index of a corpus (empty paths: the bundled notes), built or updated first as
    ``index.open_index`` decides, and the build report (None when nothing was built).

    ``options`` go to ``index.open_index``: update, rebuild, dense, skip_bad, on_skip, notify, progress.

    Raises:
        CorpusError, RelnotesIndexError: as ``index.open_index``.
    """
    from index import open_index

    return open_index(list(corpus_paths) or None, index_dir=index_dir, model_path=model_path, **options)


def project_corpus(project: Project) -> tuple[CorpusInput, ...]:
    """The notes of ``project``'s dependencies as corpus inputs (each its package's product).

    Raises:
        NothingFetched: no dependency of the project has notes (none fetched, or none shipped).
    """
    if not project.corpus:
        from corpus.errors import NothingFetched

        raise NothingFetched(f"No dependency of {project.directory} has release notes fetched (none fetched yet, or "
                             f"none ships them); run: relnotes add --project {project.directory}")
    return project.corpus
