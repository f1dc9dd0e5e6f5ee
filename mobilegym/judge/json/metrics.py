"""Metrics: pure functions ``(result, expected, **options) -> float`` in [0, 1], found by name.

A metric takes the evidence a getter produced (``result``), what it should be
(``expected``, ``None`` when the metric needs none) and keyword-only options from the
task file. Adding one is writing one function with the :func:`metric` decorator.

Agent-produced evidence of the wrong shape (``None``, a missing number) scores 0; a
task-side mistake (an invalid regex, an empty selector) raises :class:`MetricConfigError`,
which the JSON task turns into a task error. A metric that also needs the phone's OS
state (relative dates) or the apps' initial state (the rival candidates of an answer) declares
a keyword-only ``os_state`` / ``apps_init`` parameter; the evaluator fills them in and a task
file can never set them.

Only metrics registered with ``reads_answers=True`` may judge an agent's answer (an ``answer``
getter): they read it with the one answer reader (:mod:`mobilegym.judge.answers`), so a hedge, a
list of candidates or a rival name fails. Substring and regex metrics would pay an answer that
lists every candidate, so the task validator refuses them on answers.
"""
from __future__ import annotations

import inspect
import json
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
import types as pytypes
import typing
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mobilegym.judge import matchers
from mobilegym.judge.answers import MAX_ANSWER_CHARS, read_answer, rivals_for
from mobilegym.judge.state.patch_types import json_type
from mobilegym.saferegex import UnsafeRegexError, compile_untrusted
from mobilegym.screen_text import A11Y_FLAGS

CONTEXT_PARAMS = frozenset({"os_state", "apps_init"})


class MetricConfigError(ValueError):
    """A metric was configured wrongly by the task (not the agent's fault)."""


@dataclass(frozen=True)
class Metric:
    """A registered metric and what its signature accepts."""

    name: str
    fn: Callable[..., float]
    options: frozenset[str]
    required: frozenset[str]
    context: frozenset[str]
    reads_answers: bool = False

    types: Mapping[str, Any] = field(default_factory=dict)  # option -> its annotation (when it could be read)

    def check_options(self, options: dict[str, Any]) -> list[str]:
        """Problems with an options mapping for this metric (empty if fine): unknown or missing
        options, and values whose JSON type the option's annotation does not accept."""
        problems = [f"unknown option {k!r} for metric {self.name!r} (accepts: {', '.join(sorted(self.options)) or 'none'})"
                    for k in options if k not in self.options]
        problems += [f"metric {self.name!r} needs option {k!r}" for k in sorted(self.required) if k not in options]
        for key, value in options.items():
            if key in self.types and not _accepts(self.types[key], value):
                problems.append(f"option {key!r} of metric {self.name!r} must be {_describe_type(self.types[key])}, "
                                f"got {json_type(value)} {value!r}"[:300])
        return problems

    def __call__(self, result: Any, expected: Any, options: dict[str, Any],
                 context: Mapping[str, Any] | None = None) -> float:
        """Score ``result``; ``context`` holds what the evaluator knows ({"os_state": ..., "apps_init": ...})."""
        extra = {name: (context or {}).get(name) for name in self.context}
        score = float(self.fn(result, expected, **options, **extra))
        if not 0.0 <= score <= 1.0:
            raise MetricConfigError(f"metric {self.name!r} returned {score}, outside [0, 1]")
        return score


METRICS: dict[str, Metric] = {}


def metric(fn: Callable[..., float] | None = None, *,
           reads_answers: bool = False) -> Any:
    """Register ``fn`` under its own name; its keyword-only parameters are its options.
    ``@metric(reads_answers=True)`` marks a metric that may judge an agent's answer."""
    if fn is None:
        return lambda f: _register(f, reads_answers)
    return _register(fn, reads_answers)


