"""The phone's simulated clock: epoch milliseconds in the state document, never the host's."""
from __future__ import annotations

import datetime as dt
from typing import Any

EPOCH = dt.datetime(1970, 1, 1)
DEFAULT_START = dt.datetime(2026, 3, 16, 9, 0, 0)  # a Monday morning
MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS


def to_ms(moment: dt.datetime) -> int:
    """Naive local datetime -> epoch milliseconds."""
    return int((moment - EPOCH).total_seconds() * 1000)


def from_ms(ms: int) -> dt.datetime:
    """Epoch milliseconds -> naive local datetime."""
    return EPOCH + dt.timedelta(milliseconds=ms)


DEFAULT_START_MS = to_ms(DEFAULT_START)
# The latest time the clock may reach: far beyond any task, yet early enough that date arithmetic
# (calendar months, alarms a year ahead) stays inside datetime's range (year 9999).
MAX_MS = to_ms(dt.datetime(9000, 1, 1))


def uses_24h(settings: dict[str, Any] | None) -> bool:
    """The phone's "Use 24-hour format" setting (Settings > Date & time) from the Settings app's state; on
    when no Settings app is installed (None)."""
    return bool((settings or {}).get("time_24h", True))


def status_time(doc: dict[str, Any]) -> str:
    """The time as the status bar shows it: "14:05", or "2:05" on a 12-hour phone (no AM/PM, as Android)."""
    now = from_ms(doc["os"]["time_ms"])
    return f"{now.hour:02d}:{now.minute:02d}" if uses_24h(doc["apps"].get("settings")) else f"{now.hour % 12 or 12}:{now.minute:02d}"
