"""The Notes app: every screen renders cleanly; notes and to-dos are created, edited, pinned, searched, deleted."""
from __future__ import annotations

import pytest

import mobilegym  # noqa: F401
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("notes", "settings")


def _phone(language: str = "en") -> Phone:
    phone = SimDevice(apps=APPS, language=language)
    phone.open_app("notes")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["notes"]


def _type(phone: Phone, rid: str, text: str, clear: bool = True) -> None:
    tap(phone, rid)
    phone.type_text(text, clear=clear)


def _titles(phone: Phone) -> list[str]:
    return [n.text for n in parse_nodes(phone.a11y_xml()) if n.short_id == "note_title_text"]


def _todo(phone: Phone, text: str) -> dict:
    return next(t for t in _state(phone)["todos"] if t["text"] == text)


LOOKS = [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})]


@pytest.mark.parametrize("language, look", LOOKS)
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    assert_screen_ok(phone)                                   # notes list
    tap(phone, "note_title_text")
    assert_screen_ok(phone)                                   # editor
    tap(phone, "delete_note")
    assert_screen_ok(phone)                                   # delete confirmation
    tap(phone, "button2")
    phone.key("back")
    tap(phone, "add_note")
    assert_screen_ok(phone)                                   # new note
    phone.key("back")
    tap(phone, "search")
    _type(phone, "search_input", "wi")
    assert_screen_ok(phone)                                   # search results
    phone.key("back")
    phone.key("back")
    tap(phone, "tab_1")
    assert_screen_ok(phone)                                   # to-dos
    tap(phone, "add_todo")
    assert_screen_ok(phone)                                   # new to-do dialog
    tap(phone, "todo_due_input")
    assert_screen_ok(phone)                                   # due date picker over the new to-do
    tap(phone, "button2")
    tap(phone, "button2")
    tap(phone, "todo_text")
    assert_screen_ok(phone)                                   # to-do detail
    tap(phone, "todo_due_input")
    assert_screen_ok(phone)                                   # its due date picker
    tap(phone, "button2")
    tap(phone, "delete_todo")
    assert_screen_ok(phone)                                   # delete to-do dialog
    tap(phone, "button2")
    phone.key("back")
    phone.set_state({"apps": {"notes": {"notes": [], "todos": []}}})
    tap(phone, "tab_0")
    assert_screen_ok(phone)                                   # no notes


def test_list_puts_pinned_notes_first_then_newest() -> None:
    phone = _phone()
    titles = _titles(phone)
    assert titles[:3] == ["Grocery list", "Wi-Fi and door codes", "Chicago trip packing"]
    assert node(phone, "pinned_header").text == "Pinned"


def test_create_edit_and_pin_a_note() -> None:
    phone = _phone()
    tap(phone, "add_note")
    _type(phone, "note_title", "Parking spot")
    _type(phone, "note_body", "Level 3\nSpot C14")
    tap(phone, "pin_note")
    tap(phone, "save_note")
    note = next(n for n in _state(phone)["notes"] if n["title"] == "Parking spot")
    assert (note["body"], note["pinned"], note["updated"]) == ("Level 3\nSpot C14", True, "2026-03-16 09:00")
    assert phone.current_route() == "/"
    assert _titles(phone)[0] == "Parking spot"
    tap(phone, "note_title_text", "Parking spot")
    _type(phone, "note_body", "\nNear the elevator", clear=False)
    tap(phone, "save_note")
    assert next(n for n in _state(phone)["notes"] if n["id"] == note["id"])["body"].endswith("Near the elevator")
    tap(phone, "note_title_text", "Parking spot")
    tap(phone, "pin_note")
    assert next(n for n in _state(phone)["notes"] if n["id"] == note["id"])["pinned"] is False


def test_empty_new_note_is_discarded_and_back_discards_edits() -> None:
    phone = _phone()
    count = len(_state(phone)["notes"])
    tap(phone, "add_note")
    tap(phone, "save_note")
    assert len(_state(phone)["notes"]) == count and node(phone, "toast").text == "Empty note discarded"
    tap(phone, "note_title_text", "Grocery list")
    _type(phone, "note_body", "nothing")
    phone.key("back")
    phone.key("back")
    assert _state(phone)["notes"][0]["body"].startswith("Milk")