def _register(fn: Callable[..., float], reads_answers: bool) -> Callable[..., float]:
    params = list(inspect.signature(fn).parameters.values())
    positional = [p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
    if positional != ["result", "expected"]:
        raise TypeError(f"metric {fn.__name__} must take (result, expected, *, options...), got {positional}")
    keyword = [p for p in params if p.kind is p.KEYWORD_ONLY]
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # an annotation that cannot be evaluated: its options go unchecked
        hints = {}
    METRICS[fn.__name__] = Metric(
        name=fn.__name__,
        fn=fn,
        options=frozenset(p.name for p in keyword if p.name not in CONTEXT_PARAMS),
        required=frozenset(p.name for p in keyword if p.default is p.empty and p.name not in CONTEXT_PARAMS),
        context=frozenset(p.name for p in keyword if p.name in CONTEXT_PARAMS),
        reads_answers=reads_answers,
        types={p.name: hints[p.name] for p in keyword if p.name in hints and p.name not in CONTEXT_PARAMS},
    )
    return fn




def _accepts(hint: Any, value: Any) -> bool:
    """Whether a JSON value fits an option's annotation (bool, int, float, str, dict, list, None,
    unions, Literal); annotations it does not know accept anything."""
    if hint is Any:
        return True
    if hint is None or hint is type(None):
        return value is None
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is pytypes.UnionType:
        return any(_accepts(arg, value) for arg in typing.get_args(hint))
    if origin is typing.Literal:
        return any(_same(value, arg) for arg in typing.get_args(hint))
    base = origin or hint
    if base is bool:
        return isinstance(value, bool)
    if base is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if base is float:
        return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if base is str:
        return isinstance(value, str)
    if base in (dict, Mapping):
        return isinstance(value, dict)
    if base in (list, tuple):
        return isinstance(value, list)
    return True


def _describe_type(hint: Any) -> str:
    """A JSON reading of an annotation: ``float | None`` -> "a number or null"."""
    if hint is None or hint is type(None):
        return "null"
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is pytypes.UnionType:
        return " or ".join(dict.fromkeys(_describe_type(arg) for arg in typing.get_args(hint)))
    if origin is typing.Literal:
        return "one of " + ", ".join(json.dumps(arg) for arg in typing.get_args(hint))
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", dict: "an object",
             Mapping: "an object", list: "an array", tuple: "an array"}
    return names.get(origin or hint, getattr(hint, "__name__", str(hint)))


def get_metric(name: str) -> Metric:
    """The metric registered as ``name``."""
    if name not in METRICS:
        raise KeyError(f"unknown metric {name!r}; known: {', '.join(sorted(METRICS))}")
    return METRICS[name]


# ---------------------------------------------------------------- helpers

def _same(a: Any, b: Any) -> bool:
    """Structural equality where booleans never equal numbers (True != 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _norm(value: Any) -> str:
    return matchers.normalize_text(str(value))


def _key(value: Any, normalize: bool) -> str:
    """A hashable canonical form of a JSON value for set comparisons."""
    if normalize and isinstance(value, str):
        return _norm(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _number(value: Any) -> float | None:
    """A number, or the single number written in a text (Chinese numerals too); None otherwise."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value)
    found = matchers.extract_numbers(value)
    return found[0] if len(found) == 1 else None


def _as_list(value: Any) -> list | None:
    return list(value) if isinstance(value, list | tuple) else None


# ---------------------------------------------------------------- value metrics

@metric(reads_answers=True)
def exact_match(result: Any, expected: Any) -> float:
    """1 if result equals expected exactly (same JSON value; true is not 1)."""
    return float(_same(result, expected))


@metric(reads_answers=True)
def normalized_match(result: Any, expected: Any) -> float:
    """1 if both texts are equal after normalize_text (case, spaces, full-width, numerals, edge punctuation)."""
    return float(matchers.match_exact(expected, result))


@metric(reads_answers=True)
def answer_match(result: Any, expected: Any, *, os_state: dict | None = None, apps_init: dict | None = None) -> float:
    """1 if a free-text answer commits to the expected value (the answer reader: a number, a date, a time,
    yes/no, every element of a list, a name or title), stating no rival candidate from the apps' data."""
    rivals = rivals_for(expected, apps_init) if apps_init else ()
    return float(read_answer(expected, result, rivals=rivals, os_state=os_state, one_value=True).passed)


@metric
def contains(result: Any, expected: Any, *, normalize: bool = True) -> float:
    """1 if expected is a substring of a text result, or an element of a list result."""
    items = _as_list(result)
    if items is not None:
        return float(any(_key(x, normalize) == _key(expected, normalize) for x in items))
    if not isinstance(result, str):
        return 0.0
    if normalize:
        return float(_norm(expected) in _norm(result))
    return float(str(expected) in result)


@metric
def check_include_exclude(result: Any, expected: Any) -> float:
    """1 if the text contains every ``expected["include"]`` string and no ``expected["exclude"]`` one."""
    if not isinstance(expected, dict) or not set(expected) <= {"include", "exclude"} or not expected:
        raise MetricConfigError('check_include_exclude expects {"include": [...], "exclude": [...]}')
    if not isinstance(result, str):
        return 0.0
    text = _norm(result)
    ok = all(_norm(s) in text for s in expected.get("include", []))
    return float(ok and not any(_norm(s) in text for s in expected.get("exclude", [])))


