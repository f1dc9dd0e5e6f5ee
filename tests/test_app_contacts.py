"""The Contacts app: every screen renders cleanly, and its features work through the Phone."""
from __future__ import annotations

import pytest

from mobilegym.screen_text import parse_nodes
from mobilegym.sim.ui import fonts
from mobilegym.sim.clock import DEFAULT_START_MS
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .uitools import node, tap

APPS = ("contacts", "messages", "answer_sheet", "settings")
SCREENS = ["/", "/favorites", "/search", "/contact?id=contact_01", "/contact?id=contact_14", "/contact?id=gone",
           "/edit", "/edit?id=contact_03", "/edit?phone=%2B1+347-555-0183"]


@pytest.fixture
def phone() -> Phone:
    return SimDevice(apps=APPS)


def assert_screen_clean(phone: Phone) -> None:
    """Every a11y node lies on the screen, and every drawn text fits the screen's width."""
    width, height = phone.screen_size
    for n in parse_nodes(phone.a11y_xml()):
        x1, y1, x2, y2 = n.bounds
        assert 0 <= x1 <= x2 <= width and 0 <= y1 <= y2 <= height, (phone.current_route(), n)
    screen_w = phone.size_dp[0]
    for item in phone.frame().items():
        if item[0] == "text":
            _, x, _, text, size, _, bold = item
            assert -0.5 <= x and x + fonts.text_width(text, size, bold) <= screen_w + 0.5, (phone.current_route(), text)