def test_delete_note_needs_confirmation() -> None:
    phone = _phone()
    tap(phone, "note_title_text", "Grocery list")
    tap(phone, "delete_note")
    tap(phone, "button2")
    assert any(n["title"] == "Grocery list" for n in _state(phone)["notes"])
    tap(phone, "delete_note")
    tap(phone, "button1")
    assert not any(n["title"] == "Grocery list" for n in _state(phone)["notes"])
    assert phone.current_route() == "/"


def test_search_matches_titles_and_bodies() -> None:
    phone = _phone()
    tap(phone, "search")
    _type(phone, "search_input", "passport")
    assert node(phone, "result_count").text == "1 note found"
    tap(phone, "search_result")
    assert node(phone, "note_title").text == "Chicago trip packing"


def test_todos_add_complete_reopen_and_delete() -> None:
    phone = _phone()
    tap(phone, "tab_1")
    assert node(phone, "open_count").text == "7 open"
    tap(phone, "add_todo")
    _type(phone, "todo_text_input", "Buy printer ink")
    tap(phone, "todo_due_input")                           # the picker opens on today, Mar 17 2026
    assert node(phone, "month_navigation_fragment_toggle").text == "March 2026"
    tap(phone, "date_picker_day", "18")
    tap(phone, "button1")
    assert node(phone, "todo_due_input").text == "Wed, Mar 18, 2026"
    tap(phone, "button1")
    assert {k: v for k, v in _todo(phone, "Buy printer ink").items() if k != "id"} == \
        {"text": "Buy printer ink", "done": False, "due": "2026-03-18"}
    tap(phone, "todo_check", index=[n.desc for n in parse_nodes(phone.a11y_xml())
                                    if n.short_id == "todo_check"].index("Buy printer ink"))
    assert _todo(phone, "Buy printer ink")["done"] is True
    assert node(phone, "open_count").text == "7 open"
    phone.swipe(540, 1800, 540, 400, 400)                  # the completed section is further down
    tap(phone, "todo_text", "Buy printer ink")             # the row opens the to-do; it does not tick it
    assert phone.current_route().startswith("/todo?id=")
    assert _todo(phone, "Buy printer ink")["done"] is True
    assert node(phone, "todo_done_row").checked
    tap(phone, "todo_done_row")
    assert _todo(phone, "Buy printer ink")["done"] is False
    phone.key("back")
    phone.swipe(540, 600, 540, 2000, 400)
    tap(phone, "todo_text", "Call the plumber")
    tap(phone, "delete_todo")
    assert node(phone, "message").text == "Call the plumber"
    tap(phone, "button1")
    assert phone.current_route() == "/todos"
    assert not any(t["text"] == "Call the plumber" for t in _state(phone)["todos"])


def test_todo_detail_renames_redates_and_clears_the_due_date() -> None:
    phone = _phone()
    tap(phone, "tab_1")
    tap(phone, "todo_text", "Renew passport")
    todo_id = _todo(phone, "Renew passport")["id"]
    _type(phone, "todo_title_input", "Renew passport online")
    _type(phone, "todo_title_input", "")                   # an emptied title keeps the last one
    _type(phone, "todo_title_input", "Renew passport online")
    tap(phone, "todo_due_input")
    tap(phone, "mtrl_picker_header_toggle")
    _type(phone, "mtrl_picker_text_input_date", "04/02/2026")
    tap(phone, "button1")
    todo = next(t for t in _state(phone)["todos"] if t["id"] == todo_id)
    assert todo["text"] == "Renew passport online" and todo["due"] == "2026-04-02"
    tap(phone, "todo_due_clear")
    assert next(t for t in _state(phone)["todos"] if t["id"] == todo_id)["due"] is None
    assert node(phone, "todo_due_input").text == ""
    phone.key("back")
    assert node(phone, "todo_text", "Renew passport online")