@metric
def regex_match(result: Any, expected: Any, *, ignore_case: bool = False, full: bool = False) -> float:
    """1 if the regular expression ``expected`` matches the text (anywhere, or whole with full).

    The pattern runs on RE2 (:mod:`mobilegym.saferegex`): linear time in the text whatever the
    pattern, no backreferences or lookaround."""
    try:
        pattern = compile_untrusted(str(expected), ignore_case=ignore_case)
    except UnsafeRegexError as exc:
        raise MetricConfigError(f"invalid regular expression: {exc}") from None
    if not isinstance(result, str):
        return 0.0
    found = pattern.fullmatch(result) if full else pattern.search(result)
    return float(found is not None)


@metric(reads_answers=True)
def number_within(result: Any, expected: Any, *, abs_tol: float = 0.0, rel_tol: float = 0.0) -> float:
    """1 if the number (or the one number a text commits to) is within the tolerance of expected."""
    target = _number(expected)
    if target is None:
        raise MetricConfigError(f"number_within needs a numeric expected value, got {expected!r}")
    if isinstance(result, str):
        tolerance = max(abs_tol, rel_tol * abs(target))
        return float(read_answer(target, result, tolerance=tolerance or None).passed)
    actual = _number(result)
    if actual is None:
        return 0.0
    return float(math.isclose(actual, target, rel_tol=max(rel_tol, 1e-9), abs_tol=max(abs_tol, 1e-9)))


@metric(reads_answers=True)
def time_match(result: Any, expected: Any, *, tolerance_minutes: float = 5) -> float:
    """1 if the text commits to the same time of day (14:30, 下午2点半, 2:30 pm) within the tolerance."""
    if matchers.parse_time(expected) is None:
        raise MetricConfigError(f"expected value {expected!r} is not a time of day")
    return float(read_answer(expected, result, tolerance=tolerance_minutes).passed)


@metric(reads_answers=True)
def date_match(result: Any, expected: Any, *, os_state: dict | None = None) -> float:
    """1 if the text commits to the expected date (ISO), relative words from the phone's date included."""
    try:
        day = matchers.to_date(expected)
    except Exception as exc:
        raise MetricConfigError(f"date_match needs a date as expected value: {exc}") from None
    return float(read_answer(day, result, os_state=os_state).passed)


@metric
def duration_match(result: Any, expected: Any, *, tolerance_minutes: float = 0) -> float:
    """1 if the text names the same duration (1小时30分, 90 min, 1:30) within the tolerance."""
    if isinstance(result, str) and len(result) > MAX_ANSWER_CHARS:  # as the answer reader: no essays
        return 0.0
    return float(matchers.match_duration(expected, result, tolerance_minutes=tolerance_minutes))


# ---------------------------------------------------------------- collections

def _list_keys(name: str, result: Any, expected: Any, normalize: bool) -> tuple[list[str], list[str]] | None:
    """Canonical keys of the result's and the expected list's items; None when the result is no list."""
    items, want = _as_list(result), _as_list(expected)
    if want is None:
        raise MetricConfigError(f"{name} needs a list as expected, got {expected!r}")
    if items is None:
        return None
    return [_key(x, normalize) for x in items], [_key(x, normalize) for x in want]


@metric(reads_answers=True)
def list_equal(result: Any, expected: Any, *, normalize: bool = False) -> float:
    """1 if both lists have the same elements in the same order."""
    keys = _list_keys("list_equal", result, expected, normalize)
    return float(keys is not None and keys[0] == keys[1])


@metric(reads_answers=True)
def set_equal(result: Any, expected: Any, *, normalize: bool = False) -> float:
    """1 if both lists hold the same distinct elements, in any order."""
    keys = _list_keys("set_equal", result, expected, normalize)
    return float(keys is not None and set(keys[0]) == set(keys[1]))


@metric
def includes_all(result: Any, expected: Any, *, normalize: bool = False) -> float:
    """1 if every element of the expected list is in the result list."""
    keys = _list_keys("includes_all", result, expected, normalize)
    return float(keys is not None and set(keys[1]) <= set(keys[0]))


@metric
def length_equal(result: Any, expected: Any) -> float:
    """1 if the list, object or text has exactly ``expected`` elements."""
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise MetricConfigError(f"length_equal needs an integer expected value, got {expected!r}")
    return float(isinstance(result, list | dict | str) and len(result) == expected)


def _subset(want: Any, have: Any, ordered: bool) -> bool:
    if isinstance(want, dict):
        return isinstance(have, dict) and all(k in have and _subset(v, have[k], ordered) for k, v in want.items())
    if isinstance(want, list):
        if not isinstance(have, list):
            return False
        if ordered:
            return len(want) == len(have) and all(_subset(w, h, ordered) for w, h in zip(want, have))
        return _match_distinct(want, have, ordered)
    return _same(want, have)


