"""Trains screens: the search form (stations, date), a day's results (sort, filter), a train's seat classes and
the booking form (passengers, confirm, pay with the passcode)."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.envs.wallet import payflow
from mobilegym.sim import pickers, ui
from mobilegym.sim.app import Ctx

from . import timetable
from .app import APP
from .parts import detail_row, error, header, tabs
from .text import class_name, day_text, duration, fare, passenger_label, seats_text, short_class, station_name
from .timetable import BOOKING_DAYS, CLASSES, PLENTY
from .world import seat_of

SORTS = [("earliest", "Earliest"), ("fastest", "Fastest"), ("cheapest", "Cheapest")]


def on_sale(ctx: Ctx, iso: str) -> bool:
    """Whether tickets for the day are sold: today to BOOKING_DAYS - 1 days ahead."""
    days = (dt.date.fromisoformat(iso) - ctx.now.date()).days
    return 0 <= days < BOOKING_DAYS


# --- search form -----------------------------------------------------------------------------------------

def _station_dialog(ctx: Ctx) -> ui.Dialog | None:
    target = ctx.local.get("choosing")
    if target is None:
        return None
    query = ctx.local.get("station_query", "").strip().casefold()
    shown = [s for s in ctx.state["stations"] if not query or query in s["name"].casefold() or query in s["city"].casefold()]

    def choose(station_id: str) -> None:
        ctx.local.update({target: station_id, "choosing": None, "station_query": "", "error": None})

    def close() -> None:
        ctx.local.update(choosing=None, station_query="")

    rows = [ui.ListItem(s["name"], subtitle=s["city"], title_rid="station_name", rid="station_option", desc=s["name"],
                        on_click=lambda s=s: choose(s["id"])) for s in shown]
    if not rows:
        rows.append(ui.Text(ctx.t("No station found"), color="muted", align="center", height=56,
                            rid="no_station"))
    title = ctx.t("From") if target == "from" else ctx.t("To")
    return ui.Dialog(title, [ctx.field("station_search", "station_query", hint=ctx.t("Station or city"), ime_action="search"),
                             ui.ScrollList(rows, rid="station_list", height=320)],
                     [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE)], on_dismiss=close)


def _choose_station(ctx: Ctx, target: str) -> None:
    """Open the station picker for ``target`` with its search box focused (typing filters at once)."""
    ctx.local.update(choosing=target)
    ctx.focus("station_search")


def _station_field(ctx: Ctx, target: str, label: str) -> ui.View:
    chosen = ctx.local.get(target)
    return ui.Column([ui.Text(label, size=12, color="muted"),
                      pickers.PickerField(f"{target}_station", station_name(ctx.state, chosen) if chosen else "",
                                          lambda: _choose_station(ctx, target), hint=ctx.t("Choose a station"),
                                          desc=label)], gap=4)


@APP.screen("/")
def search(ctx: Ctx) -> ui.Scaffold:
    local = ctx.local
    day = dt.date.fromisoformat(local.get("date", ctx.now.date().isoformat()))

    def swap() -> None:
        local.update({"from": local.get("to"), "to": local.get("from")})

    def go() -> None:
        origin, goal = local.get("from"), local.get("to")
        problem = (ctx.t("Choose the departure and arrival stations") if not origin or not goal
                   else ctx.t("Departure and arrival stations are the same") if origin == goal
                   else None if on_sale(ctx, day.isoformat())
                   else ctx.t("Tickets are on sale for the next {booking_days} days only", booking_days=BOOKING_DAYS))
        local["error"] = problem
        if problem is None:
            ctx.navigate("/results", **{"from": origin, "to": goal, "date": day.isoformat()})

    def set_date(target: str, value: str) -> None:
        local.update(date=value, error=None)

    form = ui.Card([  # the stations one above the other, each the card's width: a long name shows whole
        ui.Row([ui.Column([_station_field(ctx, "from", ctx.t("From")),
                           _station_field(ctx, "to", ctx.t("To"))], gap=8, flex=1),
                ui.IconButton("⇅", ctx.t("Swap stations"), swap, rid="swap_stations")], gap=4),
        ui.Text(ctx.t("Date"), size=12, color="muted"),
        pickers.PickerField("date_input", pickers.date_text(ctx, day),
                            lambda: pickers.open_date(local, "date", day), desc=ctx.t("Date")),
        error(local["error"], "search_error") if local.get("error") else None,
        ui.Button(ctx.t("Search trains"), go, rid="search_button"),
    ])
    body = ui.ScrollList([inset(form, MARGIN - 12, MARGIN - 12),
                          inset(ui.Text(ctx.t("Tickets go on sale {value} days before departure.", value=BOOKING_DAYS - 1, booking_days=BOOKING_DAYS), size=13, color="muted", max_lines=2),
                                MARGIN)], rid="search_form", gap=8)
    dialog = _station_dialog(ctx) or pickers.picker_dialog(ctx, set_date)
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Train tickets")), bottom=tabs(ctx, "/"), dialog=dialog)


# --- results ---------------------------------------------------------------------------------------------

def _lowest(train: dict[str, Any]) -> float:
    return min(train["prices"].values())


def sort_trains(trains: list[dict[str, Any]], how: str) -> list[dict[str, Any]]:
    key = {"earliest": lambda t: t["depart"], "fastest": lambda t: (t["minutes"], t["depart"]),
           "cheapest": lambda t: (_lowest(t), t["depart"])}[how]
    return sorted(trains, key=key)


def _classes_line(ctx: Ctx, train: dict[str, Any]) -> str:
    return " · ".join(f"{short_class(ctx, c)} {fare(train['prices'][c])} ({seats_text(ctx, train['left'][c])})"
                     for c in CLASSES if c in train["prices"])


def _train_row(ctx: Ctx, train: dict[str, Any], params: dict[str, str]) -> ui.View:
    texts = ui.Column([ui.Text(f"{train['number']}  {train['depart']} → {train['arrive']}", size=16, rid="train_title"),
                       ui.Text(duration(ctx, train["minutes"]), size=13, color="muted", rid="train_duration"),
                       ui.Text(_classes_line(ctx, train), size=13, color="muted", max_lines=2, rid="train_seats")],
                      gap=2, flex=1)
    return ui.Row([texts], pad=12, rid="train_item", desc=f"{train['number']} {train['depart']} {train['arrive']}",
                  on_click=lambda: ctx.navigate("/train", **params, train=train["number"]))


@APP.screen("/results")
def results(ctx: Ctx) -> ui.Scaffold:
    origin, goal, date = ctx.params["from"], ctx.params["to"], ctx.params["date"]
    how = ctx.local.get("sort", "earliest")
    only_high_speed, only_available = ctx.local.get("high_speed", False), ctx.local.get("available", False)
    trains = [t for t in timetable.trains_on(ctx.state, origin, goal, date)
              if (not only_high_speed or t["kind"] == "G") and (not only_available or any(t["left"].values()))]
    place = {"from": origin, "to": goal, "date": date}

    def shift(days: int) -> None:
        ctx.replace("/results", **{**place, "date": (dt.date.fromisoformat(date) + dt.timedelta(days=days)).isoformat()})

    earlier = (dt.date.fromisoformat(date) - dt.timedelta(days=1)).isoformat()
    later = (dt.date.fromisoformat(date) + dt.timedelta(days=1)).isoformat()
    days = ui.Row([
        ui.IconButton("‹", ctx.t("Previous day"), (lambda: shift(-1)) if on_sale(ctx, earlier) else None,
                      rid="previous_day", enabled=on_sale(ctx, earlier)),
        ui.Text(day_text(ctx, date), size=15, bold=True, align="center", flex=1, rid="results_date"),
        ui.IconButton("›", ctx.t("Next day"), (lambda: shift(1)) if on_sale(ctx, later) else None,
                      rid="next_day", enabled=on_sale(ctx, later)),
    ], gap=4, pad=4)
    chips = ui.Row([ui.Chip(ctx.t(label), how == key, lambda on, k=key: ctx.local.update(sort=k), rid=f"sort_{key}")
                    for key, label in SORTS], gap=6, pad=8)
    filters = ui.Row([
        ui.Chip(ctx.t("G trains only"), only_high_speed, lambda on: ctx.local.update(high_speed=on),
                rid="filter_high_speed"),
        ui.Chip(ctx.t("Seats available"), only_available, lambda on: ctx.local.update(available=on),
                rid="filter_available"),
    ], gap=6, pad=8)
    count = len(trains)
    rows: list[ui.View | None] = [inset(ui.Text(ctx.tn("{count} train", "{count} trains", count),
                                                size=13, color="muted", height=28, rid="result_count"), MARGIN)]
    rows += [_train_row(ctx, t, place) for t in sort_trains(trains, how)]
    if not trains:
        rows.append(ui.Text(ctx.t("No trains match the filters"), color="muted", align="center",
                            height=96, rid="no_results"))
    route = ui.Text(f"{station_name(ctx.state, origin)} → {station_name(ctx.state, goal)}", size=17, bold=True,
                    max_lines=2, rid="results_route")
    body = ui.Column([inset(route, MARGIN, MARGIN), days, chips, filters, ui.ScrollList(rows, rid="train_list")])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Choose a train"), on_back=ctx.back))


# --- a train ---------------------------------------------------------------------------------------------

def find_train(ctx: Ctx) -> dict[str, Any]:
    p = ctx.params
    found = next((t for t in timetable.trains_on(ctx.state, p["from"], p["to"], p["date"]) if t["number"] == p["train"]),
                 None)
    if found is None:
        raise KeyError(f"trains: no train {p['train']!r} from {p['from']!r} to {p['to']!r}")
    return found


def _journey(ctx: Ctx, train: dict[str, Any]) -> ui.View:
    p = ctx.params
    return inset(ui.Card([
        ui.Text(f"{train['number']} · {day_text(ctx, p['date'])}", size=14, color="muted", rid="journey_train"),
        ui.Row([ui.Column([ui.Text(train["depart"], size=24, bold=True, rid="depart_time"),
                           ui.Text(station_name(ctx.state, p["from"]), size=13, max_lines=2, rid="depart_station")],
                          flex=1),
                ui.Text(duration(ctx, train["minutes"]), size=13, color="muted", align="center", flex=1,
                        rid="journey_duration"),
                ui.Column([ui.Text(train["arrive"], size=24, bold=True, align="right", rid="arrive_time"),
                           ui.Text(station_name(ctx.state, p["to"]), size=13, align="right", max_lines=2,
                                   rid="arrive_station")],
                          flex=1)], gap=8),
    ]), MARGIN - 12, MARGIN - 12)


@APP.screen("/train")
def train_detail(ctx: Ctx) -> ui.Scaffold:
    train = find_train(ctx)
    rows: list[ui.View | None] = [_journey(ctx, train), header(ctx.t("Seat classes"))]
    for seat_class in CLASSES:
        if seat_class not in train["prices"]:
            continue
        left = train["left"][seat_class]
        book = ui.Button(ctx.t("Book"),
                         (lambda c=seat_class: ctx.navigate("/book", **ctx.params, seat=c)) if left else None,
                         style="filled" if left else "outlined", rid=f"book_{seat_class}")
        rows.append(ui.ListItem(class_name(ctx, seat_class),
                                subtitle=f"{fare(train['prices'][seat_class])} · {seats_text(ctx, left)}",
                                trailing=book, title_rid="class_name", rid="class_item",
                                desc=f"{class_name(ctx, seat_class)} {fare(train['prices'][seat_class])} {seats_text(ctx, left)}"))
    return ui.Scaffold(ui.ScrollList(rows, rid="train_detail", gap=4),
                       top=ui.TopBar(train["number"], on_back=ctx.back))


# --- booking ---------------------------------------------------------------------------------------------

@APP.screen("/book")
def book(ctx: Ctx) -> ui.Scaffold:
    train = find_train(ctx)
    p, local = ctx.params, ctx.local
    seat_class = p["seat"]
    price = train["prices"][seat_class]
    chosen: list[str] = local.setdefault("chosen", [])
    people = [x for x in ctx.state["passengers"] if x["id"] in chosen]
    total = price * len(people)

    def toggle(pid: str, on: bool) -> None:
        local["chosen"] = [x for x in local["chosen"] if x != pid] + ([pid] if on else [])
        local["error"] = None

    def submit() -> None:
        left = train["left"][seat_class]
        local["error"] = (ctx.t("Choose at least one passenger") if not people
                          else ctx.t("Not enough seats left for everyone") if left != PLENTY and left < len(people)
                          else None)
        if local["error"] is None:
            local.update(pay_stage="confirm", pin="", pin_error=False)

    def pay() -> None:
        order_id = ctx.new_id("ord")
        rng = _seat_rng(ctx, order_id)
        order = {"id": order_id, "number": f"E{rng.randrange(10 ** 9):09d}", "train": train["number"], "from": p["from"],
                 "to": p["to"], "date": p["date"], "depart": train["depart"], "arrive": train["arrive"],
                 "seat_class": seat_class, "price": price, "total": total,
                 "passengers": [{"name": x["name"], "id_number": x["id_number"], "seat": seat_of(rng, seat_class)}
                                for x in people],
                 "status": "paid", "refund": 0.0, "booked_on": ctx.now.date().isoformat()}
        ctx.state["orders"].append(order)
        ctx.replace("/order", id=order_id, done="1")

    rows: list[ui.View | None] = [
        _journey(ctx, train),
        detail_row(ctx.t("Seat class"), f"{class_name(ctx, seat_class)} · {fare(price)}", "booking_class"),
        header(ctx.t("Passengers")),
    ]
    rows += [inset(ui.Checkbox("passenger_check", x["id"] in chosen, lambda on, pid=x["id"]: toggle(pid, on),
                               label=passenger_label(ctx, x), desc=x["name"]), MARGIN - 4, MARGIN)
             for x in ctx.state["passengers"]]
    rows += [ui.Row([ui.Button(ctx.t("+ Add passenger"), lambda: ctx.navigate("/passenger/new"),
                               style="text", rid="add_passenger")], pad=8),
             inset(error(local["error"], "booking_error"), MARGIN) if local.get("error") else None,
             inset(ui.Text(ctx.t("Total {fare}", fare=fare(total)), size=18, bold=True, rid="booking_total"),
                   MARGIN),
             ui.Row([ui.Button(ctx.t("Submit order"), submit, rid="submit_order", flex=1)], pad=16)]
    sheet = [(ctx.t("Train"), f"{train['number']} {day_text(ctx, p['date'])} {train['depart']}"),
             (ctx.t("Route"), f"{station_name(ctx.state, p['from'])} → {station_name(ctx.state, p['to'])}"),
             (ctx.t("Seat"), class_name(ctx, seat_class)),
             (ctx.t("Passengers"), ", ".join(x["name"] for x in people))]
    dialog = payflow.dialog(ctx, ctx.t("Confirm order"), sheet, total, pay)
    return ui.Scaffold(ui.ScrollList(rows, rid="booking_form", gap=4),
                       top=ui.TopBar(ctx.t("Book tickets"), on_back=ctx.back), dialog=dialog)


def _seat_rng(ctx: Ctx, order_id: str) -> random.Random:
    """The seeded stream an order's number and seats are drawn from (the same for the same order in a world)."""
    return random.Random(f"trains|{ctx.state['seed']}|{order_id}")
