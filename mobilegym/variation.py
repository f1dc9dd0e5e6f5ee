"""Variation axes for robustness: per episode, a seeded choice of language, theme, font scale, screen,
launcher layout and interruptions, applied through the simulated phone's own settings.

The env option ``variation=`` (off by default) names the axes to vary and the values each may take::

    variation="all"                                    # every axis, every value
    variation={"theme": "all", "screen": ["720x1600", "1440x3120"], "language": "zh"}

Each reset draws every named axis's value from a random stream of its own, seeded by the episode seed
and the axis name (so adding an axis never changes another's draws); axes not named are left as the
phone is. :func:`choose` makes the choice, :func:`settings_patch` and :func:`interruption_patch` say how
it is applied; the environment records the chosen values in ``info["variation"]``.

What each value means:

- ``language``: the phone's language and the instruction's ("en", "zh");
- ``theme``: Settings' dark theme off or on ("light", "dark");
- ``font_scale``: Settings' font size ("small" 0.9, "default", "large" 1.15, "largest" 1.3);
- ``screen``: the screen in pixels ("720x1600", "1080x2400", "1440x3120"): 360 dp wide, so the density
  follows (2.0, 3.0, 4.0); the screenshot is scaled to the observation's size;
- ``launcher``: home-screen icons in alphabetical order or shuffled ("default", "shuffled");
- ``interruptions``: none, or something coming over the screen after seeded steps: a toast, a heads-up
  notification (in the shade too), an incoming call (full screen: Decline / Answer) or an app's permission
  request (Allow / Don't allow) ("none", "toast", "notification", "call", "permission"). They never change
  an app's data and the judge ignores them; the agent must put a call or a permission request away.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Mapping

from .answer_sheet_ids import HARNESS_APPS
from .languages import LANGUAGES
from .sim import interruptions, notifications
from .sim.app import load_app
from .sim.ui.theme import FONT_SCALES

AXES: dict[str, tuple[str, ...]] = {
    "language": tuple(LANGUAGES),
    "theme": ("light", "dark"),
    "font_scale": tuple(FONT_SCALES),
    "screen": ("720x1600", "1080x2400", "1440x3120"),
    "launcher": ("default", "shuffled"),
    "interruptions": ("none", "toast", "notification", "call", "permission"),
}
SETTINGS_AXES = ("theme", "font_scale")  # applied to the Settings app's state
INTERRUPTION_WINDOW = (1, 12)  # interruptions appear after steps in this range (inclusive)
MAX_INTERRUPTIONS = 2
TOASTS = {
    "en": ("Wi-Fi connected", "Battery saver is on", "Screenshot saved", "Update downloaded"),
    "zh": ("已连接到 WLAN", "省电模式已开启", "屏幕截图已保存", "更新已下载"),
}
# heads-up notifications: (app, title, text), posted only by apps the phone has
NOTICES = {
    "en": (("messages", "Mom", "Call me when you're free"), ("calendar", "Dentist", "Tomorrow at 10:00"),
           ("weather", "Rain expected", "Light rain from around 16:00"),
           ("music", "New release", "A new album from an artist you follow")),
    "zh": (("messages", "妈妈", "有空给我回个电话"), ("calendar", "看牙医", "明天 10:00"),
           ("weather", "预计有雨", "16:00 左右开始有小雨"), ("music", "新歌上架", "你关注的歌手发布了新专辑")),
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
    """The values chosen for one episode (only the varied axes) and the steps after which an interruption
    shows."""

    values: Mapping[str, str]
    seed: int = 0
    interruption_steps: tuple[int, ...] = ()

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
        """What ``info["variation"]`` shows: the chosen values, and the interruptions' steps when there are any."""
        info: dict[str, Any] = dict(self.values)
        if self.interruption_steps:
            info["interruption_steps"] = list(self.interruption_steps)
        return info


def _rng(seed: int, axis: str) -> random.Random:
    return random.Random(f"mobilegym-variation|{seed}|{axis}")


def choose(spec: Spec, seed: int) -> Variation:
    """Each axis's value for the episode ``seed`` (deterministic: the same seed, the same values)."""
    values = {axis: _rng(seed, axis).choice(allowed) for axis, allowed in spec.items()}
    steps: tuple[int, ...] = ()
    if values.get("interruptions", "none") != "none":
        rng = _rng(seed, "toast_steps")
        low, high = INTERRUPTION_WINDOW
        steps = tuple(sorted(rng.sample(range(low, high + 1), rng.randint(1, MAX_INTERRUPTIONS))))
    return Variation(values, seed, steps)


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


def interruption_patch(variation: Variation, step: int, state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The state patch showing the variation's interruption after ``step`` (None: none is due), worded in
    the phone's language and drawn from the episode's seed; ``state`` is the phone's state document."""
    kind = variation.values.get("interruptions", "none")
    if step not in variation.interruption_steps or kind == "none":
        return None
    os_state, apps = state["os"], state["apps"]
    language = os_state["language"]
    rng = _rng(variation.seed, f"{'toast' if kind == 'toast' else kind}|{step}")
    if kind == "toast":
        return {"os": {"toast": rng.choice(TOASTS[language])}}
    if kind == "notification":
        notices = [n for n in NOTICES[language] if n[0] in apps]
        if not notices:
            return None
        app, title, text = rng.choice(notices)
        route = None
        own = load_app(app).notice
        found = own(dict(state), rng) if own is not None else None
        if found is not None:
            title, text, route = found
        shown = {"time_ms": os_state["time_ms"], "notifications": list(os_state.get("notifications", [])),
                 "heads_up": None}
        notifications.post(shown, app, title, text, route, heads_up=True)
        return {"os": {"notifications": shown["notifications"], "heads_up": shown["heads_up"]}}
    if kind == "call":
        return {"os": {"interruption": _call(rng, apps, language)}}
    foreground = os_state["foreground"]
    candidates = sorted(a for a in apps if a not in HARNESS_APPS)
    app = foreground if foreground in candidates else rng.choice(candidates)
    return {"os": {"interruption": {"kind": interruptions.PERMISSION, "app": app,
                                    "permission": rng.choice(sorted(interruptions.PERMISSIONS))}}}


def _call(rng: random.Random, apps: Mapping[str, Any], language: str) -> dict[str, Any]:
    """An incoming call: from one of the owner's contacts when the phone has them, else an unknown number."""
    people = [c for c in apps.get("contacts", {}).get("contacts", []) if c.get("name") and c.get("phones")]
    if people and rng.random() < 0.7:
        person = rng.choice(people)
        return {"kind": interruptions.CALL, "caller": person["name"], "number": person["phones"][0]["number"],
                "answered": False}
    number = (f"138 {rng.randint(1000, 9999)} {rng.randint(1000, 9999)}" if language == "zh"
              else f"(555) 01{rng.randint(0, 99):02d}-{rng.randint(1000, 9999)}")
    return {"kind": interruptions.CALL, "caller": number, "number": "", "answered": False}


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
