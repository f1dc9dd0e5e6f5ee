"""The Calendar app: every screen renders cleanly, and events can be browsed, created, edited and deleted."""
from __future__ import annotations

import pytest

from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("calendar", "settings")


def _phone(language: str = "en") -> Phone:
    phone = SimDevice(apps=APPS, language=language)
    phone.open_app("calendar")
    return phone


def _events(phone: Phone) -> list[dict]:
    return phone.get_state()["apps"]["calendar"]["events"]


def _type(phone: Phone, rid: str, text: str) -> None:
    tap(phone, rid)
    phone.type_text(text, clear=True)


def _keyboard_time(phone: Phone, rid: str, hour: str, minute: str) -> None:
    """Set a time field in the time picker's keyboard-entry mode."""
    tap(phone, rid)
    tap(phone, "toggle_mode")
    _type(phone, "input_hour", hour)
    _type(phone, "input_minute", minute)
    tap(phone, "button1")


def _cell(phone: Phone, label: str) -> None:
    """Tap the month grid's cell whose description contains ``label`` ("March 19, 2026")."""
    cell = next(n for n in parse_nodes(phone.a11y_xml()) if n.short_id == "day_cell" and label in n.desc)
    phone.tap(*cell.center)


LOOKS = [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})]


@pytest.mark.parametrize("language, look", LOOKS)
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    assert_screen_ok(phone)                                   # month grid
    tap(phone, "next_month")
    assert_screen_ok(phone)
    tap(phone, "prev_month")
    tap(phone, "prev_month")
    assert_screen_ok(phone)
    tap(phone, "today")
    tap(phone, "tab_1")
    assert_screen_ok(phone)                                   # schedule
    tap(phone, "tab_0")
    cell = next(n for n in parse_nodes(phone.a11y_xml()) if n.short_id == "day_cell" and n.selected)
    phone.tap(*cell.center)
    assert_screen_ok(phone)                                   # day agenda
    tap(phone, "event_title_text")
    assert_screen_ok(phone)                                   # event detail
    tap(phone, "delete_event")
    assert_screen_ok(phone)                                   # delete confirmation
    tap(phone, "button2")
    tap(phone, "edit_event")
    assert_screen_ok(phone)                                   # editor
    tap(phone, "all_day_row")
    assert_screen_ok(phone)
    phone.key("back")
    phone.key("back")
    tap(phone, "next_day")
    tap(phone, "next_day")
    tap(phone, "next_day")
    tap(phone, "next_day")
    tap(phone, "next_day")
    assert_screen_ok(phone)                                   # Saturday, with an all-day event
    tap(phone, "add_event")
    assert_screen_ok(phone)                                   # new-event form
    phone.key("back")
    phone.key("back")
    tap(phone, "search")
    _type(phone, "search_input", "dent")
    assert_screen_ok(phone)                                   # search results
    phone.nav.push("calendar", "/event", {"id": "evt_gone"})
    assert_screen_ok(phone)                                   # a deleted event's page


def test_month_grid_marks_days_and_pages_months() -> None:
    phone = _phone()
    assert node(phone, "month_title").text == "March 2026"
    today = next(n for n in parse_nodes(phone.a11y_xml()) if n.short_id == "day_cell" and n.selected)
    assert today.desc == "Monday, March 16, 2026, 3 events"
    tap(phone, "next_month")
    assert node(phone, "month_title").text == "April 2026"
    tap(phone, "today")
    assert node(phone, "month_title").text == "March 2026"


def test_day_view_lists_events_in_time_order_and_steps_days() -> None:
    phone = _phone()
    _cell(phone, "March 21, 2026")
    assert [n.text for n in parse_nodes(phone.a11y_xml()) if n.short_id == "event_title_text"] == \
        ["Mom's birthday", "Farmers market"]
    tap(phone, "next_day")
    assert phone.current_route() == "/day?date=2026-03-22"
    tap(phone, "next_day")
    assert node(phone, "empty").text == "No events"


