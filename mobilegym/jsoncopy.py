"""Fast deep copies of JSON-like documents (the phone's world state, a task's initial state)."""
from __future__ import annotations

import copy
import marshal
from typing import TypeVar

T = TypeVar("T")


def copy_doc(value: T) -> T:
    """An exact deep copy. Trees of plain dicts, lists, tuples, strings, numbers, bools and None
    round-trip through ``marshal`` (C code, several times faster than ``copy.deepcopy``, shared
    and recursive references kept); anything marshal refuses falls back to ``copy.deepcopy``."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:
        return copy.deepcopy(value)
