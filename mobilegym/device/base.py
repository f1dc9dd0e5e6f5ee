"""The Device protocol: everything the environment and the judge need from a phone."""
from __future__ import annotations

from typing import Any, Mapping, Protocol, runtime_checkable

import numpy as np

from ..sim.worlds import WORLDS  # noqa: F401  (re-exported: what the environment's world= accepts)

# Capability names a device may advertise in ``Device.capabilities``.
CAP_STATE = "state"          # get_state / set_state / reset_state on the world document
CAP_SNAPSHOT = "snapshot"    # snapshot / restore of the whole phone
CAP_SHELL = "shell"          # shell(cmd) -> str
CAP_FILES = "files"          # pull(path) -> bytes / push(path, data)
CAP_PREPARE = "prepare"      # prepare_patch(app, preparer, args, rng=, spread=) -> a patch of the world document
CAP_LAUNCH = "launch"        # launch(app, route): open an app straight at a screen


class DeviceError(RuntimeError):
    """A device failed or disappeared (not the agent's fault, not the task's)."""


class UnsupportedCapability(DeviceError):
    """The device cannot do what was asked (for example, read app state on a real phone)."""


@runtime_checkable
class Device(Protocol):
    """A phone the environment drives. Coordinates are device pixels."""

    capabilities: frozenset[str]

    @property
    def screen_size(self) -> tuple[int, int]:
        """(width, height) in device pixels."""

    def screenshot(self) -> np.ndarray:
        """A fresh uint8 (H, W, 3) array (H, W may be scaled from screen_size)."""

    def a11y_xml(self) -> str:
        """The accessibility tree in uiautomator dump XML format, bounds in device pixels."""

    def tap(self, x: int, y: int) -> None: ...
    def double_tap(self, x: int, y: int) -> None: ...
    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None: ...
    def swipe(self, x: int, y: int, x2: int, y2: int, duration_ms: int = 300) -> None: ...
    def drag(self, x: int, y: int, x2: int, y2: int) -> None: ...
    def type_text(self, text: str, clear: bool = False) -> bool | None:
        """Type into the focused field: True if a field took the text, False if none had focus, None if the
        device cannot tell."""
    def key(self, name: str) -> None:
        """One of back, home, recent, enter, delete."""

    def open_app(self, app: str) -> None:
        """Launch an app by id, package or display name."""

    def wait(self, seconds: float) -> None:
        """Let the phone's clock run."""

    def current_app(self) -> str:
        """The foreground app's id ("launcher" on the home screen)."""

    def current_route(self) -> str:
        """The foreground screen's route, e.g. "/alarms" or "/alarm/edit?id=a1"."""

    def time_ms(self) -> int:
        """The phone's clock, milliseconds since the epoch (simulated on the sim)."""

    def get_state(self) -> dict[str, Any]:
        """A deep copy of {"os": {...}, "apps": {...}} (needs CAP_STATE)."""

    def set_state(self, patch: dict[str, Any]) -> None:
        """Deep-merge a patch into the world document (needs CAP_STATE)."""

    def reset_state(self, seed: int | None = None) -> None:
        """Every app back to its defaults, the phone on the home screen (needs CAP_STATE)."""

    def close(self) -> None: ...


@runtime_checkable
class StateDevice(Device, Protocol):
    """A device with CAP_STATE: besides get/set/reset_state, the reads the judge makes of the world document."""

    def copy_state(self) -> dict[str, Any]:
        """A private copy for judging (apps nobody read may stay unread until the copy reads them)."""

    def peek_state(self) -> Mapping[str, Any]:
        """The document for reading only (it may be the live one: never change it)."""

    def view_state(self) -> dict[str, tuple[str, ...]]:
        """Per app, the state paths that are view state (playback, read markers), not the user's data."""

    @property
    def canonical(self) -> bool:
        """Whether the phone holds the fixed canonical world (whose facts are documented)."""


@runtime_checkable
class LaunchDevice(Device, Protocol):
    """A device with CAP_LAUNCH."""

    def launch(self, app: str, route: str) -> None:
        """Open ``app`` at a screen: a route on the simulated phone, an activity or a URI on a real one."""


@runtime_checkable
class PrepareDevice(Device, Protocol):
    """A device with CAP_PREPARE: its apps' preparers (the ``prepare`` setup action)."""

    def prepare_patch(self, app_id: str, name: str, args: Mapping[str, Any], *, rng: Any,
                      spread: Any = None) -> dict[str, Any]:
        """The patch ``app_id``'s preparer ``name`` builds from the current world with the random stream ``rng``
        (``spread``: a task's answer draws, None on the canonical phone); a ValueError for an unknown one."""