def test_create_event_through_the_form() -> None:
    phone = _phone()
    _cell(phone, "March 18, 2026")
    tap(phone, "add_event")
    assert node(phone, "date_input").text == "Wed, Mar 18, 2026"
    _type(phone, "title_input", "Piano lesson")
    _keyboard_time(phone, "start_input", "9", "30")
    _keyboard_time(phone, "end_input", "10", "15")
    _type(phone, "location_input", "Music school")
    phone.key("back")  # the keyboard covers the calendar chips: back hides it
    assert phone.current_route().startswith("/event/edit")
    tap(phone, "calendar_family")
    tap(phone, "reminder_60")
    tap(phone, "save_event")
    new = next(e for e in _events(phone) if e["title"] == "Piano lesson")
    assert new == {"id": new["id"], "title": "Piano lesson", "date": "2026-03-18", "all_day": False, "start": "09:30",
                   "end": "10:15", "location": "Music school", "notes": "", "calendar": "Family", "reminder": 60}
    assert phone.current_route() == "/day?date=2026-03-18"
    assert "Piano lesson" in [n.text for n in parse_nodes(phone.a11y_xml())]


@pytest.mark.parametrize("field, value, toast", [("title_input", "", "Add a title"),
                                                 ("end_input", "08:00", "The end time must be after the start time")])
def test_invalid_forms_are_rejected_with_a_message(field: str, value: str, toast: str) -> None:
    phone = _phone()
    tap(phone, "add_event")
    _type(phone, "title_input", "Budget review")
    if field == "end_input":
        _keyboard_time(phone, field, *value.split(":"))
    else:
        _type(phone, field, value)
    before = _events(phone)
    tap(phone, "save_event")
    assert _events(phone) == before
    assert node(phone, "toast").text == toast
    assert phone.current_route() == "/event/edit"


def test_all_day_event_has_no_times() -> None:
    phone = _phone()
    tap(phone, "add_event")
    _type(phone, "title_input", "Holiday")
    tap(phone, "all_day_row")
    assert not [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == "start_input"]
    tap(phone, "save_event")
    new = next(e for e in _events(phone) if e["title"] == "Holiday")
    assert (new["all_day"], new["start"], new["end"]) == (True, None, None)


def test_edit_and_delete_with_confirmation() -> None:
    phone = _phone()
    tap(phone, "search")
    _type(phone, "search_input", "yoga")
    assert node(phone, "result_count").text == "1 result"
    tap(phone, "event_title_text", "Yoga class")
    tap(phone, "edit_event")
    tap(phone, "date_input")
    tap(phone, "date_picker_day", "17")
    tap(phone, "button1")
    tap(phone, "save_event")
    assert node(phone, "event_date").text == "Tuesday, March 17, 2026"
    tap(phone, "delete_event")
    tap(phone, "button2")
    assert any(e["title"] == "Yoga class" for e in _events(phone))
    tap(phone, "delete_event")
    tap(phone, "button1")
    assert not any(e["title"] == "Yoga class" for e in _events(phone))
    assert phone.current_route() == "/search"


# --- generated worlds ---------------------------------------------------------------------------------

