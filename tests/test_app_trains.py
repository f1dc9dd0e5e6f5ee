"""The Trains app: every screen renders cleanly in both languages with every glyph in the fonts; the search form
checks its stations and date; results sort and filter; booking needs a passenger, a confirmation and the right
passcode, and takes the seats off what is left; cancelling asks first and refunds the fare minus the fee;
passengers are added only with a valid ID number and removed after a confirmation; generated worlds and their
timetables hold their invariants and vary. Tests that read fixed text use the canonical world."""
from __future__ import annotations

import datetime as dt

import pytest

from mobilegym.envs.trains import timetable
from mobilegym.envs.trains.text import fare
from mobilegym.envs.trains.timetable import PLENTY, refund_fee
from mobilegym.envs.trains.world import resident_id, valid_resident_id
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .apptools import assert_screen_ok
from .test_legibility import _check_glyphs_and_bounds
from .uitools import node, tap

APPS = ("trains", "contacts", "settings")
DAY = "2026-03-18"  # two days after the canonical phone's date
PASSCODE = "670075"  # the canonical world's


def _phone(language: str = "en", seed: int | None = None) -> Phone:
    phone = SimDevice(apps=APPS, language=language, world="canonical" if seed is None else "generated")
    if seed is not None:
        phone.reset_state(seed)
    phone.open_app("trains")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["trains"]


