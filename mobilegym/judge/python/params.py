"""Task parameters: declaration checks, seeded sampling, and every value a parameter can take.

A declaration maps a name to a spec::

    {"type": "enum", "values": {"Low": 0, "High": 2}}   display label -> stored value (or a plain list)
    {"type": "bool", "values": {"on": True, "off": False}}
    {"type": "int", "min": 1, "max": 9, "step": 1}       (float: "step" defaults to 0.01)
    {"type": "string", "default": "Work"}                a single value
    {"source": ".alarms[*].label"}                       one of the values a state path lists
    {"source": ".contacts", "fields": ["name", "phone"]} multi-field: one item, as a dict ({contact.name})
    {"sampler": Clock.sample_time}                       fn(rng, app_state[, params][, os_state]) -> value
                                                         (os_state: the phone's, e.g. for its date)

A sampler picks among targets with :func:`unambiguous` where a check accepts answers within a tolerance.
"""
from __future__ import annotations

import inspect
import math
import random
from typing import Any, Callable, Mapping, Sequence, TypeVar

from mobilegym.judge.errors import TaskError
from mobilegym.judge.state.paths import as_path, resolve_state

TYPES = ("enum", "bool", "int", "float", "string", "object")
KEYS = {"type", "values", "min", "max", "step", "source", "sampler", "default", "fields", "description"}
DOMAIN_DRAWS = 512  # draw sequences parameter_domain tries: a sampler of fresh phone numbers has thousands
MAX_DRAWS_PER_CALL = 64  # random choices one draw may make before it counts as a retry loop
T = TypeVar("T")
_PY_TYPES: dict[str, tuple[type, ...]] = {"bool": (bool,), "int": (int,), "float": (int, float),
                                          "string": (str,), "object": (dict,)}


class Params:
    """Read-only attribute view of the sampled values (``self.p.city``)."""

    def __init__(self, values: Mapping[str, Any]):
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_values":  # copy/pickle probe a half-built object: no recursion
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no parameter {name!r} (known: {', '.join(self._values) or 'none'})") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("parameters are read-only")

    def __repr__(self) -> str:
        return f"Params({self._values!r})"


def param_type(name: str, spec: Mapping[str, Any]) -> str:
    """The declared type, or the one implied by the spec."""
    if "type" in spec:
        return spec["type"]
    if "fields" in spec:
        return "object"
    values = spec.get("values")
    if values is not None:
        items = list(values.values()) if isinstance(values, Mapping) else list(values)
        return "bool" if items and all(isinstance(v, bool) for v in items) else "enum"
    if "min" in spec or "max" in spec:
        return "float" if any(isinstance(spec.get(k), float) for k in ("min", "max", "step")) else "int"
    if "default" in spec:
        default = spec["default"]
        for kind, types in _PY_TYPES.items():
            if isinstance(default, types) and not (kind in ("int", "float") and isinstance(default, bool)):
                return kind
    return "enum" if ("source" in spec or "sampler" in spec) else "string"