def _world_events(seed: int, language: str) -> tuple[object, list[dict]]:
    from mobilegym.sim.app import load_app
    from mobilegym.sim.worldgen import World

    world = World(seed, language, load_app)
    return world, world.app_state("calendar")["events"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_calendars_keep_the_invariants_tasks_rely_on(language: str) -> None:
    import datetime as dt
    import re

    for seed in range(20):
        world, events = _world_events(seed, language)
        today = world.today
        ids = [e["id"] for e in events]
        assert len(set(ids)) == len(ids) and all(re.fullmatch(r"evt_\d{1,2}", i) for i in ids), ids
        by_day: dict[str, list[tuple[str, str]]] = {}
        for e in events:
            dt.date.fromisoformat(e["date"])
            assert e["calendar"] in ("Work", "Personal", "Family")
            if e["all_day"]:
                assert e["start"] is None and e["end"] is None
            else:
                assert re.fullmatch(r"\d\d:\d\d", e["start"]) and e["start"] < e["end"], e
                by_day.setdefault(e["date"], []).append((e["start"], e["end"]))
        for spans in by_day.values():  # no two timed events of a day overlap
            spans.sort()
            assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans
        iso = today.isoformat()
        tomorrow = (today + dt.timedelta(days=1)).isoformat()
        assert any(e["date"] == iso and e["start"] and "17:15" <= e["start"] <= "21:00" for e in events)
        assert sum(1 for e in events if e["date"] == iso and not e["all_day"]) >= 2
        assert any(e["date"] == tomorrow and not e["all_day"] for e in events)
        assert any(e["date"] >= iso and re.search(r"\b[A-Z]{2} \d{3,4}\b", e["notes"]) for e in events)
        for weeks in (0, 1):  # this week's and next week's weekends have events
            saturday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(weeks=weeks, days=5)
            assert any(e["date"] in (saturday.isoformat(), (saturday + dt.timedelta(days=1)).isoformat())
                       for e in events)


def test_generated_calendars_vary_and_follow_the_language() -> None:
    import datetime as dt

    sizes = set()
    for seed in range(10):
        world, events = _world_events(seed, "en")
        fortnight = (world.today.isoformat(), (world.today + dt.timedelta(days=13)).isoformat())
        sizes.add(sum(1 for e in events if fortnight[0] <= e["date"] <= fortnight[1]))
    assert len(sizes) >= 5
    _, zh = _world_events(3, "zh")
    assert sum(any("\u4e00" <= ch <= "\u9fff" for ch in e["title"]) for e in zh) >= len(zh) * 0.8


@pytest.mark.parametrize("language, seed", [("en", 1), ("zh", 2), ("en", 5)])
def test_generated_world_screens_render_inside_the_screen(language: str, seed: int) -> None:
    phone = SimDevice(apps=APPS, language=language)
    phone.reset_state(seed)
    phone.open_app("calendar")
    assert_screen_ok(phone)
    tap(phone, "tab_1")
    assert_screen_ok(phone)
    tap(phone, "event_title_text")
    assert_screen_ok(phone)
    phone.key("back")
    tap(phone, "tab_0")
    cell = next(n for n in parse_nodes(phone.a11y_xml()) if n.short_id == "day_cell" and n.selected)
    phone.tap(*cell.center)
    assert_screen_ok(phone)


def test_preparers_make_the_json_tasks_preconditions() -> None:
    import random

    from mobilegym.sim.app import Prep, load_app
    from mobilegym.sim.clock import from_ms

    phone = SimDevice(apps=APPS)
    phone.reset_state(4)
    doc = phone.get_state()
    app = load_app("calendar")
    today = from_ms(doc["os"]["time_ms"]).date()
    patch = app.preparers["yoga_today"](Prep(doc, random.Random(1), "en"))
    events = patch["apps"]["calendar"]["events"]
    yoga = [e for e in events if e["title"] == "Yoga class"]
    assert len(yoga) == 3 and len({e["location"] for e in yoga}) == 3
    mine = next(e for e in yoga if e["id"] == "evt_yoga")
    assert mine["date"] == today.isoformat()
    locations = {app.preparers["yoga_today"](Prep(doc, random.Random(s), "en"))["apps"]["calendar"]["events"][-2]
                 ["location"] for s in range(10)}
    assert len(locations) >= 5
    patch = app.preparers["event"](Prep(doc, random.Random(2), "en"), title="Book club", place="libraries")
    assert [e["id"] for e in patch["apps"]["calendar"]["events"] if e["title"] == "Book club"] == ["evt_prep"]
