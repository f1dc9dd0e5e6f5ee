"""The state path language.

A path walks into a JSON-like document::

    .alarms[0].label             keys and list indexes (negative indexes count from the end)
    .alarms[id=a1].enabled       the first list item whose field equals a value
    .chats[peer.name='Ann']      a nested field in the filter, a quoted value
    .alarms[*].label             every item (the result is a list)
    clock:.alarms                an explicit app (``os:`` addresses the OS state)
    .alarms[id={alarm}].enabled  ``{param}`` placeholders, typed when a filter value is one placeholder

An absent value (missing key, index out of range, no matching item) resolves to None,
or raises :class:`PathError` when ``strict`` is set.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence, Union

from mobilegym.judge.errors import PathError
from mobilegym.judge.state.templating import lookup, render

_PREFIX = re.compile(r"^([A-Za-z_][\w-]*):(?=[.\[]|$)")
_SINGLE = re.compile(r"\{([A-Za-z_]\w*(?:\.\w+)*)\}")


@dataclass(frozen=True)
class Key:
    """A dict key (may hold placeholders)."""

    name: str


@dataclass(frozen=True)
class Index:
    """A list position (``index`` is an int or a placeholder string)."""

    index: Union[int, str]


@dataclass(frozen=True)
class Filter:
    """The first list item whose (nested) ``field`` equals ``value``."""

    field: tuple[str, ...]
    value: str
    quoted: bool


@dataclass(frozen=True)
class Wild:
    """Every key or item (``*`` or ``[*]``)."""


Segment = Union[Key, Index, Filter, Wild]


@dataclass(frozen=True)
class StatePath:
    """A parsed path: an optional root (app id, or "os") and its segments."""

    text: str
    root: str | None
    segments: tuple[Segment, ...]

    @property
    def is_plain(self) -> bool:
        """True when the path has only literal dict keys (it can be written with a merge patch)."""
        return all(isinstance(s, Key) and "{" not in s.name for s in self.segments)


def _read_braced(text: str, i: int) -> int:
    """Index just past the `}` closing the `{` at ``text[i]``."""
    end = text.find("}", i)
    if end < 0:
        raise PathError(f"path {text!r}: unclosed '{{' at {i}")
    return end + 1


def _close_bracket(text: str, i: int) -> int:
    """Index of the `]` closing the `[` at ``text[i]``, honouring quotes and braces."""
    j, quote = i + 1, None
    while j < len(text):
        ch = text[j]
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "{":
            j = _read_braced(text, j) - 1
        elif ch == "]":
            return j
        j += 1
    raise PathError(f"path {text!r}: unclosed '[' at {i}")


def _bracket(text: str, body: str) -> Segment:
    body = body.strip()
    if body == "*":
        return Wild()
    if re.fullmatch(r"-?\d+", body):
        return Index(int(body))
    if _SINGLE.fullmatch(body):
        return Index(body)
    if "=" not in body:
        raise PathError(f"path {text!r}: bad selector [{body}] (use [N], [*] or [field=value])")
    field, value = (part.strip() for part in body.split("=", 1))
    field_parts = tuple(p for p in field.lstrip(".").split("."))
    if not field or any(not p for p in field_parts):
        raise PathError(f"path {text!r}: bad field in selector [{body}]")
    quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "'\""
    return Filter(field_parts, value[1:-1] if quoted else value, quoted)


@lru_cache(maxsize=4096)
def parse_path(text: str) -> StatePath:
    """Parse a path; raises PathError naming the problem."""
    if not isinstance(text, str):
        raise PathError(f"a path must be a string, got {type(text).__name__}")
    root = None
    body = text.strip()
    prefix = _PREFIX.match(body)
    if prefix:
        root, body = prefix.group(1), body[prefix.end():]
    segments: list[Segment] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == ".":
            i += 1
            continue
        if ch == "[":
            end = _close_bracket(body, i)
            segments.append(_bracket(text, body[i + 1:end]))
            i = end + 1
            continue
        if ch == "]":
            raise PathError(f"path {text!r}: unexpected ']'")
        start = i
        while i < len(body) and body[i] not in ".[]":
            i = _read_braced(body, i) if body[i] == "{" else i + 1
        name = body[start:i]
        segments.append(Wild() if name == "*" else Key(name))
    return StatePath(text, root, tuple(segments))


def as_path(path: str | StatePath) -> StatePath:
    """Parse if needed."""
    return path if isinstance(path, StatePath) else parse_path(path)


def _filter_target(segment: Filter, params: Mapping[str, Any] | None) -> tuple[Any, bool]:
    """The value a filter compares with, and whether it is raw path text."""
    if not segment.quoted and params is not None:
        single = _SINGLE.fullmatch(segment.value)
        if single:
            return lookup(params, single.group(1)), False
    if "{" in segment.value and params is not None:
        return render(segment.value, params), True
    return segment.value, not segment.quoted


def value_matches(actual: Any, target: Any, raw: bool = True) -> bool:
    """Filter equality. Raw path text compares by its literal reading (True, 3, None); typed values by ==."""
    if isinstance(target, str) and raw:
        if isinstance(actual, bool):
            return target.lower() == str(actual).lower()
        if isinstance(actual, (int, float)):
            try:
                return math.isclose(float(target), actual)
            except ValueError:
                return False
        if actual is None:
            return target in ("None", "null")
        return str(actual) == target
    if isinstance(actual, bool) or isinstance(target, bool):
        return actual is target
    return actual == target


def item_field(item: Any, field: Sequence[str]) -> Any:
    """A nested field of a list item, None when absent."""
    for part in field:
        if not isinstance(item, Mapping) or part not in item:
            return None
        item = item[part]
    return item


def filter_matches(item: Any, segment: Filter, params: Mapping[str, Any] | None = None) -> bool:
    """Whether a list item passes a `[field=value]` selector."""
    target, raw = _filter_target(segment, params)
    return value_matches(item_field(item, segment.field), target, raw)


def _key_name(segment: Key, params: Mapping[str, Any] | None) -> str:
    return render(segment.name, params) if "{" in segment.name and params is not None else segment.name


def _step(node: Any, segment: Segment, params: Mapping[str, Any] | None) -> tuple[bool, Any, str]:
    """One step: (found, value, description of what was missing)."""
    if isinstance(segment, Key):
        name = _key_name(segment, params)
        if isinstance(node, Mapping) and name in node:
            return True, node[name], ""
        return False, None, f"no key {name!r}"
    if isinstance(segment, Index):
        index = segment.index
        if isinstance(index, str):
            index = lookup(params or {}, index[1:-1])
        if not isinstance(node, list):
            return False, None, f"not a list (cannot take [{index}])"
        if not isinstance(index, int) or isinstance(index, bool):
            raise PathError(f"list index must be an int, got {index!r}")
        if -len(node) <= index < len(node):
            return True, node[index], ""
        return False, None, f"index {index} out of range (length {len(node)})"
    assert isinstance(segment, Filter)
    if not isinstance(node, list):
        return False, None, "not a list (cannot filter)"
    for item in node:
        if filter_matches(item, segment, params):
            return True, item, ""
    target, _ = _filter_target(segment, params)
    return False, None, f"no item with {'.'.join(segment.field)}={target!r}"


_ABSENT = object()


def _walk(node: Any, segments: Sequence[Segment], params: Mapping[str, Any] | None,
          strict: bool, text: str, done: str) -> Any:
    """The value at the segments, or _ABSENT (non-strict) when a step finds nothing."""
    for pos, segment in enumerate(segments):
        if isinstance(segment, Wild):
            if isinstance(node, Mapping):
                children = list(node.values())
            elif isinstance(node, list):
                children = node
            else:
                if strict:
                    raise PathError(f"path {text!r}: {done or 'root'} is neither a list nor a dict")
                return _ABSENT
            rest = segments[pos + 1:]
            nested = any(isinstance(s, Wild) for s in rest)
            out: list[Any] = []
            for child in children:
                value = _walk(child, rest, params, strict, text, done + "[*]")
                if value is _ABSENT:
                    continue
                if nested:
                    out.extend(value)
                else:
                    out.append(value)
            return out
        found, node, missing = _step(node, segment, params)
        if not found:
            if strict:
                raise PathError(f"path {text!r}: at {done or 'root'}: {missing}")
            return _ABSENT
        done += describe(segment)
    return node


def describe(segment: Segment) -> str:
    """Text of one segment."""
    if isinstance(segment, Key):
        return "." + segment.name
    if isinstance(segment, Index):
        return f"[{segment.index}]"
    if isinstance(segment, Filter):
        value = repr(segment.value) if segment.quoted else segment.value
        return f"[{'.'.join(segment.field)}={value}]"
    return "[*]"


def resolve(root: Any, path: str | StatePath, params: Mapping[str, Any] | None = None,
            strict: bool = False) -> Any:
    """Follow a path's segments from ``root`` (its app prefix, if any, is ignored here)."""
    parsed = as_path(path)
    value = _walk(root, parsed.segments, params, strict, parsed.text, "")
    return None if value is _ABSENT else value