def texts(phone: Phone, rid: str) -> list[str]:
    return [n.text for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def contacts(phone: Phone) -> list[dict]:
    return phone.get_state()["apps"]["contacts"]["contacts"]


def by_name(phone: Phone, name: str) -> dict:
    return next(c for c in contacts(phone) if c["name"] == name)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_screen_renders(language: str) -> None:
    phone = SimDevice(apps=APPS, language=language)
    for route in SCREENS:
        phone.reset_state()
        phone.launch("contacts", route)
        assert phone.current_app() == "contacts"
        assert_screen_clean(phone)
        assert phone.screenshot().shape == (phone.screen_size[1], phone.screen_size[0], 3)
    phone.reset_state()
    phone.launch("contacts", "/contact?id=contact_01")
    tap(phone, "delete_contact")
    assert_screen_clean(phone)
    tap(phone, "button2")
    tap(phone, "phone_item")
    assert phone.current_route().startswith("/call")
    assert_screen_clean(phone)


def test_list_is_alphabetical_with_sections_and_upcoming_birthdays(phone: Phone) -> None:
    phone.open_app("contacts")
    names = texts(phone, "contact_name")
    assert names == sorted(names, key=str.casefold) and names[0] == "Alice Chen"
    assert texts(phone, "section_header")[:3] == ["A", "B", "C"]
    assert texts(phone, "upcoming_name") == ["Grace Liu", "Noah Schwartz", "Alice Chen"]
    assert texts(phone, "upcoming_date")[0] == "Thu, Mar 19"


def test_add_contact_validates_and_saves(phone: Phone) -> None:
    phone.open_app("contacts")
    tap(phone, "add_contact")
    tap(phone, "save_contact")
    assert node(phone, "toast").text == "Enter a name"
    tap(phone, "name_input")
    phone.type_text("Rosa Alvarez")
    tap(phone, "phone_0_input")
    phone.type_text("(415) 555 0777")
    tap(phone, "add_phone")
    tap(phone, "phone_1_input")
    phone.type_text("+1 415-555-0778")
    tap(phone, "phone_1_work")
    tap(phone, "birthday_input")                           # the date picker opens on today
    assert node(phone, "month_navigation_fragment_toggle").text == "March 2026"
    tap(phone, "mtrl_picker_header_toggle")
    tap(phone, "mtrl_picker_text_input_date")
    phone.type_text("13/01/1990", clear=True)
    tap(phone, "button1")
    assert node(phone, "textinput_error").text == "Invalid format."
    tap(phone, "mtrl_picker_text_input_date")
    phone.type_text("02/14/1990", clear=True)
    tap(phone, "button1")
    assert node(phone, "birthday_input").text == "February 14, 1990"
    tap(phone, "save_contact")
    rosa = by_name(phone, "Rosa Alvarez")
    assert rosa["phones"] == [{"type": "mobile", "number": "(415) 555 0777"}, {"type": "work", "number": "+1 415-555-0778"}]
    assert rosa["birthday"] == "1990-02-14" and rosa["favorite"] is False and rosa["id"] not in {"contact_01"}
    assert phone.current_route() == f"/contact?id={rosa['id']}"
    assert node(phone, "birthday").text == "February 14, 1990"


def test_edit_keeps_other_fields_and_cancel_discards(phone: Phone) -> None:
    phone.launch("contacts", "/contact?id=contact_03")
    tap(phone, "edit_contact")
    tap(phone, "company_input")
    phone.type_text("Contoso", clear=True)
    tap(phone, "navigate_up")
    assert by_name(phone, "Carla Mendes")["company"] == "Northwind Traders"
    tap(phone, "edit_contact")
    tap(phone, "phone_1_remove")
    tap(phone, "email_input")
    phone.type_text("carla@contoso.com", clear=True)
    tap(phone, "save_contact")
    carla = by_name(phone, "Carla Mendes")
    assert carla["email"] == "carla@contoso.com" and len(carla["phones"]) == 1
    assert carla["notes"] == "Allergic to peanuts" and phone.current_route() == "/contact?id=contact_03"


def test_birthday_is_picked_on_its_month_and_can_be_removed() -> None:
    phone = SimDevice(apps=APPS, language="zh")
    phone.launch("contacts", "/contact?id=contact_03")     # born 1994-07-21
    tap(phone, "edit_contact")
    assert node(phone, "birthday_input").text == "1994年7月21日"
    tap(phone, "birthday_input")                           # the picker opens on the birthday's month
    assert node(phone, "month_navigation_fragment_toggle").text == "1994年7月"
    tap(phone, "month_navigation_next")
    tap(phone, "date_picker_day", "2")
    tap(phone, "button2")                                  # cancelled: unchanged
    assert node(phone, "birthday_input").text == "1994年7月21日"
    tap(phone, "birthday_clear")
    assert node(phone, "birthday_input").desc == "添加生日"
    tap(phone, "save_contact")
    assert by_name(phone, "Carla Mendes")["birthday"] == ""
    tap(phone, "edit_contact")
    tap(phone, "birthday_input")                           # unset: the picker opens on today
    assert node(phone, "month_navigation_fragment_toggle").text == "2026年3月"
    tap(phone, "date_picker_day", "1")
    tap(phone, "button1")
    assert node(phone, "birthday_input").text == "2026年3月1日"
    tap(phone, "save_contact")
    assert by_name(phone, "Carla Mendes")["birthday"] == "2026-03-01"


def test_favourite_toggle_and_tab(phone: Phone) -> None:
    phone.open_app("contacts")
    tap(phone, "contact_name", "Ben Okafor")
    assert node(phone, "favorite_toggle").desc == "Add to favourites"
    tap(phone, "favorite_toggle")
    assert by_name(phone, "Ben Okafor")["favorite"] is True
    assert node(phone, "favorite_toggle").selected
    phone.key("back")
    tap(phone, "tab_1")
    assert phone.current_route() == "/favorites"
    assert "Ben Okafor" in texts(phone, "contact_name") and len(texts(phone, "contact_name")) == 6


def test_delete_needs_confirmation(phone: Phone) -> None:
    phone.launch("contacts", "/contact?id=contact_10")
    tap(phone, "delete_contact")
    tap(phone, "button2")
    assert len(contacts(phone)) == 21
    tap(phone, "delete_contact")
    assert node(phone, "alertTitle").text == "Delete Jack Wilson?"
    tap(phone, "button1")
    assert len(contacts(phone)) == 20 and all(c["id"] != "contact_10" for c in contacts(phone))
    assert phone.current_route() == "/"


@pytest.mark.parametrize("query, expected", [("olivia", "Olivia Brown"), ("555-0177", "Maya Patel"),
                                             ("harborbank", "Tom Becker"), ("Summit", "Zoe Martin")])
def test_search_matches_name_number_email_and_company(phone: Phone, query: str, expected: str) -> None:
    phone.open_app("contacts")
    tap(phone, "search")
    tap(phone, "search_input")
    phone.type_text(query)
    assert texts(phone, "contact_name") == [expected]
    tap(phone, "contact_name", expected)
    assert node(phone, "contact_name").text == expected


def test_search_without_hits_says_so(phone: Phone) -> None:
    phone.launch("contacts", "/search")
    tap(phone, "search_input")
    phone.type_text("zzz")
    assert node(phone, "no_results").text == "No contacts match “zzz”"


def test_calls_are_logged_with_duration(phone: Phone) -> None:
    phone.launch("contacts", "/contact?id=contact_01")
    tap(phone, "phone_item", index=1)
    assert node(phone, "call_number").text == "Work +1 415-555-0190"
    phone.wait(30)
    tap(phone, "end_call")
    call = phone.get_state()["apps"]["contacts"]["calls"][-1]
    assert call["number"] == "+1 415-555-0190" and call["contact_id"] == "contact_01"
    assert call["time_ms"] > DEFAULT_START_MS and call["duration_s"] >= 30
    assert phone.current_route() == "/contact?id=contact_01"


def test_message_button_opens_messages_composer(phone: Phone) -> None:
    phone.launch("contacts", "/contact?id=contact_13")
    tap(phone, "message_button")
    assert phone.current_app() == "messages" and phone.current_route().startswith("/compose")
    assert node(phone, "recipient_input").text == "+1 312-555-0109"
    assert node(phone, "recipient_name").text == "Maya Patel · +1 312-555-0109"


# --- generated worlds -------------------------------------------------------------------------------

WORLD_SEEDS = range(30)


def _world(seed: int, language: str):
    from mobilegym.sim.app import load_app
    from mobilegym.sim.worldgen import World

    return World(seed, language, load_app)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_contacts_keep_the_invariants_tasks_rely_on(language: str) -> None:
    import datetime as dt

    from mobilegym.envs.contacts.numbers import number_key
    from mobilegym.sim.clock import to_ms

    counts = set()
    for seed in WORLD_SEEDS:
        world = _world(seed, language)
        state = world.app_state("contacts")
        people = state["contacts"]
        names = [c["name"] for c in people]
        assert len(names) == len(set(names)) and len(people) == len(world.contacts())
        keys = [number_key(p["number"]) for c in people for p in c["phones"]]
        assert len(keys) == len(set(keys)), "two contacts share a number"
        for c in people:
            assert c["phones"] and len({p["type"] for p in c["phones"]}) == len(c["phones"])
            if c["birthday"]:
                assert dt.date.fromisoformat(c["birthday"]) < world.today
        favorites = sum(c["favorite"] for c in people)
        assert 1 <= favorites < len(people)
        counts.add(favorites)
        domains: dict[str, list[bool]] = {}
        for c in people:
            if c["email"]:
                domains.setdefault(c["email"].split("@")[1], []).append(c["favorite"])
        assert any(len(f) >= 2 and not all(f) for f in domains.values())
        assert sum(bool(c["birthday"]) for c in people) >= 2
        assert all(call["time_ms"] < to_ms(world.now) for call in state["calls"])
        assert [c["time_ms"] for c in state["calls"]] == sorted(c["time_ms"] for c in state["calls"])
        if language == "zh":
            assert all(any("\u4e00" <= ch <= "\u9fff" for ch in n) for n in names)
    assert len(counts) >= 6


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_world_screens_render(language: str) -> None:
    phone = SimDevice(apps=APPS, language=language)
    for seed in (0, 1, 2):
        phone.reset_state(seed)
        people = contacts(phone)
        longest = max(people, key=lambda c: len(c["name"]) + len(c["notes"]) + len(c["email"]))
        for route in ("/", "/favorites", f"/contact?id={longest['id']}", f"/edit?id={longest['id']}"):
            phone.launch("contacts", route)
            assert_screen_clean(phone)
        phone.launch("contacts", "/")
        assert len(texts(phone, "upcoming_name")) >= 2


def test_contact_preparers_work_in_canonical_and_generated_worlds() -> None:
    import random

    from mobilegym.envs.contacts import APP
    from mobilegym.sim.app import Prep

    for world, seed in (("canonical", None), ("generated", 4), ("generated", 5)):
        phone = SimDevice(apps=APPS, world=world)
        phone.reset_state(seed)
        prep = Prep(phone.get_state(), random.Random(1), "en")
        phone.set_state(APP.preparers["contact"](prep, name="Tom Becker", id="contact_tom",
                                                 fields={"company": {"pick": "company"}}))
        toms = [c for c in contacts(phone) if c["name"] == "Tom Becker"]
        assert len(toms) == 1 and toms[0]["id"] == "contact_tom" and toms[0]["company"]
        prep = Prep(phone.get_state(), random.Random(2), "en")
        phone.set_state(APP.preparers["duplicate"](prep, name="Ben Okafor", id="contact_ben", copy_id="contact_dup"))
        bens = [c for c in contacts(phone) if c["name"] == "Ben Okafor"]
        assert [b["id"] for b in bens] == ["contact_ben", "contact_dup"] and bens[0]["email"] and not bens[1]["email"]
