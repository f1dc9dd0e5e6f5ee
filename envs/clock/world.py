"""The Clock of a generated world: between three and eleven alarms with labels from the pool beside this
file (each at a time of day that suits it), repeat days, on/off switches; an idle timer and stopwatch.

Invariants tasks rely on: labels are unique and never empty, no two alarms ring at the same minute, and
every alarm's ``time`` is its ``hour``:``minute`` as HH:MM (JSON tasks compare answers with it).
"""
from __future__ import annotations

import random
from typing import Any

from mobilegym.calendar_words import WEEKDAY_ABBRS
from mobilegym.sim.worldgen import World
from mobilegym.sim.worldgen.draws import choice, randint, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
DAYS = list(WEEKDAY_ABBRS)  # a list: alarms keep slices of it as their repeat days
MIN_ALARMS, MAX_ALARMS = 3, 11
ENABLED_SHARE = 0.6
TIME_APART = 5  # minutes a prepared alarm keeps from the others (the time matcher's tolerance)


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (shared: read only)."""
    return read_pool(PACKAGE, "pools", language)


def minutes(text: str) -> int:
    hour, minute = text.split(":")
    return int(hour) * 60 + int(minute)


def hhmm(minute_of_day: int) -> str:
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"


def pick_time(rng: random.Random, earliest: str, latest: str, taken: set[int], apart: int = 0) -> int:
    """A minute of the day in [earliest, latest], on a five-minute mark mostly, more than ``apart`` minutes
    from every ``taken`` one (and never equal to one)."""
    low, high = minutes(earliest), minutes(latest)
    for attempt in range(200):
        value = randint(rng, low, high)
        if rng.random() < 0.85 or attempt > 100:
            value = min(high, value - value % 5)
        if all(abs(value - t) > apart and value != t for t in taken):
            return value
    value = next(v for v in range(0, 24 * 60) if all(abs(v - t) > apart for t in taken))
    return value


def repeat_days(rng: random.Random) -> list[str]:
    roll = rng.random()
    if roll < 0.35:
        return DAYS[:5]
    if roll < 0.5:
        return list(DAYS)
    if roll < 0.7:
        return []
    if roll < 0.8:
        return DAYS[5:]
    return [d for d in DAYS if d in sample(rng, DAYS, randint(rng, 1, 4))]


def alarm(alarm_id: str, minute_of_day: int, label: str, enabled: bool, days: list[str]) -> dict[str, Any]:
    return {"id": alarm_id, "hour": minute_of_day // 60, "minute": minute_of_day % 60, "time": hhmm(minute_of_day),
            "label": label, "enabled": enabled, "days": days}


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("clock")
    pool = pools(world.language)
    chosen = sample(rng, pool["alarms"], randint(rng, MIN_ALARMS, MAX_ALARMS))
    taken: set[int] = set()
    alarms = []
    for i, entry in enumerate(chosen, 1):
        when = pick_time(rng, entry["from"], entry["to"], taken)
        taken.add(when)
        alarms.append(alarm(f"alarm_{i}", when, entry["label"], rng.random() < ENABLED_SHARE, repeat_days(rng)))
    duration = choice(rng, pool["timer_minutes"]) * 60
    return {"alarms": alarms,
            "timer": {"duration_s": duration, "running": False, "started_at_ms": None, "remaining_s": duration},
            "stopwatch": {"running": False, "started_at_ms": None, "elapsed_ms": 0, "laps": []}}
