"""Fetching notes and the dependencies report, worded: a line per fetched package, the run's summary,
the report as text (``relnotes deps``) and as JSON records (``--json``, the MCP tool, ``/v1/deps``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from . import cite

if TYPE_CHECKING:  # pragma: no cover
    from corpus.packages import Dependency, Outcome

    from ..deps import DependencyReport

FILES_SHOWN = 3
ITEM_CHARS = 160


def _files(dependency: Dependency) -> str:
    files = [f.path for f in dependency.notes.files] if dependency.notes else []
    shown = ", ".join(files[:FILES_SHOWN]) + (f" and {len(files) - FILES_SHOWN} more" if len(files) > FILES_SHOWN else "")
    return f"{len(files)} notes file{'s' if len(files) != 1 else ''}: {shown}"


def not_shipped(dependency: Dependency) -> str:
    """Why a package has no notes: each source tried and why it gave none (and its changelog link)."""
    notes = dependency.notes
    url = notes.changelog_url if notes else None
    if notes and notes.tried:
        tried = "; ".join(f"{t.source}: {t.why}" for t in notes.tried)
        return f"no release notes found ({tried})" + (f"; its changelog: {url}" if url else "")
    where = (f"; its changelog: {url} (a GitHub releases export, gh api repos/OWNER/REPO/releases > notes.json, "
             "is read with --corpus)") if url else "; its metadata names no changelog"
    return f"no release notes in its archive{where}"


def source_text(notes) -> str:
    """Which source gave the notes: ``from its archive``, ``from GitHub Releases (URL)``..."""
    named = {"archive": "its archive", "metadata": "its description on the index" if notes.ecosystem == "pypi"
             else "its readme on the registry", "repository": "its repository", "releases": "GitHub Releases",
             "webpage": "its changelog page"}
    where = named.get(notes.source, notes.source or "its archive")
    return f"from {where}" + (f" ({notes.file_url})" if notes.source not in ("archive", "metadata", "") else "")


def fetch_line(outcome: Outcome) -> str:
    """One package's progress line: fetched (which files), up to date, no notes shipped, or failed (why)."""
    d = outcome.dependency
    if outcome.action == "failed":
        return f"failed: {d.problem}"
    label = f"{d.notes.name} {d.notes.version}"
    if not d.notes.shipped:
        return f"{label}: {not_shipped(d)}"
    if outcome.action == "up to date":
        return f"{label}: up to date ({_files(d)} {source_text(d.notes)}; fetched {d.notes.fetched})"
    return f"{label}: fetched {_files(d)} {source_text(d.notes)}"


def fetch_summary(outcomes: Sequence[Outcome]) -> str:
    """``12 packages: 9 with notes, 2 not shipped, 1 failed (3 fetched, 8 already up to date).``"""
    count = {k: sum(o.summary == k for o in outcomes) for k in ("found", "not shipped", "failed")}
    fetched = sum(o.action == "fetched" for o in outcomes)
    current = sum(o.action == "up to date" for o in outcomes)
    noun = "package" if len(outcomes) == 1 else "packages"
    return (f"{len(outcomes)} {noun}: {count['found']} with notes, {count['not shipped']} not shipped, "
            f"{count['failed']} failed ({fetched} fetched, {current} already up to date).")


def next_steps(outcomes: Sequence[Outcome], project: Path | None) -> list[str]:
    """What to run next: the project's questions, or each package's notes as a --corpus."""
    if project is not None:
        return [f"Ask: relnotes ask QUESTION --project {project}", f"Upgrades: relnotes deps --project {project}"]
    return [f"{o.dependency.notes.name}: relnotes ask QUESTION --corpus {o.dependency.notes.name}="
            f"{o.dependency.notes.files_dir}" for o in outcomes if o.dependency.notes and o.dependency.notes.shipped]


def pin_text(d: Dependency) -> str:
    if d.pin is None:
        return f"no pin ({d.requirement or 'any version'}: no lockfile entry, exact pin or installed version)"
    return f"pinned {d.pin} ({d.pin_source}: {d.pin_file})"


