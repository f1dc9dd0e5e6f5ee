"""The Calendar of a generated world: recurring series, one-off events around the phone's date (past, today,
upcoming), a trip with flights, the cast's birthdays, all drawn from pools in the phone's language.

Invariants the screens and tasks rely on: ISO dates, "HH:MM" times (None when all-day), end after start on
the same day, no two timed events of a day overlapping, the calendars Work / Personal / Family, ids
"evt_<n>" below 100 (the phone numbers new items from 101). Every world has: events today (one in the
evening), tomorrow, on every weekend of the window, and an upcoming flight whose notes carry its number.
"""
from __future__ import annotations

import datetime as dt
import random
from itertools import accumulate
from typing import Any

from mobilegym.sim.worldgen import World, load_pool
from mobilegym.sim.worldgen.pools import read_pool
from mobilegym.sim.worldgen.draws import choice, randint, randrange, sample, weighted

PACKAGE = __package__
PAST_DAYS, AHEAD_DAYS = 14, 35  # the window of generated events around today
NEAR_PAST, NEAR_AHEAD = 7, 21  # the busy part of the window
MAX_EVENTS = 95
REMINDERS = [None, 10, 30, 60]
REMINDER_WEIGHTS = [2, 3, 4, 2]
REMINDER_CUM = tuple(accumulate(REMINDER_WEIGHTS))
ROUND_MINUTES = (0, 0, 0, 30, 30, 15, 45)  # a start on the quarter hour (mostly)
ODD_MINUTES = (5, 10, 20, 25, 35, 40, 50, 55)
DAY_COUNTS = range(6)  # one-off events wanted on a day, weighted near today and farther out
NEAR_CUM, FAR_CUM = tuple(accumulate((3, 4, 3, 2, 1, 1))), tuple(accumulate((6, 3, 1, 0, 0, 0)))
SOCIAL_PLACES = ("rooms", "halls", "offices", "remote", "restaurants", "cafes", "bars", "venues", "parks",
                 "family_homes", "home", "community")  # events where a "With ..." line makes sense


def pools(language: str) -> dict[str, Any]:
    return load_pool(PACKAGE, "pools", language)


# "HH:MM" by minute of the day: timed events start and end within the day (fits() ends them by 23:55)
HHMM = tuple(f"{minute // 60:02d}:{minute % 60:02d}" for minute in range(24 * 60))


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:5])


