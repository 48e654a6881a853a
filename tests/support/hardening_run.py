"""Run ``relnotes`` in a child process under test guards (used by tests/hardening/test_hardening_*.py).

Usage: ``python tests/support/hardening_run.py ARGS...`` runs ``relnotes ARGS...``. Environment:

- ``RELNOTES_TEST_GUARDS=1``: any socket connect or unpickling ends the process at once with
  exit code 97 (socket) or 98 (pickle) and a ``guard:`` line on stderr, so no library can
  swallow the failure. ``RELNOTES_TEST_GUARD_TORCH=1`` also imports torch first and guards
  ``torch.load``.
- ``RELNOTES_TEST_FAKE_ENCODER=1``: tests/support/fakes.py's FakeEncoder replaces the model (fast);
  ``RELNOTES_TEST_FAKE_DIM`` sets its width (default 32).
- ``RELNOTES_TEST_PAUSE=POINT`` (and ``RELNOTES_TEST_PAUSE_S``, default 5): at that point of
  an index build, print ``PAUSE POINT`` on stderr and sleep, so a test can signal the
  process there. Points, in build order: ``load`` (reading the corpus, before the lock),
  ``embed`` (lock held, nothing written), ``write`` (temporary directory half written),
  ``manifest`` (temporary directory complete, not swapped in), ``swap`` (between the two
  renames of the swap).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _die(code: int, what: str) -> None:
    sys.stderr.write(f"guard: {what}\n")
    sys.stderr.flush()
    os._exit(code)


def install_guards() -> None:
    """Socket connects and unpickling end the process (exit 97 / 98)."""
    import pickle
    import socket

    import _pickle

    def no_connect(*args, **kwargs):
        _die(97, f"socket connect {args[1:]!r}")

    socket.socket.connect = no_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = no_connect  # type: ignore[method-assign]
    socket.create_connection = no_connect  # type: ignore[assignment]

    def no_unpickle(*args, **kwargs):
        _die(98, "unpickling")

    class NoUnpickler:
        def __init__(self, *args, **kwargs):
            no_unpickle()

    for module in (pickle, _pickle):
        module.load = no_unpickle  # type: ignore[assignment]
        module.loads = no_unpickle  # type: ignore[assignment]
        module.Unpickler = NoUnpickler  # type: ignore[assignment,misc]
    sys.addaudithook(lambda event, args: event == "pickle.find_class" and no_unpickle())

    import numpy as np
    import numpy.lib.format as npformat

    real_load, real_read = np.load, npformat.read_array

    def np_load(*args, allow_pickle=False, **kwargs):
        if allow_pickle:
            no_unpickle()
        return real_load(*args, allow_pickle=False, **kwargs)

    def read_array(*args, allow_pickle=False, **kwargs):
        if allow_pickle:
            no_unpickle()
        return real_read(*args, allow_pickle=False, **kwargs)

    np.load = np_load
    npformat.read_array = read_array
    if os.environ.get("RELNOTES_TEST_GUARD_TORCH") == "1":
        import torch

        torch.load = no_unpickle


def install_fake_encoder() -> None:
    """Every model is tests/support/fakes.py's FakeEncoder (named after the --model folder, if any)."""
    from tests.support.fakes import FakeEncoder

    import index.encode.encoders

    dim = int(os.environ.get("RELNOTES_TEST_FAKE_DIM", "32"))
    index.encode.encoders.Encoder = lambda model_path=None: FakeEncoder(  # type: ignore[assignment]
        name=Path(model_path).name if model_path else "fake-encoder", dim=dim
    )


def install_pause(point: str, seconds: float) -> None:
    """Stop at ``point`` of an index build: print ``PAUSE point`` on stderr, then sleep."""
    import index.build.writer as store
    import corpus as service  # where an open reads the corpus (index.lifecycle.skips takes it from there)

    def pause() -> None:
        sys.stderr.write(f"PAUSE {point}\n")
        sys.stderr.flush()
        time.sleep(seconds)

    def after(func):
        def wrapper(*args, **kwargs):
            result = func(*args, **kwargs)
            pause()
            return result

        return wrapper

    if point == "load":
        real_load = service.load_documents

        def load_documents(*args, **kwargs):
            pause()
            return real_load(*args, **kwargs)

        service.load_documents = load_documents
    elif point == "embed":
        real_embed = store.embed

        def embed(*args, **kwargs):
            pause()
            return real_embed(*args, **kwargs)

        store.embed = embed
    elif point == "write":
        store.write_chunks = after(store.write_chunks)
    elif point == "manifest":
        store.write_manifest = after(store.write_manifest)
    elif point == "swap":
        real_rename = os.rename

        def rename(src, dst, *args, **kwargs):
            real_rename(src, dst, *args, **kwargs)
            if ".old-" in Path(dst).name:  # the index moved aside, the new one not yet in place
                pause()

        os.rename = rename
    else:
        raise SystemExit(f"unknown pause point {point!r}")


def main() -> None:
    # Run as a script, sys.path starts at tests/support/: put this checkout first (its qa, its tests.support).
    sys.path.insert(0, str(REPO))
    if os.environ.get("RELNOTES_TEST_GUARDS") == "1":
        install_guards()
    if os.environ.get("RELNOTES_TEST_FAKE_ENCODER") == "1":
        install_fake_encoder()
    point = os.environ.get("RELNOTES_TEST_PAUSE")
    if point:
        install_pause(point, float(os.environ.get("RELNOTES_TEST_PAUSE_S", "5")))
    from qa.cli import main as relnotes

    sys.argv = ["relnotes", *sys.argv[1:]]
    relnotes()


if __name__ == "__main__":
    main()
