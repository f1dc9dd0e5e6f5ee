"""Navigation: per-app back stacks, the foreground app, recents and the recents overlay.

All of it is kept in the world document under ``os`` so a snapshot of the document is a
snapshot of the whole phone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import ime
from .app import SimApp, route_string

if TYPE_CHECKING:
    from .phone import Phone

LAUNCHER = "launcher"
LAUNCHER_PACKAGE = "com.mobilegym.launcher"


class Navigator:
    """Moves between apps and screens by editing ``doc["os"]``."""

    def __init__(self, phone: Phone) -> None:
        self.phone = phone

    @property
    def os(self) -> dict[str, Any]:
        return self.phone.doc["os"]

    def resolve_app(self, name: str) -> SimApp:
        """An installed app by id, package or display name (case-insensitive)."""
        wanted = str(name).strip().lower()
        for app in self.phone.apps.values():
            if wanted in app.names():
                return app
        known = ", ".join(sorted(a.label for a in self.phone.apps.values()))
        raise ValueError(f"unknown app {name!r}; installed apps: {known}")

    def current_entry(self) -> dict[str, Any] | None:
        """The foreground back-stack entry, or None on the home screen."""
        app_id = self.os["foreground"]
        if app_id == LAUNCHER:
            return None
        return self.os["stacks"][app_id][-1]

    def _sync(self) -> None:
        entry = self.current_entry()
        self.os["route"] = "/" if entry is None else route_string(entry["path"], entry["params"])
        self.os["focus"] = None

    def open(self, name: str) -> None:
        """Bring an app to the front, resuming its back stack or starting at its home screen."""
        app = self.resolve_app(name)
        stacks = self.os["stacks"]
        if not stacks.get(app.id):
            stacks[app.id] = [self._entry(app, app.home, {})]
        self.os["foreground"] = app.id
        self.os["overlay"] = None
        self.os["shade"] = False  # an app coming to the front collapses the shade
        recents = [a for a in self.os["recents"] if a != app.id]
        self.os["recents"] = [app.id, *recents]
        self._sync()

    def _entry(self, app: SimApp, path: str, params: dict[str, Any]) -> dict[str, Any]:
        if path not in app.screens:
            raise ValueError(f"app {app.id!r} has no screen {path!r}; screens: {sorted(app.screens)}")
        return {"path": path, "params": dict(params), "local": {}}

    def push(self, app_id: str, path: str, params: dict[str, Any]) -> None:
        """Open a screen on top of an app's stack."""
        app = self.phone.apps[app_id]
        self.os["stacks"].setdefault(app_id, []).append(self._entry(app, path, params))
        self._sync()
        if not params and path in app.focus_on_open:
            self.focus(app.focus_on_open[path])

    def focus(self, key: str) -> None:
        """Put the focus on the foreground screen's field ``key``; its keyboard opens on the letters page."""
        self.os["focus"] = key
        ime.focus_moved(self.os)

    def replace(self, app_id: str, path: str, params: dict[str, Any]) -> None:
        """Swap the top screen of an app's stack for another. The same screen in the same state stays as it is
        (re-selecting the current tab): its entry object keeps serving the widgets already built on it."""
        app = self.phone.apps[app_id]
        entry = self._entry(app, path, params)
        if entry == self.os["stacks"][app_id][-1]:
            return
        self.os["stacks"][app_id][-1] = entry
        self._sync()

    def pop(self, app_id: str) -> None:
        """Remove the top screen of an app's stack."""
        self.os["stacks"][app_id].pop()
        self._sync()

    def back(self) -> None:
        """The back key after dialogs and focus are handled: close overlay, pop, or leave the app."""
        if self.os["overlay"] is not None:
            self.os["overlay"] = None
        elif self.os["foreground"] != LAUNCHER:
            stack = self.os["stacks"][self.os["foreground"]]
            stack.pop()
            if not stack:
                del self.os["stacks"][self.os["foreground"]]
                self.os["foreground"] = LAUNCHER
        self._sync()

    def home(self) -> None:
        """Go to the launcher, keeping every app's stack."""
        self.os["foreground"] = LAUNCHER
        self.os["overlay"] = None
        self.os["shade"] = False
        self._sync()

    def toggle_recents(self) -> None:
        """Show or hide the recent-apps overlay."""
        self.os["overlay"] = None if self.os["overlay"] == "recents" else "recents"
        self.os["shade"] = False
        self.os["focus"] = None

    def clear_recents(self) -> None:
        """Close every app (the recents screen's "Clear all")."""
        self.os["stacks"] = {}
        self.os["recents"] = []
        self.os["foreground"] = LAUNCHER
        self.os["overlay"] = None
        self._sync()
