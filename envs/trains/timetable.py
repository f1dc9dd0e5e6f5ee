"""The timetable of a generated network, made lazily from the world's seed when a route is searched.

A route (from one station to another) has the same trains every day: six to eleven of them, G (high-speed) and
D (bullet) trains, departing between 06:00 and 21:30 and arriving the same day. Seats left depend on the date as
well. Everything is a pure function of (seed, stations, date): the app's screens and the task suite compute the
same trains. Invariants tasks rely on: on a route, departure times, journey times, train numbers and the prices
of each seat class are all distinct; only G trains have a business class.
"""
from __future__ import annotations

import datetime as dt
import functools
import math
import random
from typing import Any, Mapping

CLASSES = ("second", "first", "business")  # cheapest first
PLENTY = 99  # seats left shown as "Available" (the real apps say 有)
FIRST_DEPART, LAST_DEPART, LAST_ARRIVE = 6 * 60, 21 * 60 + 30, 23 * 60 + 50
MIN_TRAINS, MAX_TRAINS = 6, 11
SPEED = {"G": (230, 265), "D": (155, 185)}  # average km/h, stops included
RATE = {"G": 0.46, "D": 0.31}  # yuan per km, second class
FIRST_FACTOR, BUSINESS_FACTOR = 1.6, 3.15
LONG_ROUTE = 1200  # km: only G trains run farther
BOOKING_DAYS = 15  # tickets are on sale from today to today + 14


def distance_km(a: Mapping[str, Any], b: Mapping[str, Any]) -> int:
    """Track distance between two stations: the great-circle distance and a fifth for the curves."""
    lat1, lon1, lat2, lon2 = (math.radians(v) for v in (a["lat"], a["lon"], b["lat"], b["lon"]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return round(2 * 6371 * math.asin(math.sqrt(h)) * 1.2)


def hhmm(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def _half(value: float) -> float:
    """A fare rounded to half a yuan."""
    return round(value * 2) / 2


def _distinct(value: float, taken: set[float], step: float) -> float:
    while value in taken:
        value += step
    taken.add(value)
    return value


@functools.lru_cache(maxsize=512)
def _route(seed: int, a: tuple[str, float, float], b: tuple[str, float, float]) -> tuple[dict[str, Any], ...]:
    rng = random.Random(f"trains|{seed}|{a[0]}|{b[0]}")
    draw = rng.random  # plain draws: a route is made on every search and for every generated order
    km = max(60, distance_km({"lat": a[1], "lon": a[2]}, {"lat": b[1], "lon": b[2]}))
    count = MIN_TRAINS + int(draw() * (MAX_TRAINS - MIN_TRAINS + 1))
    kinds = ["G" if km > LONG_ROUTE or draw() < 0.7 else "D" for _ in range(count)]
    durations: set[float] = set()
    minutes = []
    for kind in kinds:
        low, high = SPEED[kind]
        minutes.append(int(_distinct(round(km / (low + draw() * (high - low)) * 60) + 10, durations, 1)))
    latest = min(LAST_DEPART, LAST_ARRIVE - max(minutes))
    departs = sorted(5 * s for s in rng.sample(range(FIRST_DEPART // 5, latest // 5 + 1), count))
    order = sorted(range(count), key=lambda i: draw())
    numbers: set[float] = set()
    prices: dict[str, set[float]] = {c: set() for c in CLASSES}
    trains = []
    for depart, i in zip(departs, order):
        kind, span = kinds[i], minutes[i]
        number = int(_distinct(1 + int(draw() * (1999 if kind == "G" else 3999)), numbers, 1))
        second = _distinct(_half(km * RATE[kind] * (0.95 + draw() * 0.13)), prices["second"], 0.5)
        fares = {"second": second, "first": _distinct(_half(second * FIRST_FACTOR), prices["first"], 0.5)}
        if kind == "G" and draw() < 0.8:
            fares["business"] = _distinct(_half(second * BUSINESS_FACTOR), prices["business"], 0.5)
        trains.append({"number": f"{kind}{number}", "kind": kind, "depart": hhmm(depart), "arrive": hhmm(depart + span),
                       "minutes": span, "km": km, "prices": fares})
    return tuple(trains)


def route(seed: int, a: Mapping[str, Any], b: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The trains from station ``a`` to station ``b``, by departure (read only: shared between calls)."""
    if a["id"] == b["id"]:
        raise ValueError(f"trains: no route from {a['id']!r} to itself")
    return list(_route(seed, (a["id"], a["lat"], a["lon"]), (b["id"], b["lat"], b["lon"])))


def seats_left(seed: int, train: str, date: str, seat_class: str) -> int:
    """Seats of a class the railway has on a day's train before the phone's own bookings (PLENTY: many, 0: sold out)."""
    roll = random.Random(f"trains|{seed}|{train}|{date}|{seat_class}").random()
    if roll < 0.25:
        return 0
    return PLENTY if roll >= 0.6 else 1 + int((roll - 0.25) / 0.35 * 20)


def booked(orders: list[dict[str, Any]], train: str, date: str, seat_class: str) -> int:
    """Tickets the phone's paid orders hold on a train, day and class."""
    return sum(len(o["passengers"]) for o in orders
               if o["status"] == "paid" and (o["train"], o["date"], o["seat_class"]) == (train, date, seat_class))


def availability(state: Mapping[str, Any], train: Mapping[str, Any], date: str) -> dict[str, int]:
    """Seats left per class of a train on a day, the phone's own paid orders taken off (PLENTY stays PLENTY)."""
    left = {}
    for seat_class in train["prices"]:
        have = seats_left(state["seed"], train["number"], date, seat_class)
        left[seat_class] = have if have == PLENTY else max(0, have - booked(state["orders"], train["number"], date,
                                                                           seat_class))
    return left


def station(state: Mapping[str, Any], station_id: str) -> dict[str, Any]:
    found = next((s for s in state["stations"] if s["id"] == station_id), None)
    if found is None:
        raise KeyError(f"trains: no station {station_id!r}")
    return found


def trains_on(state: Mapping[str, Any], from_id: str, to_id: str, date: str) -> list[dict[str, Any]]:
    """A search's results: the route's trains with ``left`` (seats per class) for the day, by departure."""
    dt.date.fromisoformat(date)  # a bad date fails here, by name
    return [{**t, "left": availability(state, t, date)}
            for t in route(state["seed"], station(state, from_id), station(state, to_id))]


def refund_fee(total: float, departure: dt.datetime, now: dt.datetime) -> float:
    """The cancellation fee: none 8 days or more ahead, 5% from 48 hours, 10% from 24 hours, 20% later (to 0.5)."""
    hours = (departure - now).total_seconds() / 3600
    rate = 0.0 if hours >= 192 else 0.05 if hours >= 48 else 0.10 if hours >= 24 else 0.20
    return _half(total * rate)
