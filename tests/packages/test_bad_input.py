"""Bad input to ``relnotes add``: each a one-line error naming the package and what to do, exit 1,
nothing written outside the package's folder, and the notes fetched before kept."""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from corpus.errors import ArchiveTooLarge
from corpus.packages import Indexes, PackageRef, add_packages, fetch
from corpus.packages.store import cache_home, package_folder
from qa.cli import cli
from tests.packages.conftest import CHANGES_RST
from tests.support.package_index import tar_gz

GOOD = {"CHANGES.rst": CHANGES_RST}
NOISE = random.Random(0).randbytes(5000)  # does not compress: the archive is over 1,000 bytes
TOP = "victim-2.0.0"


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes (folders only as paths)."""
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else b"") for p in sorted(root.rglob("*"))}


def _bad(index, case: str) -> str:
    """Publish version 2.0.0 of victim broken as ``case`` says; the text its error must hold."""
    if case in ("refused-403", "refused-500"):
        index.overrides["/pypi/victim/json"] = int(case[-3:])
        index.publish("victim", "2.0.0", GOOD)
        return f"the index answered {case[-3:]}"
    if case == "file-404":
        release = index.publish("victim", "2.0.0", GOOD)
        index.overrides[f"/files/{release.filename}"] = 404
        return "the index answered 404 for the file"
    if case == "hash-mismatch":
        release = index.publish("victim", "2.0.0", GOOD)
        index.lies[release.filename] = {"sha256": "0" * 64}
        return "the archive's sha256 is"
    if case == "not-an-archive":
        index.publish_raw("victim", "2.0.0", b"<html><body>Service Unavailable</body></html>")
        return "not a readable tar or zip archive"
    if case == "too-large-by-metadata":
        release = index.publish("victim", "2.0.0", GOOD)
        index.lies[release.filename] = {"size": 3 * 1024**3}
        return "over the limit of 2147483648; not downloaded"
    if case in ("zip-traversal", "zip-symlink"):
        index.publish_raw("victim", "2.0.0", _zip(case), filename="victim-2.0.0.zip")
        return "a member outside its folder" if case == "zip-traversal" else "a link"
    members = {
        "path-traversal": {f"{TOP}/CHANGES.rst": CHANGES_RST, "../../x": b"escaped"},
        "traversal-inside": {f"{TOP}/CHANGES.rst": CHANGES_RST, f"{TOP}/../../x": b"escaped"},
        "absolute-path": {f"{TOP}/CHANGES.rst": CHANGES_RST, "/tmp/relnotes-escaped-x": b"escaped"},
        "symlink": {f"{TOP}/CHANGES.rst": ("symlink", "/etc/passwd")},
        "hardlink": {f"{TOP}/README": b"hi", f"{TOP}/CHANGES.rst": ("hardlink", "/etc/passwd")},
    }[case]
    index.publish_raw("victim", "2.0.0", tar_gz(members))
    return {"path-traversal": "a member outside its folder", "traversal-inside": "a member outside its folder",
            "absolute-path": "an absolute path", "symlink": "a link", "hardlink": "a link"}[case]


CASES = ["refused-403", "refused-500", "file-404", "hash-mismatch", "not-an-archive", "too-large-by-metadata",
         "path-traversal", "traversal-inside", "absolute-path", "symlink", "hardlink", "zip-traversal", "zip-symlink"]


def _zip(case: str) -> bytes:
    """A zip sdist with a ``../../x`` member, or with CHANGES.rst a symbolic link."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        if case == "zip-traversal":
            archive.writestr(f"{TOP}/CHANGES.rst", CHANGES_RST)
            archive.writestr("../../x", b"escaped")
        else:
            link = zipfile.ZipInfo(f"{TOP}/CHANGES.rst")
            link.external_attr = (0o120777 << 16)
            archive.writestr(link, "/etc/passwd")
    return buffer.getvalue()


@pytest.mark.parametrize("case", CASES)
def test_a_bad_release_is_one_line_and_keeps_the_notes_fetched_before(package_index, tmp_path: Path, case: str) -> None:
    package_index.publish("victim", "1.0.0", GOOD)
    assert CliRunner().invoke(cli, ["add", "victim"]).exit_code == 0
    before = _tree(cache_home())
    expected = _bad(package_index, case)
    result = CliRunner().invoke(cli, ["add", "victim"])
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("[1/1] failed: victim") and expected in line, line
    assert "Traceback" not in result.output
    assert _tree(cache_home()) == before  # nothing new, nothing half-written, 1.0.0 as it was
    assert (package_folder("pypi", "victim") / "1.0.0" / "files" / "CHANGES.rst").read_bytes() == CHANGES_RST
    assert not Path("/tmp/relnotes-escaped-x").exists() and not (tmp_path.parent / "x").exists()
    if case == "too-large-by-metadata":
        assert not [r for r in package_index.requests if r.startswith("/files/victim-2.0.0")]  # never downloaded


