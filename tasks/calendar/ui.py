"""UI steps on Calendar that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.calendar_words import MONTHS
from mobilegym.oracle import Driver, month_of


def read_date(text: str) -> dt.date:
    """The date in a label as the Calendar writes it: "Monday, March 16, 2026" or "2026年3月16日 星期一"."""
    zh = re.search(r"(\d{4})年(\d{1,2})月(\d{1,2})日", text)
    if zh is not None:
        return dt.date(int(zh.group(1)), int(zh.group(2)), int(zh.group(3)))
    match = re.search(r"(\w+) (\d+), (\d{4})", text)
    assert match is not None, text
    return dt.date(int(match.group(3)), MONTHS.index(match.group(1)) + 1, int(match.group(2)))


def date_text(d: Driver, day: dt.date) -> str:
    """How a day cell names ``day`` (its description starts with the weekday in English)."""
    return d.t(f"{MONTHS[day.month - 1]} {day.day}, {day.year}", f"{day.year}年{day.month}月{day.day}日")


def today(d: Driver) -> dt.date:
    """Open Calendar and read today's date from the highlighted cell of the month grid."""
    d.open_app("Calendar")
    cell = next(n for n in d.nodes() if n.short_id == "day_cell" and n.selected)
    return read_date(cell.desc)


def open_event(d: Driver, title: str) -> None:
    """Open an event's detail page through search."""
    d.open_app("Calendar")
    d.tap(rid="search")
    d.type(title, rid="search_input")
    d.tap(rid="event_title_text", text=title)


def open_day(d: Driver, day: dt.date) -> None:
    """Open a day's agenda from the month grid (paging months as needed)."""
    d.open_app("Calendar")
    while True:
        year, month = month_of(d.find(rid="month_title").text)
        if (year, month) == (day.year, day.month):
            break
        d.tap(rid="next_month" if (day.year, day.month) > (year, month) else "prev_month")
    d.tap(rid="day_cell", contains=date_text(d, day))


def day_events(d: Driver) -> list[tuple[str, str]]:
    """(title, "HH:MM – HH:MM · place" or "All day") of every event row on the day screen."""
    nodes = d.nodes()
    out = []
    for i, node in enumerate(nodes):
        if node.short_id == "event_title_text":
            out.append((node.text, nodes[i + 1].text))
    return out


def fill_event(d: Driver, **fields: str) -> None:
    """Fill the event form: type the title, location and notes; pick the date ("YYYY-MM-DD") and the start and
    end ("HH:MM") in the date and time pickers (start before end: a new start moves the end along)."""
    for name, value in fields.items():
        if name == "date":
            d.pick_date(to_date(value), rid="date_input")
        elif name in ("start", "end"):
            d.pick_time(int(value[:2]), int(value[3:]), rid=f"{name}_input")
        else:
            d.type(value, rid=f"{name}_input")


def to_date(iso: str) -> dt.date:
    """"2026-03-16" -> the date."""
    return dt.date.fromisoformat(iso)
