"""An in-memory phone for the judge tests (state only), plus tests of the fake itself."""
from __future__ import annotations

import copy
import datetime as dt
from typing import Any

from mobilegym.device.base import CAP_STATE
from mobilegym.judge.timeutil import datetime_to_ms
from mobilegym.sim.state import apply_patch

START = dt.datetime(2026, 4, 5, 9, 0)  # a Sunday

DEFAULTS: dict[str, Any] = {
    "os": {"time_ms": datetime_to_ms(START), "language": "en", "foreground": "launcher", "route": "/",
           "recents": [], "focus": None},
    "apps": {
        "settings": {"wifi": True, "bluetooth": False, "dark_mode": False, "brightness": 60,
                     "font_size": "default", "about": {"model": "MG-1 Pro", "storage_used_gb": 47.3}},
        "clock": {"alarms": [
            {"id": "a1", "hour": 6, "minute": 30, "label": "Wake up", "enabled": True},
            {"id": "a2", "hour": 7, "minute": 45, "label": "Gym", "enabled": False},
            {"id": "a3", "hour": 22, "minute": 15, "label": "Medicine", "enabled": True},
        ]},
        "weather": {"cities": [{"name": "Beijing", "high": 23, "low": 15}, {"name": "Shanghai", "high": 26, "low": 19}]},
        "answer_sheet": {"question": "", "hint": "", "fields": [], "answers": {}, "submitted": False},
    },
}


class FakeDevice:
    """get_state/set_state/reset_state over a plain document; records every call."""

    def __init__(self, defaults: dict[str, Any] | None = None):
        self.defaults = copy.deepcopy(defaults or DEFAULTS)
        self.calls: list[tuple[str, Any]] = []
        self.doc = copy.deepcopy(self.defaults)

    def reset_state(self, seed: int | None = None) -> None:
        self.calls.append(("reset_state", seed))
        self.doc = copy.deepcopy(self.defaults)

    capabilities = frozenset({CAP_STATE})
    canonical = False

    def get_state(self) -> dict[str, Any]:
        return copy.deepcopy(self.doc)

    copy_state = peek_state = get_state

    def view_state(self) -> dict[str, tuple[str, ...]]:
        return {}

    def set_state(self, patch: dict[str, Any]) -> None:
        self.calls.append(("set_state", copy.deepcopy(patch)))
        apply_patch(self.doc, patch)

    # helpers for tests
    def app(self, name: str) -> dict[str, Any]:
        return self.doc["apps"][name]

    def fill_sheet(self, answers: dict[str, Any], submitted: bool = True) -> None:
        self.doc["apps"]["answer_sheet"]["answers"] = copy.deepcopy(answers)
        self.doc["apps"]["answer_sheet"]["submitted"] = submitted


def test_fake_device_copies_and_patches():
    device = FakeDevice()
    state = device.get_state()
    state["apps"]["settings"]["wifi"] = False
    assert device.app("settings")["wifi"] is True
    device.set_state({"apps": {"clock": {"alarms[id=a2]": {"enabled": True}}}})
    assert device.app("clock")["alarms"][1]["enabled"] is True
    device.reset_state(7)
    assert device.app("clock")["alarms"][1]["enabled"] is False
    assert device.calls[-1] == ("reset_state", 7)
