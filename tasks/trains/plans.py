"""Scripted plans for the Trains suite: an oracle and realistic mistakes per task, acting only through the UI."""
from __future__ import annotations

import datetime as dt
import re
from typing import Any

from mobilegym.envs.trains.text import SHORT_CLASS as CLASS_LABELS
from mobilegym.oracle import Driver, PlanError, negative, plan
from mobilegym.sim.strings import translate

from ..calendar.ui import open_event, read_date
from ..contacts.ui import compose
from ..cross_app.ui import add_event
from ..weather.ui import set_alarm

SEATS = re.compile(r"(2nd|1st|Business|二等|一等|商务) ¥([\d,]+(?:\.\d)?) \(([^)]*)\)")


def home(d: Driver, tab: int = 0) -> None:
    """Open Trains on a tab (0 tickets, 1 orders, 2 passengers), backing out of whatever screen it resumed on."""
    d.open_app("Trains")
    for _ in range(8):
        if d.find(rid="tab_0") is not None:
            d.tap(rid=f"tab_{tab}")
            return
        d.key("back")
    raise PlanError("Trains: no way back to the tabs")


def choose_station(d: Driver, which: str, name: str, city: bool = False) -> None:
    """Pick a station in the From or To dialog by its name (or the first station of a city)."""
    d.tap(rid=f"{which}_station")
    d.type(name, rid="station_search")
    d.tap(rid="station_name", index=0) if city else d.tap(rid="station_name", text=name)


def search(d: Driver, origin: str, goal: str, date: str, goal_city: bool = False) -> None:
    """Search the day's trains from ``origin`` to ``goal`` (station names; ``goal_city``: a city's station)."""
    home(d)
    choose_station(d, "from", origin)
    choose_station(d, "to", goal, city=goal_city)
    d.pick_date(dt.date.fromisoformat(date), rid="date_input")
    d.tap(rid="search_button")


def fare(text: str) -> float:
    return float(text.replace(",", ""))


def trains_listed(d: Driver) -> list[dict]:
    """Every train of the results list in its order: number, departure and {class label: (fare, seats text)}."""
    seen: dict[str, dict] = {}
    while True:
        current = None
        for n in d.nodes():
            if n.short_id == "train_title":
                number, depart, _, arrive = n.text.split()[:4]
                current = seen.setdefault(number, {"number": number, "depart": depart, "arrive": arrive, "seats": {}})
            elif n.short_id == "train_seats" and current is not None:
                current["seats"] = {label: (fare(price), left) for label, price, left in SEATS.findall(n.text)}
        if not d.scroll(1):
            return list(seen.values())


def sold_out(d: Driver, seats: str) -> bool:
    return seats == d.t("Sold out", "无")


def label(d: Driver, seat_class: str) -> str:
    english = CLASS_LABELS[seat_class]
    return d.t(english, translate("mobilegym.envs.trains", "zh", english))


def trip(d: Driver, reverse: bool = False) -> tuple[str, str, str]:
    t = d.params["trip"]
    return (t["to"], t["from"], t["date"]) if reverse else (t["from"], t["to"], t["date"])


# --- orders --------------------------------------------------------------------------------------------------

@plan("trains.CountUpcomingTrips")
def count_upcoming(d: Driver) -> None:
    home(d, 1)
    d.submit_answer([re.search(r"\d+", d.texts("orders_tab_0")[0]).group()])
    d.complete()


@negative("trains.CountUpcomingTrips", "counts past trips too")
def count_all(d: Driver) -> None:
    home(d, 1)
    upcoming = int(re.search(r"\d+", d.texts("orders_tab_0")[0]).group())
    d.tap(rid="orders_tab_1")
    d.submit_answer([str(upcoming + len(d.texts("order_title")))])
    d.complete()


@plan("trains.NextTripTrain")
def next_trip_train(d: Driver) -> None:
    home(d, 1)
    d.submit_answer([d.texts("order_title")[0].split()[0]])
    d.complete()


@negative("trains.NextTripTrain", "reads the last trip taken")
def last_trip_train(d: Driver) -> None:
    home(d, 1)
    d.tap(rid="orders_tab_1")
    d.submit_answer([d.texts("order_title")[0].split()[0]])
    d.complete()


def open_order(d: Driver, date: str) -> None:
    home(d, 1)
    row = next((n for n in d.nodes() if n.short_id == "order_item" and f" {date} " in n.desc), None)
    if row is None:
        raise PlanError(f"no upcoming trip on {date}")
    d.tap(rid="order_item", desc=row.desc)


