"""Regular expressions from untrusted sources (task files, agents, ADB clients) on a linear-time engine.

Python's ``re`` backtracks: ``(a+)+$`` against ``"a" * 40 + "b"`` takes longer than the universe.
Patterns that MobileGym did not write itself (a task file's ``regex_match`` pattern, ``grep -E``
over ADB) are compiled here with RE2 (the ``google-re2`` package), whose matching time is linear
in the subject for every pattern. RE2 has no backreferences and no lookaround; such a pattern is
refused with :class:`UnsafeRegexError` instead of silently meaning something else.

Both the judge and the simulated phone's shell use this module, so it depends on nothing else
of mobilegym.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

MAX_PATTERN_CHARS = 4096  # longer patterns are refused (RE2 also caps the compiled program's memory)
MAX_PROGRAM_BYTES = 8 << 20  # RE2's max_mem: the memory budget of one compiled pattern

__all__ = ["MAX_PATTERN_CHARS", "SafePattern", "UnsafeRegexError", "compile_untrusted"]


class UnsafeRegexError(ValueError):
    """A pattern that the linear-time engine cannot run (syntax error, backreference, lookaround, too long)."""


def _re2() -> Any:
    try:
        import re2
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        raise UnsafeRegexError("untrusted regular expressions need the google-re2 package "
                               "(pip install 'google-re2>=1.1')") from None
    return re2


def _text(subject: str) -> str:
    """The subject RE2 can take: lone surrogates (unencodable in UTF-8) become U+FFFD."""
    try:
        subject.encode("utf-8")
    except UnicodeEncodeError:
        return subject.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return subject


class SafePattern:
    """A compiled RE2 pattern with the ``re.Pattern`` calls MobileGym uses; matching is linear-time."""

    __slots__ = ("pattern", "_regex")

    def __init__(self, pattern: str, regex: Any) -> None:
        self.pattern = pattern
        self._regex = regex

    def search(self, subject: str) -> Any:
        return self._regex.search(_text(subject))

    def match(self, subject: str) -> Any:
        return self._regex.match(_text(subject))

    def fullmatch(self, subject: str) -> Any:
        return self._regex.fullmatch(_text(subject))

    def finditer(self, subject: str) -> Any:
        return self._regex.finditer(_text(subject))

    def __repr__(self) -> str:
        return f"SafePattern({self.pattern!r})"


def compile_untrusted(pattern: str, ignore_case: bool = False, dot_all: bool = False) -> SafePattern:
    """Compile ``pattern`` with RE2. The result has ``search``, ``match``, ``fullmatch`` and
    ``finditer`` like a ``re.Pattern`` and matches in time linear in the subject. Raises
    UnsafeRegexError when RE2 cannot compile it (invalid syntax, a backreference or lookaround,
    too long, too big)."""
    if not isinstance(pattern, str):
        raise UnsafeRegexError(f"a regular expression must be text, got {type(pattern).__name__}")
    return _compile(pattern, bool(ignore_case), bool(dot_all))


@lru_cache(maxsize=256)
def _compile(pattern: str, ignore_case: bool, dot_all: bool) -> SafePattern:
    if len(pattern) > MAX_PATTERN_CHARS:
        raise UnsafeRegexError(f"regular expression of {len(pattern)} characters is over the "
                               f"{MAX_PATTERN_CHARS}-character limit")
    if "\x00" in pattern:
        raise UnsafeRegexError("regular expression contains a NUL character")
    re2 = _re2()
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = not ignore_case
    options.dot_nl = dot_all
    options.max_mem = MAX_PROGRAM_BYTES
    try:
        return SafePattern(pattern, re2.compile(pattern, options))
    except re2.error as exc:
        detail = exc.args[0] if exc.args else exc
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        raise UnsafeRegexError(f"invalid regular expression {pattern!r} for RE2, the linear-time engine "
                               f"(it has no backreferences or lookaround): {detail}") from None
    except (TypeError, ValueError, UnicodeError) as exc:
        raise UnsafeRegexError(f"regular expression {pattern!r} cannot be compiled: {exc}") from None
