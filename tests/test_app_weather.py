"""The Weather app: every screen renders cleanly; cities can be searched, previewed, added and removed;
units convert; forecast dates and hours follow the simulated clock."""
from __future__ import annotations

import pytest

from mobilegym.screen_text import parse_nodes
from mobilegym.sim.phone import Phone

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("weather", "settings")


def _phone(language: str = "en") -> Phone:
    phone = Phone(apps=APPS, language=language)
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
    tap(phone, "cancel")
    tap(phone, "city_item", index=1)
    assert_screen_ok(phone)                                   # saved city detail
    tap(phone, "remove_city")
    assert_screen_ok(phone)                                   # remove dialog (detail)
    tap(phone, "cancel")
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
    tap(phone, "cancel")
    assert "london" in _state(phone)["saved"]
    tap(phone, "remove_city")
    tap(phone, "confirm_remove")
    assert phone.current_route() == "/"
    assert _state(phone)["saved"] == ["beijing", "shanghai", "new_york", "sydney"]
    phone.long_press(*node(phone, "city_item").center)
    tap(phone, "confirm_remove")
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
