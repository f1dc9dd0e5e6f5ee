"""Type-check a state patch against the document it patches, before it is applied.

A patch is deep-merged into the world document (``os`` and ``apps``) with the list selectors
``"list[field=value]"`` (merge into, or with ``null`` delete, the matching item) and
``"list[]"`` (append). The phone applies whatever it is given, so ``{"alarms": "notalist"}``
would only fail later, when a screen renders the alarms. :func:`patch_type_problems` walks the
patch beside the document and reports every value whose JSON type differs from the one it
replaces: a list replaced by a non-list, an object by a string, a number by a boolean, a list
or an object by ``null``. Appended items and the items of a replaced list are checked against
the list's existing items; new keys, and values replacing ``null``, are free. Where the existing
values disagree among themselves (a list mixing objects and strings) anything goes.

A selector that matches nothing or a list that is absent is left for the patch itself to report.
"""
from __future__ import annotations

import re
from typing import Any

_ITEM_KEY = re.compile(r"^(?P<name>[^\[\]]+)\[(?P<sel>[^\[\]]*)\]$")  # as the phone's deep merge reads keys
MAX_SAMPLES = 64  # existing items a new item is compared with
MAX_PROBLEMS = 20


def json_type(value: Any) -> str:
    """The JSON type of a value: null, boolean, number, string, array or object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _coerce(text: str, sample: Any) -> bool:
    """Whether a selector value written as text equals a stored value (as the phone's merge compares)."""
    if isinstance(sample, bool):
        return text.lower() == str(sample).lower()
    return str(sample) == text


def _find_item(items: list, selector: str) -> Any:
    name, sep, value = selector.partition("=")
    if not sep or not name:
        return None
    return next((item for item in items if isinstance(item, dict) and name in item
                 and _coerce(value, item[name])), None)


def _check_value(new: Any, samples: list[Any], where: str, problems: list[tuple[str, str]]) -> None:
    """``new`` replaces (or joins) values like ``samples``; report a JSON type they do not share."""
    present = [s for s in samples if s is not None]
    if not present or len(problems) >= MAX_PROBLEMS:
        return
    kinds = {json_type(s) for s in present}
    if len(kinds) != 1:
        return
    kind = kinds.pop()
    if new is None:
        if kind in ("array", "object") and len(present) == len(samples):
            problems.append((where, f"an {kind} cannot be replaced by null"))
        return
    have = json_type(new)
    if have != kind:
        article = "an" if kind[0] in "aeiou" else "a"
        problems.append((where, f"expected {article} {kind} like the value it replaces, got {have} {_short(new)}"))
        return
    if kind == "object":
        for key, value in new.items():
            _check_value(value, [s[key] for s in present if key in s][:MAX_SAMPLES], _join(where, key), problems)
    elif kind == "array":
        items = [item for s in present for item in s[:MAX_SAMPLES]][:MAX_SAMPLES]
        for i, item in enumerate(new):
            _check_value(item, items, f"{where}[{i}]", problems)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _walk(node: dict, patch: Any, where: str, problems: list[tuple[str, str]]) -> None:
    if not isinstance(patch, dict):
        problems.append((where or "<root>", f"a patch must be an object, got {json_type(patch)}"))
        return
    for key, value in patch.items():
        if len(problems) >= MAX_PROBLEMS:
            return
        if not isinstance(key, str):
            problems.append((where or "<root>", f"keys must be text, got {key!r}"))
            continue
        match = _ITEM_KEY.match(key)
        if match is None:
            here = _join(where, key)
            if key not in node:
                continue  # a new key: nothing to compare with
            old = node[key]
            if isinstance(value, dict) and isinstance(old, dict):
                _walk(old, value, here, problems)
            else:
                _check_value(value, [old], here, problems)
            continue
        name, selector = match["name"], match["sel"]
        here = _join(where, name)
        items = node.get(name)
        if items is None:
            continue  # the patch itself reports a missing list
        if not isinstance(items, list):
            problems.append((here, f"is {json_type(items)}, not an array, so [{selector}] cannot apply"))
            continue
        if selector == "":
            _check_value(value, items[:MAX_SAMPLES], f"{here}[]", problems)
            continue
        item = _find_item(items, selector)
        if item is None or value is None:
            continue  # no such item (the patch reports it), or a deletion
        if isinstance(value, dict) and isinstance(item, dict):
            _walk(item, value, f"{here}[{selector}]", problems)
        else:
            _check_value(value, [item], f"{here}[{selector}]", problems)


def patch_type_problems(doc: dict[str, Any], patch: Any) -> list[tuple[str, str]]:
    """(path, message) problems (``("apps.clock.alarms", "expected an array ..., got string 'x'")``) of
    applying ``patch`` to ``doc``, found without changing either; empty when every value keeps its type."""
    problems: list[tuple[str, str]] = []
    _walk(doc, patch, "", problems)
    return problems
