"""The dependencies report (``relnotes deps``, the MCP ``dependencies`` tool, ``/v1/deps``): for
each dependency of a project, its pin, the newest release its notes hold, the releases between,
and the breaking / removed / deprecated items among them from the engine's upgrade digest
(``AnswerService.changes``), ordered by what needs attention first. Data only: ``qa.present.deps``
words it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from corpus.versions import version_key

from .model import DigestItem, ReleaseRange

if TYPE_CHECKING:  # pragma: no cover
    from corpus.packages import Dependency

    from .service import AnswerService

LEAD = ("removed", "deprecated")  # the kinds an upgrade must know first (removed: breaking too)
FIRST_ITEMS = 5  # items cited per dependency; the rest are counted


@dataclass(frozen=True, slots=True)
class DependencyReport:
    """One dependency's upgrade: from its pin to the newest release its notes hold."""

    dependency: Dependency
    newest: str | None = None  # the newest release the notes hold (None: no notes, or none read)
    releases_between: int | None = None  # releases after the pin up to ``newest`` (None: unknown)
    counts: tuple[tuple[str, int], ...] = ()  # items of those releases by kind, lead kinds first
    items: tuple[DigestItem, ...] = ()  # the first breaking / removed / deprecated items, cited
    pin_ahead: bool = False  # the pin is newer than every release the notes hold

    @property
    def count(self) -> dict[str, int]:
        return dict(self.counts)

    def attention(self) -> tuple:
        """The sort key: breaking items first, then deprecations, then how far behind; what cannot be
        told (no pin, no notes) after every dependency with a known upgrade."""
        known = self.releases_between is not None
        return (not known, -self.count.get("removed", 0), -self.count.get("deprecated", 0),
                -(self.releases_between or 0), self.dependency.name.lower())


def report(service: AnswerService, names: tuple[str, ...] = (), mode: str = "auto") -> tuple[DependencyReport, ...]:
    """The report of every dependency of the service's project (or of those ``names``), attention first.

    Raises:
        BadQuestion: the service was not opened with a project, or a name is no dependency of it.
    """
    from .errors import BadQuestion

    project = getattr(service, "project", None)
    if project is None:
        raise BadQuestion("The dependencies report needs a project: open it with --project DIR")
    wanted = []
    for name in names:
        found = project.dependency(name)
        if found is None:
            raise BadQuestion(f"{name!r} is no dependency of {project.directory}; its dependencies: "
                              + ", ".join(d.name for d in project.dependencies))
        wanted.append(found)
    reports = [one(service, d, mode) for d in (wanted or project.dependencies)]
    return tuple(sorted(reports, key=DependencyReport.attention))


def one(service: AnswerService, dependency: Dependency, mode: str = "auto") -> DependencyReport:
    """The report of one dependency (no digest when it has no pin or no notes held)."""
    if dependency.notes is None or not dependency.notes.shipped or dependency.product not in service.products:
        return DependencyReport(dependency)
    releases = service.catalogue.releases_of([dependency.product])
    published = [v for v in releases if _at_most(v, dependency.notes.version)]
    newest = (published or list(releases) or [None])[-1]  # an "unreleased" next version in the notes is not newest
    if newest is None or dependency.pin is None:
        return DependencyReport(dependency, newest)
    try:
        span = ReleaseRange.between(dependency.pin, newest)
    except ValueError:  # a pin that is no version ("latest", a tag)
        return DependencyReport(dependency, newest)
    between = service.catalogue.in_range(span, [dependency.product])
    if not between:
        return DependencyReport(dependency, newest, 0, pin_ahead=_at_most(newest, dependency.pin)
                                and newest != dependency.pin)
    digest = service.changes(span, dependency.product, mode=mode).digest
    counts: dict[str, int] = {}
    items: list[DigestItem] = []
    for release in digest.releases if digest else ():
        for item in release.items:
            counts[item.kind or "other"] = counts.get(item.kind or "other", 0) + 1
            if item.kind in LEAD:
                items.append(item)
        for kind, count in release.omitted:
            counts[kind] = counts.get(kind, 0) + count
    order = sorted(counts, key=lambda k: (k not in LEAD, LEAD.index(k) if k in LEAD else 0, k))
    return DependencyReport(dependency, newest, len(between), tuple((k, counts[k]) for k in order),
                            tuple(items[:FIRST_ITEMS]))


def _at_most(version: str, limit: str) -> bool:
    try:
        return version_key(version) <= version_key(limit)
    except ValueError:
        return False
