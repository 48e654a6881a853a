"""Retrieval modes (a light module: the CLI imports it for its choices without loading numpy).

``MODES`` are what a search runs: bm25, dense or hybrid. A question may also ask ``auto`` (the
default of every front end): hybrid when the index has its vectors, else bm25 with a note saying
so. An explicit hybrid or dense never runs as bm25: the front end builds the vectors first, or
waits for the build under way (``qa.service``).
"""

from __future__ import annotations

from typing import Literal, get_args

from .errors import UnknownMode

Mode = Literal["hybrid", "bm25", "dense"]
MODES: tuple[str, ...] = get_args(Mode)
AUTO = "auto"
ASKED_MODES: tuple[str, ...] = (AUTO, *MODES)  # what a question may ask for


def check_mode(mode: str) -> Mode:
    """Return ``mode`` if valid, else raise UnknownMode listing the valid ones."""
    if mode not in MODES:
        raise UnknownMode(f"Unknown mode {mode!r}; use one of: {', '.join(MODES)}")
    return mode  # type: ignore[return-value]


def check_asked_mode(mode: str) -> str:
    """Return ``mode`` if a question may ask for it (auto or a retrieval mode), else raise UnknownMode."""
    if mode not in ASKED_MODES:
        raise UnknownMode(f"Unknown mode {mode!r}; use one of: {', '.join(ASKED_MODES)}")
    return mode


def needs_vectors(mode: str) -> bool:
    """Whether a question in ``mode`` must be answered with the vectors (hybrid or dense asked by name)."""
    return mode in ("hybrid", "dense")
