"""A small fake phone for the JSON-task tests (no tests of its own)."""
from __future__ import annotations

import copy
from typing import Any

import numpy as np

from mobilegym.device import apps
from mobilegym.device.base import CAP_FILES, CAP_LAUNCH, CAP_PREPARE, CAP_SHELL, CAP_STATE
from mobilegym.sim.state import apply_patch

ALL_CAPS = frozenset({CAP_STATE, CAP_SHELL, CAP_FILES, CAP_PREPARE, CAP_LAUNCH})

DEFAULT_STATE = {
    "os": {"time_ms": 1773651600000, "language": "en", "foreground": "launcher", "route": "/", "wifi": True},
    "apps": {
        "clock": {"alarms": [{"id": "a1", "time": "07:30", "enabled": True, "label": "Work"}], "format24": True},
        "settings": {"wifi": True, "bluetooth": False, "darkMode": False},
    },
}

TREE = ('<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">'
        '<node index="0" text="Wi-Fi" resource-id="com.mobilegym.settings:id/wifi_switch" class="android.widget.Switch" '
        'package="com.mobilegym.settings" content-desc="" checkable="true" checked="{checked}" enabled="true" '
        'selected="false" bounds="[0,0][100,100]" /></hierarchy>')


class FakeDevice:
    """Records calls; state is a plain document patched like the simulated phone's."""

    def __init__(self, capabilities: frozenset[str] = ALL_CAPS) -> None:
        self.capabilities = capabilities
        self.calls: list[tuple] = []
        self.files: dict[str, bytes] = {}
        self.shell_outputs: dict[str, str] = {}
        self.doc: dict[str, Any] = {}
        self.reset_state()

    @property
    def screen_size(self) -> tuple[int, int]:
        return (100, 200)

    def reset_state(self, seed: int | None = None) -> None:
        self.calls.append(("reset_state", seed))
        self.doc = copy.deepcopy(DEFAULT_STATE)

    canonical = False

    def get_state(self) -> dict[str, Any]:
        return copy.deepcopy(self.doc)

    copy_state = peek_state = get_state

    def view_state(self) -> dict[str, tuple[str, ...]]:
        return {}

    def set_state(self, patch: dict[str, Any]) -> None:
        self.calls.append(("set_state", copy.deepcopy(patch)))
        apply_patch(self.doc, patch)

    def prepare_patch(self, app_id: str, name: str, args: dict[str, Any], *, rng: Any, spread: Any = None) -> dict:
        return apps.prepare_patch(self.get_state(), app_id, name, args, rng=rng, spread=spread)

    def screenshot(self) -> np.ndarray:
        shade = 20 if self.doc["apps"]["settings"]["darkMode"] else 235
        return np.full((200, 100, 3), shade, np.uint8)

    def a11y_xml(self) -> str:
        return TREE.replace("{checked}", "true" if self.doc["apps"]["settings"]["wifi"] else "false")

    def key(self, name: str) -> None:
        self.calls.append(("key", name))
        if name == "home":
            self.doc["os"].update(foreground="launcher", route="/")

    def open_app(self, app: str) -> None:
        if app not in self.doc["apps"]:
            raise ValueError(f"unknown app {app!r}")
        self.calls.append(("open_app", app))
        self.doc["os"].update(foreground=app, route="/")

    def launch(self, app: str, route: str) -> None:
        self.calls.append(("launch", app, route))
        self.doc["os"].update(foreground=app, route=route)

    def wait(self, seconds: float) -> None:
        self.calls.append(("wait", seconds))
        self.doc["os"]["time_ms"] += round(seconds * 1000)

    def current_app(self) -> str:
        return self.doc["os"]["foreground"]

    def current_route(self) -> str:
        return self.doc["os"]["route"]

    def time_ms(self) -> int:
        return self.doc["os"]["time_ms"]

    def shell(self, cmd: str) -> str:
        self.calls.append(("shell", cmd))
        return self.shell_outputs.get(cmd, "")

    def pull(self, path: str) -> bytes:
        if path not in self.files:
            raise FileNotFoundError(path)
        return self.files[path]

    def push(self, path: str, data: bytes) -> None:
        self.calls.append(("push", path, len(data)))
        self.files[path] = data

    def close(self) -> None:
        pass