def validate_parameters(owner: str, parameters: Mapping[str, Mapping[str, Any]]) -> None:
    """Check every declaration; raise TaskError naming the task, the parameter and the problem."""
    if not isinstance(parameters, Mapping):
        raise TaskError(f"{owner}: parameters must be a dict, got {type(parameters).__name__}")
    for name, spec in parameters.items():
        where = f"{owner}: parameter {name!r}"
        if not isinstance(name, str) or not name.isidentifier():
            raise TaskError(f"{where}: the name must be an identifier")
        if not isinstance(spec, Mapping):
            raise TaskError(f"{where}: the spec must be a dict")
        unknown = set(spec) - KEYS
        if unknown:
            raise TaskError(f"{where}: unknown keys {sorted(unknown)} (allowed: {sorted(KEYS)})")
        kind = param_type(name, spec)
        if kind not in TYPES:
            raise TaskError(f"{where}: type {kind!r} is not one of {', '.join(TYPES)}")
        domains = [k for k in ("values", "source", "sampler") if k in spec]
        numeric = "min" in spec or "max" in spec
        if len(domains) + numeric > 1:
            raise TaskError(f"{where}: give one domain, not {domains + (['min/max'] if numeric else [])}")
        if "default" in spec and (domains or numeric):
            raise TaskError(f"{where}: 'default' fixes the value; it cannot be combined with {domains or ['min/max']}")
        if "values" in spec:
            values = spec["values"]
            items = list(values.values()) if isinstance(values, Mapping) else values
            if not isinstance(items, list) or not items:
                raise TaskError(f"{where}: 'values' must be a non-empty list or dict")
            if kind in _PY_TYPES and not all(_is_type(v, kind) for v in items):
                raise TaskError(f"{where}: every value must be of type {kind}")
        if numeric:
            if kind not in ("int", "float"):
                raise TaskError(f"{where}: min/max need type int or float, not {kind}")
            if "min" not in spec or "max" not in spec:
                raise TaskError(f"{where}: give both 'min' and 'max'")
            if not spec["min"] <= spec["max"]:
                raise TaskError(f"{where}: min {spec['min']} is above max {spec['max']}")
            if "step" in spec and not spec["step"] > 0:
                raise TaskError(f"{where}: 'step' must be positive")
        if "source" in spec:
            as_path(spec["source"])
        if "sampler" in spec and not callable(spec["sampler"]):
            raise TaskError(f"{where}: 'sampler' must be callable (an App's static sample_* method)")
        if "fields" in spec and (not isinstance(spec["fields"], list) or not spec["fields"]):
            raise TaskError(f"{where}: 'fields' must be a non-empty list of item field names")
        if "fields" in spec and "source" not in spec and "sampler" not in spec:
            raise TaskError(f"{where}: 'fields' needs a 'source' or 'sampler' giving dict items")
        if not domains and not numeric and "default" not in spec and kind != "bool":
            raise TaskError(f"{where}: no domain (give values, min/max, source, sampler, or a default)")
        if "default" in spec and kind in _PY_TYPES and not _is_type(spec["default"], kind):
            raise TaskError(f"{where}: default {spec['default']!r} is not of type {kind}")


def _is_type(value: Any, kind: str) -> bool:
    if kind in ("int", "float") and isinstance(value, bool):
        return False
    return isinstance(value, _PY_TYPES[kind])


def _choices(spec: Mapping[str, Any]) -> list[tuple[Any, Any]]:
    """(value, display) pairs of an explicit values list/dict."""
    values = spec["values"]
    if isinstance(values, Mapping):
        return [(v, k) for k, v in values.items()]
    return [(v, v) for v in values]


def _numeric(rng: random.Random, kind: str, spec: Mapping[str, Any]) -> Any:
    low, high = spec["min"], spec["max"]
    step = spec.get("step", 1 if kind == "int" else 0.01)
    count = int(math.floor((high - low) / step + 1e-9))
    value = low + rng.randint(0, count) * step
    return int(value) if kind == "int" else round(value, 10)


def _call_sampler(fn: Callable[..., Any], rng: random.Random, app_state: Any, params: dict[str, Any],
                  os_state: Mapping[str, Any]) -> Any:
    accepted = inspect.signature(fn).parameters
    extra = {"os_state": os_state} if "os_state" in accepted else {}
    if "params" in accepted or len(accepted) - len(extra) >= 3:
        return fn(rng, app_state, params, **extra)
    return fn(rng, app_state, **extra)


def _project(where: str, item: Any, fields: list[str]) -> dict[str, Any]:
    if not isinstance(item, Mapping):
        raise TaskError(f"{where}: multi-field items must be dicts, got {item!r}")
    missing = [f for f in fields if f not in item]
    if missing:
        raise TaskError(f"{where}: item {item!r} lacks fields {missing}")
    return {f: item[f] for f in fields}


