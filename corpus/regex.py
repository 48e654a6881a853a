"""Regular expressions compiled on first use, so importing a module compiles none of them.

    _BULLET = lazy_compile(r"^([ \\t]*)(?:[-*+]|\\d+[.)])[ \\t]+(?=\\S)")
    _BULLET.match(line)      # compiled here, once; later calls go straight to the compiled pattern

A question imports some 40 modules that define about 180 patterns at module level, and uses about
half of them: compiling all of them at import was 80-90 ms of a cold ``relnotes ask`` (decision
0019). The first use of any attribute compiles the pattern and binds the compiled pattern's methods
on the object, so later calls cost what a compiled pattern's do. ``pattern`` is there before the
compile (other patterns are built from it). What is not the same: ``match.re`` is the compiled
pattern, not this object, and ``re.sub(lazy, ...)`` wants ``lazy.compiled``.
"""

from __future__ import annotations

import re

_METHODS = ("search", "match", "fullmatch", "sub", "subn", "finditer", "findall", "split")


class LazyPattern:
    """A pattern and its flags, compiled by ``re.compile`` the first time an attribute is asked."""

    def __init__(self, pattern: str, flags: int | re.RegexFlag = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if it was not yet)."""
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = re.compile(self.pattern, self._flags)
            self.__dict__.update({name: getattr(compiled, name) for name in _METHODS}, _compiled=compiled)
        return compiled

    def __getattr__(self, name: str):
        if name.startswith("__"):  # copy, pickle and friends probe for hooks: not the pattern's
            raise AttributeError(name)
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r}, {self._flags!r})"


def lazy_compile(pattern: str, flags: int | re.RegexFlag = 0) -> LazyPattern:
    """``re.compile(pattern, flags)``, done the first time the result is used."""
    return LazyPattern(pattern, flags)
