"""The simulated clock, read from the OS state only (never from the host)."""
from __future__ import annotations

import datetime as _dt
from typing import Any, Mapping

_EPOCH = _dt.datetime(1970, 1, 1)


def now_ms(os_state: Mapping[str, Any]) -> int:
    """The phone's clock in epoch milliseconds; raises if the state carries no time."""
    if "time_ms" not in os_state:
        raise ValueError("os state has no 'time_ms': the simulated clock is unknown")
    return int(os_state["time_ms"])


def ms_to_datetime(ms: int) -> _dt.datetime:
    """Convert an epoch-ms timestamp to the phone's naive local datetime."""
    return _EPOCH + _dt.timedelta(milliseconds=int(ms))


def datetime_to_ms(value: _dt.datetime) -> int:
    """Inverse of :func:`ms_to_datetime`."""
    return int((value - _EPOCH) / _dt.timedelta(milliseconds=1))


def sim_datetime(os_state: Mapping[str, Any]) -> _dt.datetime:
    """The phone's current naive local datetime."""
    return ms_to_datetime(now_ms(os_state))


def sim_today(os_state: Mapping[str, Any]) -> _dt.date:
    """The phone's current date."""
    return sim_datetime(os_state).date()
