"""The Material date and time pickers: month paging, day selection, the clock dial in 12- and 24-hour mode,
keyboard and text entry with bad input refused, Android's resource-ids, Chinese labels, determinism, and
the Calendar, Clock and AnswerSheet fields that open them."""
from __future__ import annotations

import numpy as np
import pytest

from mobilegym.screen_text import Node, parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("calendar", "clock", "settings", "answer_sheet")


def _phone(language: str = "en", *, h24: bool = True) -> Phone:
    phone = SimDevice(apps=APPS, language=language, world="canonical")
    phone.set_state({"apps": {"settings": {"time_24h": h24}}})
    return phone


def _nodes(phone: Phone, rid: str) -> list[Node]:
    return [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _dial(phone: Phone, desc: str) -> None:
    """Tap the clock face's number or tick named ``desc``."""
    dial = node(phone, "radial_picker").bounds
    found = [n for n in parse_nodes(phone.a11y_xml())
             if n.desc == desc and dial[0] <= n.center[0] < dial[2] and dial[1] <= n.center[1] < dial[3]]
    assert found, f"no {desc!r} on the dial"
    phone.tap(*found[0].center)


def _type(phone: Phone, rid: str, text: str) -> None:
    tap(phone, rid)
    phone.type_text(text, clear=True)


def _event_editor(phone: Phone, date: str = "2026-12-30") -> None:
    phone.launch("calendar", f"/event/edit?date={date}")


def _picker_open(phone: Phone) -> bool:
    return bool(_nodes(phone, "button1"))


# --- date picker ---------------------------------------------------------------------------------------

def test_month_paging_crosses_year_ends() -> None:
    phone = _phone()
    _event_editor(phone)
    tap(phone, "date_input")
    assert node(phone, "month_navigation_fragment_toggle").text == "December 2026"
    tap(phone, "month_navigation_next")
    assert node(phone, "month_navigation_fragment_toggle").text == "January 2027"
    assert node(phone, "date_picker_day", "1").desc == "Friday, January 1, 2027"
    for _ in range(3):
        tap(phone, "month_navigation_previous")
    assert node(phone, "month_navigation_fragment_toggle").text == "October 2026"
    assert len(_nodes(phone, "date_picker_day")) == 31


def test_selecting_a_day_then_ok_sets_the_date_and_cancel_leaves_it() -> None:
    phone = _phone()
    _event_editor(phone)
    tap(phone, "date_input")
    tap(phone, "month_navigation_next")
    tap(phone, "date_picker_day", "5")
    assert node(phone, "date_picker_day", "5").selected
    assert node(phone, "date_picker_header_date").text == "Tue, Jan 5"
    tap(phone, "button2")                                     # Cancel
    assert not _picker_open(phone)
    assert node(phone, "date_input").text == "Wed, Dec 30, 2026"
    tap(phone, "date_input")                                  # reopens on the field's value, not the cancelled one
    assert node(phone, "month_navigation_fragment_toggle").text == "December 2026"
    tap(phone, "month_navigation_next")
    tap(phone, "date_picker_day", "5")
    tap(phone, "button1")                                     # OK
    assert node(phone, "date_input").text == "Tue, Jan 5, 2027"
    _type(phone, "title_input", "New year party")
    tap(phone, "save_event")
    event = next(e for e in phone.get_state()["apps"]["calendar"]["events"] if e["title"] == "New year party")
    assert event["date"] == "2027-01-05"


def test_back_and_tapping_outside_dismiss_the_picker_without_a_change() -> None:
    phone = _phone()
    _event_editor(phone)
    tap(phone, "date_input")
    tap(phone, "date_picker_day", "1")
    phone.key("back")
    assert not _picker_open(phone) and phone.current_route().startswith("/event/edit")
    assert node(phone, "date_input").text == "Wed, Dec 30, 2026"


def test_today_is_marked_and_described() -> None:
    phone = _phone()
    phone.launch("calendar", "/event/edit")
    tap(phone, "date_input")
    today = [n for n in _nodes(phone, "date_picker_day") if n.desc.startswith("Today, ")]
    assert [n.desc for n in today] == ["Today, Monday, March 16, 2026"]
    weekdays = [n.text for n in parse_nodes(phone.a11y_xml()) if n.desc in ("Sunday", "Monday", "Saturday")]
    assert weekdays == ["S", "M", "S"]                        # weeks start on Sunday


def test_date_text_mode_refuses_bad_dates_and_takes_good_ones() -> None:
    phone = _phone()
    _event_editor(phone)
    tap(phone, "date_input")
    tap(phone, "mtrl_picker_header_toggle")
    assert node(phone, "mtrl_picker_text_input_date").text == "12/30/2026"
    for bad in ("13/45/2026", "02/30/2026", "tomorrow"):
        _type(phone, "mtrl_picker_text_input_date", bad)
        assert node(phone, "textinput_error").text == "Invalid format."
        tap(phone, "button1")
        assert _picker_open(phone)                            # OK refused: the dialog stays
    _type(phone, "mtrl_picker_text_input_date", "04/02/2031")
    assert not _nodes(phone, "textinput_error")
    assert node(phone, "date_picker_header_date").text == "Wed, Apr 2"
    tap(phone, "button1")
    assert node(phone, "date_input").text == "Wed, Apr 2, 2031"


# --- time picker ---------------------------------------------------------------------------------------

def test_time_dial_24_hour() -> None:
    phone = _phone()
    phone.launch("clock", "/alarm/edit")
    tap(phone, "alarm_time_input")
    assert not _nodes(phone, "am_label") and not _nodes(phone, "pm_label")
    hours = [n.desc for n in parse_nodes(phone.a11y_xml()) if n.desc.isdigit()]
    assert hours == ["00", *map(str, range(1, 12)), "12", *map(str, range(13, 24))]
    _dial(phone, "19")
    assert node(phone, "hours").text == "19" and node(phone, "minutes").selected  # on to the minutes
    _dial(phone, "37 minutes")                                # a minute between the labels
    assert node(phone, "minutes").text == "37"
    tap(phone, "button1")
    assert node(phone, "alarm_time_input").text == "19:37"
    _type(phone, "label_input", "Evening")
    tap(phone, "save_alarm")
    alarm = next(a for a in phone.get_state()["apps"]["clock"]["alarms"] if a["label"] == "Evening")
    assert (alarm["hour"], alarm["minute"], alarm["time"]) == (19, 37, "19:37")


def test_time_dial_12_hour_with_am_pm() -> None:
    phone = _phone(h24=False)
    phone.launch("clock", "/alarm/edit")
    assert node(phone, "alarm_time_input").text == "8:00 AM"
    tap(phone, "alarm_time_input")
    assert node(phone, "am_label").checked and not node(phone, "pm_label").checked
    hours = [n.desc for n in parse_nodes(phone.a11y_xml()) if n.desc.isdigit()]
    assert hours == list(map(str, range(1, 13)))
    tap(phone, "pm_label")
    assert node(phone, "pm_label").checked and node(phone, "hours").text == "8"
    _dial(phone, "12")                                        # 12 PM is noon
    _dial(phone, "5 minutes")
    tap(phone, "button1")
    assert node(phone, "alarm_time_input").text == "12:05 PM"
    tap(phone, "alarm_time_input")
    tap(phone, "am_label")                                    # 12 AM is midnight
    tap(phone, "button1")
    assert node(phone, "alarm_time_input").text == "12:05 AM"
    tap(phone, "save_alarm")
    assert {(a["hour"], a["minute"]) for a in phone.get_state()["apps"]["clock"]["alarms"]} >= {(0, 5)}


@pytest.mark.parametrize("h24, hour, minute, error", [
    (True, "24", "00", True), (True, "7", "60", True), (True, "", "30", True), (True, "7", "", True),
    (True, "-1", "05", True), (True, "1.5", "05", True), (True, "23", "59", False), (True, "0", "0", False),
    (False, "13", "00", True), (False, "0", "15", True), (False, "12", "15", False), (False, "9", "05", False)])
def test_keyboard_entry_refuses_invalid_times(h24: bool, hour: str, minute: str, error: bool) -> None:
    phone = _phone(h24=h24)
    phone.launch("clock", "/alarm/edit")
    tap(phone, "alarm_time_input")
    tap(phone, "toggle_mode")
    assert node(phone, "toggle_mode").desc == "Switch to clock mode for the time input."
    assert node(phone, "input_hour").text == ("08" if h24 else "8") and node(phone, "input_minute").text == "00"
    _type(phone, "input_hour", hour)
    _type(phone, "input_minute", minute)
    assert bool(_nodes(phone, "label_error")) == error
    tap(phone, "button1")
    assert _picker_open(phone) == error
    if not error:
        shown = f"{int(hour):02d}:{int(minute):02d}" if h24 else f"{hour}:{int(minute):02d} AM"
        assert node(phone, "alarm_time_input").text == shown


def test_keyboard_mode_and_back_to_the_dial_keep_the_typed_time() -> None:
    phone = _phone()
    phone.launch("clock", "/alarm/edit")
    tap(phone, "alarm_time_input")
    tap(phone, "toggle_mode")
    _type(phone, "input_hour", "6")
    _type(phone, "input_minute", "45")
    tap(phone, "toggle_mode")
    assert (node(phone, "hours").text, node(phone, "minutes").text) == ("06", "45")
    tap(phone, "button1")
    assert node(phone, "alarm_time_input").text == "06:45"


def test_a_new_start_moves_the_end_along() -> None:
    phone = _phone()
    _event_editor(phone)
    start, end = node(phone, "start_input").text, node(phone, "end_input").text
    assert (start, end) == ("10:00", "11:00")
    tap(phone, "start_input")
    _dial(phone, "14")
    _dial(phone, "30 minutes")
    tap(phone, "button1")
    assert (node(phone, "start_input").text, node(phone, "end_input").text) == ("14:30", "15:30")


# --- tree, languages, determinism ----------------------------------------------------------------------

def test_the_tree_carries_android_ids() -> None:
    phone = _phone(h24=False)
    _event_editor(phone)
    tap(phone, "date_input")
    ids = {n.resource_id for n in parse_nodes(phone.a11y_xml())}
    assert {"android:id/datePicker", "android:id/date_picker_header", "android:id/date_picker_header_date",
            "android:id/button1", "android:id/button2", "com.mobilegym.calendar:id/month_navigation_previous",
            "com.mobilegym.calendar:id/month_navigation_next", "com.mobilegym.calendar:id/date_picker_day",
            "com.mobilegym.calendar:id/mtrl_picker_header_toggle"} <= ids
    assert node(phone, "button1").text == "OK" and node(phone, "button2").text == "Cancel"
    tap(phone, "button2")
    tap(phone, "start_input")
    ids = {n.resource_id for n in parse_nodes(phone.a11y_xml())}
    assert {f"android:id/{name}" for name in ("timePicker", "time_header", "hours", "minutes", "am_label", "pm_label",
                                              "radial_picker", "toggle_mode", "button1", "button2")} <= ids


def test_chinese_labels() -> None:
    phone = _phone("zh", h24=False)
    _event_editor(phone)
    assert node(phone, "date_input").text == "2026年12月30日 周三"
    assert node(phone, "start_input").text == "上午10:00"
    tap(phone, "date_input")
    texts = {n.text for n in parse_nodes(phone.a11y_xml())}
    assert {"选择日期", "2026年12月", "确定", "取消", "12月30日周三", "日", "一", "六"} <= texts
    assert node(phone, "month_navigation_next").desc == "下个月"
    assert node(phone, "date_picker_day", "1").desc == "2026年12月1日 星期二"
    assert_screen_ok(phone)
    tap(phone, "button2")
    tap(phone, "start_input")
    texts = {n.text for n in parse_nodes(phone.a11y_xml())}
    assert {"选择时间", "上午", "下午", "确定", "取消"} <= texts
    assert node(phone, "toggle_mode").desc == "切换到文字输入模式来输入时间。"
    assert_screen_ok(phone)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_pickers_render_inside_the_screen(language: str) -> None:
    for h24 in (True, False):
        phone = _phone(language, h24=h24)
        phone.set_state({"apps": {"settings": {"font_size": "largest", "dark_mode": not h24}}})
        phone.launch("clock", "/alarm/edit")
        tap(phone, "alarm_time_input")
        assert_screen_ok(phone)
        tap(phone, "hours")
        _dial(phone, "7")
        assert_screen_ok(phone)
        tap(phone, "toggle_mode")
        assert_screen_ok(phone)
        _event_editor(phone)
        tap(phone, "date_input")
        assert_screen_ok(phone)
        tap(phone, "mtrl_picker_header_toggle")
        assert_screen_ok(phone)


def _session(phone: Phone) -> None:
    _event_editor(phone)
    tap(phone, "date_input")
    tap(phone, "month_navigation_next")
    tap(phone, "date_picker_day", "9")


def test_same_taps_same_phone_and_snapshots_keep_an_open_picker() -> None:
    one, two = _phone(), _phone()
    _session(one)
    _session(two)
    assert one.a11y_xml() == two.a11y_xml()
    assert np.array_equal(one.screenshot(), two.screenshot())
    assert one.get_state() == two.get_state()
    saved = one.snapshot()
    tap(one, "button2")
    one.restore(saved)
    assert one.a11y_xml() == two.a11y_xml()                  # the picker (January, the 9th chosen) is back
    tap(one, "button1")
    assert node(one, "date_input").text == "Sat, Jan 9, 2027"


# --- AnswerSheet and Settings ----------------------------------------------------------------------------

def _sheet(phone: Phone, fields: list[dict]) -> None:
    phone.set_state({"apps": {"answer_sheet": {"question": "When?", "fields": fields}}})
    phone.open_app("answer_sheet")


def test_answer_sheet_date_and_time_fields_open_the_pickers() -> None:
    phone = _phone()
    _sheet(phone, [{"type": "date", "label": "Day", "hint": "", "options": [], "repeatable": False},
                   {"type": "time", "label": "Start", "hint": "", "options": [], "repeatable": False}])
    assert node(phone, "field_0_input").text == "" and node(phone, "field_0_input").desc == "Select a date"
    assert node(phone, "field_0_input").cls == "android.widget.TextView"
    tap(phone, "field_0_input")
    assert node(phone, "month_navigation_fragment_toggle").text == "March 2026"   # opens on today
    tap(phone, "date_picker_day", "20")
    tap(phone, "button1")
    tap(phone, "field_1_input")
    _dial(phone, "7")
    _dial(phone, "5 minutes")
    tap(phone, "button1")
    answers = phone.get_state()["apps"]["answer_sheet"]["answers"]
    assert answers == {"0": "2026-03-20", "1": "07:05"}
    assert (node(phone, "field_0_input").text, node(phone, "field_1_input").text) == ("Fri, Mar 20, 2026", "07:05")


def test_answer_sheet_repeatable_time_field() -> None:
    phone = _phone(h24=False)
    _sheet(phone, [{"type": "time", "label": "Times", "hint": "", "options": [], "repeatable": True}])
    tap(phone, "field_0_input")
    tap(phone, "pm_label")
    _dial(phone, "2")
    _dial(phone, "30 minutes")
    tap(phone, "button1")
    tap(phone, "field_0_add")
    tap(phone, "field_0_input", index=1)
    _dial(phone, "9")
    _dial(phone, "0 minutes")
    tap(phone, "button1")
    assert phone.get_state()["apps"]["answer_sheet"]["answers"] == {"0": ["14:30", "09:00"]}
    assert [n.text for n in _nodes(phone, "field_0_input")] == ["2:30 PM", "9:00 AM"]


def test_settings_row_switches_the_clock_format() -> None:
    phone = _phone()
    phone.open_app("settings")
    tap(phone, "date_time_entry")
    assert node(phone, "time_24h_switch").checked
    tap(phone, "time_24h_row")
    assert phone.get_state()["apps"]["settings"]["time_24h"] is False
    phone.launch("calendar", "/event/edit?date=2026-03-20")
    assert node(phone, "start_input").text == "10:00 AM"
