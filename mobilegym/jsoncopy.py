"""Fast deep copies of JSON-like documents (the phone's world state, a task's initial state)."""
from __future__ import annotations

import copy
import marshal
from typing import TypeVar

T = TypeVar("T")


def copy_doc(value: T) -> T:
    """An exact deep copy. Trees of plain dicts, lists, tuples, strings, numbers, bools and None
    round-trip through ``marshal`` (C code, several times faster than ``copy.deepcopy``, shared
    and recursive references kept). A plain dict that marshal refuses is copied key by key, so only the
    branches holding other objects (such as the lazily loaded ``doc["apps"]``) fall back to
    ``copy.deepcopy`` (which those objects may define)."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:
        if type(value) is dict:
            return {key: copy_doc(item) for key, item in value.items()}  # type: ignore[return-value]
        return copy.deepcopy(value)
