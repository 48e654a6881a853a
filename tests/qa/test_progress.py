"""The embedding bar's rate column."""

from __future__ import annotations

from types import SimpleNamespace

from qa.cli.progress import rate_column


def test_the_rate_reads_in_texts_a_second() -> None:
    column = rate_column()
    assert str(column.render(SimpleNamespace(finished_speed=None, speed=None))) == "- texts/s"
    assert str(column.render(SimpleNamespace(finished_speed=None, speed=1234.4))) == "1,234 texts/s"
    assert str(column.render(SimpleNamespace(finished_speed=98.0, speed=50.0))) == "98 texts/s"
