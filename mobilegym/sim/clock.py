"""The phone's simulated clock: epoch milliseconds in the state document, never the host's."""
from __future__ import annotations

import datetime as dt

EPOCH = dt.datetime(1970, 1, 1)
DEFAULT_START = dt.datetime(2026, 3, 16, 9, 0, 0)  # a Monday morning


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
