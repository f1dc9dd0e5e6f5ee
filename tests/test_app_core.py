"""Every screen of Settings, Clock, AnswerSheet and the OS shell renders with text and nodes on screen."""
from __future__ import annotations

import pytest

from mobilegym.device.sim import SimDevice

from .apptools import assert_screen_ok
from .uitools import CORE_APPS, tap

SCREENS = [
    ("settings", "/"), ("settings", "/network"), ("settings", "/bluetooth"), ("settings", "/display"),
    ("settings", "/display/font_size"), ("settings", "/sound"), ("settings", "/about"),
    ("clock", "/alarms"), ("clock", "/alarm/edit"), ("clock", "/alarm/edit?id=alarm_4"), ("clock", "/timer"),
    ("clock", "/stopwatch"), ("answer_sheet", "/"),
]
LOOKS = [
    {"language": "en", "patch": {}},
    {"language": "zh", "patch": {}},
    {"language": "en", "patch": {"apps": {"settings": {"dark_mode": True, "font_size": "largest", "bluetooth": True}}}},
]
SHEET = {"apps": {"answer_sheet": {
    "question": "Which alarms ring on weekdays, and how many are on?", "hint": "Use 24-hour times",
    "fields": [{"type": "number", "label": "Alarms on"}, {"type": "choice", "label": "Any off?", "options": ["Yes", "No"]},
               {"type": "text", "label": "Times", "repeatable": True, "hint": "e.g. 06:30"}],
    "answers": {"2": ["06:30", "22:15"]}}}}


@pytest.mark.parametrize("look", LOOKS, ids=["en", "zh", "dark-largest"])
@pytest.mark.parametrize("app, route", SCREENS)
def test_screen_renders_on_screen(app: str, route: str, look: dict) -> None:
    phone = SimDevice(apps=CORE_APPS, language=look["language"], render_scale=0.5)
    phone.set_state(SHEET)
    if look["patch"]:
        phone.set_state(look["patch"])
    phone.launch(app, route)
    assert phone.current_route() == route
    assert_screen_ok(phone)


def test_dialogs_shell_and_running_clocks_render() -> None:
    phone = SimDevice(apps=CORE_APPS, render_scale=0.5)
    assert_screen_ok(phone)  # launcher
    phone.launch("settings", "/about")
    tap(phone, rid="device_name")
    assert_screen_ok(phone)  # rename dialog
    phone.launch("clock", "/alarms")
    phone.long_press(540, 400)
    assert_screen_ok(phone)  # delete dialog
    phone.key("back")
    tap(phone, rid="tab_1")
    tap(phone, rid="start")
    phone.wait(30)
    assert_screen_ok(phone)  # running timer
    tap(phone, rid="tab_2")
    tap(phone, rid="start")
    tap(phone, rid="lap")
    assert_screen_ok(phone)  # stopwatch with a lap
    phone.key("recent")
    assert_screen_ok(phone)  # recents


def test_unknown_route_is_a_clear_error() -> None:
    phone = SimDevice(apps=CORE_APPS)
    before = phone.get_state()
    with pytest.raises(ValueError, match="has no screen '/nowhere'"):
        phone.launch("clock", "/nowhere")
    assert phone.get_state() == before