def _match_distinct(want: list, have: list, ordered: bool) -> bool:
    """Whether each wanted item matches its own distinct item of ``have`` (backtracking)."""
    if not want:
        return True
    first, rest = want[0], want[1:]
    for i, item in enumerate(have):
        if _subset(first, item, ordered) and _match_distinct(rest, have[:i] + have[i + 1:], ordered):
            return True
    return False


@metric
def json_subset(result: Any, expected: Any, *, ordered: bool = False) -> float:
    """1 if expected is contained in result: objects by key, lists item by distinct item.

    With ``ordered`` lists must have the same length and match position by position.
    """
    return float(_subset(expected, result, ordered))


# ---------------------------------------------------------------- accessibility tree

def _nodes(xml: Any, selector: dict[str, Any]) -> list[ET.Element]:
    """Nodes of a uiautomator dump matching every given selector field."""
    if not selector:
        raise MetricConfigError("an a11y metric needs a selector: resource_id, text, text_contains, "
                                "content_desc, class_name or package")
    if not isinstance(xml, str):
        return []
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as exc:
        raise MetricConfigError(f"the accessibility tree is not valid XML: {exc}") from None
    return [n for n in root.iter("node") if _selected(n, selector)]


def _selected(node: ET.Element, sel: dict[str, Any]) -> bool:
    rid = node.get("resource-id", "")
    checks = {
        "resource_id": lambda v: rid == v or rid.endswith(f":id/{v}"),
        "text": lambda v: _norm(node.get("text", "")) == _norm(v),
        "text_contains": lambda v: _norm(v) in _norm(node.get("text", "")),
        "content_desc": lambda v: _norm(node.get("content-desc", "")) == _norm(v),
        "class_name": lambda v: node.get("class", "") == v or node.get("class", "").endswith(f".{v}"),
        "package": lambda v: node.get("package", "") == v,
    }
    return all(checks[k](v) for k, v in sel.items() if v is not None)


def _selector(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


@metric
def a11y_exists(result: Any, expected: Any, *, resource_id: str | None = None, text: str | None = None,
                text_contains: str | None = None, content_desc: str | None = None,
                class_name: str | None = None, package: str | None = None) -> float:
    """1 if the tree has a node matching the selector options (expected unused: null)."""
    sel = _selector(resource_id=resource_id, text=text, text_contains=text_contains,
                    content_desc=content_desc, class_name=class_name, package=package)
    return float(bool(_nodes(result, sel)))


@metric
def a11y_has_text(result: Any, expected: Any, *, resource_id: str | None = None,
                  class_name: str | None = None, content_desc: str | None = None,
                  package: str | None = None, match: str = "exact") -> float:
    """1 if a node matching the selector shows ``expected`` as its text or content-desc.

    ``match`` is "exact" (after normalisation) or "contains".
    """
    if match not in ("exact", "contains"):
        raise MetricConfigError(f'a11y_has_text match must be "exact" or "contains", got {match!r}')
    want = _norm(expected)
    sel = _selector(resource_id=resource_id, class_name=class_name, content_desc=content_desc, package=package)
    for node in _nodes(result, sel):
        for shown in (_norm(node.get("text", "")), _norm(node.get("content-desc", ""))):
            if shown == want or (match == "contains" and want in shown):
                return 1.0
    return 0.0


@metric
def a11y_has_state(result: Any, expected: Any, *, state: str, resource_id: str | None = None,
                   text: str | None = None, content_desc: str | None = None,
                   class_name: str | None = None, package: str | None = None) -> float:
    """1 if at least one node matches the selector and every match has ``state`` == expected.

    ``state`` is a uiautomator boolean attribute (checked, selected, enabled, focused, ...).
    """
    if state not in A11Y_FLAGS:
        raise MetricConfigError(f"unknown a11y state {state!r}; one of {', '.join(A11Y_FLAGS)}")
    if not isinstance(expected, bool):
        raise MetricConfigError(f"a11y_has_state needs true or false as expected, got {expected!r}")
    sel = _selector(resource_id=resource_id, text=text, content_desc=content_desc,
                    class_name=class_name, package=package)
    nodes = _nodes(result, sel)
    return float(bool(nodes) and all((n.get(state) == "true") == expected for n in nodes))


# ---------------------------------------------------------------- screenshots

@metric
def brightness_in_range(result: Any, expected: Any, *, min: float = 0.0, max: float = 255.0) -> float:
    """1 if the screenshot's mean luminance (0-255) lies in [min, max], e.g. dark mode on."""
    if not isinstance(result, np.ndarray) or result.ndim != 3:
        return 0.0
    rgb = result[..., :3].astype(np.float32)
    luma = float((rgb @ np.array([0.299, 0.587, 0.114], dtype=np.float32)).mean())
    return float(min <= luma <= max)
