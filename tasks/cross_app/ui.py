"""UI steps on the cross-app suite that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.calendar_words import MONTHS, WEEKDAYS
from mobilegym.oracle import Driver
from ..calendar.ui import fill_event


def short_date(label: str, now: dt.date) -> dt.date:
    """The date a short label names, on or after ``now``: "Today", "Tue, Mar 17", "Tue, March 17" or
    "3月17日 周二"."""
    if label in ("Today", "今天"):
        return now
    zh = re.search(r"(\d{1,2})月(\d{1,2})日", label)
    if zh is not None:
        month, day = int(zh.group(1)), int(zh.group(2))
    else:
        match = re.search(r"([A-Z][a-z]+) (\d{1,2})$", label.strip())
        assert match is not None, label
        month = [m[:3] for m in MONTHS].index(match.group(1)[:3]) + 1
        day = int(match.group(2))
    found = dt.date(now.year, month, day)
    return found if found >= now else dt.date(now.year + 1, month, day)


def spoken_date(d: Driver, day: dt.date) -> str:
    """"Thursday, March 19" / "3月19日"."""
    weekday = WEEKDAYS[day.weekday()]
    return d.t(f"{weekday}, {MONTHS[day.month - 1]} {day.day}", f"{day.month}月{day.day}日")


def add_event(d: Driver, title: str, day: dt.date, start: str | None = None, end: str | None = None,
              place: str | None = None) -> None:
    """A new Calendar event: all-day without times."""
    d.open_app("Calendar")
    d.tap(rid="add_event")
    fill_event(d, title=title, date=day.isoformat())
    if start is None:
        d.tap(rid="all_day_switch")
    else:
        fill_event(d, start=start, end=end)
    if place is not None:
        fill_event(d, location=place)
    d.tap(rid="save_event")
