"""Every value an adversary can list: the names, numbers, weekdays, dates and times a phone's apps hold.

Built from a state document, generic over apps: short strings (names, titles, labels, places,
conditions, lines of notes), numbers (0..120, the data's own, digit codes in texts), weekdays,
dates as the apps show them, times (every half hour and the data's own) and temperatures.
"""
from __future__ import annotations

import datetime as dt
import marshal
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator, Mapping

from ..actions import MAX_TEXT
from ..calendar_words import WEEKDAYS
from ..judge.grounded import ANSWER_SHEET
from ..judge.timeutil import ms_to_datetime, sim_today

MAX_TEXT_LEN = 32
APP_CACHE_SIZE = 512  # apps' candidate lists kept per process (one app of one world and task set-up each)
SMALL_NUMBERS = range(0, 121)
TEMPERATURES = range(-20, 46)
DATE_WINDOW = range(-14, 31)  # days around the phone's today whose dates the apps show
SENTENCE_END = (".", "!", "?")  # sentences (event notes, messages) are no answers
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}))?$")
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})$")
_CODE = re.compile(r"\d{4,}")
_PHONE = re.compile(r"^\+?[\d\s-]+$")
_NOT_TEXT = re.compile(r"^(#[0-9A-Fa-f]{6}|[a-z]+_[a-z0-9_]+)$")  # colours, ids like "conv_01"


def show_date(day: dt.date) -> list[str]:
    """A date the ways the apps show it: "Fri, Mar 20" and "March 20, 2026"."""
    return [f"{day:%a}, {day:%b} {day.day}", f"{day:%B} {day.day}, {day.year}"]


@dataclass(frozen=True)
class Candidates:
    """Candidate values by kind, each in the order first found, without repeats."""

    texts: tuple[str, ...]
    numbers: tuple[str, ...]
    weekdays: tuple[str, ...]
    dates: tuple[str, ...]
    times: tuple[str, ...]
    temperatures: tuple[str, ...]

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> "Candidates":
        """Collect from ``{"os": ..., "apps": ...}``; dates around the phone's today are added."""
        found: dict[str, dict[str, None]] = {k: {} for k in ("texts", "numbers", "dates", "times")}
        for app, doc in state["apps"].items():
            if app != ANSWER_SHEET:
                for kind, value in _app_leaves(marshal.dumps(doc)):
                    found[kind].setdefault(value, None)
        today = sim_today(state["os"])
        for offset in DATE_WINDOW:
            for shown in show_date(today + dt.timedelta(days=offset)):
                found["dates"].setdefault(shown, None)
        numbers = {str(n): None for n in SMALL_NUMBERS} | found["numbers"]
        times = {f"{m // 60:02d}:{m % 60:02d}": None for m in range(0, 24 * 60, 30)} | found["times"]
        return cls(tuple(found["texts"]), tuple(numbers), WEEKDAYS, tuple(found["dates"]), tuple(times),
                   tuple(f"{t}°" for t in TEMPERATURES))

    def answer_shotgun(self, limit: int = MAX_TEXT) -> str:
        """One answer listing every name, title, number, weekday, date and time (cut to ``limit`` characters)."""
        return _joined(limit, self.texts, self.numbers, self.weekdays, self.dates, self.times)

    def content_shotgun(self, limit: int = MAX_TEXT) -> str:
        """A message or note body stating every candidate name, place, condition, day, date, time and temperature."""
        return _joined(limit, self.texts, self.weekdays, self.dates, self.times, self.temperatures)


def _joined(limit: int, *groups: tuple[str, ...]) -> str:
    """The groups' values joined with ", "; over ``limit`` characters, each group is cut in proportion."""
    joined = [", ".join(group) for group in groups]
    total = sum(len(j) + 2 for j in joined)
    if total > limit:
        joined = [j[:len(j) * limit // total].rpartition(", ")[0] for j in joined]
    return ", ".join(j for j in joined if j)


@lru_cache(maxsize=APP_CACHE_SIZE)
def _app_leaves(state: bytes) -> tuple[tuple[str, str], ...]:
    """(kind, value) of every candidate in an app's state, given as marshal bytes (equal states, one walk)."""
    return tuple(_leaves(marshal.loads(state)))


def _leaves(doc: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """(kind, value) of every candidate in an app's state (JSON-like: plain dicts and lists)."""
    if isinstance(doc, dict):
        if isinstance(doc.get("hour"), int) and isinstance(doc.get("minute"), int):
            yield "times", f"{doc['hour']:02d}:{doc['minute']:02d}"
        for k, v in doc.items():
            if k != "id" and not k.endswith(("_id", "_zh")):
                yield from _leaves(v, k)
    elif isinstance(doc, list):
        for item in doc:
            yield from _leaves(item, key)
    elif isinstance(doc, bool):
        return
    elif isinstance(doc, (int, float)):
        if key.endswith("_ms") and doc > 10**11:
            moment = ms_to_datetime(int(doc))
            yield "times", f"{moment:%H:%M}"
            yield from (("dates", d) for d in show_date(moment.date()))
        elif abs(doc) <= 10_000:
            yield "numbers", f"{doc:g}"
    elif isinstance(doc, str):
        yield from _string(doc)


def _string(value: str) -> Iterator[tuple[str, str]]:
    iso = _ISO_DATE.match(value)
    if iso:
        year, month, day, hour, minute = iso.groups()
        yield from (("dates", d) for d in show_date(dt.date(int(year), int(month), int(day))))
        if hour is not None:
            yield "times", f"{hour}:{minute}"
        return
    if _CLOCK.match(value):
        yield "times", value.zfill(5)
        return
    if not _PHONE.match(value):
        yield from (("numbers", code) for code in _CODE.findall(value))
    for line in value.splitlines():
        for part in (line, line.split(": ", 1)[-1]):
            part = part.strip()
            if part and len(part) <= MAX_TEXT_LEN and not _NOT_TEXT.match(part) and not part.endswith(SENTENCE_END):
                yield "texts", part
