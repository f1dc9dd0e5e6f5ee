"""The simulated phone: state patches, navigation, input dispatch, rendering and the a11y tree."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from mobilegym.screen_text import parse_nodes
from mobilegym.sim.clock import DEFAULT_START_MS
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone
from mobilegym.sim.state import StateError, apply_patch
from mobilegym.sim.ui.theme import LIGHT

from .uitools import CORE_APPS, node, tap


def test_patch_merges_updates_deletes_and_appends() -> None:
    doc = {"a": {"b": 1, "c": 2}, "items": [{"id": "x", "v": 1}, {"id": "y", "v": 2}]}
    apply_patch(doc, {"a": {"b": 5}, "items[id=x]": {"v": 9}, "items[]": {"id": "z", "v": 3}})
    assert doc == {"a": {"b": 5, "c": 2}, "items": [{"id": "x", "v": 9}, {"id": "y", "v": 2}, {"id": "z", "v": 3}]}
    apply_patch(doc, {"items[id=y]": None})
    assert [i["id"] for i in doc["items"]] == ["x", "z"]


@pytest.mark.parametrize("patch, message", [
    ({"items[id=nope]": {"v": 1}}, r"no item \[id=nope\]"),
    ({"a[id=x]": {}}, "is not a list"),
    ({"items[oops]": {}}, "bad list selector"),
])
def test_bad_patches_name_the_problem(patch: dict, message: str) -> None:
    doc = {"a": {}, "items": [{"id": "x"}]}
    with pytest.raises(StateError, match=message):
        apply_patch(doc, patch)


def test_failed_set_state_leaves_state_untouched(phone: Phone) -> None:
    before = phone.get_state()
    with pytest.raises(StateError):
        phone.set_state({"apps": {"settings": {"wifi": False}, "clock": {"alarms[id=missing]": {"hour": 1}}}})
    assert phone.get_state() == before
    with pytest.raises(ValueError, match="'os' or 'apps'"):
        phone.set_state({"bogus": 1})


def test_reset_state_restores_defaults_and_home(phone: Phone) -> None:
    phone.open_app("settings")
    phone.set_state({"apps": {"settings": {"wifi": False}}})
    phone.reset_state()
    state = phone.get_state()
    assert state["apps"]["settings"]["wifi"] is True
    assert phone.current_app() == "launcher"
    assert state["os"]["time_ms"] == DEFAULT_START_MS


def test_reset_state_reloads_changed_apps_and_keeps_untouched_ones(phone: Phone) -> None:
    defaults = SimDevice(apps=CORE_APPS).get_state()["apps"]
    phone.set_state({"apps": {"settings": {"wifi": 1}}})  # 1 == True, yet not the default
    phone.doc["apps"]["clock"]["alarms"].append({"id": "extra", "hour": 3})  # in place, deep inside
    untouched = phone.doc["apps"]["answer_sheet"]
    phone.reset_state()
    apps = phone.get_state()["apps"]
    assert apps == defaults and apps["settings"]["wifi"] is True
    assert phone.doc["apps"]["answer_sheet"] is untouched  # equal to its defaults: kept, not reloaded
    phone.doc["apps"]["answer_sheet"]["probe"] = 1  # the kept object is private to this phone ...
    assert "probe" not in SimDevice(apps=CORE_APPS).get_state()["apps"]["answer_sheet"]
    phone.reset_state()
    assert "probe" not in phone.get_state()["apps"]["answer_sheet"]  # ... and a reset drops the change


def test_open_app_by_id_label_or_package(phone: Phone) -> None:
    for name in ("clock", "Clock", "com.mobilegym.clock", "时钟"):
        phone.reset_state()
        phone.open_app(name)
        assert phone.current_app() == "clock"
        assert phone.current_route() == "/alarms"
    with pytest.raises(ValueError, match="unknown app 'Snapchat'"):
        phone.open_app("Snapchat")


def test_launcher_icon_opens_app_and_back_returns_home(phone: Phone) -> None:
    tap(phone, text="Settings")
    assert phone.current_app() == "settings"
    tap(phone, rid="display_entry")
    assert phone.current_route() == "/display"
    phone.key("back")
    assert phone.current_route() == "/"
    phone.key("back")
    assert phone.current_app() == "launcher"


def test_home_keeps_back_stack_and_recents_resume(phone: Phone) -> None:
    phone.open_app("settings")
    tap(phone, rid="about_entry")
    phone.key("home")
    assert phone.current_app() == "launcher"
    phone.key("recent")
    tap(phone, rid="task_view")
    assert (phone.current_app(), phone.current_route()) == ("settings", "/about")


def test_switch_row_toggles_state(phone: Phone) -> None:
    phone.open_app("settings")
    tap(phone, rid="network_entry")
    tap(phone, rid="wifi_row")
    assert phone.get_state()["apps"]["settings"]["wifi"] is False
    assert node(phone, rid="wifi_switch").checked is False


def test_slider_tap_and_drag_set_value(phone: Phone) -> None:
    phone.open_app("settings")
    tap(phone, rid="display_entry")
    slider = node(phone, rid="brightness_slider")
    x1, y1, x2, y2 = slider.bounds
    pad = 10 * phone.density
    phone.tap(round(x1 + pad + 0.25 * (x2 - x1 - 2 * pad)), (y1 + y2) // 2)
    assert phone.get_state()["apps"]["settings"]["brightness"] == 25
    phone.drag(x1 + 5, (y1 + y2) // 2, x2 - 2, (y1 + y2) // 2)
    assert phone.get_state()["apps"]["settings"]["brightness"] == 100


def test_text_entry_focus_type_clear_delete_enter(phone: Phone) -> None:
    phone.open_app("settings")
    tap(phone, rid="about_entry")
    tap(phone, rid="device_name")
    field = node(phone, rid="name_input")
    phone.tap(*field.center)
    assert node(phone, rid="name_input").focused
    phone.type_text("Pixel", clear=True)
    phone.type_text(" 9x")
    phone.key("delete")
    assert node(phone, rid="name_input").text == "Pixel 9"
    phone.key("enter")
    assert phone.get_state()["apps"]["settings"]["about"]["device_name"] == "Pixel 9"


def test_typing_without_focus_changes_nothing(phone: Phone) -> None:
    phone.open_app("settings")
    before = phone.get_state()["apps"]
    phone.type_text("hello")
    assert phone.get_state()["apps"] == before


def test_dialog_is_modal_and_back_dismisses(phone: Phone) -> None:
    phone.open_app("clock")
    tab = node(phone, rid="tab_1")
    phone.long_press(*node(phone, rid="alarm_item").center)
    assert node(phone, rid="button1")
    phone.tap(*tab.center)  # outside the dialog: dismisses, does not switch tab
    assert phone.current_route() == "/alarms"
    assert not [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == "button1"]
    phone.long_press(*node(phone, rid="alarm_item").center)
    phone.key("back")
    assert not [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == "button1"]
    assert len(phone.get_state()["apps"]["clock"]["alarms"]) == 4


def test_swipe_scrolls_list_and_fling_goes_further() -> None:
    slow, fast = SimDevice(apps=CORE_APPS), SimDevice(apps=CORE_APPS)
    for p in (slow, fast):
        for i in range(12):
            p.set_state({"apps": {"clock": {"alarms[]": {"id": f"x{i}", "hour": 23, "minute": i, "label": f"Late {i}",
                                                          "enabled": True, "days": []}}}})
        p.open_app("clock")
    lunch = "12:00 Lunch"
    before = [n for n in parse_nodes(slow.a11y_xml()) if n.desc == lunch][0].bounds
    slow.swipe(540, 1600, 540, 1200, 600)
    fast.swipe(540, 1600, 540, 1200, 100)
    after = [n for n in parse_nodes(slow.a11y_xml()) if n.desc == lunch][0].bounds
    assert before[1] - after[1] == 400  # the content followed the finger exactly
    offsets = [p.get_state()["os"]["stacks"]["clock"][-1]["local"]["scroll"]["alarm_list"] for p in (slow, fast)]
    assert offsets[1] == 2 * offsets[0]
    for _ in range(10):
        fast.swipe(540, 1600, 540, 400, 100)
    assert node(fast, text="Late 11 · Once")  # the end of the list is reachable and scrolling stops there


def test_each_input_ticks_the_simulated_clock(phone: Phone) -> None:
    start = phone.time_ms()
    phone.tap(10, 500)
    assert phone.time_ms() == start + 1000
    phone.wait(90)
    assert phone.time_ms() == start + 91_000
    assert node(phone, rid="clock").text == "09:01"
    with pytest.raises(ValueError, match="negative"):
        phone.wait(-1)


def test_points_outside_screen_are_rejected(phone: Phone) -> None:
    with pytest.raises(ValueError, match="outside the 1080x2400 screen"):
        phone.tap(1080, 5)


def test_a11y_xml_is_uiautomator_format_with_bounds_on_screen(phone: Phone) -> None:
    phone.open_app("clock")
    root = ET.fromstring(phone.a11y_xml())
    assert root.tag == "hierarchy"
    required = {"index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked",
                "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable", "password",
                "selected", "bounds"}
    packages = set()
    for el in root.iter("node"):
        assert required <= set(el.attrib)
        packages.add(el.get("package"))
    assert {"com.mobilegym.clock", "com.android.systemui"} <= packages
    for n in parse_nodes(phone.a11y_xml()):
        x1, y1, x2, y2 = n.bounds
        assert 0 <= x1 < x2 <= 1080 and 0 <= y1 < y2 <= 2400


def test_tree_bounds_match_drawn_pixels(phone: Phone) -> None:
    """The FAB's bounds in the tree enclose its drawn colour and nothing of it lies outside."""
    phone.open_app("clock")
    fab = node(phone, rid="add_alarm")
    shot = phone.screenshot()
    primary = np.array(LIGHT.primary)
    mask = np.all(shot == primary, axis=-1)
    x1, y1, x2, y2 = fab.bounds
    inside = mask[y1:y2, x1:x2].sum()
    assert inside > 0.6 * (x2 - x1) * (y2 - y1)
    ring = mask[y1 - 20:y2 + 20, x1 - 20:x2 + 20].sum()
    assert ring == inside


