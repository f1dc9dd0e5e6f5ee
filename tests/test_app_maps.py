"""The Maps app: every screen renders cleanly in both languages; search filters by text, category and opening
hours at the phone's time; the place page saves to lists and shares to Messages; directions by mode are
consistent, swap and pick their ends; removing a saved place or a label needs its confirm dialog; Home and Work
are set by searching."""
from __future__ import annotations

import datetime as dt

import pytest

from mobilegym.envs.l10n import counted
from mobilegym.envs.maps import geo
from mobilegym.screen_text import parse_nodes
from mobilegym.sim.app import load_app
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone
from mobilegym.sim.worldgen import World

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("maps", "messages", "settings")
KYOTO = "pl_4"  # Kyoto Garden, 164 Elm Street: a restaurant opening at 12:00 (canonical world, Monday 09:00)
NOW = dt.datetime(2026, 3, 16, 9, 0)


def _phone(language: str = "en", seed: int | None = None) -> Phone:
    phone = SimDevice(apps=APPS, language=language, world="canonical" if seed is None else "generated")
    if seed is not None:
        phone.reset_state(seed)
    phone.open_app("maps")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["maps"]


def _nodes(phone: Phone, rid: str) -> list:
    return [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _type(phone: Phone, rid: str, text: str) -> None:
    tap(phone, rid)
    phone.type_text(text, clear=True)
    phone.key("back")                                         # hide the keyboard


def _open(phone: Phone, route: str) -> None:
    phone.launch("maps", route)


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    assert_screen_ok(phone)                                   # home
    tap(phone, "search_bar")
    assert_screen_ok(phone)
    tap(phone, "filter_category")
    assert_screen_ok(phone)                                   # the category dialog
    phone.key("back")
    _type(phone, "search_input", "no such place anywhere")
    assert_screen_ok(phone)                                   # no results
    _open(phone, f"/place?id={KYOTO}")
    assert_screen_ok(phone)
    for button in ("save", "share"):
        tap(phone, button)
        assert_screen_ok(phone)                               # a dialog
        phone.key("back")
    tap(phone, "directions")
    assert_screen_ok(phone)                                   # routes
    tap(phone, "route_from")
    _type(phone, "route_search_input", "Station")
    assert_screen_ok(phone)                                   # choosing the start
    for route in ("/directions", "/label?which=home", "/label?which=work", "/saved"):
        _open(phone, route)
        assert_screen_ok(phone)
    for tab in range(3):
        tap(phone, f"tab_{tab}")
        assert_screen_ok(phone)
    tap(phone, "remove_saved")
    assert_screen_ok(phone)                                   # remove confirmation


def test_a_chinese_world_is_chinese_throughout() -> None:
    phone = _phone("zh", seed=3)
    state = _state(phone)
    assert state["city"] == "江城" and all(p["address"].endswith("号") for p in state["places"])
    assert node(phone, "search_bar").desc == "搜索地点"
    _open(phone, f"/directions?to={state['places'][0]['id']}")
    assert node(phone, "route_from_text").text == "我的位置"
    assert node(phone, "route_duration").text.endswith("分钟")


def test_search_matches_name_address_and_category_nearest_first() -> None:
    phone = _phone()
    state = _state(phone)
    tap(phone, "search_bar")
    _type(phone, "search_input", "pharmac")
    pharmacies = sorted((p for p in state["places"] if p["category"] == "pharmacy"),
                        key=lambda p: geo.distance_km(state["location"], p))
    assert node(phone, "result_count").text == counted(len(pharmacies), "place")
    assert [n.text for n in _nodes(phone, "place_name")][:3] == [p["name"] for p in pharmacies[:3]]
    _type(phone, "search_input", "164 elm")
    assert [n.text for n in _nodes(phone, "place_name")] == ["Kyoto Garden"]


def test_open_now_filter_follows_the_phones_clock() -> None:
    phone = _phone()
    state = _state(phone)
    restaurants = [p for p in state["places"] if p["category"] == "restaurant"]
    _open(phone, "/search?category=restaurant")
    assert node(phone, "result_count").text == counted(len(restaurants), "place")
    tap(phone, "filter_open")                                 # Monday 09:00: no restaurant is open
    assert node(phone, "result_count").text == "0 places"
    phone.set_state({"os": {"time_ms": phone.get_state()["os"]["time_ms"] + 4 * 3600 * 1000}})  # 13:00
    _open(phone, "/search?category=restaurant")
    tap(phone, "filter_open")
    open_now = [p for p in restaurants if geo.is_open(p, NOW.replace(hour=13))]
    assert 0 < len(open_now) < len(restaurants)              # the Golden Wok etc. close on Mondays
    assert node(phone, "result_count").text == counted(len(open_now), "place")


def test_opening_a_result_remembers_it_as_recent() -> None:
    phone = _phone()
    tap(phone, "search_bar")
    _type(phone, "search_input", "Kyoto")
    tap(phone, "place_name", "Kyoto Garden")
    assert phone.current_route().startswith("/place")
    assert _state(phone)["recent"][0] == KYOTO
    assert "Closed · Opens 12:00" in [n.text for n in parse_nodes(phone.a11y_xml())]


def test_save_dialog_adds_and_removes_a_place_from_lists() -> None:
    phone = _phone()
    _open(phone, f"/place?id={KYOTO}")
    assert node(phone, "save").text == "Save"
    tap(phone, "save")
    tap(phone, "list_option", "Want to go")
    tap(phone, "button1")
    assert [(e["place_id"], e["list"]) for e in _state(phone)["saved"]][0] == (KYOTO, "want_to_go")
    assert node(phone, "save").text == "Saved"
    tap(phone, "save")
    tap(phone, "list_option", "Want to go")                  # untick
    tap(phone, "button1")
    assert all(e["place_id"] != KYOTO for e in _state(phone)["saved"])


def test_share_opens_a_message_with_the_address() -> None:
    phone = _phone()
    _open(phone, f"/place?id={KYOTO}")
    tap(phone, "share")
    tap(phone, "share_messages")
    assert phone.get_state()["os"]["foreground"] == "messages"
    assert "Kyoto Garden, 164 Elm Street" in [n.text for n in parse_nodes(phone.a11y_xml())]


def test_routes_are_consistent_across_modes_and_swap() -> None:
    phone = _phone()
    state = _state(phone)
    for place in state["places"]:
        trip = geo.route(state, geo.HERE, place["id"])["minutes"]
        assert trip["walk"] > trip["bike"] and trip["walk"] > trip["drive"]
    _open(phone, f"/directions?to={KYOTO}")
    trip = geo.route(state, geo.HERE, KYOTO)
    assert node(phone, "route_duration").text == geo.duration_text("en", trip["minutes"]["drive"])
    assert node(phone, "route_distance").text == f"{trip['km']:.1f} km"
    tap(phone, "mode_walk")
    assert node(phone, "route_duration").text == geo.duration_text("en", trip["minutes"]["walk"])
    assert node(phone, "route_arrival").text == \
        f"Arrive at {(NOW + dt.timedelta(minutes=trip['minutes']['walk'])).strftime('%H:%M')}"
    tap(phone, "swap")
    assert node(phone, "route_from_text").text == "Kyoto Garden" and node(phone, "route_to_text").text == "Your location"
    tap(phone, "route_to")
    _type(phone, "route_search_input", "Central Station")
    tap(phone, "suggestion_item")
    station = next(p["id"] for p in state["places"] if p["name"] == "Central Station")
    assert node(phone, "route_to_text").text == "Central Station"
    assert node(phone, "route_distance").text == f"{geo.route(state, KYOTO, station)['km']:.1f} km"
    tap(phone, "route_from")                                  # the chooser opens with its search box focused
    phone.key("back")                                         # back hides the keyboard,
    phone.key("back")                                         # then ends choosing: the route stays
    assert phone.current_route().startswith("/directions") and node(phone, "route_from_text").text == "Kyoto Garden"


def test_removing_a_saved_place_asks_first() -> None:
    phone = _phone()
    favourites = [e["place_id"] for e in _state(phone)["saved"] if e["list"] == "favourites"]
    _open(phone, "/saved")
    assert node(phone, "saved_count").text == counted(len(favourites), "place")
    tap(phone, "remove_saved")
    tap(phone, "button2")                                     # cancel keeps it
    assert [e["place_id"] for e in _state(phone)["saved"] if e["list"] == "favourites"] == favourites
    tap(phone, "remove_saved")
    tap(phone, "button1")
    assert [e["place_id"] for e in _state(phone)["saved"] if e["list"] == "favourites"] == favourites[1:]
    assert len([e for e in _state(phone)["saved"] if e["list"] == "want_to_go"]) == 5   # the other list untouched


def test_labels_are_set_by_search_and_removed_after_confirm() -> None:
    phone = _phone()
    tap(phone, "edit_work")
    _type(phone, "label_search_input", "Summit")
    tap(phone, "label_result")
    assert _state(phone)["work"] == "pl_40"
    assert "Summit Plaza" not in node(phone, "label_work").desc and "217 Cedar Street" in node(phone, "label_work").desc
    _open(phone, "/saved")
    tap(phone, "tab_2")
    tap(phone, "remove_saved", index=1)                       # Work
    tap(phone, "button1")
    assert _state(phone)["work"] is None and _state(phone)["home"] == "pl_46"


def test_unknown_ids_are_named() -> None:
    phone = _phone()
    with pytest.raises(Exception, match="pl_999"):
        _open(phone, "/place?id=pl_999")
    with pytest.raises(Exception, match="lab"):
        _open(phone, "/label?which=school")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_worlds_hold_their_invariants(language: str) -> None:
    for seed in range(12):
        state = World(seed, language, load_app).app_state("maps")
        places = state["places"]
        assert len({p["name"] for p in places}) == len(places) == len({p["address"] for p in places})
        assert all(geo.distance_km(state["location"], p) >= 0.5 for p in places)
        kinds = {p["id"]: p["category"] for p in places}
        assert state["home"] is None or kinds[state["home"]] == "residence"
        assert state["work"] is None or kinds[state["work"]] == "office"
        entries = [(e["place_id"], e["list"]) for e in state["saved"]]
        assert len(set(entries)) == len(entries) and all(pid in kinds for pid, _ in entries)
        assert len(set(state["recent"])) == len(state["recent"]) and all(pid in kinds for pid in state["recent"])
        assert all(geo.parse_hhmm(p["open"]) < geo.parse_hhmm(p["close"]) for p in places)


def test_worlds_differ_and_repeat() -> None:
    states = [World(seed, "en", load_app).app_state("maps") for seed in range(4)]
    assert len({tuple(p["name"] for p in s["places"]) for s in states}) == 4
    assert World(2, "en", load_app).app_state("maps") == states[2]
