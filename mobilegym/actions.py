"""The action schema: parsing and validation of action dicts, coordinate spaces, and the action space."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np
from gymnasium import spaces

KEYS = ("back", "home", "recent", "enter", "delete")
COORD_SPACES = ("pixels", "norm1000", "norm1")
_POINT = ("x", "y")
_LINE = ("x", "y", "x2", "y2")

# type -> (required fields, optional fields with defaults)
SCHEMA: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "tap": (_POINT, {}),
    "double_tap": (_POINT, {}),
    "long_press": (_POINT, {"duration_ms": 800}),
    "swipe": (_LINE, {"duration_ms": 300}),
    "drag": (_LINE, {}),
    "type": (("text",), {"x": None, "y": None, "clear": False}),
    "key": (("key",), {}),
    "open_app": (("app",), {}),
    "wait": (("seconds",), {}),
    "answer": (("text",), {}),
    "complete": ((), {"text": None}),
    "abort": ((), {"text": None}),
}
ACTION_TYPES = tuple(SCHEMA)
TERMINAL_TYPES = ("complete", "abort")
MAX_WAIT_S = 3600.0
MAX_TEXT = 10_000


class InvalidAction(ValueError):
    """An action that does not follow the schema; the message names the problem."""


@dataclass(frozen=True)
class Action:
    """A validated action; coordinates are device pixels."""

    type: str
    args: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The action as a plain dict (device-pixel coordinates)."""
        return {"type": self.type, **{k: v for k, v in self.args.items() if v is not None}}


class CoordinateSpace:
    """Maps agent coordinates to device pixels: ``pixels``, ``norm1000`` (0-1000) or ``norm1`` (0-1)."""

    def __init__(self, name: str, screen_size: tuple[int, int]) -> None:
        if name not in COORD_SPACES:
            raise ValueError(f"unknown coordinate space {name!r}; expected one of {', '.join(COORD_SPACES)}")
        self.name = name
        self.width, self.height = screen_size
        self.extent = {"pixels": None, "norm1000": 1000.0, "norm1": 1.0}[name]

    def limits(self, axis: str) -> float:
        """The exclusive upper bound of an axis in this space."""
        if self.extent is not None:
            return self.extent
        return float(self.width if axis == "x" else self.height)

    def to_device(self, value: float, axis: str) -> int:
        """One coordinate in this space -> device pixels (clamped onto the screen)."""
        size = self.width if axis == "x" else self.height
        px = value if self.extent is None else value / self.extent * size
        return int(min(size - 1, max(0, math.floor(px))))

    def from_device(self, px: float, axis: str) -> float:
        """Device pixels -> this space (for scripted agents reading the a11y tree)."""
        size = self.width if axis == "x" else self.height
        if self.extent is None:
            return round(px)
        return px / size * self.extent


def _short(value: Any) -> str:
    """A repr for messages, cut short (an agent may send a huge value)."""
    try:
        text = repr(value)
    except Exception:  # a repr that fails or exceeds the int-to-str digit limit
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def _number(kind: str, name: str, value: Any) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidAction(f"{kind}: field {name!r} must be a number, got {_short(value)}")
    try:
        number = float(value)
    except OverflowError:  # an int beyond the float range, e.g. 10**400
        raise InvalidAction(f"{kind}: field {name!r} is out of range, got {_short(value)}") from None
    if not math.isfinite(number):
        raise InvalidAction(f"{kind}: field {name!r} must be finite, got {_short(value)}")
    return number