def cancel(d: Driver, date: str, confirm: bool = True) -> None:
    open_order(d, date)
    d.tap(rid="cancel_order")
    d.tap(rid="button1" if confirm else "button2")


@plan("trains.CancelTripOnDate")
def cancel_trip(d: Driver) -> None:
    cancel(d, d.params["order"]["date"])
    d.complete()


@negative("trains.CancelTripOnDate", "keeps the trip at the confirmation")
def cancel_trip_kept(d: Driver) -> None:
    cancel(d, d.params["order"]["date"], confirm=False)
    d.complete()


@plan("trains.CancelAndReportRefund")
def cancel_and_report(d: Driver) -> None:
    cancel(d, d.params["order"]["date"])
    d.submit_answer([d.texts("order_refund")[0].lstrip("¥").replace(",", "")])
    d.complete()


@negative("trains.CancelAndReportRefund", "keeps the trip and reports the fare")
def report_without_cancelling(d: Driver) -> None:
    open_order(d, d.params["order"]["date"])
    d.submit_answer([d.texts("order_paid")[0].lstrip("¥").replace(",", "")])
    d.complete()


# --- passengers ----------------------------------------------------------------------------------------------

def add_passenger(d: Driver, name: str, number: str) -> None:
    home(d, 2)
    d.tap(rid="add_passenger")
    d.type(name, rid="name_input")
    d.type(number, rid="id_input")
    d.tap(rid="save_passenger")


@plan("trains.AddPassenger")
def add_passenger_plan(d: Driver) -> None:
    add_passenger(d, d.params["person"]["name"], d.params["person"]["id_number"])
    d.complete()


@negative("trains.AddPassenger", "one digit of the ID number wrong")
def add_passenger_typo(d: Driver) -> None:
    number = d.params["person"]["id_number"]
    at = next(i for i in range(len(number) - 2, -1, -1) if number[i].isdigit())
    add_passenger(d, d.params["person"]["name"], number[:at] + str((int(number[at]) + 1) % 10) + number[at + 1:])
    d.complete()


@negative("trains.AddPassenger", "saves only the first name")
def add_passenger_short_name(d: Driver) -> None:
    name = d.params["person"]["name"]
    add_passenger(d, name.split()[0] if " " in name else name[1:], d.params["person"]["id_number"])
    d.complete()


def remove_passenger(d: Driver, name: str, confirm: bool = True) -> None:
    home(d, 2)
    d.tap(rid="passenger_item", desc=name)
    d.tap(rid="remove_passenger")
    d.tap(rid="button1" if confirm else "button2")
    d.complete()


@plan("trains.RemovePassenger")
def remove_passenger_plan(d: Driver) -> None:
    remove_passenger(d, d.params["passenger"])


@negative("trains.RemovePassenger", "cancels at the confirmation")
def remove_passenger_cancelled(d: Driver) -> None:
    remove_passenger(d, d.params["passenger"], confirm=False)


# --- searching -----------------------------------------------------------------------------------------------

def fastest(d: Driver, reverse: bool = False) -> str:
    search(d, *trip(d, reverse))
    d.tap(rid="sort_fastest")
    return d.texts("train_title")[0].split()[0]


@plan("trains.FastestTrain")
def fastest_train(d: Driver) -> None:
    d.submit_answer([fastest(d)])
    d.complete()


@negative("trains.FastestTrain", "searches the route the wrong way round")
def fastest_train_reversed(d: Driver) -> None:
    d.submit_answer([fastest(d, reverse=True)])
    d.complete()


def cheapest_first(d: Driver, any_seats: bool) -> dict:
    search(d, *trip(d))
    first = label(d, "first")
    having = [t for t in trains_listed(d) if first in t["seats"] and (any_seats or not sold_out(d, t["seats"][first][1]))]
    return min(having, key=lambda t: t["seats"][first][0])


@plan("trains.CheapestFirstClass")
def cheapest_first_class(d: Driver) -> None:
    best = cheapest_first(d, any_seats=False)
    d.submit_answer([best["number"], f"{best['seats'][label(d, 'first')][0]:g}"])
    d.complete()


@negative("trains.CheapestFirstClass", "ignores that the cheapest is sold out")
def cheapest_first_class_sold_out(d: Driver) -> None:
    best = cheapest_first(d, any_seats=True)
    d.submit_answer([best["number"], f"{best['seats'][label(d, 'first')][0]:g}"])
    d.complete()


# --- booking -------------------------------------------------------------------------------------------------

def pin(d: Driver, code: str) -> None:
    for digit in code:
        d.tap(rid=f"pin_{digit}")


