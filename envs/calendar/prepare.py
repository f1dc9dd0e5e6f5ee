"""Preconditions of the Calendar's JSON tasks (``{"type": "prepare", "parameters": {"app": "calendar", ...}}``).

Each preparer returns a patch replacing the event list: the world's events with the wanted ones made true.
Their random draws come from ``prep.rng`` (seeded by the task and the episode), so the facts vary by seed.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP
from .world import pools

STUDIOS = {"en": ["Lotus Studio", "Sunrise Yoga Loft", "Bamboo Yoga House", "Zen Den", "Flow Space", "Harmony Yoga",
                  "Soul Stretch Studio", "Breathe Yoga Center", "The Mat Room", "Pure Balance Studio",
                  "Riverside Yoga Barn", "Om Garden", "Still Point Yoga", "Willow Tree Yoga", "Blue Lotus Loft",
                  "Cedar Grove Studio", "Moonlight Yoga", "Namaste Corner"],
           "zh": ["莲花瑜伽馆", "梵音瑜伽", "一然瑜伽", "悠季瑜伽", "静心瑜伽工作室", "自在瑜伽", "禅意瑜伽会所",
                  "若水瑜伽", "初心瑜伽馆", "暖阳瑜伽", "青竹瑜伽", "云朵瑜伽", "半山瑜伽", "木兰瑜伽", "光合瑜伽",
                  "小满瑜伽", "拾光瑜伽馆", "安然瑜伽"]}


def _patch(events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"apps": {"calendar": {"events": events}}}


def _event(event_id: str, title: str, day: dt.date, start: int, minutes: int, location: str, calendar: str,
           notes: str = "", reminder: int | None = 30) -> dict[str, Any]:
    return {"id": event_id, "title": title, "date": day.isoformat(), "start": f"{start // 60:02d}:{start % 60:02d}",
            "end": f"{(start + minutes) // 60:02d}:{(start + minutes) % 60:02d}", "all_day": False,
            "location": location, "notes": notes, "calendar": calendar, "reminder": reminder}


@APP.preparer("event")
def prepare_event(prep: Prep, title: str | dict[str, str], place: str = "rooms", calendar: str = "Personal",
                  hours: tuple[int, int] = (9, 19), minutes: int = 60, days: tuple[int, int] = (1, 20)) -> dict[str, Any]:
    """Exactly one event titled ``title`` (one per language: {"en": ..., "zh": ...}; any other event with that
    title is removed): an upcoming one, ``days`` days ahead, at a drawn time and a place of the pool kind
    ``place``; id "evt_prep"."""
    title = in_language(title, prep.language, "event title")
    rng = prep.rng
    places = pools(prep.language)["places"][place]
    day = prep.now.date() + dt.timedelta(days=rng.randint(*days))
    start = rng.randint(hours[0] * 4, hours[1] * 4) * 15
    events = [e for e in prep.state("calendar")["events"] if e["title"] != title]
    events.append(_event("evt_prep", title, day, start, minutes, rng.choice(places), calendar))
    return _patch(events)


@APP.preparer("yoga_today")
def prepare_yoga_today(prep: Prep) -> dict[str, Any]:
    """A yoga class today (id "evt_yoga") at a drawn studio and time, and the same class a week before and a
    week after at other studios (so only today's answers "where is it today")."""
    rng = prep.rng
    title = prep.t("Yoga class", "瑜伽课")
    studios = rng.sample(STUDIOS[prep.language], 3)
    today = prep.now.date()
    start = rng.choice([7 * 60, 12 * 60 + 15, 17 * 60 + 30, 18 * 60, 18 * 60 + 30, 19 * 60, 19 * 60 + 30, 20 * 60])
    events = [e for e in prep.state("calendar")["events"] if e["title"] != title]
    for event_id, shift, studio in (("evt_yoga_before", -7, studios[1]), ("evt_yoga", 0, studios[0]),
                                    ("evt_yoga_after", 7, studios[2])):
        events.append(_event(event_id, title, today + dt.timedelta(days=shift), start, 60, studio, "Personal"))
    return _patch(events)