def _texts(phone: Phone, rid: str) -> list[str]:
    return [n.text for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _route(phone: Phone) -> tuple[str, str]:
    stations = _state(phone)["stations"]
    return stations[0]["id"], stations[1]["id"]


def _results(phone: Phone, day: str = DAY) -> list[dict]:
    a, b = _route(phone)
    phone.launch("trains", f"/results?from={a}&to={b}&date={day}")
    return timetable.trains_on(_state(phone), a, b, day)


def _open_booking(phone: Phone, seat_class: str = "second") -> dict:
    """The booking form of the first train of DAY with seats of the class."""
    a, b = _route(phone)
    train = next(t for t in timetable.trains_on(_state(phone), a, b, DAY) if t["left"].get(seat_class))
    phone.launch("trains", f"/book?from={a}&to={b}&date={DAY}&train={train['number']}&seat={seat_class}")
    return train


def _pin(phone: Phone, code: str) -> None:
    for digit in code:
        tap(phone, f"pin_{digit}")


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_with_its_glyphs(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    state = _state(phone)
    a, b = _route(phone)
    train = timetable.trains_on(state, a, b, DAY)[0]
    problems = []
    for route in ("/", f"/results?from={a}&to={b}&date={DAY}", f"/train?from={a}&to={b}&date={DAY}&train={train['number']}",
                  f"/book?from={a}&to={b}&date={DAY}&train={train['number']}&seat=first", "/orders",
                  f"/order?id={state['orders'][-1]['id']}", f"/order?id={state['orders'][0]['id']}", "/passengers",
                  "/passenger/new", "/passenger?id=psg_2"):
        phone.launch("trains", route)
        assert_screen_ok(phone)
        problems += _check_glyphs_and_bounds(phone, route)
    phone.launch("trains", "/")
    tap(phone, "from_station")
    assert_screen_ok(phone)                                   # the station dialog
    problems += _check_glyphs_and_bounds(phone, "station dialog")
    assert not problems, "\n".join(problems[:10])


def test_search_picks_stations_in_the_dialog_and_the_date_in_the_picker() -> None:
    phone = _phone()
    names = [s["name"] for s in _state(phone)["stations"]]
    tap(phone, "search_button")
    assert _texts(phone, "search_error") == ["Choose the departure and arrival stations"]
    tap(phone, "from_station")
    tap(phone, "station_search")
    phone.type_text(names[2][:4])
    phone.key("back")
    assert _texts(phone, "station_name") == [n for n in names if names[2][:4].casefold() in n.casefold()]
    tap(phone, "station_name", names[2])
    tap(phone, "to_station")
    tap(phone, "station_name", names[2])
    tap(phone, "search_button")
    assert _texts(phone, "search_error") == ["Departure and arrival stations are the same"]
    assert phone.current_route() == "/"
    tap(phone, "to_station")
    tap(phone, "station_name", names[0])
    tap(phone, "swap_stations")
    assert node(phone, "from_station").text == names[0] and node(phone, "to_station").text == names[2]
    tap(phone, "date_input")
    tap(phone, "date_picker_day", "20")
    tap(phone, "button1")
    tap(phone, "search_button")
    state = _state(phone)
    assert phone.current_route() == f"/results?from={state['stations'][0]['id']}&to={state['stations'][2]['id']}&date=2026-03-20"


def test_a_date_after_the_booking_window_is_refused() -> None:
    phone = _phone()
    tap(phone, "from_station")
    tap(phone, "station_option", index=0)
    tap(phone, "to_station")
    tap(phone, "station_option", index=1)
    tap(phone, "date_input")
    tap(phone, "month_navigation_next")
    tap(phone, "date_picker_day", "10")                       # April 10: 25 days ahead
    tap(phone, "button1")
    tap(phone, "search_button")
    assert phone.current_route() == "/"
    assert _texts(phone, "search_error") == ["Tickets are on sale for the next 15 days only"]


def test_results_sort_by_departure_duration_and_price_and_filter() -> None:
    phone = _phone()
    trains = _results(phone)
    def shows(expected: list[str]) -> bool:  # the rows on screen start the expected order
        titles = [t.split()[0] for t in _texts(phone, "train_title")]
        return len(titles) >= min(3, len(expected)) and titles == expected[:len(titles)]

    assert shows([t["number"] for t in sorted(trains, key=lambda t: t["depart"])])
    tap(phone, "sort_fastest")
    assert shows([t["number"] for t in sorted(trains, key=lambda t: t["minutes"])])
    tap(phone, "sort_cheapest")
    assert shows([t["number"] for t in sorted(trains, key=lambda t: min(t["prices"].values()))])
    tap(phone, "filter_high_speed")
    fast = [t for t in trains if t["kind"] == "G"]
    assert shows([t["number"] for t in sorted(fast, key=lambda t: min(t["prices"].values()))])
    assert _texts(phone, "result_count") == [f"{len(fast)} trains" if len(fast) != 1 else "1 train"]
    tap(phone, "next_day")
    assert phone.current_route().endswith("date=2026-03-19")
    assert _texts(phone, "results_date") == ["Thu, Mar 19"]


def test_previous_day_stops_at_today() -> None:
    phone = _phone()
    _results(phone, "2026-03-16")
    tap(phone, "previous_day")
    assert phone.current_route().endswith("date=2026-03-16")  # no tickets for yesterday


def test_timetable_prices_times_and_numbers_are_distinct_and_business_is_g_only() -> None:
    for seed in range(30):
        phone_state = {"seed": seed, "orders": [], "stations": [
            {"id": "a", "lat": 39.87, "lon": 116.38}, {"id": "b", "lat": 22.99, "lon": 113.27}, {"id": "c", "lat": 31.2, "lon": 121.3}]}
        for a, b in (("a", "b"), ("c", "a"), ("b", "c")):
            trains = timetable.trains_on(phone_state, a, b, DAY)
            assert timetable.MIN_TRAINS <= len(trains) <= timetable.MAX_TRAINS
            for key in ("depart", "minutes", "number"):
                assert len({t[key] for t in trains}) == len(trains)
            for seat_class in timetable.CLASSES:
                fares = [t["prices"][seat_class] for t in trains if seat_class in t["prices"]]
                assert len(set(fares)) == len(fares)
            assert all(t["kind"] == "G" for t in trains if "business" in t["prices"])
            assert all("06:00" <= t["depart"] < t["arrive"] <= "23:50" for t in trains)
            assert trains == timetable.trains_on(phone_state, a, b, DAY)   # deterministic
    with pytest.raises(ValueError, match="itself"):
        timetable.trains_on(phone_state, "a", "a", DAY)
    with pytest.raises(KeyError, match="no station"):
        timetable.trains_on(phone_state, "a", "nowhere", DAY)


def test_booking_needs_a_passenger() -> None:
    phone = _phone()
    _open_booking(phone)
    tap(phone, "submit_order")
    assert _texts(phone, "booking_error") == ["Choose at least one passenger"]
    assert not _texts(phone, "confirm_amount")


def test_booking_pays_with_the_passcode_and_takes_the_seats() -> None:
    phone = _phone()
    before = _state(phone)
    train = _open_booking(phone)
    names = [p["name"] for p in before["passengers"][:2]]
    assert before["passengers"][0]["self"]
    for label in (f"{names[0]} (Me)", names[1]):              # the owner is marked as on the passenger list
        tap(phone, "passenger_check", label)
    price = train["prices"]["second"]
    assert _texts(phone, "booking_total") == [f"Total {fare(2 * price)}"]
    tap(phone, "submit_order")
    tap(phone, "button2")                                     # cancel at the confirmation: nothing booked
    assert _state(phone)["orders"] == before["orders"]
    tap(phone, "submit_order")
    tap(phone, "button1")
    _pin(phone, "000000" if PASSCODE != "000000" else "111111")
    assert _texts(phone, "pin_error") == ["Wrong passcode. Try again."]
    assert _state(phone)["orders"] == before["orders"]
    _pin(phone, PASSCODE)
    after = _state(phone)
    assert len(after["orders"]) == len(before["orders"]) + 1
    order = after["orders"][-1]
    assert (order["train"], order["date"], order["seat_class"], order["status"]) == (train["number"], DAY, "second", "paid")
    assert [p["name"] for p in order["passengers"]] == names and order["total"] == 2 * price
    assert phone.current_route().startswith(f"/order?id={order['id']}")
    assert _texts(phone, "success_title") == ["Payment successful"]
    a, b = _route(phone)
    left = next(t for t in timetable.trains_on(after, a, b, DAY) if t["number"] == train["number"])["left"]["second"]
    assert left == (PLENTY if train["left"]["second"] == PLENTY else max(0, train["left"]["second"] - 2))


def test_cancelling_asks_first_and_refunds_the_fare_minus_the_fee() -> None:
    phone = _phone()
    state = _state(phone)
    order = next(o for o in state["orders"] if o["status"] == "paid")
    phone.launch("trains", f"/order?id={order['id']}")
    tap(phone, "cancel_order")
    tap(phone, "button2")                                     # keep the trip
    assert _state(phone)["orders"] == state["orders"]
    tap(phone, "cancel_order")
    fee = refund_fee(order["total"], dt.datetime.fromisoformat(f"{order['date']}T{order['depart']}"),
                     dt.datetime(2026, 3, 16, 9, 0))
    tap(phone, "button1")
    done = next(o for o in _state(phone)["orders"] if o["id"] == order["id"])
    assert (done["status"], done["refund"]) == ("refunded", order["total"] - fee)
    assert _texts(phone, "order_status") == ["Refunded"] and not _texts(phone, "cancel_order")
    phone.launch("trains", "/orders")
    assert order["train"] not in " ".join(_texts(phone, "order_title"))


def test_refund_fee_grows_as_the_train_nears() -> None:
    now = dt.datetime(2026, 3, 16, 9, 0)
    assert [refund_fee(100.0, now + dt.timedelta(hours=h), now) for h in (200, 100, 30, 5)] == [0.0, 5.0, 10.0, 20.0]


def test_orders_split_into_upcoming_and_past() -> None:
    phone = _phone()
    phone.launch("trains", "/orders")
    state = _state(phone)
    paid = [o for o in state["orders"] if o["status"] == "paid"]
    assert _texts(phone, "orders_tab_0") == [f"Upcoming ({len(paid)})"]
    assert len(_texts(phone, "order_item") or _texts(phone, "order_title")) == len(paid)
    tap(phone, "orders_tab_1")
    assert len(_texts(phone, "order_title")) == len(state["orders"]) - len(paid)


@pytest.mark.parametrize("language, bad, good", [("en", "12-34", "K1234567"), ("zh", "11010119900101123",
                                                                               resident_id("110101", dt.date(1990, 1, 1), 123))])
def test_adding_a_passenger_checks_the_id_number(language: str, bad: str, good: str) -> None:
    phone = _phone(language)
    if language == "zh":  # the canonical world holds passports; a Chinese phone's passengers have resident IDs
        phone.set_state({"apps": {"trains": {"passengers[id=psg_1]": {"id_number": resident_id("310104", dt.date(1988, 5, 2), 7)}}}})
    before = _state(phone)["passengers"]
    phone.launch("trains", "/passengers")
    tap(phone, "add_passenger")
    tap(phone, "save_passenger")
    assert _texts(phone, "passenger_error") == [("Enter the passenger's name" if language == "en" else "请输入乘车人姓名")]
    tap(phone, "name_input")
    phone.type_text("Mia Park")
    tap(phone, "id_input")
    phone.type_text(bad)
    phone.key("back")
    tap(phone, "save_passenger")
    assert _texts(phone, "passenger_error") and _state(phone)["passengers"] == before
    tap(phone, "id_input")
    phone.type_text(before[0]["id_number"], clear=True)      # already saved: the owner's
    phone.key("back")
    tap(phone, "save_passenger")
    assert _texts(phone, "passenger_error") == [("This ID number is already saved" if language == "en" else "该证件号码已添加")]
    tap(phone, "id_input")
    phone.type_text(good.lower(), clear=True)
    phone.key("back")
    tap(phone, "save_passenger")
    after = _state(phone)["passengers"]
    assert after[:-1] == before and (after[-1]["name"], after[-1]["id_number"], after[-1]["self"]) == ("Mia Park", good, False)
    assert phone.current_route() == "/passengers" and "Mia Park" in _texts(phone, "passenger_name")


def test_removing_a_passenger_asks_first_and_the_owner_stays() -> None:
    phone = _phone()
    before = _state(phone)["passengers"]
    phone.launch("trains", "/passenger?id=psg_1")
    assert not _texts(phone, "remove_passenger")
    phone.launch("trains", "/passenger?id=psg_2")
    tap(phone, "remove_passenger")
    tap(phone, "button2")
    assert _state(phone)["passengers"] == before
    tap(phone, "remove_passenger")
    tap(phone, "button1")
    assert _state(phone)["passengers"] == [p for p in before if p["id"] != "psg_2"]


def test_resident_id_check_character() -> None:
    number = resident_id("110101", dt.date(1990, 1, 1), 123)
    assert valid_resident_id(number) and len(number) == 18
    wrong = number[:17] + ("0" if number[17] != "0" else "1")
    assert not valid_resident_id(wrong) and not valid_resident_id(number[:17])


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_worlds_hold_their_invariants_and_vary(language: str) -> None:
    seen = set()
    for seed in range(12):
        phone = _phone(language, seed)
        state = _state(phone)
        ids = [s["id"] for s in state["stations"]]
        assert len(set(ids)) == len(ids) and 12 <= len(ids) <= 16
        people = state["passengers"]
        assert sum(p["self"] for p in people) == 1 and len({p["name"] for p in people}) == len(people)
        assert len({p["id_number"] for p in people}) == len(people)
        if language == "zh":
            assert all(valid_resident_id(p["id_number"]) for p in people)
        assert len({o["date"] for o in state["orders"]}) == len(state["orders"])
        for order in state["orders"]:
            trains = timetable.trains_on(state, order["from"], order["to"], order["date"])
            train = next(t for t in trains if t["number"] == order["train"])
            assert (train["depart"], train["arrive"], train["prices"][order["seat_class"]]) == \
                (order["depart"], order["arrive"], order["price"])
            assert {p["name"] for p in order["passengers"]} <= {p["name"] for p in people}
        seen.add((tuple(ids), len(state["orders"])))
    assert len(seen) > 8