def test_an_unknown_package_is_one_line(package_index) -> None:
    result = CliRunner().invoke(cli, ["add", "no-such-package"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"[1/1] failed: no-such-package: no such package on {package_index.simple}; check the name (and version), "
        "or the index (--index-url)"]


def test_an_unknown_version_and_an_unknown_npm_package(package_index) -> None:
    package_index.publish("victim", "1.0.0", GOOD)
    result = CliRunner().invoke(cli, ["add", "victim==9.9", "npm:no-such-thing"])
    assert result.exit_code == 1
    first, second = result.stderr.splitlines()
    assert first.startswith("[1/2] failed: victim==9.9: ") and "check the version" in first
    assert second.startswith("[2/2] failed: npm:no-such-thing: no such package on ") and "npm view" in second


def test_an_index_nobody_answers_is_a_network_failure(package_index) -> None:
    result = CliRunner().invoke(cli, ["add", "victim", "--index-url", "http://127.0.0.1:9/simple/"])
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith("[1/1] failed: victim: cannot reach http://127.0.0.1:9/pypi/victim/json")
    assert "check the network or the index URL" in line


def test_the_stream_is_cut_at_the_limit_when_the_size_is_not_told(package_index) -> None:
    release = package_index.publish("victim", "1.0.0", {"CHANGES.rst": CHANGES_RST, "data.bin": NOISE})
    package_index.lies[release.filename] = {"size": 10}  # the metadata says small
    package_index.send_length = False  # and the answer has no Content-Length
    with pytest.raises(ArchiveTooLarge, match="grew past the limit of 1000 bytes while downloading"):
        fetch(PackageRef("pypi", "victim"), (package_index.simple,), limit=1000)
    (outcome,) = add_packages(["victim"], Indexes(None, None), limit=1000)
    assert outcome.action == "failed" and "victim 1.0.0: the archive grew past" in outcome.dependency.problem
    assert not package_folder("pypi", "victim").exists() or not any(package_folder("pypi", "victim").iterdir())


def test_a_content_length_over_the_limit_is_refused_before_reading(package_index) -> None:
    package_index.publish("victim", "1.0.0", {"CHANGES.rst": CHANGES_RST, "data.bin": NOISE})
    package_index.lies["victim-1.0.0.tar.gz"] = {"size": 10}
    with pytest.raises(ArchiveTooLarge, match=r"the archive is \d+ bytes, over the limit of 1000; not downloaded"):
        fetch(PackageRef("pypi", "victim"), (package_index.simple,), limit=1000)


def test_no_index_at_all_says_how_to_give_one(monkeypatch, tmp_path: Path) -> None:
    from corpus.errors import NoIndexConfigured
    from corpus.packages import settings

    monkeypatch.delenv("PIP_INDEX_URL", raising=False)
    monkeypatch.setattr(settings, "_pip", lambda *args: "")  # no pip to ask
    with pytest.raises(NoIndexConfigured, match="pass --index-url URL or set PIP_INDEX_URL"):
        settings.pypi_indexes()
    monkeypatch.delenv("npm_config_registry", raising=False)
    monkeypatch.delenv("NPM_CONFIG_REGISTRY", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no npm on PATH
    with pytest.raises(NoIndexConfigured, match="pass --registry URL"):
        settings.npm_registry()


def test_a_link_inside_the_archive_is_left_out_and_said_and_the_rest_kept(package_index) -> None:
    """Issue 43: docs/CONTRIBUTING.md -> ../CONTRIBUTING.md refused the whole sdist."""
    package_index.publish_raw("linked", "1.0.0", tar_gz({
        "linked-1.0.0/CHANGES.rst": CHANGES_RST, "linked-1.0.0/CONTRIBUTING.md": b"Send patches.\n",
        "linked-1.0.0/docs/CONTRIBUTING.md": ("symlink", "../CONTRIBUTING.md"),
        "linked-1.0.0/docs/changelog.rst": ("symlink", "../CHANGES.rst"),
        "linked-1.0.0/docs/history.rst": ("hardlink", "linked-1.0.0/CHANGES.rst"),
    }))
    result = CliRunner().invoke(cli, ["add", "linked"])
    assert result.exit_code == 0, result.output
    record = fetch(PackageRef("pypi", "linked"), (package_index.simple,)).record
    assert [f.path for f in record.files] == ["CHANGES.rst"]
    assert (record.files_dir / "CHANGES.rst").read_bytes() == CHANGES_RST
    assert {s.member: s.why for s in record.skipped} == {
        "linked-1.0.0/docs/CONTRIBUTING.md": "a link to ../CONTRIBUTING.md, not followed",
        "linked-1.0.0/docs/changelog.rst": "a link to ../CHANGES.rst, not followed",
        "linked-1.0.0/docs/history.rst": "a link to linked-1.0.0/CHANGES.rst, not followed"}
    assert sorted(p.name for p in record.files_dir.rglob("*")) == ["CHANGES.rst"]


@pytest.mark.parametrize("target", ["../../etc/passwd", "../..", "/etc/passwd"])
def test_a_link_leaving_the_archive_still_refuses_it(package_index, target: str) -> None:
    package_index.publish_raw("linked", "1.0.0", tar_gz({
        "linked-1.0.0/CHANGES.rst": CHANGES_RST, "linked-1.0.0/docs/x.md": ("symlink", target)}))
    (outcome,) = add_packages(["linked"], Indexes(None, None))
    assert outcome.action == "failed" and "the archive holds a link" in outcome.dependency.problem
