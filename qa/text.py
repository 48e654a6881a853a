"""Document and question text shown in a terminal: control characters made visible, never sent."""

from __future__ import annotations

from corpus.regex import lazy_compile

CONTROL_CHARS = lazy_compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # all but tab and newline


def safe(text: str) -> str:
    """Text with control characters (terminal escapes) shown as ``\\xNN`` instead of sent."""
    return CONTROL_CHARS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def one_line(text: str) -> str:
    """:func:`safe` text on one line: line breaks (a file name may hold one) shown as ``\\n``."""
    return safe(text).replace("\n", "\\n").replace("\t", " ")