def _text(kind: str, name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InvalidAction(f"{kind}: field {name!r} must be a string, got {type(value).__name__}")
    if len(value) > MAX_TEXT:
        raise InvalidAction(f"{kind}: field {name!r} is longer than {MAX_TEXT} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate ("\ud800"): not text any keyboard can type
        raise InvalidAction(f"{kind}: field {name!r} is not valid Unicode (a lone surrogate at index "
                            f"{exc.start})") from None
    return value


def parse_action(action: Mapping[str, Any] | Action, coords: CoordinateSpace) -> Action:
    """Validate an action dict and convert its coordinates to device pixels.

    Raises InvalidAction naming the problem: unknown type, missing or unexpected field,
    wrong type, or a point outside the coordinate space.
    """
    if isinstance(action, Action):
        action = {"type": action.type, **action.args}
    if not isinstance(action, Mapping):
        raise InvalidAction(f"an action must be a dict with a 'type' field, got {type(action).__name__}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in SCHEMA:
        raise InvalidAction(f"unknown action type {_short(kind)}; expected one of {', '.join(ACTION_TYPES)}")
    required, optional = SCHEMA[kind]
    missing = [f for f in required if f not in action]
    if missing:
        raise InvalidAction(f"{kind}: missing field(s) {', '.join(map(repr, missing))}")
    extra = [k for k in action if k != "type" and k not in required and k not in optional]
    if extra:
        raise InvalidAction(f"{kind}: unexpected field(s) {', '.join(sorted(map(_short, extra)))}")
    # null is a value only where the schema's default is null (type's x/y, complete's text)
    nulls = [k for k, v in action.items() if v is None and (k in required or optional.get(k) is not None)]
    if nulls:
        raise InvalidAction(f"{kind}: field(s) {', '.join(map(repr, nulls))} must not be null")
    args = {**optional, **{k: v for k, v in action.items() if k != "type"}}
    for name in ("x", "y", "x2", "y2"):
        if name in args and args[name] is not None:
            axis = name[0]
            value = _number(kind, name, args[name])
            if not 0 <= value < coords.limits(axis) + (1e-9 if coords.extent else 0):
                raise InvalidAction(
                    f"{kind}: {name}={_short(args[name])} is outside [0, {coords.limits(axis):g}) "
                    f"in coordinate space {coords.name!r}"
                )
            args[name] = coords.to_device(value, axis)
    if kind == "type" and (args["x"] is None) != (args["y"] is None):
        raise InvalidAction("type: give both x and y to focus a field first, or neither")
    for name in ("text", "app"):
        if name in args and args[name] is not None:
            args[name] = _text(kind, name, args[name])
    if kind == "open_app" and not args["app"].strip():
        raise InvalidAction("open_app: field 'app' must not be empty")
    if kind == "key" and (not isinstance(args["key"], str) or args["key"] not in KEYS):
        raise InvalidAction(f"key: unknown key {_short(args['key'])}; expected one of {', '.join(KEYS)}")
    if "duration_ms" in args:
        duration = _number(kind, "duration_ms", args["duration_ms"])
        if not 0 < duration <= 10_000:
            raise InvalidAction(f"{kind}: duration_ms must be in (0, 10000], got {_short(args['duration_ms'])}")
        args["duration_ms"] = int(duration)
    if kind == "wait":
        seconds = _number(kind, "seconds", args["seconds"])
        if not 0 <= seconds <= MAX_WAIT_S:
            raise InvalidAction(f"wait: seconds must be in [0, {MAX_WAIT_S:g}], got {_short(args['seconds'])}")
        args["seconds"] = seconds
    if kind == "type" and not isinstance(args["clear"], (bool, np.bool_)):
        raise InvalidAction(f"type: field 'clear' must be true or false, got {_short(args['clear'])}")
    if kind == "type":
        args["clear"] = bool(args["clear"])
    return Action(kind, args)


class ActionSpace(spaces.Space[dict]):
    """The space of action dicts. ``sample()`` draws valid, seeded actions of ``sample_types``."""

    def __init__(
        self,
        coords: CoordinateSpace,
        apps: Sequence[str] = ("settings",),
        sample_types: Sequence[str] = ("tap", "tap", "tap", "swipe", "long_press", "type", "key", "wait"),
        seed: int | None = None,
    ) -> None:
        unknown = set(sample_types) - set(ACTION_TYPES)
        if unknown:
            raise ValueError(f"unknown action types to sample: {sorted(unknown)}")
        super().__init__(shape=None, dtype=None, seed=seed)
        self.coords = coords
        self.apps = tuple(apps)
        self.sample_types = tuple(sample_types)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def _point(self, rng: np.random.Generator) -> tuple[float, float]:
        x = rng.uniform(0, self.coords.limits("x"))
        y = rng.uniform(0, self.coords.limits("y"))
        if self.coords.name == "pixels":
            return int(x), int(y)
        return round(float(x), 4), round(float(y), 4)

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        rng = self.np_random
        kind = self.sample_types[int(rng.integers(len(self.sample_types)))]
        x, y = self._point(rng)
        if kind in ("tap", "double_tap"):
            return {"type": kind, "x": x, "y": y}
        if kind == "long_press":
            return {"type": kind, "x": x, "y": y, "duration_ms": 800}
        if kind in ("swipe", "drag"):
            x2, y2 = self._point(rng)
            extra = {"duration_ms": int(rng.integers(100, 600))} if kind == "swipe" else {}
            return {"type": kind, "x": x, "y": y, "x2": x2, "y2": y2, **extra}
        if kind == "type":
            return {"type": kind, "text": "".join(rng.choice(list("abcdefghij 0123456789"), size=int(rng.integers(1, 8))))}
        if kind == "key":
            return {"type": kind, "key": str(rng.choice(KEYS))}
        if kind == "open_app":
            return {"type": kind, "app": str(rng.choice(self.apps))}
        if kind == "wait":
            return {"type": kind, "seconds": float(rng.integers(1, 5))}
        if kind == "answer":
            return {"type": kind, "text": str(int(rng.integers(0, 10)))}
        return {"type": kind}

    def contains(self, x: Any) -> bool:
        try:
            parse_action(x, self.coords)
        except InvalidAction:
            return False
        return True

    def __repr__(self) -> str:
        return f"ActionSpace(coords={self.coords.name!r}, types={ACTION_TYPES})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActionSpace) and (self.coords.name, self.coords.width, self.coords.height) == (
            other.coords.name, other.coords.width, other.coords.height)