def notes_text(d: Dependency) -> str:
    """Where the notes came from, or why there are none."""
    if d.status == "failed" and d.notes is None:
        return f"no notes: the fetch failed ({d.problem})"
    if d.notes is None:
        return "no notes fetched yet (run: relnotes add --project DIR)"
    if not d.notes.shipped:
        return not_shipped(d)
    if d.notes.index_url == "local":
        return f"notes from {d.notes.file_url}"
    if d.notes.source not in ("archive", ""):
        return f"notes of {d.notes.name} {d.notes.version} {source_text(d.notes)}"
    return f"notes of {d.notes.name} {d.notes.version} from {d.notes.file_url} ({d.notes.hash_name} checked)"


def counts_text(report: DependencyReport) -> str:
    parts = [f"{n} {'breaking/removed' if k == 'removed' else k}" for k, n in report.counts if n]
    return ", ".join(parts) or "no changes listed"


def report_text(reports: Sequence[DependencyReport], project: Path) -> str:
    """The report for a terminal: one block a dependency, attention first, the first items cited."""
    lines = [f"Dependencies of {project} ({len(reports)}, what needs attention first)", ""]
    for r in reports:
        d = r.dependency
        head = f"{d.product}  {pin_text(d)}"
        if r.newest is None:
            unread = "; no release is read in them" if d.notes and d.notes.shipped else ""
            lines += [head, f"  {notes_text(d)}{unread}", ""]
            continue
        if r.releases_between is None:
            lines += [f"{head}  newest in its notes: {r.newest}", ""]
            continue
        if r.releases_between == 0:
            ahead = f" (the notes stop at {r.newest})" if r.pin_ahead else ""
            lines += [f"{head}  up to date with its notes{ahead}", ""]
            continue
        s = "s" if r.releases_between != 1 else ""
        lines.append(f"{head}  newest {r.newest}: {r.releases_between} release{s} between; {counts_text(r)}")
        for item in r.items:
            text = " ".join(item.text.split())
            text = text if len(text) <= ITEM_CHARS else text[:ITEM_CHARS].rstrip() + " …"
            lines.append(f"  - {item.citation.version} [{item.kind}] {text}  ({cite.location(item.citation)})")
        lines.append("")
    without = [r.dependency.product for r in reports if not (r.dependency.notes and r.dependency.notes.shipped)]
    if without:
        lines.append(f"Without release notes ({len(without)}): {', '.join(without)} (each source tried and why: "
                     f"relnotes add --project {project})")
    return "\n".join(lines).rstrip() + "\n"


def notes_record(d: Dependency) -> dict:
    """Where a dependency's notes came from (index, file, hash, when, which files), or why there are none."""
    n = d.notes
    if n is None:
        return {"status": d.status, "why": d.problem or "not fetched yet: run relnotes add --project DIR"}
    record = {"status": "found" if n.shipped else "not shipped", "version": n.version, "index_url": n.index_url,
              "file_url": n.file_url, "hash": {n.hash_name: n.hash_value}, "fetched": n.fetched,
              "folder": str(n.files_dir), "files": [f.path for f in n.files], "changelog_url": n.changelog_url,
              "source": n.source or None, "tried": [{"source": t.source, "why": t.why} for t in n.tried]}
    if not n.shipped:
        record["why"] = not_shipped(d)
    if d.problem:
        record["last_error"] = d.problem
    return record


def report_record(r: DependencyReport) -> dict:
    """One dependency of the report as JSON (``relnotes deps --json``, the MCP tool, ``/v1/deps``)."""
    d = r.dependency
    return {"name": d.name, "ecosystem": d.ecosystem, "product": d.product, "requirement": d.requirement,
            "pinned": d.pin, "pin_source": d.pin_source, "pin_file": d.pin_file, "newest": r.newest,
            "releases_between": r.releases_between, "pin_ahead_of_notes": r.pin_ahead, "counts": dict(r.counts),
            "items": [i.to_json() for i in r.items], "notes": notes_record(d)}
