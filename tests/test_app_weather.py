"""The Weather app: every screen renders cleanly; cities can be searched, previewed, added and removed;
units convert; forecast dates and hours follow the simulated clock; generated worlds hang together and
vary. Tests that read fixed text use the canonical world."""
from __future__ import annotations

import datetime as dt
import random

import pytest

from mobilegym.envs.weather.world import DAYS, RAINY, city_pool
from mobilegym.screen_text import parse_nodes
from mobilegym.sim.app import Prep, load_app
from mobilegym.sim.clock import from_ms
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone
from mobilegym.sim.worldgen import World

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("weather", "settings")


def _phone(language: str = "en", seed: int | None = None) -> Phone:
    phone = SimDevice(apps=APPS, language=language, world="canonical" if seed is None else "generated")
    if seed is not None:
        phone.reset_state(seed)
    phone.open_app("weather")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["weather"]


def _texts(phone: Phone, rid: str) -> list[str]:
    return [n.text for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _descs(phone: Phone, rid: str) -> list[str]:
    return [n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _search(phone: Phone, query: str) -> None:
    tap(phone, "add_city")
    tap(phone, "search_input")
    phone.type_text(query, clear=True)


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    assert_screen_ok(phone)                                   # city list
    phone.long_press(*node(phone, "city_item").center)
    assert_screen_ok(phone)                                   # remove dialog (list)
    tap(phone, "button2")
    tap(phone, "city_item", index=1)
    assert_screen_ok(phone)                                   # saved city detail
    tap(phone, "remove_city")
    assert_screen_ok(phone)                                   # remove dialog (detail)
    tap(phone, "button2")
    phone.swipe(540, 1800, 540, 600, 400)
    assert_screen_ok(phone)                                   # detail, scrolled to the forecast
    tap(phone, "hourly_entry")
    assert_screen_ok(phone)                                   # hourly forecast
    phone.key("back")
    phone.key("back")
    tap(phone, "add_city")
    assert_screen_ok(phone)                                   # all cities
    tap(phone, "search_input")
    phone.type_text("rio de janeiro, brazil and beyond")
    assert_screen_ok(phone)                                   # no results
    phone.type_text("san", clear=True)
    assert_screen_ok(phone)                                   # results
    tap(phone, "search_result")
    assert_screen_ok(phone)                                   # unsaved city preview
    phone.key("back")
    phone.key("back")
    tap(phone, "settings")
    assert_screen_ok(phone)                                   # settings
    phone.key("back")
    phone.set_state({"apps": {"weather": {"saved": [], "unit": "F", "wind_unit": "m/s"}}})
    assert_screen_ok(phone)                                   # no cities


def test_list_shows_saved_cities_in_order_with_current_weather() -> None:
    phone = _phone()
    assert _descs(phone, "city_item")[:4] == ["Beijing", "Shanghai", "London", "New York"]
    assert _texts(phone, "city_temp")[:2] == ["6°", "12°"]
    assert _texts(phone, "city_condition")[:2] == ["Sunny", "Cloudy"]


def test_add_a_city_through_search_and_preview() -> None:
    phone = _phone()
    _search(phone, "tok")
    assert _texts(phone, "result_name") == ["Tokyo"]
    tap(phone, "search_result")
    assert phone.current_route() == "/city?id=tokyo"
    assert _texts(phone, "current_temp") == ["10°"] and node(phone, "humidity").text == "55%"
    assert "tokyo" not in _state(phone)["saved"]
    tap(phone, "add_this_city")
    assert phone.current_route() == "/"
    assert _state(phone)["saved"][-1] == "tokyo"
    _search(phone, "Tokyo")
    assert _texts(phone, "result_status") == ["Added"]


def test_search_matches_chinese_names_and_countries() -> None:
    phone = _phone()
    _search(phone, "首尔")
    assert _texts(phone, "result_name") == ["Seoul"]
    tap(phone, "search_input")
    phone.type_text("united states", clear=True)
    assert _texts(phone, "result_name") == ["New York", "San Francisco"]


def test_remove_asks_for_confirmation() -> None:
    phone = _phone()
    tap(phone, "city_item", index=2)
    tap(phone, "remove_city")
    tap(phone, "button2")
    assert "london" in _state(phone)["saved"]
    tap(phone, "remove_city")
    tap(phone, "button1")
    assert phone.current_route() == "/"
    assert _state(phone)["saved"] == ["beijing", "shanghai", "new_york", "sydney"]
    phone.long_press(*node(phone, "city_item").center)
    tap(phone, "button1")
    assert _state(phone)["saved"] == ["shanghai", "new_york", "sydney"]


def test_units_convert_temperatures_and_wind() -> None:
    phone = _phone()
    tap(phone, "settings")
    tap(phone, "unit_f")
    tap(phone, "wind_mph")
    phone.key("back")
    assert _texts(phone, "city_temp")[:2] == ["43°", "54°"]          # 6 °C, 12 °C
    tap(phone, "city_item")
    assert node(phone, "wind").text == "11 mph NW"                    # 18 km/h
    assert node(phone, "feels_like").text == "39°"                    # 4 °C
    phone.set_state({"apps": {"weather": {"wind_unit": "m/s"}}})
    assert node(phone, "wind").text == "5.0 m/s NW"


def test_forecast_dates_and_hours_follow_the_clock() -> None:
    phone = _phone()
    tap(phone, "city_item", index=1)
    phone.swipe(540, 1800, 540, 600, 400)
    assert _texts(phone, "forecast_day")[:3] == ["Today", "Tue, Mar 17", "Wed, Mar 18"]
    assert _descs(phone, "forecast_item")[1] == "Tue, Mar 17: Rain, high 13°, low 9°, 90% precipitation"
    tap(phone, "hourly_entry")
    assert _texts(phone, "hourly_time")[:2] == ["Now", "10:00"]
    phone.wait(5 * 3600)
    assert _texts(phone, "hourly_time")[:2] == ["Now", "15:00"]
    assert _descs(phone, "hourly_item")[:2] == ["Now, 16°, Cloudy · 10% precipitation",
                                                "15:00, 16°, Rain · 85% precipitation"]
    phone.key("back")
    phone.wait(24 * 3600)
    assert _texts(phone, "forecast_day")[:2] == ["Today", "Wed, Mar 18"]


def test_chinese_labels() -> None:
    phone = _phone("zh")
    assert _texts(phone, "city_name")[:2] == ["北京", "上海"]
    assert _texts(phone, "city_condition")[:2] == ["晴", "阴"]
    tap(phone, "city_item", index=1)
    phone.swipe(540, 1800, 540, 600, 400)
    assert _texts(phone, "forecast_day")[:2] == ["今天", "3月17日 周二"]


# --- generated worlds ------------------------------------------------------------------------------------

@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_weather_hangs_together(language: str) -> None:
    names = {c["id"]: (c["name"], c["name_zh"]) for c in city_pool()}
    for seed in range(40):
        world = World(seed, language, load_app)
        state = world.app_state("weather")
        ids = [c["id"] for c in state["cities"]]
        assert len(set(ids)) == len(ids) and set(state["saved"]) <= set(ids) and 3 <= len(state["saved"]) <= 7
        assert len(state["saved"]) == len(set(state["saved"]))
        for city in state["cities"]:
            assert (city["name"], city["name_zh"]) == names[city["id"]]
            days, hours, now = city["forecast"], city["hourly"], city["current"]
            assert [d["day"] for d in days] == list(range(DAYS))
            assert [h["hour"] for h in hours] == list(range(world.now.hour, 24))      # from the current hour
            assert (now["temp"], now["condition"]) == (hours[0]["temp"], hours[0]["condition"])
            assert days[0]["low"] <= min(h["temp"] for h in hours) <= max(h["temp"] for h in hours) <= days[0]["high"]
            assert all(d["low"] < d["high"] for d in days) and now["feels_like"] != now["temp"]
            if any(h["condition"] in RAINY for h in hours):
                assert days[0]["condition"] in RAINY
        saved = [c for c in state["cities"] if c["id"] in state["saved"]]
        assert any(c["current"]["condition"] not in RAINY and any(h["condition"] in RAINY for h in c["hourly"])
                   for c in saved), f"seed {seed}: no saved city where rain starts later today"
        assert any(0 < sum(d["condition"] in RAINY for d in c["forecast"]) < DAYS for c in saved)


def test_generated_weather_varies_with_the_seed() -> None:
    states = [World(seed, "en", load_app).app_state("weather") for seed in range(20)]
    assert len({tuple(s["saved"]) for s in states}) == 20
    assert len({len(s["saved"]) for s in states}) >= 4 and len({len(s["cities"]) for s in states}) >= 8
    assert {s["unit"] for s in states} == {"C", "F"} and len({s["wind_unit"] for s in states}) == 3
    london = [next((c["current"]["temp"] for c in s["cities"] if c["id"] == "london"), None) for s in states]
    assert len(set(london)) >= 5


def test_a_chinese_phone_saves_mostly_chinese_cities() -> None:
    chinese = {c["id"] for c in city_pool() if c["country"] == "China"}
    saved = [c for seed in range(20) for c in World(seed, "zh", load_app).app_state("weather")["saved"]]
    assert sum(c in chinese for c in saved) > len(saved) / 2


@pytest.mark.parametrize("language, seed", [("en", 1), ("zh", 2), ("en", 5)])
def test_generated_screens_render_inside_the_screen(language: str, seed: int) -> None:
    phone = _phone(language, seed)
    assert phone.world_seed == seed
    assert_screen_ok(phone)
    for index in range(len(_state(phone)["saved"])):
        tap(phone, "city_item", index=index)
        assert_screen_ok(phone)
        phone.swipe(540, 1800, 540, 600, 400)
        assert_screen_ok(phone)
        tap(phone, "hourly_entry")
        assert_screen_ok(phone)
        assert _texts(phone, "hourly_time")[0] == ("Now" if language == "en" else "现在")
        phone.key("back")
        phone.key("back")
    tap(phone, "add_city")
    assert_screen_ok(phone)                                   # the city search, its keyboard up
    phone.key("back")                                         # hides the keyboard
    phone.key("back")
    tap(phone, "settings")
    assert_screen_ok(phone)
    phone.open_app("settings")
    for entry, path in (("network_entry", "/network"), ("devices_entry", "/bluetooth"), ("display_entry", "/display"),
                        ("sound_entry", "/sound"), ("about_entry", "/about")):
        tap(phone, entry)
        phone.set_state({"apps": {"settings": {"wifi": True, "bluetooth": True}}})
        assert phone.current_route() == path
        assert_screen_ok(phone)
        phone.key("back")


def _prep(phone: Phone, seed: int = 0) -> Prep:
    return Prep(phone.get_state(), random.Random(seed), "en")


def test_preparers_make_their_preconditions_in_any_world() -> None:
    app = load_app("weather")
    for seed in range(6):
        phone = _phone(seed=seed)
        phone.set_state(app.preparers["unsaved_cities"](_prep(phone, seed), ids=["tokyo", "seoul"]))
        state = _state(phone)
        assert {"tokyo", "seoul"} <= {c["id"] for c in state["cities"]}
        assert not {"tokyo", "seoul"} & set(state["saved"])
        seoul = next(c for c in state["cities"] if c["id"] == "seoul")
        assert seoul["hourly"][0]["hour"] == from_ms(phone.time_ms()).hour
        phone.set_state(app.preparers["wind_in_ms"](_prep(phone, seed), city="london"))
        _search(phone, "London")
        tap(phone, "search_result")
        london = next(c for c in _state(phone)["cities"] if c["id"] == "london")["current"]
        assert node(phone, "wind").text.split()[0] == f"{london['wind_ms']:.1f}"
        phone.set_state(app.preparers["metric_units"](_prep(phone, seed)))
        assert _state(phone)["unit"] == "C" and _state(phone)["wind_unit"] in ("km/h", "m/s")


def test_generated_settings_about_the_owner_phone() -> None:
    models, used = set(), set()
    for seed in range(20):
        world = World(seed, "en" if seed % 2 else "zh", load_app)
        settings = world.app_state("settings")
        about = settings["about"]
        models.add(about["model"])
        used.add(about["storage_used_gb"])
        assert 0 < about["storage_used_gb"] < about["storage_total_gb"]
        assert world.owner.given in about["device_name"] and about["model"] not in about["device_name"]
        assert about["android_version"] in {"12", "13", "14", "15", "16"}
        assert settings["wifi_network"] in settings["saved_networks"]
        assert len(set(settings["saved_networks"])) == len(settings["saved_networks"])
        assert len({d["name"] for d in settings["paired_devices"]}) == len(settings["paired_devices"])
        built = dt.datetime.strptime(about["build_number"].split(".")[1], "%y%m%d").date()
        assert built <= world.today
    assert len(models) >= 12 and len(used) == 20
