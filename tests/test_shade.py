"""The notification shade, notifications and the interruptions of the variation axis: opened and closed by
swipes and back, its tree alone and with SystemUI's ids, tiles that switch the real settings (and count as
the user's changes), notifications that open their app, Chinese strings, and interruptions that come, go,
change no data and leave every oracle plan scoring 1."""
from __future__ import annotations

import random

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.envs.messages.notice import incoming
from mobilegym.oracle import Driver, all_plans, plans_for
from mobilegym.screen_text import parse_nodes
from mobilegym.sim.interruptions import DIALER_PACKAGE, PERMISSION_PACKAGE
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .uitools import node, tap

SYSTEM_UI = "com.android.systemui"
SHADE_IDS = {"notification_panel", "qs_frame", "quick_settings_container", "notification_stack_scroller", "clock",
             "date", "qs_tile_wifi", "qs_tile_bluetooth", "qs_tile_airplane_mode", "qs_tile_do_not_disturb",
             "qs_tile_dark_mode", "qs_tile_flashlight"}


@pytest.fixture
def phone() -> Phone:
    phone = SimDevice(render_scale=0.25, apps=["settings", "clock", "messages", "contacts", "answer_sheet"])
    phone.reset_state(4)
    return phone


def _pull_down(phone: Phone) -> None:
    phone.swipe(540, 30, 540, 1600)


def _ids(phone: Phone) -> set[str]:
    return {n.short_id for n in parse_nodes(phone.a11y_xml())}


def _settings(phone: Phone) -> dict:
    return phone.get_state()["apps"]["settings"]


# opening and closing ----------------------------------------------------------------------------------------------

def test_a_swipe_down_from_the_status_bar_opens_the_shade_and_back_or_a_swipe_up_closes_it(phone: Phone) -> None:
    phone.open_app("clock")
    phone.swipe(540, 400, 540, 1600)  # a swipe down below the status bar is the app's, not the shade's
    assert not phone.doc["os"]["shade"] and "alarm_item" in _ids(phone)
    _pull_down(phone)
    assert phone.doc["os"]["shade"] and SHADE_IDS <= _ids(phone)
    phone.key("back")
    assert not phone.doc["os"]["shade"] and "alarm_item" in _ids(phone) and phone.current_app() == "clock"
    _pull_down(phone)
    phone.swipe(540, 2000, 540, 300)
    assert not phone.doc["os"]["shade"] and "alarm_item" in _ids(phone)
    _pull_down(phone)
    phone.key("home")
    assert not phone.doc["os"]["shade"] and phone.current_app() == "launcher"


def test_the_tree_of_the_open_shade_is_the_shade_window_alone(phone: Phone) -> None:
    phone.open_app("settings")
    _pull_down(phone)
    nodes = parse_nodes(phone.a11y_xml())
    assert {n.package for n in nodes} == {SYSTEM_UI}
    assert nodes[0].short_id == "notification_panel" and nodes[0].bounds[:3] == (0, 0, phone.width)
    assert not _ids(phone) & {"status_bar", "navigation_bar", "toolbar_title", "network_entry"}
    wifi = node(phone, "qs_tile_wifi")
    on = _settings(phone)["wifi"]
    assert (wifi.desc, wifi.text, wifi.cls) == ("Wi-Fi", "On" if on else "Off", "android.widget.Switch")
    assert wifi.clickable and wifi.checkable and wifi.checked is on
    assert node(phone, "no_notifications").text == "No notifications"


# quick settings ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["wifi", "bluetooth", "airplane_mode", "do_not_disturb", "dark_mode", "flashlight"])
def test_a_tile_switches_the_real_setting(phone: Phone, key: str) -> None:
    before = _settings(phone)[key]
    _pull_down(phone)
    tap(phone, f"qs_tile_{key}")
    assert _settings(phone)[key] is (not before) and phone.doc["os"]["shade"]
    assert node(phone, f"qs_tile_{key}").checked is (not before)
    tap(phone, f"qs_tile_{key}")
    assert _settings(phone)[key] is before


