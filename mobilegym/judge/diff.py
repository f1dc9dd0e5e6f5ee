"""Side effects: what changed between the initial and the final state, minus what was expected.

List items are matched by an id field (``id``, ``uid``, ``uuid``, ``key``, ``_id``) when every item
has a unique one, so an edit shows as a change inside that item and a move as ``reordered``.
Change paths read like ``apps.clock.alarms[id=a1].enabled``.
"""
from __future__ import annotations

import marshal
import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence, Union

from .paths import Filter, Index, Key, Segment, StatePath, Wild, filter_matches, item_field, parse_path
from .templating import render

ID_FIELDS = ("id", "uid", "uuid", "key", "_id")


@dataclass(frozen=True)
class KeyStep:
    """A dict key on a change path."""

    name: str


@dataclass(frozen=True)
class ItemStep:
    """A list item on a change path: positions before/after, its id, and the list's items for filters."""

    before_index: int | None
    after_index: int | None
    ident: tuple[str, Any] | None
    before: Any
    after: Any
    siblings: tuple[Any, ...]


Step = Union[KeyStep, ItemStep]


@dataclass(frozen=True)
class Change:
    """One difference: kind is added, removed, changed or reordered."""

    steps: tuple[Step, ...]
    kind: str
    before: Any
    after: Any

    @property
    def path(self) -> str:
        """Readable path."""
        out = ""
        for step in self.steps:
            if isinstance(step, KeyStep):
                out += ("." if out else "") + step.name
            elif step.ident:
                out += f"[{step.ident[0]}={step.ident[1]}]"
            else:
                out += f"[{step.after_index if step.after_index is not None else step.before_index}]"
        return out

    def to_dict(self) -> dict[str, Any]:
        """{path, kind, before, after}."""
        return {"path": self.path, "kind": self.kind, "before": self.before, "after": self.after}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=0, abs_tol=1e-12)
    return a == b


def _id_field(a: list[Any], b: list[Any]) -> str | None:
    items = a + b
    if not items or not all(isinstance(i, dict) for i in items):
        return None
    for name in ID_FIELDS:
        if not all(name in i and isinstance(i[name], (str, int)) for i in items):
            continue
        if len({i[name] for i in a}) == len(a) and len({i[name] for i in b}) == len(b):
            return name
    return None


def _is_container(value: Any) -> bool:
    return isinstance(value, (dict, list))


def diff(before: Any, after: Any, steps: tuple[Step, ...] = ()) -> list[Change]:
    """Every difference between two JSON-like documents."""
    out: list[Change] = []
    _diff(before, after, steps, out)
    return out


def _identical(a: Any, b: Any) -> bool:
    """Equal containers with the same types throughout (True is not 1), compared at C speed:
    marshal format 2 writes every value with its type and no back-references."""
    try:
        return a == b and marshal.dumps(a, 2) == marshal.dumps(b, 2)
    except (ValueError, RecursionError):
        return False


