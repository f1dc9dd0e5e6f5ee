"""Notifications: what apps post, kept in the OS part of the world document (``os.notifications``), the one
shown heads-up (``os.heads_up``) and opening one. They are view state: the judge never counts them (see
``VOLATILE_PATHS`` in mobilegym.judge.state.side_effects)."""
from __future__ import annotations

from typing import Any

HEADS_UP_MS = 5000  # a heads-up notification shows for this long of the phone's time (a few steps)
MAX_TEXT = 500  # characters kept of a notification's title and of its text


def post(os_state: dict[str, Any], app_id: str, title: str, text: str, route: str | None = None, *,
         heads_up: bool = False) -> str:
    """Add a notification of ``app_id`` (newest first) and return its id (ids are counted apart from the
    apps' ``os.seq``, so a notification never shifts the ids apps give their items); ``route`` is the screen a tap on it
    opens (None: the app's home); ``heads_up`` also shows it at the top of the screen for HEADS_UP_MS."""
    for name, value in (("title", title), ("text", text)):
        if not isinstance(value, str):
            raise ValueError(f"notification {name} must be a string, got {value!r}")
    if route is not None and (not isinstance(route, str) or not route.startswith("/")):
        raise ValueError(f"notification route must be None or a path such as '/thread?id=c1', got {route!r}")
    os_state.setdefault("notifications", [])
    notification_id = f"notification_{1 + max((_number(n['id']) for n in os_state['notifications']), default=0)}"
    os_state["notifications"].insert(0, {
        "id": notification_id, "app": app_id, "title": title[:MAX_TEXT], "text": text[:MAX_TEXT],
        "route": route, "time_ms": os_state["time_ms"],
    })
    if heads_up:
        os_state["heads_up"] = {"id": notification_id, "until_ms": os_state["time_ms"] + HEADS_UP_MS}
    return notification_id


def _number(notification_id: str) -> int:
    return int(notification_id.rpartition("_")[2])


def find(os_state: dict[str, Any], notification_id: str) -> dict[str, Any] | None:
    return next((n for n in os_state.get("notifications", []) if n["id"] == notification_id), None)


def remove(os_state: dict[str, Any], notification_id: str) -> None:
    """Take a notification away (and its heads-up)."""
    os_state["notifications"] = [n for n in os_state.get("notifications", []) if n["id"] != notification_id]
    if (os_state.get("heads_up") or {}).get("id") == notification_id:
        os_state["heads_up"] = None


def clear(os_state: dict[str, Any]) -> None:
    """The shade's "Clear all"."""
    os_state["notifications"] = []
    os_state["heads_up"] = None


def heads_up(os_state: dict[str, Any]) -> dict[str, Any] | None:
    """The notification shown heads-up now (None when none is, or its time is over, or the shade is open)."""
    shown = os_state.get("heads_up")
    if not shown or os_state.get("shade") or os_state["time_ms"] >= shown["until_ms"]:
        return None
    return find(os_state, shown["id"])