def book(d: Driver, train: str, seat_class: str, names: list[str], passcode: str) -> None:
    """From the results list: the train's class, the passengers, submit, confirm and the passcode."""
    d.tap(rid="train_item", contains=f"{train} ")
    d.tap(rid=f"book_{seat_class}")
    for name in names:
        d.tap(rid="passenger_check", desc=name)
    d.tap(rid="submit_order")
    d.tap(rid="button1")
    pin(d, passcode)


def earliest_with_second(d: Driver) -> str:
    second = label(d, "second")
    return next(t["number"] for t in trains_listed(d) if second in t["seats"] and not sold_out(d, t["seats"][second][1]))


def _book_earliest(d: Driver, names: list[str], date: str | None = None) -> None:
    origin, goal, day = trip(d)
    search(d, origin, goal, date or day)
    number = earliest_with_second(d)
    book(d, number, "second", names, d.params["passcode"])
    d.complete()


@plan("trains.BookEarliestSecondClass")
def book_earliest_second(d: Driver) -> None:
    _book_earliest(d, [d.params["passenger"]])


@negative("trains.BookEarliestSecondClass", "books a seat for me as well")
def book_earliest_second_with_me(d: Driver) -> None:
    home(d, 2)
    me = d.texts("passenger_name")[0]
    _book_earliest(d, [d.params["passenger"], me])


@negative("trains.BookEarliestSecondClass", "books the day after")
def book_earliest_second_next_day(d: Driver) -> None:
    day = dt.date.fromisoformat(d.params["trip"]["date"]) + dt.timedelta(days=1)
    _book_earliest(d, [d.params["passenger"]], day.isoformat())


# --- JSON tasks ----------------------------------------------------------------------------------------------

@plan("trains.other_passengers")
def other_passengers(d: Driver) -> None:
    home(d, 2)
    d.submit_answer([str(len(d.texts("passenger_name")) - len(d.texts("self_badge")))])
    d.complete()


@negative("trains.other_passengers", "counts me too")
def other_passengers_with_me(d: Driver) -> None:
    home(d, 2)
    d.submit_answer([str(len(d.texts("passenger_name")))])
    d.complete()


@plan("trains.sleeper_berth")
def sleeper_berth(d: Driver) -> None:
    home(d)
    d.abort("Trains sells only seats on day trains (second, first and business class): it has no sleepers or berths")


@negative("trains.sleeper_berth", "claims the berth is booked")
def sleeper_berth_claims(d: Driver) -> None:
    home(d)
    d.complete()


@plan("trains.choose_seat_number")
def choose_seat_number(d: Driver) -> None:
    home(d, 1)
    d.tap(rid="order_item", index=0)
    d.abort("Trains assigns seats itself: an order cannot change or pick a seat number")


@negative("trains.choose_seat_number", "says the seat was changed")
def choose_seat_number_claims(d: Driver) -> None:
    home(d, 1)
    d.complete()


# --- cross-app -----------------------------------------------------------------------------------------------

def next_trip(d: Driver) -> tuple[str, str, str]:
    """(train, departure, arrival) of the next trip, from its order page."""
    home(d, 1)
    d.tap(rid="order_item", index=0)
    return trip_of_order(d)


def trip_of_order(d: Driver) -> tuple[str, str, str]:
    train = d.texts("order_train")[0].split()[0]
    route = d.texts("order_route")[0]
    return train, route.split()[0], route.split(" → ")[1].split()[0]


@plan("trains.TextNextTrain")
def text_next_train(d: Driver) -> None:
    train, depart, _ = next_trip(d)
    compose(d, d.params["name"], d.t(f"My next train is {train}, leaving at {depart}.", f"我下一趟坐{train}次，{depart}发车。"))
    d.complete()


@negative("trains.TextNextTrain", "texts the arrival time")
def text_next_train_arrival(d: Driver) -> None:
    train, _, arrive = next_trip(d)
    compose(d, d.params["name"], d.t(f"My next train is {train}, arriving at {arrive}.", f"我下一趟坐{train}次，{arrive}到达。"))
    d.complete()


def _trip_to_calendar(d: Driver, say_departure: bool = False) -> None:
    open_order(d, d.params["order"]["date"])
    train, depart, arrive = trip_of_order(d)
    route = d.texts("order_route")[0]
    station = route.split(" → ")[0].split(" ", 1)[1]
    add_event(d, train, dt.date.fromisoformat(d.params["order"]["date"]), depart, arrive, place=station)
    time = depart if say_departure else arrive
    compose(d, d.params["name"], d.t(f"My train gets in at {time}.", f"我的火车{time}到。"))
    d.complete()


