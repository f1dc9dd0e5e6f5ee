"""The world document {os, apps}: deep-merge patches with list-item selectors."""
from __future__ import annotations

import copy
import re
from typing import Any

_ITEM_KEY = re.compile(r"^(?P<name>[^\[\]]+)\[(?P<sel>[^\[\]]*)\]$")


class StateError(ValueError):
    """A patch that cannot be applied to the world document."""


def _coerce(text: str, sample: Any) -> bool:
    """Whether a selector value written as text equals a stored value."""
    if isinstance(sample, bool):
        return text.lower() == str(sample).lower()
    return str(sample) == text


def _find_item(items: list, selector: str, where: str) -> int | None:
    field, sep, value = selector.partition("=")
    if not sep or not field:
        raise StateError(f"bad list selector [{selector}] at {where}: expected [field=value] or []")
    for i, item in enumerate(items):
        if isinstance(item, dict) and field in item and _coerce(value, item[field]):
            return i
    return None


def apply_patch(doc: dict, patch: dict, where: str = "") -> None:
    """Deep-merge ``patch`` into ``doc`` in place.

    Plain keys merge dicts recursively and replace other values. ``"list[field=value]"``
    merges into the matching list item (``None`` deletes it; a missing item is an error).
    ``"list[]"`` appends the value to the list.
    """
    if not isinstance(patch, dict):
        raise StateError(f"patch at {where or '<root>'} must be an object, got {type(patch).__name__}")
    for key, value in patch.items():
        match = _ITEM_KEY.match(key)
        if match is None:
            here = f"{where}.{key}" if where else key
            if isinstance(value, dict) and isinstance(doc.get(key), dict):
                apply_patch(doc[key], value, here)
            else:
                doc[key] = copy.deepcopy(value)
            continue
        name, selector = match["name"], match["sel"]
        here = f"{where}.{name}" if where else name
        items = doc.get(name)
        if not isinstance(items, list):
            raise StateError(f"{here} is not a list, cannot apply [{selector}]")
        if selector == "":
            items.append(copy.deepcopy(value))
            continue
        index = _find_item(items, selector, here)
        if index is None:
            raise StateError(f"no item [{selector}] in {here}")
        if value is None:
            del items[index]
        elif isinstance(value, dict) and isinstance(items[index], dict):
            apply_patch(items[index], value, f"{here}[{selector}]")
        else:
            items[index] = copy.deepcopy(value)
