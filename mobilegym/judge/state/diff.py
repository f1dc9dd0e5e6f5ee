"""What changed between the initial and the final state, and which changes a task expected.

List items are matched by an id field (``id``, ``uid``, ``uuid``, ``key``, ``_id``) when every item
has a unique one, so an edit shows as a change inside that item and a move as ``reordered``.
Change paths read like ``apps.clock.alarms[id=a1].enabled``. Expected-change patterns (below) say
which of those changes a task asked for, and how many items each may create or delete.
"""
from __future__ import annotations

import marshal
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence, Union

from mobilegym.judge.errors import PathError
from mobilegym.judge.state.paths import Filter, Index, Key, Segment, Wild, anchor, filter_matches, parse_path
from mobilegym.judge.state.templating import lookup, render

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


# --- expected-change patterns ---------------------------------------------------------------------
#
# A pattern is a state path naming what a task may change; it covers a change at or under it. List
# selectors say how many items they cover:
#
#     events                       the whole list: any change in it
#     events[*]                    any items: any number added, changed or removed
#     events[title={title}]        the items with that title: every pre-existing one, and ONE added one
#     events[title=Gym].date       one field of those items
#     events[+] / events[+*]       one added item / any number of added items (nothing pre-existing)
#     events[+title={title}]       one added item with that title ([+*title=...]: any number of them)
#     events[-] / events[-*]       one removed item / any number of removed items
#     events[-*date={day}]         every removed item of that date (nothing added or edited)
#     saved[+] / saved[-]          in a list of plain values: one value added / removed, the others kept
#                                  in order ([+*] / [-*]: any number)
#     a | b                        alternatives sharing one count (a text in a new or in an existing thread)
#
# Each entry counts on its own: two entries "events[+]" cover two added events.

ONE, ANY = "one", "any"
ADD, ADD_ANY, REMOVE, REMOVE_ANY = "+", "+*", "-", "-*"


@dataclass(frozen=True)
class PathPattern:
    """One alternative of a pattern: path segments and, per segment, its mark (None, "+", "+*", "-", "-*")."""

    text: str
    segments: tuple[Segment, ...]
    marks: tuple[str | None, ...]


@dataclass(frozen=True)
class ChangePattern:
    """An expected-change entry: alternatives sharing one count."""

    text: str
    alternatives: tuple[PathPattern, ...]