@plan("trains.TripToCalendar")
def trip_to_calendar(d: Driver) -> None:
    _trip_to_calendar(d)


@negative("trains.TripToCalendar", "texts the departure time")
def trip_to_calendar_departure(d: Driver) -> None:
    _trip_to_calendar(d, say_departure=True)


def _book_event_train(d: Driver, earliest: bool) -> dict[str, Any]:
    """Read the trip's Calendar event, then book (second class, for the owner) the last train arriving an hour
    before it starts (``earliest``: the first-arriving train with seats, the mistake); the train booked."""
    trip = d.params["trip"]
    open_event(d, trip["title"])
    day = read_date(d.texts("event_date")[0])
    start = d.texts("event_time")[0].split(" – ")[0]
    city = d.texts("event_location")[0]
    home(d, 2)
    me = d.texts("passenger_name")[0]
    search(d, trip["from"], city, day.isoformat(), goal_city=True)
    second = label(d, "second")
    limit = int(start[:2]) * 60 + int(start[3:]) - 60
    ready = [t for t in trains_listed(d) if second in t["seats"] and not sold_out(d, t["seats"][second][1])]
    fits = [t for t in ready if int(t["arrive"][:2]) * 60 + int(t["arrive"][3:]) <= limit]
    train = min(ready, key=lambda t: t["arrive"]) if earliest else max(fits, key=lambda t: t["arrive"])
    book(d, train["number"], "second", [me], d.params["passcode"])
    return train


def _book_for_event(d: Driver, earliest: bool = False) -> None:
    train = _book_event_train(d, earliest)
    compose(d, d.params["name"], d.t(f"I'm taking train {train['number']}.", f"我坐{train['number']}次列车。"))
    d.complete()


@plan("trains.BookForCalendarEvent")
def book_for_event(d: Driver) -> None:
    _book_for_event(d)


@negative("trains.BookForCalendarEvent", "books the first train with seats")
def book_for_event_earliest(d: Driver) -> None:
    _book_for_event(d, earliest=True)


# --- BookEventTrainWithAlarm ------------------------------------------------------------------------------

def _book_with_alarm(d: Driver, earliest: bool = False, from_arrival: bool = False) -> None:
    train = _book_event_train(d, earliest)
    when = train["arrive"] if from_arrival else train["depart"]
    moment = dt.datetime.strptime(when, "%H:%M") - dt.timedelta(hours=2)
    set_alarm(d, moment.hour, moment.minute)
    d.complete()


@plan("trains.BookEventTrainWithAlarm")
def book_event_train_with_alarm(d: Driver) -> None:
    _book_with_alarm(d)


@negative("trains.BookEventTrainWithAlarm", "books the first train with seats")
def book_event_train_earliest(d: Driver) -> None:
    _book_with_alarm(d, earliest=True)


@negative("trains.BookEventTrainWithAlarm", "sets the alarm two hours before the arrival")
def book_event_train_alarm_arrival(d: Driver) -> None:
    _book_with_alarm(d, from_arrival=True)


# --- NextTrainAlarmAndText -------------------------------------------------------------------------------

def _next_train_alarm(d: Driver, minutes: int = 90, arrival_station: bool = False, text: bool = True) -> None:
    train, depart, _ = next_trip(d)
    route = d.texts("order_route")[0]  # "08:00 Shanghai Hongqiao → 12:30 Beijing South"
    origin, goal = (part.split(" ", 1)[1] for part in route.split(" → "))
    moment = dt.datetime.strptime(depart, "%H:%M") - dt.timedelta(minutes=minutes)
    set_alarm(d, moment.hour, moment.minute)
    if text:
        station = goal if arrival_station else origin
        compose(d, d.params["name"], d.t(f"I'm taking train {train} from {station}.", f"我坐{train}次，从{station}出发。"))
    d.complete()


@plan("trains.NextTrainAlarmAndText")
def next_train_alarm_and_text(d: Driver) -> None:
    _next_train_alarm(d)


@negative("trains.NextTrainAlarmAndText", "sets the alarm an hour before")
def next_train_alarm_hour(d: Driver) -> None:
    _next_train_alarm(d, minutes=60)


@negative("trains.NextTrainAlarmAndText", "texts the arrival station")
def next_train_alarm_arrival_station(d: Driver) -> None:
    _next_train_alarm(d, arrival_station=True)


@negative("trains.NextTrainAlarmAndText", "sets the alarm but sends no text")
def next_train_alarm_no_text(d: Driver) -> None:
    _next_train_alarm(d, text=False)