def test_render_scale_draws_small_without_changing_layout() -> None:
    big, small = SimDevice(apps=CORE_APPS), SimDevice(render_scale=0.1, apps=CORE_APPS)
    for p in (big, small):
        p.open_app("settings")
    assert big.screenshot().shape == (2400, 1080, 3)
    assert small.screenshot().shape == (240, 108, 3)
    assert big.a11y_xml() == small.a11y_xml()


def test_screenshots_are_fresh_arrays(phone: Phone) -> None:
    a = phone.screenshot()
    a[:] = 0
    assert phone.screenshot().any()


def test_snapshot_restore_forks_the_whole_phone(phone: Phone) -> None:
    phone.open_app("settings")
    tap(phone, rid="network_entry")
    snap = phone.snapshot()
    shot, tree = phone.screenshot(), phone.a11y_xml()
    tap(phone, rid="wifi_row")
    phone.key("home")
    phone.files.write("/sdcard/a.txt", b"x")
    phone.restore(snap)
    assert phone.current_route() == "/network"
    assert phone.get_state()["apps"]["settings"]["wifi"] is True
    assert not phone.files.exists("/sdcard/a.txt")
    assert np.array_equal(phone.screenshot(), shot) and phone.a11y_xml() == tree


def test_dark_mode_and_font_size_change_rendering(phone: Phone) -> None:
    phone.open_app("settings")
    light = phone.screenshot()
    phone.set_state({"apps": {"settings": {"dark_mode": True}}})
    assert phone.screenshot().mean() < light.mean()
    before = node(phone, rid="network_entry").bounds
    phone.set_state({"apps": {"settings": {"font_size": "largest"}}})
    after = node(phone, rid="network_entry").bounds
    assert after[3] - after[1] > before[3] - before[1]


