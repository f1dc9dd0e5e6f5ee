"""Strict JSON for task files and JSON evidence: finite numbers, bounded nesting, no duplicate keys.

Python's ``json`` accepts ``NaN``, ``Infinity`` and ``1e400`` (which becomes infinity), and a
document nested 10,000 levels deep raises a bare RecursionError (900 levels parse, then crash
whatever walks them later). :func:`loads_strict` refuses all of these up front and names each
place (a JSON path such as ``$.evaluator.expected.value``).
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_DEPTH = 64  # objects and arrays nested deeper than this are refused
MAX_INT = 2 ** 63  # integers must fit in a signed 64-bit int (Android's long, the phone's clock)
MAX_PROBLEMS = 20  # a document with more bad numbers lists only the first ones

Problem = tuple[str, str]
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class StrictJSONError(ValueError):
    """A document that is not strict JSON; ``problems`` lists (JSON path, message) pairs."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{where}: {message}" for where, message in problems))


class _Bad:
    """Stands in for a refused number while parsing, so the walk can name where it was."""

    __slots__ = ("text", "why")

    def __init__(self, text: str, why: str) -> None:
        self.text, self.why = text, why


def _constant(name: str) -> _Bad:
    return _Bad(name, f"{name} is not a JSON number (only finite numbers are allowed)")


def _float(text: str) -> Any:
    value = float(text)
    if not math.isfinite(value):
        return _Bad(text, f"{text} is too large for a 64-bit float (it would become infinity)")
    return value


def _int(text: str) -> Any:
    if len(text) > 20:
        return _Bad(text[:24] + "...", f"an integer of {len(text.lstrip('-'))} digits is outside the 64-bit range")
    value = int(text)
    if not -MAX_INT <= value < MAX_INT:
        return _Bad(text, f"{text} is outside the 64-bit integer range")
    return value


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def child_path(path: str, key: str | int) -> str:
    """``$.a`` + ``b`` -> ``$.a.b``; ``$.a`` + 0 -> ``$.a[0]``; odd keys are quoted: ``$['a b']``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if _IDENT.match(key) else f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def structure_problems(doc: Any, max_depth: int = MAX_DEPTH, root: str = "$") -> list[Problem]:
    """Refused numbers (left by :func:`loads_strict`'s hooks) and nesting deeper than ``max_depth``,
    found without recursion. Containers deeper than the limit are reported once and not entered."""
    problems: list[Problem] = []
    too_deep = False
    stack: list[tuple[Any, str, int]] = [(doc, root, 1)]
    while stack and len(problems) < MAX_PROBLEMS:
        value, path, depth = stack.pop()
        if isinstance(value, _Bad):
            problems.append((path, value.why))
        elif isinstance(value, float) and not math.isfinite(value):
            problems.append((path, f"{value} is not a finite number"))
        elif isinstance(value, dict | list):
            if depth > max_depth:
                if not too_deep:
                    problems.append((path, f"nested deeper than {max_depth} levels"))
                    too_deep = True
                continue
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((v, child_path(path, k), depth + 1) for k, v in reversed(list(items)))
    return sorted(problems)


def loads_strict(text: str, max_depth: int = MAX_DEPTH, allow_duplicates: bool = False) -> Any:
    """Parse JSON text, refusing NaN/Infinity, numbers that overflow, nesting deeper than
    ``max_depth`` and (unless ``allow_duplicates``) duplicate keys. Raises StrictJSONError, whose
    ``problems`` name each place, or json.JSONDecodeError for text that is not JSON at all."""
    try:
        doc = json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int,
                         object_pairs_hook=None if allow_duplicates else _no_duplicates)
    except RecursionError:
        raise StrictJSONError([("$", f"nested deeper than {max_depth} levels")]) from None
    except json.JSONDecodeError:
        raise
    except ValueError as exc:  # a duplicate key
        raise StrictJSONError([("$", str(exc))]) from None
    problems = structure_problems(doc, max_depth)
    if problems:
        raise StrictJSONError(problems)
    return doc