def test_the_settings_app_and_the_status_bar_show_a_tile_s_change(phone: Phone) -> None:
    phone.set_state({"apps": {"settings": {"wifi": True, "airplane_mode": False, "dark_mode": False}}})
    phone.launch("settings", "/network")
    assert node(phone, "wifi_row").checked
    _pull_down(phone)
    tap(phone, "qs_tile_wifi")
    tap(phone, "qs_tile_dark_mode")
    dark = phone.screenshot().mean()
    phone.key("back")
    assert not node(phone, "wifi_row").checked and node(phone, "wifi_switch").checked is False
    assert "◉" not in node(phone, "status_icons").text
    assert phone.screenshot().mean() < 100 and dark < 100  # the dark theme, in the shade and after


def test_a_failing_tile_input_is_rolled_back(phone: Phone, monkeypatch) -> None:
    from mobilegym.sim import shade

    _pull_down(phone)
    before = phone.get_state()
    monkeypatch.setattr(shade, "date_text", lambda phone: 1 / 0)  # the next shade cannot be built
    with pytest.raises(Exception, match="ZeroDivisionError"):
        tap(phone, "qs_tile_wifi")
    assert phone.get_state() == before


def test_wifi_through_the_shade_solves_the_settings_task_and_counts_as_a_change():
    env = gym.make("MobileGym-v0", task="settings.ToggleWifi", render_scale=0.1, obs_parts=("a11y",))
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        driver = Driver(env, obs, info)
        driver.step({"type": "swipe", "x": 540, "y": 20, "x2": 540, "y2": 1500, "duration_ms": 300})
        driver.tap(rid="qs_tile_wifi")
        assert driver.find(rid="qs_tile_wifi").checked is info["params"]["wifi"]
        driver.key("back")
        driver.complete()
        assert driver.reward == 1.0, driver.info["judge"]
    obs, info = env.reset(seed=0)  # Bluetooth switched in the shade too: a change nobody asked for
    driver = Driver(env, obs, info)
    driver.step({"type": "swipe", "x": 540, "y": 20, "x2": 540, "y2": 1500, "duration_ms": 300})
    driver.tap(rid="qs_tile_wifi")
    driver.tap(rid="qs_tile_bluetooth")
    driver.complete()
    assert driver.reward == 0.0
    assert any("bluetooth" in e["path"] for e in driver.info["judge"]["side_effects"])


# notifications ----------------------------------------------------------------------------------------------------

def test_a_notification_shows_in_the_status_bar_and_the_shade_and_a_tap_opens_its_app(phone: Phone) -> None:
    phone.open_app("clock")
    phone.notify("messages", "Ann", "See you at 6", route="/compose")
    first = phone.notify("Settings", "Update", "Ready to install")
    icons = [n.desc for n in parse_nodes(phone.a11y_xml()) if n.package == SYSTEM_UI and "notification:" in n.desc]
    assert icons == ["Settings notification: Update", "Messages notification: Ann"]
    _pull_down(phone)
    assert [n.text for n in parse_nodes(phone.a11y_xml()) if n.short_id == "title"] == ["Update", "Ann"]
    assert node(phone, "app_name_text", index=1).text == "Messages" and node(phone, "text", index=1).text == "See you at 6"
    tap(phone, "title", "Ann")
    assert (phone.current_app(), phone.current_route()) == ("messages", "/compose")
    assert not phone.doc["os"]["shade"] and [n["id"] for n in phone.doc["os"]["notifications"]] == [first]


def test_clear_all_removes_every_notification(phone: Phone) -> None:
    for i in range(3):
        phone.notify("messages", f"Sender {i}", "Hi")
    _pull_down(phone)
    tap(phone, "dismiss_text")
    assert phone.doc["os"]["notifications"] == [] and "no_notifications" in _ids(phone)
    assert not [n for n in parse_nodes(phone.a11y_xml()) if "notification:" in n.desc]


