"""Variation axes for robustness: per episode, a seeded choice of language, theme, font scale, screen,
launcher layout and interruptions, applied through the simulated phone's own settings.

The env option ``variation=`` (off by default) names the axes to vary and the values each may take::

    variation="all"                                    # every axis, every value
    variation={"theme": "all", "screen": ["720x1600", "1440x3120"], "language": "zh"}

Each reset draws every named axis's value from a random stream of its own, seeded by the episode seed
and the axis name (so adding an axis never changes another's draws); axes not named are left as the
phone is. :func:`choose` makes the choice, :func:`settings_patch` and :func:`toast_at` say how it is
applied; the environment records the chosen values in ``info["variation"]``.

What each value means:

- ``language``: the phone's language and the instruction's ("en", "zh");
- ``theme``: Settings' dark theme off or on ("light", "dark");
- ``font_scale``: Settings' font size ("small" 0.9, "default", "large" 1.15, "largest" 1.3);
- ``screen``: the screen in pixels ("720x1600", "1080x2400", "1440x3120"): 360 dp wide, so the density
  follows (2.0, 3.0, 4.0); the screenshot is scaled to the observation's size;
- ``launcher``: home-screen icons in alphabetical order or shuffled ("default", "shuffled");
- ``interruptions``: none, or toasts shown after seeded steps ("none", "toast").
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Mapping

from .sim.ui.theme import FONT_SCALES

AXES: dict[str, tuple[str, ...]] = {
    "language": ("en", "zh"),
    "theme": ("light", "dark"),
    "font_scale": tuple(FONT_SCALES),
    "screen": ("720x1600", "1080x2400", "1440x3120"),
    "launcher": ("default", "shuffled"),
    "interruptions": ("none", "toast"),
}
SETTINGS_AXES = ("theme", "font_scale")  # applied to the Settings app's state
TOAST_WINDOW = (1, 12)  # toasts appear after steps in this range (inclusive)
MAX_TOASTS = 2
TOASTS = {
    "en": ("Wi-Fi connected", "Battery saver is on", "Screenshot saved", "Update downloaded"),
    "zh": ("已连接到 WLAN", "省电模式已开启", "屏幕截图已保存", "更新已下载"),
}

Spec = dict[str, tuple[str, ...]]


def parse_variation(spec: Any) -> Spec | None:
    """The ``variation`` option as axis -> allowed values (None: off). A ValueError names a bad axis or value."""
    if spec is None:
        return None
    if spec == "all":
        return dict(AXES)
    if not isinstance(spec, Mapping):
        raise ValueError(f"variation must be None, 'all' or a mapping of axis -> values, got {spec!r}")
    if not spec:
        raise ValueError("variation must name at least one axis; use None for no variation")
    parsed: Spec = {}
    for axis, values in spec.items():
        if axis not in AXES:
            raise ValueError(f"unknown variation axis {axis!r}; axes: {', '.join(AXES)}")
        if values == "all":
            parsed[axis] = AXES[axis]
            continue
        chosen = (values,) if isinstance(values, str) else values
        if not isinstance(chosen, (list, tuple)) or not chosen:
            raise ValueError(f"variation axis {axis!r} takes 'all', a value or a non-empty list of values "
                             f"({', '.join(AXES[axis])}), got {values!r}")
        bad = [v for v in chosen if v not in AXES[axis]]
        if bad:
            raise ValueError(f"variation axis {axis!r} has no value {bad[0]!r}; values: {', '.join(AXES[axis])}")
        parsed[axis] = tuple(dict.fromkeys(chosen))
    return {axis: parsed[axis] for axis in AXES if axis in parsed}


@dataclass(frozen=True)
class Variation:
    """The values chosen for one episode (only the varied axes) and the steps after which a toast shows."""

    values: Mapping[str, str]
    seed: int = 0
    toast_steps: tuple[int, ...] = ()

    def get(self, axis: str, default: Any = None) -> Any:
        return self.values.get(axis, default)

    def screen_size(self) -> tuple[int, int] | None:
        """(width, height) in pixels when the screen is varied."""
        screen = self.values.get("screen")
        if screen is None:
            return None
        width, height = screen.split("x")
        return int(width), int(height)

    def to_info(self) -> dict[str, Any]:
        """What ``info["variation"]`` shows: the chosen values, and the toasts' steps when there are any."""
        info: dict[str, Any] = dict(self.values)
        if self.toast_steps:
            info["toast_steps"] = list(self.toast_steps)
        return info


def _rng(seed: int, axis: str) -> random.Random:
    return random.Random(f"mobilegym-variation|{seed}|{axis}")


def choose(spec: Spec, seed: int) -> Variation:
    """Each axis's value for the episode ``seed`` (deterministic: the same seed, the same values)."""
    values = {axis: _rng(seed, axis).choice(allowed) for axis, allowed in spec.items()}
    toast_steps: tuple[int, ...] = ()
    if values.get("interruptions") == "toast":
        rng = _rng(seed, "toast_steps")
        toast_steps = tuple(sorted(rng.sample(range(TOAST_WINDOW[0], TOAST_WINDOW[1] + 1), rng.randint(1, MAX_TOASTS))))
    return Variation(values, seed, toast_steps)


def fixed(values: Mapping[str, Any], seed: int) -> Variation:
    """A variation with given values (the reset option ``{"variation": {...}}``), each one value of its axis."""
    spec = parse_variation(dict(values))
    assert spec is not None
    many = [axis for axis, allowed in spec.items() if len(allowed) != 1]
    if many:
        raise ValueError(f"reset option variation takes one value per axis, got several for {many[0]!r}")
    return choose(spec, seed)


def settings_patch(variation: Variation) -> dict[str, Any]:
    """The Settings app's state the variation sets (empty when neither theme nor font scale is varied)."""
    settings: dict[str, Any] = {}
    if "theme" in variation.values:
        settings["dark_mode"] = variation.values["theme"] == "dark"
    if "font_scale" in variation.values:
        settings["font_size"] = variation.values["font_scale"]
    return settings


def toast_at(variation: Variation, step: int, language: str) -> str | None:
    """The toast to show after ``step`` (None: none), worded in the phone's language."""
    if step not in variation.toast_steps:
        return None
    return _rng(variation.seed, f"toast|{step}").choice(TOASTS[language])


class VariedPhone:
    """The simulated phone as an episode's set-up sees it: every ``reset_state`` is followed by the
    variation's Settings patch, so the patch is part of the episode's initial state (never a side
    effect) and a task's own preparation still comes after it. Everything else is the phone's."""

    def __init__(self, phone: Any, settings: Mapping[str, Any]) -> None:
        self._phone = phone
        self._settings = dict(settings)

    def reset_state(self, seed: int | None = None) -> None:
        self._phone.reset_state(seed)
        self._phone.set_state({"apps": {"settings": dict(self._settings)}})

    def __getattr__(self, name: str) -> Any:
        if name in ("_phone", "_settings"):  # not set yet (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self._phone, name)
