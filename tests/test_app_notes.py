"""The Notes app: every screen renders cleanly; notes and to-dos are created, edited, pinned, searched, deleted."""
from __future__ import annotations

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.oracle import Driver
from mobilegym.screen_text import parse_nodes
from mobilegym.sim.phone import Phone

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("notes", "settings")


def _phone(language: str = "en") -> Phone:
    phone = Phone(apps=APPS, language=language)
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
    tap(phone, "cancel")
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
    tap(phone, "cancel")
    tap(phone, "delete_todo")
    assert_screen_ok(phone)                                   # delete to-do dialog
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
    tap(phone, "cancel")
    assert any(n["title"] == "Grocery list" for n in _state(phone)["notes"])
    tap(phone, "delete_note")
    tap(phone, "confirm_delete")
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
    _type(phone, "todo_due_input", "2026-3-18")
    tap(phone, "save_todo")
    assert {k: v for k, v in _todo(phone, "Buy printer ink").items() if k != "id"} == \
        {"text": "Buy printer ink", "done": False, "due": "2026-03-18"}
    tap(phone, "todo_text", "Buy printer ink")
    assert _todo(phone, "Buy printer ink")["done"] is True
    assert node(phone, "open_count").text == "7 open"
    phone.swipe(540, 1800, 540, 400, 400)                  # the completed section is further down
    tap(phone, "todo_text", "Buy printer ink")
    assert _todo(phone, "Buy printer ink")["done"] is False
    phone.swipe(540, 600, 540, 2000, 400)
    tap(phone, "delete_todo")
    assert node(phone, "dialog_message").text == "Call the plumber"
    tap(phone, "confirm_delete")
    assert not any(t["text"] == "Call the plumber" for t in _state(phone)["todos"])


def test_bad_due_date_is_rejected() -> None:
    phone = _phone()
    tap(phone, "tab_1")
    tap(phone, "add_todo")
    _type(phone, "todo_text_input", "Call the bank")
    _type(phone, "todo_due_input", "next week")
    before = _state(phone)["todos"]
    tap(phone, "save_todo")
    assert _state(phone)["todos"] == before
    assert node(phone, "toast").text == "Enter the due date as YYYY-MM-DD"


def test_scripted_driver_never_taps_through_the_floating_button() -> None:
    """A row's ✕ that starts under the + button is scrolled clear before the Driver taps it."""
    env = gym.make("MobileGym-v0", task="notes.add_oat_milk_todo", obs_parts=("a11y",), world="canonical")
    obs, info = env.reset(seed=0)
    driver = Driver(env, obs, info)
    driver.open_app("Notes")
    driver.tap(rid="tab_1")
    fab, target = driver.find(rid="add_todo"), driver.find(desc="Delete Pay electricity bill")
    assert fab is not None and target is not None
    x1, y1, x2, y2 = fab.bounds
    assert x1 <= target.center[0] < x2 and y1 <= target.center[1] < y2
    driver.tap(desc="Delete Pay electricity bill")
    assert driver.texts("dialog_message") == ["Pay electricity bill"]


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
    phone = Phone(apps=APPS, language=language)
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

    phone = Phone(apps=APPS)
    phone.reset_state(3)
    doc = phone.get_state()
    counts = set()
    for s in range(12):
        notes = load_app("notes").preparers["pinned"](Prep(doc, random.Random(s), "en"))["apps"]["notes"]["notes"]
        counts.add(sum(n["pinned"] for n in notes))
        assert not all(n["pinned"] for n in notes)
    assert len(counts) >= 3
