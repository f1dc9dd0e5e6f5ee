"""Accessor for the Trains app's state (stations, passengers, orders; the timetable through envs/trains/timetable.py),
samplers and the change lists the trains tasks share."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Mapping

from mobilegym.calendar_words import MONTHS, WEEKDAYS, WEEKDAY_CHARS as WEEKDAYS_ZH
from mobilegym.envs.trains import timetable
from mobilegym.envs.trains.world import AHEAD_DAYS, draw_id_number, seat_of
from mobilegym.judge import BaseApp, copy_state, normalize_text, sim_datetime, sim_today
from mobilegym.judge.result import Check, check

TRAINS_BOOK_CHANGES = ["trains.orders[+]"]
TRAINS_CANCEL_CHANGES = ["trains.orders[id={order.id}].status", "trains.orders[id={order.id}].refund"]
TRAINS_ADD_PASSENGER_CHANGES = ["trains.passengers[+]"]
TRAINS_REMOVE_PASSENGER_CHANGES = ["trains.passengers[-name={passenger}]"]
UPCOMING_SPAN = 10  # upcoming trips a world holds when their count is the answer: 1 to this, spread (tasks/spread.py)
TRIP_DAYS = range(1, timetable.BOOKING_DAYS - 1)  # days ahead a task's trip falls on: inside the booking window
NEW_PEOPLE = {"en": ("Mia Park", "Noah Brooks", "Ava Reyes", "Lucas Grant", "Chloe Bennett", "Owen Fischer"),
              "zh": ("王芳", "李娜", "张伟", "刘洋", "陈静", "杨磊")}


MIN_UPCOMING = 2  # CancelTripOnDate, CancelAndReportRefund, TextNextTrain: upcoming trips, at least (with_min_upcoming)


def with_min_upcoming(device: Any, rng: random.Random) -> None:
    """Book trips as the world does (Trains.prepare_state_with_upcoming) until MIN_UPCOMING are upcoming."""
    state = copy_state(device)
    now = sim_datetime(state["os"])
    have = len(Trains(state["apps"]["trains"]).upcoming(now))
    if have < MIN_UPCOMING:
        device.set_state(Trains.prepare_state_with_upcoming(rng, state["apps"]["trains"], now, MIN_UPCOMING))


def day_label(iso: str, language: str) -> str:
    """"Wednesday, March 18" / "3月18日（星期三）"."""
    day = dt.date.fromisoformat(iso)
    if language == "zh":
        return f"{day.month}月{day.day}日（星期{WEEKDAYS_ZH[day.weekday()]}）"
    return f"{WEEKDAYS[day.weekday()]}, {MONTHS[day.month - 1]} {day.day}"


def _language(os_state: Mapping[str, Any]) -> str:
    return os_state.get("language", "en")


def departure(order: Mapping[str, Any]) -> dt.datetime:
    return dt.datetime.fromisoformat(f"{order['date']}T{order['depart']}")


class Trains(BaseApp):
    """Stations, passengers, orders and the timetable."""

    def stations(self) -> list[dict[str, Any]]:
        return self.require(".stations")

    def station_named(self, name: str) -> dict[str, Any]:
        return self.find(".stations", name=name)

    def passengers(self) -> list[dict[str, Any]]:
        return self.require(".passengers")

    def owner(self) -> dict[str, Any]:
        return next(p for p in self.passengers() if p["self"])

    def orders(self) -> list[dict[str, Any]]:
        return self.require(".orders")

    def upcoming(self, now: dt.datetime) -> list[dict[str, Any]]:
        """Paid trips whose train has not left, soonest first."""
        return sorted((o for o in self.orders() if o["status"] == "paid" and departure(o) > now), key=departure)

    def trains(self, from_id: str, to_id: str, date: str) -> list[dict[str, Any]]:
        """The day's trains of a route with seats left per class, by departure."""
        return timetable.trains_on(self.state, from_id, to_id, date)

    def new_orders(self) -> list[dict[str, Any]]:
        before = {o["id"] for o in self.initial(".orders")}
        return [o for o in self.orders() if o["id"] not in before]

    # --- checks ---------------------------------------------------------------------------------------------

    def check_booking(self, trip: Mapping[str, Any], train: str, seat_class: str, names: list[str]) -> list[Check]:
        """Exactly one new paid order: the train on the trip's day and route, the class, for exactly ``names``."""
        new = self.new_orders()
        order = new[0] if len(new) == 1 else None
        got = lambda key: order[key] if order else None  # noqa: E731
        people = sorted(normalize_text(p["name"]) for p in order["passengers"]) if order else None
        return [check("new orders", 1, len(new), len(new) == 1),
                check("train", train, got("train"), got("train") == train),
                check("trip", (trip["from_id"], trip["to_id"], trip["date"]),
                      (got("from"), got("to"), got("date")) if order else None,
                      order is not None and (order["from"], order["to"], order["date"]) == (trip["from_id"], trip["to_id"], trip["date"])),
                check("seat class", seat_class, got("seat_class"), got("seat_class") == seat_class),
                check("passengers", sorted(names), people, people == sorted(normalize_text(n) for n in names)),
                check("paid", "paid", got("status"), got("status") == "paid")]

    def check_cancelled(self, order_id: str) -> list[Check]:
        """The order is refunded (money back) and every other order is as it was."""
        now = next((o for o in self.orders() if o["id"] == order_id), None)
        others = [o for o in self.orders() if o["id"] != order_id]
        kept = [o for o in self.initial(".orders") if o["id"] != order_id]
        return [check("order cancelled", "refunded", now["status"] if now else "deleted",
                      now is not None and now["status"] == "refunded" and now["refund"] > 0),
                check("other orders kept", kept, others, others == kept)]

    # --- samplers -------------------------------------------------------------------------------------------

    @staticmethod
    def prepare_state_with_upcoming(rng: random.Random, state: dict[str, Any], now: dt.datetime,
                                    want: int) -> dict[str, Any]:
        """A patch leaving ``want`` upcoming trips: extra ones refunded in full (seeded), missing ones booked as the
        world books them (a route's train on a free day of the next two weeks, the owner and up to two saved
        passengers). Empty when the count is already right."""
        orders = [dict(o) for o in state["orders"]]
        upcoming = [o for o in orders if o["status"] == "paid" and departure(o) > now]
        if len(upcoming) > want:
            for order in rng.sample(upcoming, len(upcoming) - want):
                order.update(status="refunded", refund=order["total"])
        taken = {o["date"] for o in orders}
        days = [d for d in range(1, AHEAD_DAYS + 1) if (now.date() + dt.timedelta(days=d)).isoformat() not in taken]
        owner, others = state["passengers"][0], state["passengers"][1:]
        for offset in sorted(rng.sample(days, max(0, want - len(upcoming)))):
            a, b = rng.sample(state["stations"], 2)
            train = rng.choice(timetable.route(state["seed"], a, b))
            seat_class = rng.choice([c for c in timetable.CLASSES if c in train["prices"]])
            who = [owner] + rng.sample(others, rng.randint(0, min(2, len(others))))
            date = now.date() + dt.timedelta(days=offset)
            total = round(train["prices"][seat_class] * len(who), 2)
            n = len(orders) + 1
            while any(o["id"] == f"ord_{n}" for o in orders):
                n += 1
            orders.append({"id": f"ord_{n}", "number": f"E{rng.randrange(10 ** 9):09d}", "train": train["number"],
                           "from": a["id"], "to": b["id"], "date": date.isoformat(), "depart": train["depart"],
                           "arrive": train["arrive"], "seat_class": seat_class, "price": train["prices"][seat_class],
                           "total": total, "passengers": [{"name": p["name"], "id_number": p["id_number"],
                                                            "seat": seat_of(rng, seat_class)} for p in who],
                           "status": "paid", "refund": 0.0,
                           "booked_on": min(date - dt.timedelta(days=rng.randint(1, 10)), now.date()).isoformat()})
        return {"apps": {"trains": {"orders": orders}}} if orders != state["orders"] else {}

    @staticmethod
    def sample_passcode(rng: random.Random, state: dict[str, Any]) -> str:
        return state["settings"]["passcode"]

    @staticmethod
    def sample_trip(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """Two stations and a day in the booking window (its date and how the instruction says it)."""
        a, b = rng.sample(state["stations"], 2)
        return _trip(a, b, (sim_today(os_state) + dt.timedelta(days=rng.choice(TRIP_DAYS))).isoformat(), os_state)

    @staticmethod
    def sample_trip_first_class_trap(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A trip whose cheapest first-class fare is sold out while a dearer one has seats (when the world has one;
        else one with first-class seats on some train)."""
        return rng.choice(_trips(state, os_state, "first"))

    @staticmethod
    def sample_trip_second_class_trap(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A trip whose first train has no second-class seats left while a later one has (when the world has one;
        else one with second-class seats on some train)."""
        return rng.choice(_trips(state, os_state, "second"))

    @staticmethod
    def sample_upcoming_order(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """An upcoming trip: its id, day (as the instruction says it) and the city it goes to."""
        upcoming = Trains(state).upcoming(sim_datetime(os_state))
        if not upcoming:
            raise ValueError("trains: no upcoming trip")
        order = rng.choice(upcoming)
        goal = timetable.station(state, order["to"])
        return {"id": order["id"], "date": order["date"], "day": day_label(order["date"], _language(os_state)),
                "city": goal["city"], "station": goal["name"]}

    @staticmethod
    def sample_passenger(rng: random.Random, state: dict[str, Any]) -> str:
        """A saved passenger other than the owner."""
        others = [p["name"] for p in state["passengers"] if not p["self"]]
        if not others:
            raise ValueError("trains: no passenger besides the owner")
        return rng.choice(others)

    @staticmethod
    def sample_new_passenger(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """Someone not saved yet and a valid ID number of the phone's kind that nobody has."""
        language = _language(os_state)
        names = [n for n in NEW_PEOPLE[language] if all(p["name"] != n for p in state["passengers"])]
        taken = {p["id_number"] for p in state["passengers"]}
        number = draw_id_number(rng, language, sim_today(os_state))
        if number in taken:
            raise ValueError("trains: the drawn ID number is taken")
        return {"name": rng.choice(names), "id_number": number}


EVENT_TITLES = {"en": ("Keynote rehearsal", "Contract signing at the harbour office", "Site visit at the new plant",
                       "Final interview with Orion Labs"),
                "zh": ("主题演讲彩排", "港口办公室签约", "新工厂现场考察", "猎户座实验室终面")}
EVENT_MINUTES = 90
MARGIN_MINUTES = 60  # the train must arrive this long before the event starts


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])


def sample_event_trip(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
    """A trip to an event: from one station to the city of another on a day, an event title and a start time such
    that one train with second-class seats is the latest to arrive an hour or more before the start (the next such
    train arrives too late; a train without seats may arrive in between)."""
    language = _language(os_state)
    for _ in range(20):
        a, b = rng.sample(state["stations"], 2)
        date = (sim_today(os_state) + dt.timedelta(days=rng.choice(TRIP_DAYS))).isoformat()
        ready = sorted((t for t in timetable.trains_on(state, a["id"], b["id"], date) if t["left"]["second"]),
                       key=lambda t: t["arrive"])
        choices = []
        for train, after in zip(ready[1:], ready[2:]):  # never the first train with seats: taking it is a mistake
            start = -(-(_minutes(train["arrive"]) + MARGIN_MINUTES) // 5) * 5
            if start < _minutes(after["arrive"]) + MARGIN_MINUTES and start + EVENT_MINUTES < 24 * 60:
                choices.append((train, start))
        if choices:
            train, start = rng.choice(choices)
            return {**_trip(a, b, date, os_state), "city": b["city"], "title": rng.choice(EVENT_TITLES[language]),
                    "start": f"{start // 60:02d}:{start % 60:02d}",
                    "end": f"{(start + EVENT_MINUTES) // 60:02d}:{(start + EVENT_MINUTES) % 60:02d}"}
    raise ValueError("trains: no trip with a train to pick before an event")


def latest_before(trains: list[dict[str, Any]], start: str) -> dict[str, Any]:
    """The train with second-class seats that arrives last but an hour or more before ``start``."""
    limit = _minutes(start) - MARGIN_MINUTES
    return max((t for t in trains if t["left"]["second"] and _minutes(t["arrive"]) <= limit), key=lambda t: t["arrive"])


def event_train_rivals(trains: list[dict[str, Any]], start: str) -> dict[str, tuple[int, int]]:
    """The distractors of latest_before: earlier trains that also arrive in time, later ones that arrive too late."""
    best, limit = latest_before(trains, start), _minutes(start) - MARGIN_MINUTES
    return {"earlier trains also in time": (sum(t["arrive"] < best["arrive"] for t in trains), 1),
            "later trains arriving too late": (sum(_minutes(t["arrive"]) > limit for t in trains), 1)}


def _trip(a: Mapping[str, Any], b: Mapping[str, Any], date: str, os_state: Mapping[str, Any]) -> dict[str, str]:
    return {"from": a["name"], "to": b["name"], "from_id": a["id"], "to_id": b["id"], "date": date,
            "day": day_label(date, _language(os_state))}


def _trap(trains: list[dict[str, Any]], seat_class: str) -> tuple[bool, bool]:
    """(the trap is set, a train has seats): for first class the cheapest fare is sold out, for second class the
    first train is."""
    having = [t for t in trains if seat_class in t["prices"]]
    open_ = [t for t in having if t["left"][seat_class]]
    if not open_:
        return False, False
    first = min(having, key=lambda t: t["prices"][seat_class]) if seat_class == "first" else having[0]
    return not first["left"][seat_class], True


_TRIPS: dict[tuple, tuple] = {}  # trips found per world and day (a trap search reads ~150 timetables)
MEMO = 64
PAIRS_SCANNED = 12  # station pairs a trap search looks at (every 7th pair): enough to find a few


def _trips(state: Mapping[str, Any], os_state: Mapping[str, Any], seat_class: str) -> list[dict[str, str]]:
    today, language = sim_today(os_state), _language(os_state)
    key = (state["seed"], tuple(s["id"] for s in state["stations"]), today, seat_class, language,
           tuple((o["train"], o["date"], o["seat_class"], o["status"], len(o["passengers"])) for o in state["orders"]))
    if key not in _TRIPS:
        if len(_TRIPS) >= MEMO:
            _TRIPS.clear()
        _TRIPS[key] = _find_trips(state, today, seat_class, language)
    return list(_TRIPS[key])


def _find_trips(state: Mapping[str, Any], today: dt.date, seat_class: str, language: str) -> tuple:
    """Trips (over the first station pairs and the trip days) with the trap set; else those with seats."""
    stations = state["stations"]
    pairs = [(a, b) for a in stations for b in stations if a is not b][::7][:PAIRS_SCANNED]
    trapped, fallback = [], []
    os_state = {"language": language}
    for a, b in pairs:
        for offset in TRIP_DAYS:
            date = (today + dt.timedelta(days=offset)).isoformat()
            trap, seats = _trap(timetable.trains_on(state, a["id"], b["id"], date), seat_class)
            (trapped if trap else fallback if seats else []).append(_trip(a, b, date, os_state))
    return tuple(trapped or fallback)
