"""Retrieval modes (a light module: the CLI imports it for its choices without loading numpy)."""

from __future__ import annotations

from typing import Literal, get_args

from .errors import UnknownMode

Mode = Literal["hybrid", "bm25", "dense"]
MODES: tuple[str, ...] = get_args(Mode)


def check_mode(mode: str) -> Mode:
    """Return ``mode`` if valid, else raise UnknownMode listing the valid ones."""
    if mode not in MODES:
        raise UnknownMode(f"Unknown mode {mode!r}; use one of: {', '.join(MODES)}")
    return mode  # type: ignore[return-value]