def _diff(a: Any, b: Any, steps: tuple[Step, ...], out: list[Change]) -> None:
    if _is_container(a) and type(a) is type(b) and _identical(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                out.append(Change(steps + (KeyStep(str(key)),), "removed", a[key], None))
            else:
                _diff(a[key], b[key], steps + (KeyStep(str(key)),), out)
        for key in b:
            if key not in a:
                out.append(Change(steps + (KeyStep(str(key)),), "added", None, b[key]))
    elif isinstance(a, list) and isinstance(b, list):
        _diff_list(a, b, steps, out)
    elif not _same(a, b):
        out.append(Change(steps, "changed", a, b))


def _diff_list(a: list[Any], b: list[Any], steps: tuple[Step, ...], out: list[Change]) -> None:
    siblings = tuple(a) + tuple(b)
    field = _id_field(a, b)
    if field:
        pos_a = {item[field]: i for i, item in enumerate(a)}
        pos_b = {item[field]: i for i, item in enumerate(b)}
        for ident, i in pos_a.items():
            step = ItemStep(i, pos_b.get(ident), (field, ident), a[i], b[pos_b[ident]] if ident in pos_b else None,
                            siblings)
            if ident not in pos_b:
                out.append(Change(steps + (step,), "removed", a[i], None))
            else:
                _diff(a[i], b[pos_b[ident]], steps + (step,), out)
        for ident, j in pos_b.items():
            if ident not in pos_a:
                out.append(Change(steps + (ItemStep(None, j, (field, ident), None, b[j], siblings),), "added", None, b[j]))
        order_a = [i for i in pos_a if i in pos_b]
        order_b = [i for i in pos_b if i in pos_a]
        if order_a != order_b:
            out.append(Change(steps, "reordered", order_a, order_b))
        return
    if not any(_is_container(i) for i in siblings):
        if a != b or [type(i) for i in a] != [type(i) for i in b]:
            same_items = sorted(map(repr, a)) == sorted(map(repr, b))
            out.append(Change(steps, "reordered" if same_items else "changed", list(a), list(b)))
        return
    for i in range(max(len(a), len(b))):
        if i >= len(b):
            out.append(Change(steps + (ItemStep(i, None, None, a[i], None, siblings),), "removed", a[i], None))
        elif i >= len(a):
            out.append(Change(steps + (ItemStep(None, i, None, None, b[i], siblings),), "added", None, b[i]))
        else:
            _diff(a[i], b[i], steps + (ItemStep(i, i, None, a[i], b[i], siblings),), out)


# --- patterns ----------------------------------------------------------------------------------


def _filter_covers(segment: Filter, step: ItemStep, params: Mapping[str, Any] | None) -> bool:
    items = [i for i in (step.before, step.after) if i is not None]
    if any(filter_matches(i, segment, params) for i in items):
        return True
    if any(filter_matches(s, segment, params) for s in step.siblings):
        return False  # another item matches exactly: no substring fallback
    target = render(segment.value, params) if params is not None and "{" in segment.value else segment.value
    return any(str(target) in str(item_field(i, segment.field)) for i in items
               if item_field(i, segment.field) is not None)


def _segment_covers(segment: Segment, step: Step, params: Mapping[str, Any] | None) -> bool:
    if isinstance(segment, Wild):
        return True
    if isinstance(segment, Key):
        name = render(segment.name, params) if params is not None and "{" in segment.name else segment.name
        return isinstance(step, KeyStep) and step.name == name
    if not isinstance(step, ItemStep):
        return False
    if isinstance(segment, Index):
        index = segment.index if isinstance(segment.index, int) else (params or {}).get(segment.index[1:-1])
        return index in (step.before_index, step.after_index)
    return _filter_covers(segment, step, params)


def covers(pattern: Sequence[Segment], change: Change, params: Mapping[str, Any] | None = None) -> bool:
    """Whether a pattern (document path segments) equals or is an ancestor of the change's path."""
    if len(pattern) > len(change.steps):
        return False
    return all(_segment_covers(s, t, params) for s, t in zip(pattern, change.steps))


def document_pattern(path: StatePath) -> tuple[Segment, ...]:
    """Segments of an anchored path from the document root (``apps.<app>...`` or ``os...``)."""
    if path.root == "os":
        return (Key("os"),) + path.segments
    return (Key("apps"), Key(str(path.root))) + path.segments


def unexpected_changes(before: Mapping[str, Any], after: Mapping[str, Any], expected: Iterable[StatePath],
                       ignore: Iterable[str], params: Mapping[str, Any] | None = None) -> list[Change]:
    """Changes between two state documents not covered by ``expected`` (anchored task paths)
    nor by ``ignore`` (document paths such as ``os.time_ms`` or ``apps.answer_sheet``)."""
    patterns = [document_pattern(p) for p in expected] + [parse_path(p).segments for p in ignore]
    return [c for c in diff(dict(before), dict(after)) if not any(covers(p, c, params) for p in patterns)]