def _split_marks(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The path without its ``[+``/``[-`` marks, and (position of the bracket in it, mark) per mark."""
    out: list[str] = []
    marks: list[tuple[int, str]] = []
    quote = None
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "[":
            match = re.match(r"\[\s*([+-])(\*?)\s*(?=[\]A-Za-z_.'\"{])", text[i:])  # [-1] stays an index
            if match:
                sign, star = match.groups()
                rest = text[i + match.end():]
                position = len("".join(out))
                out.append("[*" if rest.startswith("]") else "[")
                marks.append((position, sign + star))
                i += match.end()
                continue
        out.append(ch)
        i += 1
    return "".join(out), marks


def _parse_alternative(text: str) -> PathPattern:
    clean, found = _split_marks(text.strip())
    parsed = parse_path(clean)
    marks: list[str | None] = [None] * len(parsed.segments)
    for position, mark in found:
        index = len(parse_path(clean[:position]).segments) if position else 0
        if not isinstance(parsed.segments[index], (Filter, Wild)):
            raise PathError(f"pattern {text!r}: [{mark}] marks a [*] or [field=value] selector, not an index")
        marks[index] = mark
    return PathPattern(clean, parsed.segments, tuple(marks))


def parse_pattern(text: str) -> ChangePattern:
    """Parse an expected-change pattern (see above); raises PathError naming the problem."""
    if not isinstance(text, str):
        raise PathError(f"an expected-change pattern must be a string, got {type(text).__name__}")
    return _parse_pattern(text)


def _alternatives(text: str) -> list[str]:
    """``text`` split at each ``|`` outside brackets and quotes."""
    parts, start, depth, quote = [], 0, 0, None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "[]":
            depth += 1 if ch == "[" else -1
        elif ch == "|" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


@lru_cache(maxsize=4096)
def _parse_pattern(text: str) -> ChangePattern:
    parts = _alternatives(text)
    if not all(part.strip() for part in parts):
        raise PathError(f"an expected-change pattern and each of its alternatives must be non-empty, got {text!r}")
    return ChangePattern(text, tuple(_parse_alternative(part) for part in parts))


def anchor_pattern(pattern: str | ChangePattern, app_ids: Iterable[str], default_app: str | None) -> ChangePattern:
    """The pattern rooted at the state document (``apps.<app>...`` or ``os...``), see :func:`paths.anchor`."""
    parsed = parse_pattern(pattern) if isinstance(pattern, str) else pattern
    apps = set(app_ids)
    rooted = []
    for alt in parsed.alternatives:
        path = anchor(alt.text, apps, default_app)
        dropped = len(alt.segments) - len(path.segments)
        prefix = (Key("os"),) if path.root == "os" else (Key("apps"), Key(str(path.root)))
        rooted.append(PathPattern(alt.text, prefix + path.segments, (None,) * len(prefix) + alt.marks[dropped:]))
    return ChangePattern(parsed.text, tuple(rooted))


def _filter_matches(segment: Filter, item: Any, params: Mapping[str, Any] | None) -> bool:
    return item is not None and filter_matches(item, segment, params)


def _step_matches(segment: Segment, mark: str | None, step: Step, params: Mapping[str, Any] | None) -> bool:
    if isinstance(segment, Key):
        name = render(segment.name, params) if params is not None and "{" in segment.name else segment.name
        return isinstance(step, KeyStep) and step.name == name
    if not isinstance(step, ItemStep):
        return isinstance(segment, Wild) and mark is None
    if mark in (ADD, ADD_ANY) and step.before_index is not None:
        return False
    if mark in (REMOVE, REMOVE_ANY) and step.after_index is not None:
        return False
    if isinstance(segment, Wild):
        return True
    if isinstance(segment, Index):
        index = segment.index if isinstance(segment.index, int) else lookup(params or {}, segment.index[1:-1])
        return index in (step.before_index, step.after_index)
    return _filter_matches(segment, step.before, params) or _filter_matches(segment, step.after, params)


def _item_count(segment: Segment, mark: str | None, step: ItemStep) -> str:
    """Whether covering an added or removed item at ``step`` uses the pattern's count of one."""
    if mark in (ADD_ANY, REMOVE_ANY) or (mark is None and isinstance(segment, Wild)):
        return ANY
    if step.before_index is None or mark == REMOVE:
        return ONE  # a single-item selector covers one added item (and [-] one removed item)
    return ANY  # pre-existing items: every one the selector names


def _covers_item(alt: PathPattern, change: Change, params: Mapping[str, Any] | None) -> str | None:
    """ONE or ANY when the alternative covers the change at or under its path, else None."""
    if len(alt.segments) > len(change.steps):
        return None
    if not all(_step_matches(s, m, t, params) for s, m, t in zip(alt.segments, alt.marks, change.steps)):
        return None
    last = len(change.steps) - 1
    step = change.steps[last]
    if change.kind in ("added", "removed") and isinstance(step, ItemStep) and last < len(alt.segments):
        return _item_count(alt.segments[last], alt.marks[last], step)
    return ANY


def _is_value_list(value: Any) -> bool:
    return isinstance(value, list) and not any(_is_container(v) for v in value)


def _keyed(values: list[Any]) -> list[tuple[str, Any]]:
    return [(type(v).__name__, v) for v in values]


def _value_changes(change: Change) -> tuple[int, int] | None:
    """(values added, values removed) of a plain-value list whose kept values stay in order, else None."""
    before, after = _keyed(change.before), _keyed(change.after)
    added, removed = Counter(after) - Counter(before), Counter(before) - Counter(after)

    def kept(values: list[tuple[str, Any]], dropped: Counter) -> list[tuple[str, Any]]:
        left, out = Counter(dropped), []
        for value in values:
            if left[value]:
                left[value] -= 1
            else:
                out.append(value)
        return out

    if kept(before, removed) != kept(after, added):
        return None
    return sum(added.values()), sum(removed.values())


def _value_mark(alt: PathPattern, change: Change, params: Mapping[str, Any] | None) -> str | None:
    """How an alternative names a plain-value list's values (``saved[+]``: "+"; ``saved[*]``: "*"),
    None when it does not name this list's values."""
    steps = change.steps
    if len(alt.segments) != len(steps) + 1 or not isinstance(alt.segments[-1], Wild):
        return None
    if not all(_step_matches(s, m, t, params) for s, m, t in zip(alt.segments, alt.marks, steps)):
        return None
    return alt.marks[-1] or "*"


def _cover_values(change: Change, patterns: Sequence[ChangePattern], used: list[bool],
                  params: Mapping[str, Any] | None) -> bool:
    """Cover a plain-value list change with the counts of unused entries (consumed only on success)."""
    marks = [{_value_mark(alt, change, params) for alt in p.alternatives} - {None} for p in patterns]
    if any("*" in m for m in marks):
        return True
    counts = _value_changes(change)
    if counts is None:
        return False
    need = {ADD: counts[0], REMOVE: counts[1]}
    chosen = []
    for i, entry_marks in enumerate(marks):
        if used[i]:
            continue
        for mark in sorted(entry_marks):
            sign = mark[0]
            if need[sign] == 0:
                continue
            if mark.endswith("*"):
                need[sign] = 0
            else:
                need[sign] -= 1
                chosen.append(i)
                break
    if any(need.values()):
        return False
    for i in chosen:
        used[i] = True
    return True


def _match_one(changes: list[Change], patterns: Sequence[ChangePattern], used: list[bool],
               params: Mapping[str, Any] | None) -> set[int]:
    """Indexes of ``changes`` given an entry of their own (a maximum matching, so a specific entry is
    never spent on an item a general one could take)."""
    options = [[i for i, p in enumerate(patterns) if not used[i]
                and any(_covers_item(alt, change, params) == ONE for alt in p.alternatives)] for change in changes]
    owner: dict[int, int] = {}

    def assign(c: int, seen: set[int]) -> bool:
        for i in options[c]:
            if i not in seen:
                seen.add(i)
                if i not in owner or assign(owner[i], seen):
                    owner[i] = c
                    return True
        return False

    for c in range(len(changes)):
        assign(c, set())
    for i in owner:
        used[i] = True
    return set(owner.values())


def uncovered(changes: Iterable[Change], patterns: Sequence[ChangePattern],
              params: Mapping[str, Any] | None = None) -> list[Change]:
    """The changes no pattern covers, in order. Patterns must be rooted at the document."""
    used = [False] * len(patterns)
    rest: list[Change] = []
    for change in changes:
        if any(_covers_item(alt, change, params) == ANY for p in patterns for alt in p.alternatives):
            continue
        values = _is_value_list(change.before) and _is_value_list(change.after)
        if values and _cover_values(change, patterns, used, params):
            continue
        rest.append(change)
    matched = _match_one(rest, patterns, used, params)
    return [c for i, c in enumerate(rest) if i not in matched]


def unexpected_changes(before: Mapping[str, Any], after: Mapping[str, Any], expected: Iterable[ChangePattern],
                       ignore: Iterable[str], params: Mapping[str, Any] | None = None) -> list[Change]:
    """Changes between two state documents not covered by ``expected`` (rooted patterns, see
    :func:`anchor_pattern`) nor by ``ignore`` (document paths such as ``os.time_ms``)."""
    ignored = [parse_pattern(p) for p in ignore]
    changes = uncovered(diff(dict(before), dict(after)), ignored)
    return uncovered(changes, list(expected), params)