def test_a_mistyped_due_date_keeps_the_picker_open() -> None:
    phone = _phone()
    tap(phone, "tab_1")
    tap(phone, "add_todo")
    _type(phone, "todo_text_input", "Call the bank")
    tap(phone, "todo_due_input")
    tap(phone, "mtrl_picker_header_toggle")
    _type(phone, "mtrl_picker_text_input_date", "next week")
    tap(phone, "button1")
    assert node(phone, "textinput_error").text == "Invalid format."
    tap(phone, "button2")
    tap(phone, "button1")
    assert _todo(phone, "Call the bank")["due"] is None


def test_chinese_todo_detail() -> None:
    phone = _phone("zh")
    tap(phone, "tab_1")
    tap(phone, "todo_text")
    assert node(phone, "toolbar_title").text == "待办"
    assert node(phone, "todo_due_input").text == "2026年3月17日 周二" and node(phone, "todo_due_clear").desc == "移除截止日期"
    assert node(phone, text="已完成") and not node(phone, "todo_done_row").checked
    tap(phone, "todo_due_clear")
    assert node(phone, "todo_due_input").desc == "添加截止日期"
    tap(phone, "delete_todo")
    assert node(phone, "button1").text == "删除"


# --- generated worlds ---------------------------------------------------------------------------------

def _world_notes(seed: int, language: str):
    from mobilegym.sim.app import load_app
    from mobilegym.sim.worldgen import World

    world = World(seed, language, load_app)
    return world, world.app_state("notes")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_notes_keep_the_invariants_tasks_rely_on(language: str) -> None:
    import datetime as dt
    import re

    from mobilegym.tasks.notes.app import Notes

    for seed in range(20):
        world, state = _world_notes(seed, language)
        notes, todos = state["notes"], state["todos"]
        now = world.now.strftime("%Y-%m-%d %H:%M")
        assert len({n["title"] for n in notes}) == len(notes)
        assert len({t["text"] for t in todos}) == len(todos)
        assert all(re.fullmatch(r"note_\d{1,2}", n["id"]) for n in notes)
        assert all(re.fullmatch(r"todo_\d{1,2}", t["id"]) for t in todos)
        assert all(n["created"] <= n["updated"] <= now for n in notes)
        reader = Notes(state)
        for fact in ("Garage door code", "Home Wi-Fi password", "Guest Wi-Fi password"):
            assert reader.note_value(fact)
        monday = world.today - dt.timedelta(days=world.today.weekday())
        week = (monday.isoformat(), (monday + dt.timedelta(days=6)).isoformat())
        assert len(reader.ids_due_between(*week)) >= 2
        assert len(todos) - len(reader.ids_due_between(*week)) >= 5
        assert len(reader.open_todos()) >= 2


def test_generated_notes_vary_by_seed() -> None:
    states = [_world_notes(seed, "en")[1] for seed in range(10)]
    assert len({len(s["todos"]) for s in states}) >= 4
    assert len({sum(n["pinned"] for n in s["notes"]) for s in states}) >= 3
    assert len({s["notes"][0]["title"] for s in states}) >= 5


@pytest.mark.parametrize("language, seed", [("en", 1), ("zh", 2), ("zh", 7)])
def test_generated_world_screens_render_inside_the_screen(language: str, seed: int) -> None:
    phone = SimDevice(apps=APPS, language=language)
    phone.reset_state(seed)
    phone.open_app("notes")
    assert_screen_ok(phone)
    tap(phone, "note_title_text")
    assert_screen_ok(phone)
    phone.key("back")
    tap(phone, "tab_1")
    assert_screen_ok(phone)


def test_pinned_preparer_pins_a_drawn_number_of_notes() -> None:
    import random

    from mobilegym.sim.app import Prep, load_app

    phone = SimDevice(apps=APPS)
    phone.reset_state(3)
    doc = phone.get_state()
    counts = set()
    for s in range(12):
        notes = load_app("notes").preparers["pinned"](Prep(doc, random.Random(s), "en"))["apps"]["notes"]["notes"]
        counts.add(sum(n["pinned"] for n in notes))
        assert not all(n["pinned"] for n in notes)
    assert len(counts) >= 3