def source_items(where: str, spec: Mapping[str, Any], apps: Mapping[str, Any], os_state: Mapping[str, Any],
                 default_app: str | None, values: Mapping[str, Any]) -> list[Any]:
    """The items a ``source`` parameter chooses from (projected to its ``fields``), given the earlier ``values``."""
    try:
        found = resolve_state(apps, os_state, spec["source"], default_app, values, strict=True)
    except TaskError as exc:
        raise TaskError(f"{where}: {exc}") from exc
    if not isinstance(found, list) or not found:
        raise TaskError(f"{where}: source {spec['source']!r} gives {found!r}, not a non-empty list")
    items = [_project(where, i, spec["fields"]) for i in found] if "fields" in spec else found
    if "fields" not in spec and any(isinstance(i, (dict, list)) for i in items):
        raise TaskError(f"{where}: source items are containers; select a field ([*].name) or declare 'fields'")
    return items


def _listed(where: str, name: str, spec: Mapping[str, Any], apps: Mapping[str, Any], os_state: Mapping[str, Any],
            default_app: str | None, values: Mapping[str, Any]) -> list[tuple[Any, Any]] | None:
    """(value, display) pairs of a parameter whose domain is a list (``values``, a plain bool, a ``source``),
    else None."""
    if "values" in spec:
        return _choices(spec)
    if param_type(name, spec) == "bool" and not {"default", "sampler", "source"} & set(spec):
        return [(True, True), (False, False)]
    if "source" in spec:
        return [(i, i) for i in source_items(where, spec, apps, os_state, default_app, values)]
    return None


def _draw(where: str, name: str, spec: Mapping[str, Any], choices: list[tuple[Any, Any]] | None, rng: random.Random,
          apps: Mapping[str, Any], os_state: Mapping[str, Any], default_app: str | None,
          values: dict[str, Any]) -> tuple[Any, Any]:
    """One (value, display) of a parameter drawn with ``rng``: from its listed ``choices``, its sampler, its
    range, or its default."""
    if choices is not None:
        return choices[rng.randrange(len(choices))]
    if "sampler" in spec:
        value = _call_sampler(spec["sampler"], rng, apps[default_app] if default_app else apps, values, os_state)
        value = _project(where, value, spec["fields"]) if "fields" in spec else value
        return value, value
    if "min" in spec:
        value = _numeric(rng, param_type(name, spec), spec)
        return value, value
    return spec["default"], spec["default"]


