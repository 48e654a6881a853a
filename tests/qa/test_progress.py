"""The embedding bar's rate column."""

from __future__ import annotations

from types import SimpleNamespace

from qa.cli.progress import rate_column


def test_the_rate_reads_in_texts_a_second() -> None:
    column = rate_column()
    assert str(column.render(SimpleNamespace(finished_speed=None, speed=None))) == "- texts/s"
    assert str(column.render(SimpleNamespace(finished_speed=None, speed=1234.4))) == "1,234 texts/s"
    assert str(column.render(SimpleNamespace(finished_speed=98.0, speed=50.0))) == "98 texts/s"


def test_the_bar_names_the_document_being_embedded(monkeypatch) -> None:
    import io
    import sys

    from qa.cli.progress import embedding_progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with embedding_progress() as update:
        update(5, 10, "httpx/CHANGELOG.md (document 1 of 2)")
    assert "Embedding httpx/CHANGELOG.md (document 1 of 2)" in screen.getvalue()
    assert "5/10" in screen.getvalue()
    screen.truncate(0)
    with embedding_progress() as update:  # a file name is not rich markup, nor terminal control
        update(1, 2, "notes[/b]/[draft]\x1b[2Jx.md (document 1 of 1)")
    assert "notes[/b]/[draft]" in screen.getvalue() and "\x1b[2J" not in screen.getvalue()


def test_the_chat_notifies_each_quarter_with_the_document() -> None:
    from qa.cli.chat import _progress

    seen = []
    update = _progress(seen.append)
    for done in (1, 2, 5, 6, 10):
        update(done, 10, "rust/RELEASES.md (document 1 of 1)")
    assert seen == ["Embedding: 1/10 texts, rust/RELEASES.md (document 1 of 1)",
                    "Embedding: 5/10 texts, rust/RELEASES.md (document 1 of 1)",
                    "Embedding: 10/10 texts, rust/RELEASES.md (document 1 of 1)"]


def test_a_notice_during_a_build_has_a_line_of_its_own(tmp_path) -> None:
    """In a terminal (a pty here), the first build's notice is printed above the progress bar,
    not after it on the bar's line ("Embedding ━━━ 0/? - texts/s  Building the index at ...")."""
    import os
    import pty
    import subprocess
    import sys

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "CHANGES.md").write_text("# Tool 2.0\n\n## Fixes\n\n- Fixed the frobnicator.\n- Sped up the widget.\n")
    master, slave = pty.openpty()
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), COLUMNS="120")
    process = subprocess.Popen([sys.executable, "-m", "qa", "index", "--corpus", str(notes)],  # ask builds BM25 only
                               stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert process.wait(timeout=300) == 0, out.decode(errors="replace")
    at = out.find(b"Building the index at ")
    assert at > 0, out.decode(errors="replace")
    before = out[:at]
    assert before.endswith((b"\n", b"\r\x1b[2K")), before[-80:]  # the start of a line, the bar's line cleared