def test_chinese_ui_renders(tmp_path) -> None:
    p = SimDevice(language="zh", apps=CORE_APPS)
    p.open_app("设置")
    assert node(p, rid="toolbar_title").text == "设置"
    assert p.screenshot().shape == (2400, 1080, 3)


def test_clock_add_alarm_through_ui(phone: Phone) -> None:
    phone.open_app("clock")
    tap(phone, rid="add_alarm")
    tap(phone, rid="alarm_time_input")  # the time picker, in its keyboard-entry mode
    tap(phone, rid="toggle_mode")
    for rid, text in (("input_hour", "7"), ("input_minute", "05")):
        tap(phone, rid=rid)
        phone.type_text(text, clear=True)
    tap(phone, rid="button1")
    tap(phone, rid="label_input")
    phone.type_text("Standup", clear=True)
    tap(phone, rid="day_Tue")
    tap(phone, rid="day_Thu")
    tap(phone, rid="save_alarm")
    alarms = phone.get_state()["apps"]["clock"]["alarms"]
    new = [a for a in alarms if a["label"] == "Standup"]
    assert new and new[0]["hour"] == 7 and new[0]["minute"] == 5 and new[0]["days"] == ["Tue", "Thu"]
    assert phone.current_route() == "/alarms"


def test_clock_rejects_invalid_time(phone: Phone) -> None:
    phone.open_app("clock")
    tap(phone, rid="add_alarm")
    tap(phone, rid="alarm_time_input")
    tap(phone, rid="toggle_mode")
    tap(phone, rid="input_hour")
    phone.type_text("25", clear=True)
    tap(phone, rid="button1")
    assert node(phone, rid="label_error").text == "Enter a valid time"  # the picker stays open
    tap(phone, rid="button2")
    assert node(phone, rid="alarm_time_input").text == "08:00"


