"""Task parameters: declaration checks and seeded sampling.

A declaration maps a name to a spec::

    {"type": "enum", "values": {"Low": 0, "High": 2}}   display label -> stored value (or a plain list)
    {"type": "bool", "values": {"on": True, "off": False}}
    {"type": "int", "min": 1, "max": 9, "step": 1}       (float: "step" defaults to 0.01)
    {"type": "string", "default": "Work"}                a single value
    {"source": ".alarms[*].label"}                       one of the values a state path lists
    {"source": ".contacts", "fields": ["name", "phone"]} multi-field: one item, as a dict ({contact.name})
    {"sampler": Clock.sample_time}                       fn(rng, app_state[, params][, os_state]) -> value
                                                         (os_state: the phone's, e.g. for its date)
"""
from __future__ import annotations

import inspect
import math
import random
from typing import Any, Callable, Mapping

from .errors import TaskError
from .paths import as_path, resolve_state

TYPES = ("enum", "bool", "int", "float", "string", "object")
KEYS = {"type", "values", "min", "max", "step", "source", "sampler", "default", "fields", "description"}
_PY_TYPES: dict[str, tuple[type, ...]] = {"bool": (bool,), "int": (int,), "float": (int, float),
                                          "string": (str,), "object": (dict,)}


class Params:
    """Read-only attribute view of the sampled values (``self.p.city``)."""

    def __init__(self, values: Mapping[str, Any]):
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name: str) -> Any:
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
        choices: list[tuple[Any, Any]] | None = None
        if "values" in spec:
            choices = _choices(spec)
        elif kind == "bool" and "default" not in spec and "sampler" not in spec and "source" not in spec:
            choices = [(True, True), (False, False)]
        elif "source" in spec:
            try:
                found = resolve_state(apps, os_state, spec["source"], default_app, values, strict=True)
            except TaskError as exc:
                raise TaskError(f"{where}: {exc}") from exc
            if not isinstance(found, list) or not found:
                raise TaskError(f"{where}: source {spec['source']!r} gives {found!r}, not a non-empty list")
            items = [_project(where, i, spec["fields"]) for i in found] if "fields" in spec else found
            if "fields" not in spec and any(isinstance(i, (dict, list)) for i in items):
                raise TaskError(f"{where}: source items are containers; select a field ([*].name) or declare 'fields'")
            choices = [(i, i) for i in items]
        if name in overrides:
            wanted = overrides[name]
            match = [c for c in (choices or []) if c[0] == wanted and type(c[0]) is type(wanted)]
            match = match or [c for c in (choices or []) if c[1] == wanted and isinstance(spec.get("values"), Mapping)]
            if choices is not None and not match:
                raise TaskError(f"{where}: {wanted!r} is not in its domain {[c[1] for c in choices]}")
            if "min" in spec and not spec["min"] <= wanted <= spec["max"]:
                raise TaskError(f"{where}: {wanted!r} is outside [{spec['min']}, {spec['max']}]")
            value, shown = match[0] if match else (wanted, wanted)
        elif choices is not None:
            value, shown = choices[rng.randrange(len(choices))]
        elif "sampler" in spec:
            value = _call_sampler(spec["sampler"], rng, apps[default_app] if default_app else apps, values, os_state)
            if "fields" in spec:
                value = _project(where, value, spec["fields"])
            shown = value
        elif "min" in spec:
            value = _numeric(rng, kind, spec)
            shown = value
        else:
            value = shown = spec["default"]
        if kind in _PY_TYPES and not _is_type(value, kind) and "fields" not in spec:
            raise TaskError(f"{where}: value {value!r} is not of type {kind}")
        values[name], display[name] = value, shown
    return values, display
