"""Fidelity: screens behave as the real apps' do where a player would notice, and what a task needs shows.

Each check guards a class of fault found by playing from screenshots: typed text that reaches no field,
a conversation that hides what was just sent, a result count for a search nobody ran.
"""
from __future__ import annotations

import pytest

from mobilegym.screen_text import Node, parse_nodes
from mobilegym.sim.app import SimApp, installed_apps
from mobilegym.sim.phone import Phone

from .uitools import node, tap

APPS: dict[str, SimApp] = installed_apps()
KEYBOARD = "com.google.android.inputmethod.latin"
# pages that show their content under a search box, which takes the focus when tapped (as on Android): Gallery's
# Search tab (its bottom-navigation page) and Browser's history (the list, with a box to filter it)
UNFOCUSED = {("gallery", "/search"): "search_input", ("browser", "/history"): "history_search"}


def _phone(seed: int = 37, language: str = "en") -> Phone:
    phone = Phone(language=language)
    phone.reset_state(seed)
    return phone


def _nodes(phone: Phone) -> list[Node]:
    return parse_nodes(phone.a11y_xml())


def _search_screens() -> list[tuple[str, str]]:
    """Every (app, path) whose screen, opened bare, holds a search field (found by opening every screen)."""
    phone, found = _phone(), []
    for app_id, app in APPS.items():
        for path in app.screens:
            try:
                phone.launch(app_id, path)
            except Exception:  # a screen that needs route params (an id) cannot open bare
                continue
            fields = [n for n in _nodes(phone) if n.cls == "android.widget.EditText"]
            if fields and "search" in fields[0].short_id and (app_id, path) not in UNFOCUSED:
                found.append((app_id, path))
    return found


SEARCH_SCREENS = _search_screens()


def test_every_app_with_a_search_screen_is_covered() -> None:
    apps = {a for a, _ in SEARCH_SCREENS}
    assert {"mail", "shop", "contacts", "messages", "notes", "files", "maps", "video", "weather"} <= apps


@pytest.mark.parametrize("app_id, path", SEARCH_SCREENS)
def test_a_search_screen_opens_focused_and_typing_reaches_it(app_id: str, path: str) -> None:
    phone = _phone()
    phone.launch(app_id, path)
    nodes = _nodes(phone)
    field = next(n for n in nodes if n.cls == "android.widget.EditText")
    assert field.focused, f"{app_id}{path}: the search field has no focus"
    assert any(n.package == KEYBOARD for n in nodes), f"{app_id}{path}: no keyboard"
    assert phone.type_text("rain"), f"{app_id}{path}: typed text reached no field"
    assert node(phone, field.short_id).text == "rain"


@pytest.mark.parametrize("app_id, path", sorted(UNFOCUSED))
def test_a_page_under_a_search_box_waits_for_a_tap(app_id: str, path: str) -> None:
    phone = _phone()
    phone.launch(app_id, path)
    assert not phone.type_text("x")
    tap(phone, UNFOCUSED[app_id, path])
    assert phone.type_text("beach")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_pickers_with_a_search_box_open_focused(language: str) -> None:
    phone = _phone(language=language)
    phone.launch("trains")
    tap(phone, "from_station")
    assert node(phone, "station_search").focused and phone.type_text("a")
    phone.launch("maps", "/directions")
    tap(phone, "route_to")
    assert node(phone, "route_search_input").focused


def test_shop_search_counts_no_results_before_a_search() -> None:
    phone = _phone()
    phone.launch("shop")
    tap(phone, "search_bar")
    ids = {n.short_id for n in _nodes(phone)}
    assert "result_count" not in ids and "product_item" not in ids
    phone.type_text("a")
    assert node(phone, "result_count").text.endswith(" results")
    phone.type_text("", clear=True)
    assert "result_count" not in {n.short_id for n in _nodes(phone)}


# --- lists that grow at the bottom --------------------------------------------------------------------------

CONVERSATIONS = [("chat", "chats", "/chat"), ("messages", "conversations", "/thread")]


def _longest(phone: Phone, app_id: str, key: str) -> dict:
    return max(phone.peek_state()["apps"][app_id][key], key=lambda c: len(c["messages"]))


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _shown(phone: Phone, text: str) -> bool:
    """A node with ``text`` lies wholly inside the message list's bounds."""
    nodes = _nodes(phone)
    box = next(n for n in nodes if n.short_id == "message_list").bounds
    return any(text in n.text and _inside(n.bounds, box) for n in nodes)


@pytest.mark.parametrize("app_id, key, path", CONVERSATIONS)
@pytest.mark.parametrize("seed", [37, 5])
def test_a_conversation_keeps_its_newest_message_in_view(app_id: str, key: str, path: str, seed: int) -> None:
    phone = _phone(seed)
    conv = _longest(phone, app_id, key)
    phone.launch(app_id, f"{path}?id={conv['id']}")
    last = next(m for m in reversed(conv["messages"]) if m.get("text"))["text"]
    assert _shown(phone, last.split("\n")[0][:20]), "the conversation opens away from its newest message"
    tap(phone, "message_input")                                # the keyboard takes room: the end stays in view
    assert _shown(phone, last.split("\n")[0][:20])
    phone.type_text("Sent with the keyboard up")
    phone.key("enter")                                         # the keyboard's Send key: the keyboard stays
    assert any(n.package == KEYBOARD for n in _nodes(phone))
    assert _shown(phone, "Sent with the keyboard up")
    phone.swipe(540, 800, 540, 1400, 300)                      # scrolled back up, then a second message
    tap(phone, "message_input")
    phone.type_text("And another")
    tap(phone, "send")
    assert _shown(phone, "And another")