def test_stopwatch_follows_simulated_time(phone: Phone) -> None:
    phone.open_app("clock")
    tap(phone, rid="tab_2")
    tap(phone, rid="start")
    phone.wait(65)
    assert node(phone, rid="stopwatch_display").text.startswith("00:01:06")  # 65 s waited + the 1 s tick after the tap


def test_the_tree_of_an_open_dialog_is_the_dialog_not_the_screen_behind(phone: Phone) -> None:
    phone.open_app("clock")
    behind = {n.short_id for n in parse_nodes(phone.a11y_xml()) if n.package == "com.mobilegym.clock"}
    assert {"alarm_item", "alarm_switch", "tab_1", "add_alarm"} <= behind
    phone.long_press(*node(phone, rid="alarm_item").center)
    shown = [n for n in parse_nodes(phone.a11y_xml()) if n.package == "com.mobilegym.clock"]
    ids = {n.short_id for n in shown}
    assert {"parentPanel", "alertTitle", "button1", "button2"} <= ids
    assert not ids & {"alarm_item", "alarm_switch", "tab_1", "add_alarm", "toolbar_title"}
    dialog = node(phone, rid="parentPanel")
    x0, y0, x1, y1 = dialog.bounds
    assert all(x0 <= n.bounds[0] and n.bounds[2] <= x1 and y0 <= n.bounds[1] and n.bounds[3] <= y1 for n in shown)
    assert {n.short_id for n in parse_nodes(phone.a11y_xml()) if n.package == "com.android.systemui"} >= {
        "status_bar", "navigation_bar", "back"}  # the system bars stay (see docs/phone.md: the tree)
    phone.key("back")
    assert "alarm_item" in {n.short_id for n in parse_nodes(phone.a11y_xml())}


def test_an_empty_text_field_has_its_placeholder_as_hint_never_as_text(phone: Phone) -> None:
    phone.launch("clock", "/alarm/edit")
    field = ET.fromstring(phone.a11y_xml()).find(".//node[@resource-id='com.mobilegym.clock:id/label_input']")
    assert field is not None and field.get("text") == "" and field.get("hint") == "Alarm label"
    tap(phone, "label_input")
    phone.type_text("Gym")
    field = ET.fromstring(phone.a11y_xml()).find(".//node[@resource-id='com.mobilegym.clock:id/label_input']")
    assert field.get("text") == "Gym" and field.get("hint") == "Alarm label" and field.get("focused") == "true"
    assert all(n.get("hint") == "" for n in ET.fromstring(phone.a11y_xml()).iter("node")
               if n.get("class") != "android.widget.EditText")


def test_switch_rows_report_like_android_in_every_app(phone: Phone) -> None:
    """A settings-style row whose tap switches its switch is clickable, checkable and checked, and its
    Switch is checkable and checked but not clickable; a switch with its own tap (Clock's alarm switch,
    in a row that opens the alarm) is clickable and checkable itself."""
    phone.launch("settings", "/network")
    row, switch = node(phone, rid="wifi_row"), node(phone, rid="wifi_switch")
    wifi = phone.get_state()["apps"]["settings"]["wifi"]
    assert (row.clickable, row.checkable, row.checked) == (True, True, wifi)
    assert (switch.clickable, switch.checkable, switch.checked) == (False, True, wifi)
    phone.tap(*switch.center)  # the tap on the switch reaches the row
    assert phone.get_state()["apps"]["settings"]["wifi"] is (not wifi)
    assert node(phone, rid="wifi_row").checked is (not wifi) and node(phone, rid="wifi_switch").checked is (not wifi)
    phone.open_app("clock")
    item, alarm_switch = node(phone, rid="alarm_item"), node(phone, rid="alarm_switch")
    assert (item.clickable, item.checkable) == (True, False)
    assert (alarm_switch.clickable, alarm_switch.checkable) == (True, True)


def test_the_status_bar_clock_follows_the_24_hour_setting() -> None:
    phone = SimDevice(apps=["settings", "clock"], world="canonical")
    phone.wait(5 * 3600)  # 09:00 -> 14:00

    def clock() -> str:
        return next(n.get("text") for n in ET.fromstring(phone.a11y_xml()).iter("node")
                    if n.get("resource-id") == "com.android.systemui:id/clock")

    assert clock() == "14:00"
    phone.set_state({"apps": {"settings": {"time_24h": False}}})
    assert clock() == "2:00"
