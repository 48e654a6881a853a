"""A package's public API imported on first use (PEP 562), for ``corpus`` and ``index``.

    __getattr__, __dir__ = lazy_api(__name__, {"load_corpus": "pipeline", ...})

Each name is imported from its module (relative to the package) the first time it is used, then
kept in the package's namespace; ``dir()`` lists every name of ``__all__``, loaded or not.
"""

from __future__ import annotations

import importlib
import sys
from typing import Callable


def lazy_api(package: str, names: dict[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` (its ``__name__``) for ``names``: each
    public name -> the module, relative to the package, that defines it."""
    namespace = vars(sys.modules[package])

    def __getattr__(name: str):  # noqa: N807 - the module hook PEP 562 names
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted(set(namespace.get("__all__", ())) | set(namespace))

    return __getattr__, __dir__
