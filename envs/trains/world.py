"""The Trains app of a generated world: 12 to 16 stations of the high-speed network (names in the world's language),
the seed the timetable is made from (see timetable.py), the saved passengers (the owner and one to four people
from Contacts, each with an ID number: an 18-digit resident ID in Chinese worlds, a passport number in English
ones), a six-digit payment passcode, and two to seven orders: travelled ones in the last two months, one or two
refunded, and one to three paid ones for the coming two weeks.

Invariants tasks rely on: station ids and names are unique; passenger names and ID numbers are unique and exactly
one passenger is the owner (``self``); orders use trains the timetable runs on their route; no two orders share a
date; an order's passengers are saved passengers.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.sim.worldgen import World
from mobilegym.sim.worldgen.draws import choice, randint, randrange, sample
from mobilegym.sim.worldgen.pools import read_pool

from . import timetable

PACKAGE = __package__
MIN_STATIONS, MAX_STATIONS = 12, 16
MIN_COMPANIONS, MAX_COMPANIONS = 1, 4
PAST_DAYS, AHEAD_DAYS = 60, 14
ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
ID_CHECK = "10X98765432"
PASSPORT_LETTERS = "ACEHKLMNPRSTWXZ"


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (shared: read only)."""
    return read_pool(PACKAGE, "pools", language)


def resident_id(area: str, birthday: dt.date, sequence: int) -> str:
    """An 18-character resident ID number with its ISO 7064 check character."""
    body = f"{area}{birthday:%Y%m%d}{sequence:03d}"
    return body + ID_CHECK[sum(int(c) * w for c, w in zip(body, ID_WEIGHTS)) % 11]


def valid_resident_id(text: str) -> bool:
    body = text[:17]
    return (len(text) == 18 and body.isdigit() and text[17] == ID_CHECK[sum(int(c) * w for c, w in zip(body, ID_WEIGHTS)) % 11])


def draw_id_number(rng: random.Random, language: str, today: dt.date) -> str:
    """An ID number of the world's kind: a resident ID (zh) or a passport number (en)."""
    if language == "zh":
        birthday = today - dt.timedelta(days=randint(rng, 18 * 365, 70 * 365))
        return resident_id(choice(rng, pools("zh")["id_areas"]), birthday, randrange(rng, 1000))
    return choice(rng, PASSPORT_LETTERS) + f"{randrange(rng, 10 ** 8):08d}"


def make_passengers(rng: random.Random, world: World) -> list[dict[str, Any]]:
    people = world.contacts()
    chosen = sample(rng, people, min(len(people), randint(rng, MIN_COMPANIONS, MAX_COMPANIONS)))
    names = [world.owner.name] + [p.name for p in chosen]
    ids: list[str] = []
    while len(ids) < len(names):
        number = draw_id_number(rng, world.language, world.today)
        if number not in ids:
            ids.append(number)
    return [{"id": f"psg_{i + 1}", "name": name, "id_number": number, "self": i == 0}
            for i, (name, number) in enumerate(zip(names, ids))]


def seat_of(rng: random.Random, seat_class: str) -> str:
    """A seat as the ticket prints it: car and seat ("05-12F")."""
    car = randint(rng, 1, 1) if seat_class == "business" else randint(rng, 2, 3) if seat_class == "first" else randint(rng, 4, 16)
    letters = "ACF" if seat_class == "business" else "ACDF" if seat_class == "first" else "ABCDF"
    return f"{car:02d}-{randint(rng, 1, 18 if seat_class != 'business' else 6):02d}{choice(rng, letters)}"


def make_orders(rng: random.Random, seed: int, stations: list[dict[str, Any]], passengers: list[dict[str, Any]],
                now: dt.datetime) -> list[dict[str, Any]]:
    past = sample(rng, range(1, PAST_DAYS + 1), randint(rng, 1, 2))
    refunded = set(sample(rng, past, min(len(past), randint(rng, 0, 2))))
    ahead = sample(rng, range(1, AHEAD_DAYS + 1), randint(rng, 1, 3))
    orders = []
    for offset in sorted([-d for d in past] + ahead):
        a, b = sample(rng, stations, 2)
        train = choice(rng, timetable.route(seed, a, b))
        seat_class = choice(rng, [c for c in timetable.CLASSES if c in train["prices"]])
        who = [passengers[0]] + sample(rng, passengers[1:], randint(rng, 0, min(2, len(passengers) - 1)))
        date = (now.date() + dt.timedelta(days=offset)).isoformat()
        total = train["prices"][seat_class] * len(who)
        status = "paid" if offset > 0 else "refunded" if -offset in refunded else "completed"
        booked = now.date() + dt.timedelta(days=offset - randint(rng, 1, 10))
        orders.append({"id": f"ord_{len(orders) + 1}", "number": f"E{randrange(rng, 10 ** 9):09d}", "train": train["number"],
                       "from": a["id"], "to": b["id"], "date": date, "depart": train["depart"], "arrive": train["arrive"],
                       "seat_class": seat_class, "price": train["prices"][seat_class], "total": total,
                       "passengers": [{"name": p["name"], "id_number": p["id_number"], "seat": seat_of(rng, seat_class)}
                                      for p in who],
                       "status": status, "refund": total if status == "refunded" else 0.0,
                       "booked_on": min(booked, now.date()).isoformat()})
    return orders


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("trains")
    pool = pools(world.language)["stations"]
    picked = sorted(sample(rng, range(len(pool)), randint(rng, MIN_STATIONS, MAX_STATIONS)))
    stations = [dict(pool[i]) for i in picked]
    seed = randrange(rng, 10 ** 9)
    passengers = make_passengers(rng, world)
    return {"seed": seed, "currency": "CNY", "settings": {"passcode": f"{randrange(rng, 10 ** 6):06d}"},
            "stations": stations, "passengers": passengers,
            "orders": make_orders(rng, seed, stations, passengers, world.now)}