def sample_parameters(owner: str, parameters: Mapping[str, Mapping[str, Any]], rng: random.Random,
                      apps: Mapping[str, Any], os_state: Mapping[str, Any], default_app: str | None,
                      overrides: Mapping[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Sample every parameter in declaration order; returns (values, display values for templates).

    ``overrides`` pins values (a value of the domain, or a display label of a ``values`` dict)."""
    overrides = dict(overrides or {})
    unknown = set(overrides) - set(parameters)
    if unknown:
        raise TaskError(f"{owner}: no parameters named {sorted(unknown)} (known: {', '.join(parameters) or 'none'})")
    values: dict[str, Any] = {}
    display: dict[str, Any] = {}
    for name, spec in parameters.items():
        where = f"{owner}: parameter {name!r}"
        kind = param_type(name, spec)
        choices = _listed(where, name, spec, apps, os_state, default_app, values)
        if name in overrides:
            wanted = overrides[name]
            match = [c for c in (choices or []) if c[0] == wanted and type(c[0]) is type(wanted)]
            match = match or [c for c in (choices or []) if c[1] == wanted and isinstance(spec.get("values"), Mapping)]
            if choices is not None and not match:
                raise TaskError(f"{where}: {wanted!r} is not in its domain {[c[1] for c in choices]}")
            if "min" in spec and not spec["min"] <= wanted <= spec["max"]:
                raise TaskError(f"{where}: {wanted!r} is outside [{spec['min']}, {spec['max']}]")
            value, shown = match[0] if match else (wanted, wanted)
        else:
            value, shown = _draw(where, name, spec, choices, rng, apps, os_state, default_app, values)
        if kind in _PY_TYPES and not _is_type(value, kind) and "fields" not in spec:
            raise TaskError(f"{where}: value {value!r} is not of type {kind}")
        values[name], display[name] = value, shown
    return values, display


# --- every value a parameter can take (for tests that try every target) ---------------------------------------

class _TooDeep(Exception):
    """A draw sequence longer than MAX_DRAWS_PER_CALL: a rejection loop that the scripted outcomes keep rejecting."""


class _Scripted(random.Random):
    """A generator whose integer draws (choice, randrange, randint, sample, shuffle) take scripted outcomes, then
    0, recording how many outcomes each draw had. Float draws cannot be enumerated."""

    def __init__(self, script: list[int], what: str):
        self.script, self.what, self.ways = script, what, []
        super().__init__(0)

    def _randbelow(self, n: int) -> int:
        if len(self.ways) >= MAX_DRAWS_PER_CALL:
            raise _TooDeep
        outcome = self.script[len(self.ways)] if len(self.ways) < len(self.script) else 0
        self.ways.append(n)
        return outcome

    def random(self) -> float:
        raise TaskError(f"{self.what} uses random floats; its values cannot be enumerated")


def every_draw(fn: Callable[[random.Random], T], limit: int, what: str = "the draw") -> list[T]:
    """Every distinct value ``fn(rng)`` returns over all outcomes of its rng's integer draws, in a fixed order
    (first draw slowest), from at most ``limit`` draw sequences. A sequence of over MAX_DRAWS_PER_CALL draws
    (a retry loop) gives no value; ``what`` names ``fn`` in the TaskError raised when none gives one."""
    found: list[T] = []
    script: list[int] = []
    for _ in range(limit):
        rng = _Scripted(script, what)
        try:
            value = fn(rng)
            if value not in found:
                found.append(value)
        except _TooDeep:
            pass
        taken = (script + [0] * len(rng.ways))[:len(rng.ways)]
        last = max((i for i, way in enumerate(taken) if way + 1 < rng.ways[i]), default=None)
        if last is None:
            break
        script = taken[:last] + [taken[last] + 1]
    if not found:
        raise TaskError(f"{what} returns no value within {limit} sequences of {MAX_DRAWS_PER_CALL} random choices")
    return found


def parameter_domain(owner: str, parameters: Mapping[str, Mapping[str, Any]], name: str, apps: Mapping[str, Any],
                     os_state: Mapping[str, Any], default_app: str | None, values: Mapping[str, Any],
                     limit: int = DOMAIN_DRAWS) -> list[Any]:
    """Every value parameter ``name`` can be sampled as, given the values of the parameters declared before it
    (``values``): its list, its range, or what its sampler returns over every outcome of its random draws
    (at most ``limit`` draw sequences, so a huge generated domain is cut, deterministically)."""
    spec = parameters[name]
    where = f"{owner}: parameter {name!r}"
    earlier = dict(values)
    choices = _listed(where, name, spec, apps, os_state, default_app, earlier)
    return every_draw(lambda rng: _draw(where, name, spec, choices, rng, apps, os_state, default_app, earlier)[0],
                      limit, where)


def unambiguous(items: Sequence[T], answer: Callable[[T], float], tolerance: float,
                period: float | None = None) -> list[T]:
    """The items whose answer is more than ``tolerance`` from every other item's, in order: the targets a sampler
    may pick when a check accepts answers within ``tolerance`` of the target's (an album within a minute of
    another's length would pass a +/-60 s timer check for either). ``period``: answers wrap around (1440 for
    minutes of the day)."""
    keys = [answer(item) for item in items]

    def apart(a: float, b: float) -> bool:
        gap = abs(a - b) if period is None else min(abs(a - b) % period, period - abs(a - b) % period)
        return gap > tolerance

    return [item for n, item in enumerate(items) if all(apart(keys[n], k) for m, k in enumerate(keys) if m != n)]
