"""The Gallery app: every screen renders; the grid, albums, the viewer, favourites, the Trash, the editor, search,
sharing and the camera work through the UI, ask before deleting and refuse what the app refuses."""
from __future__ import annotations

from typing import Any

import pytest

from mobilegym.envs.gallery import model
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone
from mobilegym.sim.strings import translate

from .apptools import assert_screen_ok
from .uitools import node, tap


def _in_english(text: str, **fields: Any) -> str:
    """What an English phone's ``ctx.t`` gives for a Gallery text."""
    return translate(model.__package__, "en", text, fields=fields)


APPS = ("gallery", "messages", "contacts", "settings")


def _phone(language: str = "en", seed: int = 3) -> Phone:
    phone = SimDevice(apps=APPS, language=language)
    phone.reset_state(seed)
    phone.open_app("gallery")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["gallery"]


def _nodes(phone: Phone, rid: str) -> list:
    return [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _open_first_photo(phone: Phone) -> dict:
    """Open the newest camera photo from the Camera album; its record."""
    newest = next(p for p in model.live(_state(phone)) if p["source"] == "camera" and p["kind"] == "photo")
    tap(phone, "nav_library")
    tap(phone, "album_item", index=1)
    assert node(phone, "toolbar_title").text == "Camera"
    phone.tap(*next(n for n in _nodes(phone, "photo_item") if n.desc.startswith(f"Photo · {newest['subject']} ·")).center)
    assert phone.current_route().startswith("/photo")
    return newest


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    assert_screen_ok(phone)                                    # photos
    tap(phone, "photo_item")
    tap(phone, "photo_info")
    assert_screen_ok(phone)                                    # viewer with details
    tap(phone, "share_photo")
    assert_screen_ok(phone)                                    # share sheet
    tap(phone, "button2")
    tap(phone, "edit_photo")
    assert_screen_ok(phone)                                    # editor
    phone.key("back")
    phone.key("back")
    tap(phone, "nav_search")
    assert_screen_ok(phone)                                    # search with places
    tap(phone, "place_item")
    assert_screen_ok(phone)                                    # search results
    tap(phone, "nav_library")
    assert_screen_ok(phone)                                    # library
    tap(phone, "trash_entry")
    assert_screen_ok(phone)                                    # trash
    tap(phone, "trash_item")
    assert_screen_ok(phone)                                    # restore / delete dialog
    tap(phone, "button2") if _nodes(phone, "button2") else phone.key("back")
    phone.key("back")
    tap(phone, "album_item", index=4)  # the first user album
    assert_screen_ok(phone)                                    # a user album
    tap(phone, "album_menu")
    assert_screen_ok(phone)                                    # its menu
    phone.key("back")
    tap(phone, "add_photos")
    assert_screen_ok(phone)                                    # the picker
    phone.launch("gallery", "/camera")
    assert_screen_ok(phone)                                    # camera


def test_the_grid_groups_photos_by_day_newest_first_and_hides_the_trash() -> None:
    phone = _phone()
    state = _state(phone)
    live = model.live(state)
    headers = [n.text for n in _nodes(phone, "day_header")]
    assert headers[0] == model.day_header(_in_english, model.parse_stamp(live[0]["taken"]).date(), phone_date(phone))
    tiles = [n.desc for n in _nodes(phone, "photo_item")]
    assert tiles and all(p["subject"] in desc for p, desc in zip(live, tiles))
    trashed = [p for p in state["photos"] if p["trashed"]]
    assert trashed and len(live) == len(state["photos"]) - len(trashed)


def phone_date(phone: Phone):
    return from_phone(phone).date()


def test_favourite_from_the_viewer_toggles_and_shows_in_favourites() -> None:
    phone = _phone()
    photo = _open_first_photo(phone)
    was = photo["favorite"]
    tap(phone, "favorite_photo")
    assert model.photo_by_id(_state(phone), photo["id"])["favorite"] is (not was)
    tap(phone, "favorite_photo")
    assert model.photo_by_id(_state(phone), photo["id"])["favorite"] is was
    tap(phone, "favorite_photo")
    phone.key("back")
    phone.key("back")
    tap(phone, "album_item", index=0)
    assert phone.current_route().startswith("/album")
    shown = [n.desc for n in _nodes(phone, "photo_item")]
    assert any(photo["subject"] in d for d in shown)


def test_details_show_place_resolution_device_and_the_date_taken() -> None:
    phone = _phone()
    photo = _open_first_photo(phone)
    assert not _nodes(phone, "details_sheet")
    tap(phone, "photo_info")
    assert node(phone, "detail_place").text == f"{photo['place']}, {photo['city']}"
    assert node(phone, "detail_resolution").text == f"{photo['width']} × {photo['height']}"
    assert node(phone, "detail_date").text == model.taken_text(_in_english, photo["taken"])
    phone.swipe(540, 1800, 540, 600)
    assert photo["device"] in node(phone, "detail_device").text
    assert photo["name"] in node(phone, "detail_file").text


def test_delete_asks_first_cancel_keeps_the_photo_and_restore_brings_it_back() -> None:
    phone = _phone()
    photo = _open_first_photo(phone)
    tap(phone, "delete_photo")
    tap(phone, "button2")                                      # cancel
    assert not model.photo_by_id(_state(phone), photo["id"])["trashed"]
    tap(phone, "delete_photo")
    tap(phone, "button1")
    record = model.photo_by_id(_state(phone), photo["id"])
    assert record["trashed"] and record["trashed_at"]
    assert phone.current_route() == "/album?id=camera"         # the viewer closes
    phone.key("back")
    tap(phone, "trash_entry")
    trash = [n.desc for n in _nodes(phone, "trash_item")]
    index = trash.index(next(d for d in trash if d.startswith("Photo · " + photo["subject"])))
    phone.tap(*_nodes(phone, "trash_item")[index].center)
    tap(phone, "button1")                                      # restore
    assert not model.photo_by_id(_state(phone), photo["id"])["trashed"]


def test_empty_trash_asks_and_deletes_only_what_was_in_the_trash() -> None:
    phone = _phone()
    before = _state(phone)
    binned = {p["id"] for p in before["photos"] if p["trashed"]}
    phone.launch("gallery", "/trash")
    tap(phone, "empty_trash")
    tap(phone, "button2")
    assert {p["id"] for p in _state(phone)["photos"] if p["trashed"]} == binned
    tap(phone, "empty_trash")
    tap(phone, "button1")
    after = _state(phone)
    assert not any(p["trashed"] for p in after["photos"])
    assert len(after["photos"]) == len(before["photos"]) - len(binned)
    assert node(phone, "empty").text == "Trash is empty"


def test_select_photos_and_make_a_new_album_from_them() -> None:
    phone = _phone()
    tiles = _nodes(phone, "photo_item")
    phone.long_press(*tiles[0].center)
    phone.tap(*tiles[1].center)
    assert node(phone, "toolbar_title").text == "2 selected"
    tap(phone, "add_selected")
    tap(phone, "menu_new_album")
    tap(phone, "album_title_input")
    phone.type_text("Road trip")
    tap(phone, "button1")
    album = next(a for a in _state(phone)["albums"] if a["name"] == "Road trip")
    assert album["photo_ids"] == [p["id"] for p in model.live(_state(phone))[:2]]
    assert node(phone, "toolbar_title").text == "Photos"         # the selection ends


def test_album_names_must_be_unique_and_non_empty() -> None:
    phone = _phone()
    taken = _state(phone)["albums"][0]["name"]
    count = len(_state(phone)["albums"])
    tap(phone, "nav_library")
    tap(phone, "new_album")
    tap(phone, "button1")                                      # no title
    assert len(_state(phone)["albums"]) == count
    tap(phone, "album_title_input")
    phone.type_text(taken.upper())
    tap(phone, "button1")
    assert len(_state(phone)["albums"]) == count and _nodes(phone, "album_title_input")


def test_new_album_from_the_library_opens_the_picker_and_adds_the_picked_photos() -> None:
    phone = _phone()
    tap(phone, "nav_library")
    tap(phone, "new_album")
    tap(phone, "album_title_input")
    phone.type_text("Lisbon")
    tap(phone, "button1")
    assert phone.current_route().startswith("/pick")
    assert not node(phone, "done_pick").clickable                 # nothing picked yet
    tiles = _nodes(phone, "photo_item")
    phone.tap(*tiles[0].center)
    phone.tap(*tiles[2].center)
    tap(phone, "done_pick")
    album = next(a for a in _state(phone)["albums"] if a["name"] == "Lisbon")
    live = model.live(_state(phone))
    assert album["photo_ids"] == [live[0]["id"], live[2]["id"]]
    assert phone.current_route().startswith("/album")
    assert node(phone, "album_count").text == "2 items"


def test_rename_and_delete_an_album_keep_its_photos() -> None:
    phone = _phone()
    album = _state(phone)["albums"][0]
    photos_before = _state(phone)["photos"]
    phone.launch("gallery", f"/album?id={album['id']}")
    tap(phone, "album_menu")
    tap(phone, "rename_album")
    tap(phone, "album_rename_input")
    phone.type_text("Renamed", clear=True)
    tap(phone, "button1")
    assert model.album_by_id(_state(phone), album["id"])["name"] == "Renamed"
    assert node(phone, "toolbar_title").text == "Renamed"
    tap(phone, "album_menu")
    tap(phone, "delete_album")
    tap(phone, "button2")                                      # cancel
    assert model.album_by_id(_state(phone), album["id"]) is not None
    tap(phone, "album_menu")
    tap(phone, "delete_album")
    tap(phone, "button1")
    assert model.album_by_id(_state(phone), album["id"]) is None
    assert _state(phone)["photos"] == photos_before


def test_the_editor_saves_rotation_crop_and_filter_and_cancel_saves_nothing() -> None:
    phone = _phone()
    photo = next(p for p in model.live(_state(phone)) if p["kind"] == "photo")
    phone.launch("gallery", f"/edit?id={photo['id']}")
    tap(phone, "rotate")
    tap(phone, "filter_vivid")
    tap(phone, "cancel_edit")
    assert model.photo_by_id(_state(phone), photo["id"])["edit"] is None
    phone.launch("gallery", f"/edit?id={photo['id']}")
    tap(phone, "rotate")
    tap(phone, "rotate")
    tap(phone, "crop_square")
    tap(phone, "filter_vivid")
    tap(phone, "save_edit")
    saved = model.photo_by_id(_state(phone), photo["id"])
    assert saved["edit"] == {"rotation": 180, "crop": "square", "filter": "vivid"}
    assert model.edited_size(saved) == (min(photo["width"], photo["height"]),) * 2


def test_a_quarter_turn_swaps_the_resolution() -> None:
    record = {"width": 4080, "height": 3072, "edit": {"rotation": 270, "crop": "original", "filter": "none"}}
    assert model.edited_size(record) == (3072, 4080)
    record["edit"] = {"rotation": 0, "crop": "16:9", "filter": "none"}
    assert model.edited_size(record) == (4080, 3072)  # 16:9 of a 4:3 photo keeps the long side
    record["edit"] = {"rotation": 90, "crop": "square", "filter": "none"}
    assert model.edited_size(record) == (3072, 3072)


def test_search_finds_by_city_subject_and_date_and_says_how_many() -> None:
    phone = _phone()
    state = _state(phone)
    city = next(p["city"] for p in model.live(state) if p["city"])
    tap(phone, "nav_search")
    tap(phone, "search_input")
    phone.type_text(city.lower())
    expected = [p for p in model.live(state) if city in (p["city"],) or city.lower() in p["subject"].lower()
                or city.lower() in p["place"].lower()]
    assert node(phone, "result_count").text.startswith(f"{len(expected)} result")
    assert model.search(_in_english, state, "zzz-nothing") == []
    day = model.parse_stamp(model.live(state)[0]["taken"]).date()
    on_day = [p for p in model.live(state) if p["taken"].startswith(day.isoformat())]
    assert model.search(_in_english, state, f"{model.MONTHS_LONG[day.month - 1]} {day.day}") == on_day


def test_share_opens_messages_with_the_photo_names() -> None:
    phone = _phone()
    photo = _open_first_photo(phone)
    tap(phone, "share_photo")
    tap(phone, "share_messages")
    assert phone.current_app() == "messages"
    assert photo["name"] in phone.a11y_xml()


def test_camera_takes_photos_and_videos_at_the_phone_time_with_the_chosen_lens() -> None:
    phone = _phone()
    count = len(_state(phone)["photos"])
    tap(phone, "open_camera")
    tap(phone, "shutter")
    shot = _state(phone)["photos"][-1]
    assert len(_state(phone)["photos"]) == count + 1
    assert (shot["kind"], shot["source"], shot["lens"]) == ("photo", "camera", "back")
    assert shot["taken"] == model.stamp(from_phone(phone))
    tap(phone, "switch_camera")
    tap(phone, "shutter")
    assert _state(phone)["photos"][-1]["lens"] == "front"
    tap(phone, "mode_video")
    tap(phone, "shutter")                                      # start recording
    assert len(_state(phone)["photos"]) == count + 2
    assert node(phone, "camera_status").text == "Recording"
    tap(phone, "switch_camera")                                # no switching while recording
    phone.wait(7)
    tap(phone, "shutter")                                      # stop
    video = _state(phone)["photos"][-1]
    assert video["kind"] == "video" and video["lens"] == "front" and video["duration_s"] >= 7
    assert video["name"].startswith("VID_") and video["name"].endswith(".mp4")
    tap(phone, "last_capture")
    assert phone.current_route().startswith("/photo")


def from_phone(phone: Phone):
    from mobilegym.sim.clock import from_ms
    return from_ms(phone.time_ms())


def test_chinese_screens_speak_chinese() -> None:
    phone = _phone("zh")
    assert node(phone, "toolbar_title").text == "照片"
    tap(phone, "nav_library")
    assert "回收站" in phone.a11y_xml() and "媒体库" in phone.a11y_xml()
    state = _state(phone)
    assert all(p["city"] == "" or not p["city"].isascii() for p in state["photos"])
    tap(phone, "nav_search")
    assert "地点" in phone.a11y_xml()


def test_generated_worlds_keep_their_invariants() -> None:
    phone = SimDevice(apps=APPS)
    for seed in range(25):
        phone.reset_state(seed)
        state = _state(phone)
        ids = [p["id"] for p in state["photos"]]
        now = model.stamp(from_phone(phone))
        assert len(ids) == len(set(ids))
        assert len({p["taken"] for p in state["photos"]}) == len(ids)
        assert all(p["taken"] <= now and (p["trashed_at"] or "") <= now for p in state["photos"])
        assert all(bool(p["city"]) == (p["source"] == "camera") for p in state["photos"])
        assert all(p["taken"] < p["trashed_at"] for p in state["photos"] if p["trashed"])
        names = [a["name"].casefold() for a in state["albums"]]
        assert len(names) == len(set(names))
        assert all(i in ids for a in state["albums"] for i in a["photo_ids"])
