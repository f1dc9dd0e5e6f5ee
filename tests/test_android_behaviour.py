"""Apps behave as their Android counterparts: delete is a trash can, a switch in a settings row toggles like the row,
library rows carry their names, and "Add to playlist" offers a new playlist."""
from __future__ import annotations

import pytest

from mobilegym.screen_text import parse_nodes
from mobilegym.sim import ui
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone, ScreenError

from .uitools import node, tap


@pytest.fixture
def phone() -> Phone:
    p = SimDevice()
    p.reset_state(0)
    return p


@pytest.mark.parametrize("app_id, route", [
    ("contacts", "/contact?id={contacts}"), ("notes", "/note?id={notes}"),
    ("calendar", "/event?id={events}"), ("messages", "/thread?id={conversations}"),
])
def test_delete_is_a_trash_can(phone: Phone, app_id: str, route: str) -> None:
    state = phone.get_state()["apps"][app_id]
    key = route.partition("{")[2].rstrip("}")
    phone.launch(app_id, route.replace("{" + key + "}", state[key][0]["id"]))
    frame = phone.frame()
    deletes = [v for v in frame.content.walk() if v.desc.startswith("Delete") and hasattr(v, "glyph")]
    assert deletes and all(v.glyph == "🗑" for v in deletes), [(v.desc, getattr(v, "glyph", None)) for v in deletes]


def test_a_tap_on_a_settings_switch_toggles_it_through_its_row(phone: Phone) -> None:
    phone.launch("settings", "/network")
    before = phone.get_state()["apps"]["settings"]["wifi"]
    switch = node(phone, rid="wifi_switch")
    assert switch.checkable and not switch.clickable  # as in Android's settings: the row takes the click
    tap(phone, rid="wifi_switch")  # a tap on the switch lands on its row
    assert phone.get_state()["apps"]["settings"]["wifi"] is (not before)
    tap(phone, rid="wifi_row")
    assert phone.get_state()["apps"]["settings"]["wifi"] is before


@pytest.mark.parametrize("tab, rid", [("tab_1", "album_item"), ("tab_2", "artist_item"), ("tab_3", "playlist_item")])
def test_library_rows_carry_their_names(phone: Phone, tab: str, rid: str) -> None:
    phone.open_app("music")
    tap(phone, tab)
    rows = [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]
    assert rows and all(n.desc and n.clickable for n in rows)
    titles = [n.text for n in parse_nodes(phone.a11y_xml()) if n.short_id.endswith(("_title", "_name")) and n.text]
    assert all(any(row.desc.startswith(t) for t in titles) for row in rows)


def test_add_to_playlist_offers_a_new_playlist_holding_the_song(phone: Phone) -> None:
    phone.open_app("music")
    title = node(phone, rid="song_title").text
    tap(phone, rid="song_menu")
    tap(phone, rid="menu_add_to_playlist")
    tap(phone, rid="new_playlist_option")
    tap(phone, rid="playlist_name_input")
    phone.type_text("Road songs")
    tap(phone, rid="save_playlist")
    state = phone.get_state()["apps"]["music"]
    made = next(p for p in state["playlists"] if p["name"] == "Road songs")
    assert [next(x["title"] for x in state["songs"] if x["id"] == i) for i in made["song_ids"]] == [title]
    assert phone.current_route().startswith("/playlist?")


def test_a_new_playlist_for_a_song_that_does_not_exist_is_refused(phone: Phone) -> None:
    with pytest.raises(ScreenError, match="song"):
        phone.launch("music", "/playlist/edit?song=nope")


def test_the_timer_display_follows_the_typed_duration(phone: Phone) -> None:
    phone.launch("clock", "/timer")
    tap(phone, rid="minutes_input")
    phone.type_text("7", clear=True)
    tap(phone, rid="seconds_input")
    phone.type_text("30", clear=True)
    assert node(phone, rid="timer_display").text == "00:07:30"
    tap(phone, rid="start")
    phone.wait(10)
    assert node(phone, rid="timer_display").text == "00:07:19"  # running: the time left (the tap took a second too)


def test_an_alert_dialog_carries_the_framework_ids_in_its_apps_package(phone: Phone) -> None:
    conv = phone.get_state()["apps"]["messages"]["conversations"][0]
    phone.launch("messages", f"/thread?id={conv['id']}")
    tap(phone, rid="delete_conversation")
    shown = {n.resource_id: n for n in parse_nodes(phone.a11y_xml()) if n.package == "com.mobilegym.messages"}
    assert {"android:id/parentPanel", "android:id/alertTitle", "android:id/message", "android:id/button1",
            "android:id/button2"} <= set(shown)
    assert "android:id/buttonPanel" in shown and not [r for r in shown if r.startswith("com.mobilegym.")]
    assert (shown["android:id/button1"].text, shown["android:id/button2"].text) == ("Delete", "Cancel")
    assert shown["android:id/message"].text == "All messages in it will be deleted."
    negative, positive = shown["android:id/button2"], shown["android:id/button1"]
    assert negative.bounds[2] <= positive.bounds[0]  # Cancel left of Delete, as Material lays them out
    tap(phone, rid="button1")
    assert all(c["id"] != conv["id"] for c in phone.get_state()["apps"]["messages"]["conversations"])


def test_dialog_buttons_are_laid_out_by_role_and_need_one() -> None:
    buttons = [ui.Button("OK", None, rid=ui.POSITIVE), ui.Button("Later", None, rid=ui.NEUTRAL),
               ui.Button("Cancel", None, rid=ui.NEGATIVE)]
    dialog = ui.Dialog("Title", "Message", buttons)
    assert [b.label for b in dialog.children[-1].children[1:]] == ["Later", "Cancel", "OK"]
    with pytest.raises(ValueError, match="role id"):
        ui.Dialog("Title", [], [ui.Button("Delete", None, rid="confirm_delete")])
    with pytest.raises(ValueError, match="role id"):
        ui.Dialog("Title", [], [ui.Button("A", None, rid=ui.POSITIVE), ui.Button("B", None, rid=ui.POSITIVE)])