def test_a_notification_whose_item_is_gone_opens_its_app(phone: Phone) -> None:
    phone.notify("messages", "Gone", "deleted thread", route="/thread?id=no_such_conversation")
    _pull_down(phone)
    tap(phone, "title", "Gone")  # Messages says so itself
    assert phone.current_route() == "/thread?id=no_such_conversation" and "missing" in _ids(phone)
    phone.notify("clock", "Alarm", "edited elsewhere", route="/alarm/edit?id=no_such_alarm")
    _pull_down(phone)
    tap(phone, "title", "Alarm")  # Clock cannot show it: its home instead
    assert (phone.current_app(), phone.current_route()) == ("clock", "/alarms")


@pytest.mark.parametrize("args, message", [
    (("weather", "t", "x"), "unknown app 'weather'"),
    (("messages", "t", "x", "/nowhere"), "no screen '/nowhere'"),
    (("messages", "t", "x", "compose"), "route must be None or a path"),
    (("messages", 5, "x"), "title must be a string"),
])
def test_bad_notifications_are_refused_by_name(phone: Phone, args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        phone.notify(*args)
    assert phone.doc["os"]["notifications"] == []


def test_notifications_and_the_shade_are_view_state_not_side_effects():
    env = gym.make("MobileGym-v0", task="settings.ToggleWifi", render_scale=0.1, obs_parts=("a11y",))
    obs, info = env.reset(seed=1)
    env.unwrapped.device.notify("messages", "Ann", "Hi")
    driver = Driver(env, obs, info)
    driver.step({"type": "swipe", "x": 540, "y": 20, "x2": 540, "y2": 1500, "duration_ms": 300})
    driver.tap(rid="qs_tile_wifi")
    driver.complete()  # the shade left open, a notification pending
    assert driver.reward == 1.0 and driver.info["judge"]["side_effects"] == []


def test_the_shade_in_chinese():
    phone = SimDevice(render_scale=0.25, language="zh", apps=["settings", "messages", "contacts"])
    phone.reset_state(2)
    phone.notify("messages", "妈妈", "回电话")
    assert [n.desc for n in parse_nodes(phone.a11y_xml()) if "通知" in n.desc] == ["信息通知：妈妈"]
    _pull_down(phone)
    settings = phone.get_state()["apps"]["settings"]
    wifi = node(phone, "qs_tile_wifi")
    assert wifi.desc == "WLAN" and wifi.text == ("已开启" if settings["wifi"] else "已关闭")
    assert node(phone, "qs_tile_flashlight").desc == "手电筒" and node(phone, "dismiss_text").text == "全部清除"
    assert "月" in node(phone, "date").text and "周" in node(phone, "date").text
    tap(phone, "dismiss_text")
    assert node(phone, "no_notifications").text == "无通知"


# interruptions ----------------------------------------------------------------------------------------------------

def _until_interrupted(env: gym.Env, kind: str, seed: int = 3) -> tuple[dict, dict, dict]:
    """Reset with the interruption kind and press nothing-doing keys until it has come; returns the obs, the
    state before it came and the variation info."""
    obs, info = env.reset(seed=seed, options={"variation": {"interruptions": kind}})
    first = info["variation"]["interruption_steps"][0]
    for _ in range(first - 1):
        obs, *_ = env.step({"type": "wait", "seconds": 1})
    before = env.unwrapped.device.get_state()
    obs, *_ = env.step({"type": "wait", "seconds": 1})
    return obs, before, info["variation"]


def _apps_unchanged(env: gym.Env, before: dict) -> bool:
    return env.unwrapped.device.get_state()["apps"] == before["apps"]


@pytest.fixture
def clock_env() -> gym.Env:
    return gym.make("MobileGym-v0", task="clock.CountAlarms", render_scale=0.1, obs_parts=("a11y",))


def test_a_heads_up_notification_comes_then_goes_and_stays_in_the_shade(clock_env) -> None:
    obs, before, variation = _until_interrupted(clock_env, "notification")
    heads_up = [n for n in parse_nodes(obs["a11y"]) if n.short_id == "expandableNotificationRow"]
    assert len(heads_up) == 1 and heads_up[0].package == SYSTEM_UI and heads_up[0].clickable
    assert any(n.package != SYSTEM_UI for n in parse_nodes(obs["a11y"]))  # the app stays the active window
    for _ in range(max(variation["interruption_steps"]) - variation["interruption_steps"][0] + 5):
        obs, *_ = clock_env.step({"type": "wait", "seconds": 1})  # the last heads-up's 5 s are over
    assert "expandableNotificationRow" not in obs["a11y"] and _apps_unchanged(clock_env, before)
    posted = clock_env.unwrapped.device.get_state()["os"]["notifications"]
    assert len(posted) == len(variation["interruption_steps"])  # each one stays in the shade


def test_a_call_covers_the_screen_ignores_back_and_goes_with_decline(clock_env) -> None:
    obs, before, _ = _until_interrupted(clock_env, "call")
    assert {n.package for n in parse_nodes(obs["a11y"])} == {DIALER_PACKAGE}
    obs, *_ = clock_env.step({"type": "key", "key": "back"})
    assert {n.package for n in parse_nodes(obs["a11y"])} == {DIALER_PACKAGE}
    answer = next(n for n in parse_nodes(obs["a11y"]) if n.short_id == "answer_button")
    obs, *_ = clock_env.step({"type": "tap", "x": answer.center[0], "y": answer.center[1]})
    end = next(n for n in parse_nodes(obs["a11y"]) if n.short_id == "end_call_button")
    obs, *_ = clock_env.step({"type": "tap", "x": end.center[0], "y": end.center[1]})
    assert DIALER_PACKAGE not in obs["a11y"] and _apps_unchanged(clock_env, before)
    obs, before, _ = _until_interrupted(clock_env, "call", seed=5)
    decline = next(n for n in parse_nodes(obs["a11y"]) if n.short_id == "decline_button")
    assert decline.text == "Decline"
    obs, *_ = clock_env.step({"type": "tap", "x": decline.center[0], "y": decline.center[1]})
    assert DIALER_PACKAGE not in obs["a11y"] and _apps_unchanged(clock_env, before)


def test_a_permission_request_asks_in_words_and_goes_with_either_answer_or_back(clock_env) -> None:
    obs, before, _ = _until_interrupted(clock_env, "permission")
    shown = [n for n in parse_nodes(obs["a11y"]) if n.package == PERMISSION_PACKAGE]
    message = next(n for n in shown if n.short_id == "permission_message")
    assert message.text.startswith("Allow ") and message.text.endswith("?")
    assert {"permission_allow_button", "permission_deny_button"} <= {n.short_id for n in shown}
    assert not any(n.package.startswith("com.mobilegym.") for n in parse_nodes(obs["a11y"]))  # the dialog is active
    obs, *_ = clock_env.step({"type": "key", "key": "back"})
    assert PERMISSION_PACKAGE not in obs["a11y"] and _apps_unchanged(clock_env, before)
    obs, before, _ = _until_interrupted(clock_env, "permission", seed=8)
    allow = next(n for n in parse_nodes(obs["a11y"]) if n.short_id == "permission_allow_button")
    obs, *_ = clock_env.step({"type": "tap", "x": allow.center[0], "y": allow.center[1]})
    assert PERMISSION_PACKAGE not in obs["a11y"] and _apps_unchanged(clock_env, before)


def test_interruptions_are_deterministic_and_worded_in_the_phone_s_language() -> None:
    env = gym.make("MobileGym-v0", task="clock.CountAlarms", render_scale=0.1, obs_parts=("a11y",))
    a, _, info_a = _until_interrupted(env, "permission", seed=11)
    b, _, info_b = _until_interrupted(env, "permission", seed=11)
    assert a["a11y"] == b["a11y"] and info_a == info_b
    obs, info = env.reset(seed=11, options={"variation": {"interruptions": "call", "language": "zh"}})
    for _ in range(info["variation"]["interruption_steps"][0]):
        obs, *_ = env.step({"type": "wait", "seconds": 1})
    assert {"拒绝", "接听", "来电"} <= {n.text for n in parse_nodes(obs["a11y"])}


SAMPLE = sorted(all_plans())[::11]


@pytest.fixture(scope="module")
def sample_env() -> gym.Env:
    return gym.make("MobileGym-v0", task=SAMPLE, render_scale=0.1, obs_parts=("a11y",))


@pytest.mark.parametrize("kind", ["notification", "call", "permission"])
def test_oracle_plans_score_one_through_each_interruption(sample_env, kind) -> None:
    reached = 0
    for task_id in SAMPLE:
        oracle = next(p for p in plans_for(task_id) if p.expect_success)
        obs, info = sample_env.reset(seed=7, options={"task": task_id, "variation": {"interruptions": kind}})
        driver = Driver(sample_env, obs, info)
        oracle.fn(driver)
        if not driver.done:
            driver.complete()
        assert driver.reward == 1.0 and driver.info["task_error"] is None, (task_id, driver.info.get("judge"))
        if len(driver.trace) > info["variation"]["interruption_steps"][0]:  # it came before the end: put away
            reached += 1
            os_state = sample_env.unwrapped.device.get_state()["os"]
            assert os_state["interruption"] is None and os_state["heads_up"] is None, task_id
    assert reached > len(SAMPLE) // 2


def test_a_messages_notification_shows_a_real_incoming_message_and_opens_its_thread(clock_env) -> None:
    for seed in range(40):  # the first seed whose interruption is a Messages notification
        obs, before, _ = _until_interrupted(clock_env, "notification", seed=seed)
        posted = clock_env.unwrapped.device.get_state()["os"]["notifications"][0]
        if posted["app"] == "messages":
            break
    else:
        pytest.fail("no seed below 40 posts a Messages notification")
    conv_id = posted["route"].removeprefix("/thread?id=")
    conv = next(c for c in before["apps"]["messages"]["conversations"] if c["id"] == conv_id)
    assert conv["messages"][-1]["incoming"] and posted["text"] == conv["messages"][-1]["text"]
    row = next(n for n in parse_nodes(obs["a11y"]) if n.short_id == "expandableNotificationRow")
    obs, *_ = clock_env.step({"type": "tap", "x": row.center[0], "y": row.center[1]})
    phone = clock_env.unwrapped.device
    assert phone.doc["os"]["foreground"] == "messages" and phone.current_route() == posted["route"]
    assert conv["messages"][-1]["text"] in {n.text for n in parse_nodes(obs["a11y"]) if n.short_id == "message_text"}
    assert _apps_unchanged(clock_env, before)


def test_messages_notice_names_the_sender_and_needs_an_incoming_message() -> None:
    contacts = {"contacts": [{"name": "Ann Lee", "phones": [{"number": "+1 415-555-0101"}]}]}
    message = {"id": "m1", "text": "On my way", "time_ms": 0, "incoming": True}
    doc = {"apps": {"contacts": contacts, "messages": {"conversations": [
        {"id": "c1", "address": "+14155550101", "unread": 1, "messages": [message]},
        {"id": "c2", "address": "+14155550199", "unread": 0, "messages": [{**message, "incoming": False}]},
    ]}}}
    assert incoming(doc, random.Random(0)) == ("Ann Lee", "On my way", "/thread?id=c1")
    doc["apps"]["messages"]["conversations"].pop(0)
    assert incoming(doc, random.Random(0)) is None  # only a sent message: nothing to notify
