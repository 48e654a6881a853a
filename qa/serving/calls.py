"""One call of a server: run on a worker thread, wait for the index, our errors mapped once.

The HTTP routes and the MCP tools both answer through ``call``; each turns an ``Unanswered``
into its own medium (an HTTP status with ``{"error": ...}``, a tool or resource error) and
keeps its message, so one failure reads the same over REST and MCP.
"""

from __future__ import annotations

from typing import Callable, Literal, TypeVar

import anyio

from ..errors import USER_ERRORS, BadQuestion
from .api import BadArgument

LOAD_WAIT = 600.0  # seconds a call waits for a first build of the index
STILL_LOADING = "The index is still being built; try again in a minute."

Why = Literal["argument", "loading", "failed"]
T = TypeVar("T")


class Unanswered(Exception):
    """Raised by ``call`` when the service could not answer: ``why`` is "argument" (a bad argument
    or question the caller can correct), "loading" (the index is still being built) or "failed"
    (the corpus or index did not open, or an index file is damaged)."""

    def __init__(self, why: Why, message: str) -> None:
        super().__init__(message)
        self.why = why


async def call(service, fn: Callable[[object], T], limiter: anyio.CapacityLimiter | None = None) -> T:
    """``fn(the opened service)`` on a worker thread of ``limiter``, once ``service`` (anything
    with ``get(timeout)``: a ``BackgroundService``) has opened, waiting up to LOAD_WAIT for it.

    Raises:
        Unanswered: ``fn`` or the open raised one of our errors, or the index is still loading.
    """

    def run() -> T:
        return fn(service.get(LOAD_WAIT))

    try:
        return await anyio.to_thread.run_sync(run, limiter=limiter)
    except (BadArgument, BadQuestion) as exc:
        raise Unanswered("argument", str(exc)) from None
    except TimeoutError:
        raise Unanswered("loading", STILL_LOADING) from None
    except USER_ERRORS as exc:
        raise Unanswered("failed", str(exc)) from None