def resolve_state(apps: Mapping[str, Any], os_state: Mapping[str, Any], path: str | StatePath,
                  default_app: str | None, params: Mapping[str, Any] | None = None,
                  strict: bool = False) -> Any:
    """Resolve a path against a state: ``app:`` picks an app, ``os:`` the OS state, else ``default_app``."""
    parsed = as_path(path)
    return resolve(root_of(apps, os_state, parsed, default_app), parsed, params, strict)


def root_of(apps: Mapping[str, Any], os_state: Mapping[str, Any], path: StatePath,
            default_app: str | None) -> Any:
    """The document a path starts from; an unknown app is always a task error."""
    if path.root == "os":
        return os_state
    app = path.root or default_app
    if app is None:
        raise PathError(f"path {path.text!r} names no app and the task has none")
    if app not in apps:
        raise PathError(f"path {path.text!r}: no app {app!r} in the state (apps: {', '.join(sorted(apps))})")
    return apps[app]


def patch_for(path: str | StatePath, value: Any, default_app: str | None) -> dict[str, Any]:
    """A deep-merge patch writing ``value`` at a plain (keys-only) path."""
    parsed = as_path(path)
    if not parsed.is_plain or not parsed.segments:
        raise PathError(f"path {parsed.text!r} cannot be written by a merge patch (only plain .a.b keys can)")
    patch: Any = value
    for segment in reversed(parsed.segments):
        assert isinstance(segment, Key)
        patch = {segment.name: patch}
    if parsed.root == "os":
        return {"os": patch}
    app = parsed.root or default_app
    if app is None:
        raise PathError(f"path {parsed.text!r} names no app and the task has none")
    return {"apps": {app: patch}}


def anchor(path: str | StatePath, app_ids: Any, default_app: str | None) -> StatePath:
    """Give a path an explicit root. ``app:``/``os:`` prefixes keep theirs; a path starting with
    ``.`` or ``[`` is relative to ``default_app``; otherwise a first key naming an app (``clock.alarms``)
    or ``os`` (``os.language``) is that root, and anything else is relative to ``default_app``."""
    parsed = as_path(path)
    if parsed.root is not None:
        return parsed
    text = parsed.text.strip()
    first = parsed.segments[0] if parsed.segments else None
    if not text.startswith((".", "[")) and isinstance(first, Key) and (first.name in app_ids or first.name == "os"):
        return StatePath(parsed.text, first.name, parsed.segments[1:])
    if default_app is None:
        raise PathError(f"path {parsed.text!r} names no app and the task has none")
    return StatePath(parsed.text, default_app, parsed.segments)
