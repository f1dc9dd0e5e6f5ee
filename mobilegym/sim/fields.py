"""Parsing what users type into form fields (dates, times), shared by the simulated apps."""
from __future__ import annotations

import datetime as dt
import re

_DATE = re.compile(r"^\s*(\d{4})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})\s*$")
_TIME = re.compile(r"^\s*(\d{1,2})\s*[:.：]\s*(\d{2})\s*$")


def parse_date(text: str) -> dt.date | None:
    """2026-03-18 or 2026/3/18 -> a date, else None."""
    match = _DATE.match(text)
    if not match:
        return None
    try:
        return dt.date(*(int(g) for g in match.groups()))
    except ValueError:
        return None


def parse_time(text: str) -> str | None:
    """9:30 or 09:30 -> "09:30", else None."""
    match = _TIME.match(text)
    if not match:
        return None
    hour, minute = int(match.group(1)), int(match.group(2))
    return f"{hour:02d}:{minute:02d}" if hour <= 23 and minute <= 59 else None
