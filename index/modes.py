"""Retrieval modes (a light module: the CLI imports it for its choices without loading numpy)."""

from __future__ import annotations

from typing import Literal, get_args

Mode = Literal["hybrid", "bm25", "dense"]
MODES: tuple[str, ...] = get_args(Mode)
