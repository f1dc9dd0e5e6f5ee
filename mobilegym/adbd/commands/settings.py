"""`settings get/put` on the simulated phone: Android setting names mapped onto the Settings
app's state (``apps.settings``), so ADB tools and device getters read the real world document.

| namespace | Android name | state key (apps.settings.*) | conversion |
|---|---|---|---|
| global | airplane_mode_on | airplane_mode | 1/0 |
| global | wifi_on | wifi | 1/0 |
| global | bluetooth_on | bluetooth | 1/0 |
| global | zen_mode | do_not_disturb | 1 (on) / 0 |
| global | device_name | about.device_name | text |
| secure | ui_night_mode | dark_mode | 2 (night) / 1 (day) |
| system | screen_brightness | brightness | 0-255 <-> 0-100 |
| system | screen_brightness_mode | adaptive_brightness | 1 (auto) / 0 |
| system | font_scale | font_size | 0.9 small, 1.0 default, 1.15 large, 1.3 largest |
| system | time_12_24 | time_24h | 24 / 12 |

Other names are kept in a per-shell table (a few Android defaults preloaded); unknown
names read as ``null`` like on Android.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...sim.ui.theme import FONT_SCALES

NAMESPACES = ("global", "system", "secure")


def _bool_out(v: Any) -> str:
    return "1" if v else "0"


def _bool_in(text: str) -> bool:
    if text.lower() in ("1", "true"):
        return True
    if text.lower() in ("0", "false"):
        return False
    raise ValueError(f"expected 0 or 1, got {text!r}")


def _int_in(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(float(text))
        if not lo <= value <= hi:
            raise ValueError(f"expected a value in {lo}..{hi}, got {text!r}")
        return value

    return parse


def _clock_in(text: str) -> bool:
    if text not in ("12", "24"):
        raise ValueError(f"expected 12 or 24, got {text!r}")
    return text == "24"


def _font_in(text: str) -> str:
    scale = float(text)
    return min(FONT_SCALES, key=lambda k: abs(FONT_SCALES[k] - scale))


@dataclass(frozen=True)
class Mapping:
    path: tuple[str, ...]
    out: Callable[[Any], str]
    into: Callable[[str], Any]


MAPPINGS: dict[tuple[str, str], Mapping] = {
    ("global", "airplane_mode_on"): Mapping(("airplane_mode",), _bool_out, _bool_in),
    ("global", "wifi_on"): Mapping(("wifi",), _bool_out, _bool_in),
    ("global", "bluetooth_on"): Mapping(("bluetooth",), _bool_out, _bool_in),
    ("global", "zen_mode"): Mapping(("do_not_disturb",), _bool_out, lambda t: _int_in(0, 3)(t) != 0),
    ("global", "device_name"): Mapping(("about", "device_name"), str, str),
    ("secure", "ui_night_mode"): Mapping(("dark_mode",), lambda v: "2" if v else "1",
                                         lambda t: _int_in(0, 3)(t) == 2),
    ("system", "screen_brightness"): Mapping(("brightness",), lambda v: str(round(v * 255 / 100)),
                                             lambda t: round(_int_in(0, 255)(t) * 100 / 255)),
    ("system", "screen_brightness_mode"): Mapping(("adaptive_brightness",), _bool_out, _bool_in),
    ("system", "font_scale"): Mapping(("font_size",), lambda v: str(FONT_SCALES.get(v, 1.0)), _font_in),
    ("system", "time_12_24"): Mapping(("time_24h",), lambda v: "24" if v else "12", _clock_in),
}

DEFAULTS: dict[tuple[str, str], str] = {
    ("global", "adb_enabled"): "1",
    ("global", "auto_time"): "1",
    ("global", "auto_time_zone"): "1",
    ("global", "development_settings_enabled"): "1",
    ("global", "stay_on_while_plugged_in"): "0",
    ("global", "window_animation_scale"): "1.0",
    ("global", "transition_animation_scale"): "1.0",
    ("global", "animator_duration_scale"): "1.0",
    ("system", "screen_off_timeout"): "60000",
    ("system", "accelerometer_rotation"): "0",
    ("system", "user_rotation"): "0",
    ("secure", "android_id"): "6d6f62696c65677a",
    ("secure", "location_mode"): "3",
    ("secure", "default_input_method"): "com.mobilegym.ime/.SimpleIME",
    ("secure", "enabled_input_methods"): "com.mobilegym.ime/.SimpleIME:com.android.adbkeyboard/.AdbIME",
}


def _lookup(state: dict[str, Any], path: tuple[str, ...]) -> tuple[bool, Any]:
    node: Any = state
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return False, None
        node = node[key]
    return True, node


def get(settings_state: dict[str, Any], extra: dict[tuple[str, str], str], ns: str, name: str) -> str:
    """The setting's text value, or "null"."""
    mapping = MAPPINGS.get((ns, name))
    if mapping is not None:
        found, value = _lookup(settings_state, mapping.path)
        if found:
            return mapping.out(value)
    return extra.get((ns, name), DEFAULTS.get((ns, name), "null"))


def put_patch(settings_state: dict[str, Any], ns: str, name: str, text: str) -> dict[str, Any] | None:
    """The apps.settings patch for a mapped setting, or None if the name is not mapped.

    Raises ValueError for a value the mapping cannot take.
    """
    mapping = MAPPINGS.get((ns, name))
    if mapping is None or not _lookup(settings_state, mapping.path)[0]:
        return None
    patch: dict[str, Any] = {}
    node = patch
    for key in mapping.path[:-1]:
        node = node.setdefault(key, {})
    node[mapping.path[-1]] = mapping.into(text)
    return patch


def listing(settings_state: dict[str, Any], extra: dict[tuple[str, str], str], ns: str) -> list[str]:
    """`settings list NS` lines: name=value, sorted."""
    names = {n for (space, n) in (*MAPPINGS, *DEFAULTS, *extra) if space == ns}
    return [f"{n}={get(settings_state, extra, ns, n)}" for n in sorted(names)]