class _Book:
    """The events being made, with each day's busy intervals (no overlaps within a day)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.events: list[dict[str, Any]] = []
        self.busy: dict[dt.date, list[tuple[int, int]]] = {}
        self.by_date: dict[str, list[dict[str, Any]]] = {}  # ISO date -> its events, in order
        self.titles: set[str] = set()

    def fits(self, day: dt.date, start: int, minutes: int) -> bool:
        end = start + minutes
        if start < 6 * 60 or end > 23 * 60 + 55:
            return False
        for s, e in self.busy.get(day, ()):
            if end > s and start < e:
                return False
        return True

    def add(self, day: dt.date, title: str, calendar: str, start: int | None = None, minutes: int = 0,
            location: str = "", notes: str = "", reminder: Any = "draw") -> dict[str, Any]:
        iso = day.isoformat()
        if reminder == "draw":
            reminder = None if start is None else weighted(self.rng, REMINDERS, REMINDER_CUM)
        event = {"id": "", "title": title, "date": iso,
                 "start": None if start is None else HHMM[start],
                 "end": None if start is None else HHMM[start + minutes],
                 "all_day": start is None, "location": location, "notes": notes, "calendar": calendar,
                 "reminder": reminder}
        if start is not None:
            self.busy.setdefault(day, []).append((start, start + minutes))
        self.events.append(event)
        self.by_date.setdefault(iso, []).append(event)
        self.titles.add(title)
        return event

    def count(self, day: dt.date) -> int:
        return len(self.by_date.get(day.isoformat(), ()))

    def slot(self, day: dt.date, minutes: int, first_hour: int, last_hour: int) -> int | None:
        """A free start time on ``day`` between the hours (mostly on the quarter hour, sometimes odd minutes)."""
        rng = self.rng
        for _ in range(12):
            hour = randint(rng, first_hour, last_hour)
            minute = choice(rng, ROUND_MINUTES) if rng.random() < 0.75 else choice(rng, ODD_MINUTES)
            start = hour * 60 + minute
            if self.fits(day, start, minutes):
                return start
        return None


People = tuple[list[str], list[tuple[str, str]], list[str]]


def _people(world: World) -> People:
    """(names to meet by first name, (full name, its first word) pairs, relatives' names) from the contacts
    (read only)."""

    def make() -> People:
        contacts = world.contacts()
        friends = [p for p in contacts if not p.relation]
        casual = [p.given if world.language == "en" else p.name for p in friends]
        full = [(p.name, p.name.split()[0]) for p in friends]
        return casual, full, [p.name for p in contacts if p.relation]

    return world.memo("calendar|people", make)


def _fill(template: str, rng: random.Random, pool: dict[str, Any], world: World, people: People,
          taken: set[str]) -> str | None:
    """A title from a template ({person}, {project}, {company}, {relative}); None when none is free."""
    casual, full, relatives = people
    for _ in range(6):
        title = template
        if "{person}" in title:
            if not casual:
                return None
            title = title.replace("{person}", choice(rng, casual))
        if "{project}" in title:
            title = title.replace("{project}", choice(rng, pool["projects"]))
        if "{company}" in title:
            companies = world.memo("calendar|companies", lambda: sorted(
                {p.company for p in world.contacts() if p.company}) + list(pool["remote_companies"]))
            title = title.replace("{company}", choice(rng, companies))
        if "{relative}" in title:
            if not relatives:
                return None
            title = title.replace("{relative}", choice(rng, relatives))
        if title not in taken:
            return title
    return None


def _attendees(rng: random.Random, pool: dict[str, Any], world: World, people: People, title: str) -> str:
    """Sometimes a "With X and Y." line naming colleagues or friends from the cast."""
    _, full, _ = people
    others = [name for name, first in full if first not in title]  # a name holds its first word
    if len(others) < 2 or rng.random() < 0.6:
        return ""
    names = sample(rng, others, randint(rng, 1, 3))
    joined = ("、".join(names) if world.language == "zh" else
              names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])
    return pool["with"].replace("{names}", joined)


def _series(book: _Book, rng: random.Random, pool: dict[str, Any], first: dt.date, last: dt.date) -> None:
    chosen = [s for s in pool["series"] if rng.random() < (0.45 if s["days"] == "weekdays" else 0.3)]
    for series in chosen[:3]:
        start = _minutes(choice(rng, series["starts"]))
        place = choice(rng, pool["places"][series["place"]])
        notes = choice(rng, series["notes"])
        weekday = randrange(rng, 5) if series["calendar"] == "Work" else randrange(rng, 7)
        day = first
        while day <= last:
            wanted = day.weekday() < 5 if series["days"] == "weekdays" else day.weekday() == weekday
            if wanted and rng.random() < 0.9 and book.fits(day, start, series["minutes"]):
                book.add(day, series["title"], series["calendar"], start, series["minutes"], place, notes,
                         reminder=10)
            day += dt.timedelta(days=1)


def _trip(book: _Book, rng: random.Random, pool: dict[str, Any], depart: dt.date, city: dict[str, str],
          home: str) -> None:
    nights = randint(rng, 1, 4)
    back = depart + dt.timedelta(days=nights)
    for day, title, airport in ((depart, pool["flight_out"], home), (back, pool["flight_back"], city["airport"])):
        minutes = choice(rng, [95, 120, 145, 170, 200, 235, 260])
        start = None
        for _ in range(20):
            start = rng.randrange(6 * 12 + 6, 20 * 12) * 5
            if book.fits(day, start, minutes):
                break
            start = None
        if start is None:
            continue
        number = f"{choice(rng, pool['airlines'])} {randint(rng, 100, 2999)}"
        seat = f"{randint(rng, 3, 38)}{choice(rng, 'ABCDEF')}"
        notes = choice(rng, pool["flight_notes"]).replace("{number}", number).replace("{seat}", seat)
        book.add(day, title.replace("{city}", city["city"]), "Work", start, minutes, airport, notes, reminder=60)
    for i in range(1, nights):
        day = depart + dt.timedelta(days=i)
        if book.fits(day, 10 * 60, 360):
            book.add(day, pool["trip_work"].replace("{city}", city["city"]),
                     "Work", 10 * 60, 360, city["stay"], choice(rng, pool["trip_work_notes"]), reminder=30)
            break


def _one_off(book: _Book, rng: random.Random, pool: dict[str, Any], world: World, day: dt.date,
             evening: bool = False, timed: bool = True) -> bool:
    """One more event on ``day`` from the pool; False when nothing fitted."""
    weekend = day.weekday() >= 5
    people = _people(world)
    for _ in range(10):
        spec = choice(rng, pool["events"])
        if spec.get("weekend") and not weekend:
            continue
        if weekend and spec["calendar"] == "Work":
            continue
        first_hour, last_hour = spec["hours"]
        if evening:
            first_hour, last_hour = max(first_hour, 17), max(last_hour, 17)
            if last_hour > 20:
                last_hour = 20
        title = _fill(spec["title"], rng, pool, world, people, book.titles)
        if title is None:
            continue
        minutes = choice(rng, spec["minutes"])
        start = book.slot(day, minutes, first_hour, last_hour)
        if start is None or (evening and start < 17 * 60 + 15):
            continue
        notes = choice(rng, spec["notes"])
        with_line = _attendees(rng, pool, world, people, title) if spec["place"] in SOCIAL_PLACES else ""
        if with_line:
            notes = f"{notes} {with_line}".strip() if world.language == "en" else f"{notes}{with_line}"
        book.add(day, title, spec["calendar"], start, minutes, choice(rng, pool["places"][spec["place"]]), notes)
        return True
    return False


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("calendar")
    pool = read_pool(PACKAGE, "pools", world.language)
    today = world.today
    first, last = today - dt.timedelta(days=PAST_DAYS), today + dt.timedelta(days=AHEAD_DAYS)
    book = _Book(rng)

    # a trip: one upcoming (always), sometimes one already made
    cities = sample(rng, pool["trips"], 2)
    home = choice(rng, pool["home_airports"])
    _trip(book, rng, pool, today + dt.timedelta(days=randint(rng, 2, 24)), cities[0], home)
    if rng.random() < 0.4:
        _trip(book, rng, pool, today - dt.timedelta(days=randint(rng, 8, PAST_DAYS)), cities[1], home)

    _series(book, rng, pool, first, last)

    # the cast's birthdays in the window
    for person in world.contacts():
        if not person.birthday or rng.random() < 0.3:
            continue
        month, day_of_month = int(person.birthday[5:7]), int(person.birthday[8:10])
        for year in (today.year - 1, today.year, today.year + 1):
            try:
                day = dt.date(year, month, day_of_month)
            except ValueError:  # 29 February
                continue
            if first <= day <= last:
                title = pool["birthday"].replace("{name}", person.name)
                if title not in book.titles:
                    book.add(day, title, "Family", notes=choice(rng, pool["birthday_notes"]))

    # occasional all-day events
    for spec in sample(rng, pool["all_day"], randint(rng, 1, 3)):
        day = first + dt.timedelta(days=randrange(rng, (last - first).days + 1))
        book.add(day, spec["title"], spec["calendar"], notes=choice(rng, spec["notes"]))

    # one-off events, denser near today; how busy the owner is varies by world
    busyness = rng.uniform(0.8, 1.4)
    day = first
    while day <= last:
        near = -NEAR_PAST <= (day - today).days <= NEAR_AHEAD
        wanted = min(5, round(weighted(rng, DAY_COUNTS, NEAR_CUM if near else FAR_CUM) * busyness))
        for _ in range(wanted):
            _one_off(book, rng, pool, world, day)
        day += dt.timedelta(days=1)

    # guarantees: today two timed events, one of them in the evening; tomorrow one; every weekend one
    timed = lambda iso: sum(1 for e in book.by_date.get(iso, ()) if not e["all_day"])  # noqa: E731
    evening = lambda iso: any(e["start"] and "17:15" <= e["start"] <= "21:00"  # noqa: E731
                              for e in book.by_date.get(iso, ()))
    for _ in range(10):
        if evening(today.isoformat()):
            break
        _one_off(book, rng, pool, world, today, evening=True)
    for day, need in ((today, 2), (today + dt.timedelta(days=1), 1)):
        for _ in range(10):
            if timed(day.isoformat()) >= need:
                break
            _one_off(book, rng, pool, world, day)
    saturday = first + dt.timedelta(days=(5 - first.weekday()) % 7)
    while saturday <= last:
        sunday = saturday + dt.timedelta(days=1)
        for _ in range(10):
            if book.count(saturday) + book.count(sunday) > 0:
                break
            _one_off(book, rng, pool, world, choice(rng, [saturday, sunday]))
        saturday += dt.timedelta(days=7)

    # keep under MAX_EVENTS: drop the oldest past events beyond yesterday first
    events = sorted(book.events, key=lambda e: (e["date"], not e["all_day"], e["start"] or "", e["title"]))
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    past = next((i for i, e in enumerate(events) if e["date"] >= yesterday), len(events))  # sorted: a prefix
    events = events[min(past, max(0, len(events) - MAX_EVENTS)):][:MAX_EVENTS]
    for i, event in enumerate(events, 1):
        event["id"] = f"evt_{i}"
    calendars = [{"id": cid, "name": name, "color": color} for cid, name, color in pool["calendars"]]
    return {"calendars": calendars, "events": events}
