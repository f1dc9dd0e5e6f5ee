"""The Browser app: every screen renders cleanly; the address bar opens pages, searches and error pages; tabs,
bookmarks and history change only through their confirmations; generated worlds keep their invariants."""
from __future__ import annotations

import pytest

from mobilegym.envs.browser import web
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("browser", "settings")
LEMON = "https://simmerspoon.com/recipe/834"  # Lemon Garlic Chicken in the canonical world (bookmarked)
SALMON = "https://simmerspoon.com/recipe/543"  # Salmon Teriyaki (not bookmarked)


def _phone(language: str = "en") -> Phone:
    phone = SimDevice(apps=APPS, language=language)
    phone.open_app("browser")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["browser"]


def _tap_desc(phone: Phone, rid: str, desc: str) -> None:
    phone.tap(*next(n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid and n.desc == desc).center)


def _texts(phone: Phone, rid: str) -> list[str]:
    return [n.text for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _address(phone: Phone, text: str) -> None:
    tap(phone, "url_bar")
    phone.type_text(text, clear=True)
    phone.key("enter")


def _active(phone: Phone) -> dict:
    return web.active_tab(_state(phone))


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    for url in [p["url"] for p in _state(phone)["pages"]][:: 4] + [web.search_url("beef"), web.search_url("zzz"),
                                                                    web.NEW_TAB, "https://nowhere.example/"]:
        phone.set_state({"apps": {"browser": {f"tabs[id={_active(phone)['id']}]": {"url": url}}}})
        assert_screen_ok(phone)                                # every kind of page, results, new tab, error
    tap(phone, "menu_button")
    assert_screen_ok(phone)                                    # the menu
    tap(phone, "button2")
    tap(phone, "url_bar")
    phone.type_text("bee")
    assert_screen_ok(phone)                                    # the address bar with suggestions
    phone.key("back")
    phone.key("back")
    for screen in ("/tabs", "/bookmarks", "/history"):
        phone.launch("browser", screen)
        assert_screen_ok(phone)
    tap(phone, "clear_browsing_data")
    assert_screen_ok(phone)                                    # the clear browsing data dialog


def test_the_address_bar_opens_a_page_records_the_visit_and_goes_back_and_forward() -> None:
    phone = _phone()
    start = _active(phone)["url"]
    visits = len(_state(phone)["history"])
    _address(phone, "simmerspoon.com/recipe/834")
    tab = _active(phone)
    assert (tab["url"], tab["title"], tab["host"]) == (LEMON, "Lemon Garlic Chicken", "simmerspoon.com")
    assert _texts(phone, "recipe_cook") and _texts(phone, "page_title") == ["Lemon Garlic Chicken"]
    history = _state(phone)["history"]
    assert len(history) == visits + 1 and history[0]["url"] == LEMON and history[0]["time_ms"] <= phone.get_state()["os"]["time_ms"]
    tap(phone, "page_back")
    assert _active(phone)["url"] == start and _active(phone)["forward"] == [LEMON]
    tap(phone, "menu_button")
    tap(phone, "menu_forward")
    assert _active(phone)["url"] == LEMON and _active(phone)["forward"] == []
    assert len(_state(phone)["history"]) == visits + 1       # back and forward are no new visits


def test_the_back_key_goes_back_in_the_tab_then_leaves_the_app() -> None:
    phone = _phone()
    tab = _active(phone)
    phone.set_state({"apps": {"browser": {f"tabs[id={tab['id']}]": {"back": []}}}})
    _address(phone, LEMON)
    phone.key("back")
    assert _active(phone)["url"] == tab["url"] and phone.current_route() == "/"
    phone.key("back")
    assert phone.get_state()["os"]["foreground"] != "browser"


def test_a_query_searches_the_pages_and_a_result_opens() -> None:
    phone = _phone()
    _address(phone, "garlic chicken")
    assert web.search_query(_active(phone)["url"]) == "garlic chicken"
    assert _texts(phone, "result_title") == ["Lemon Garlic Chicken"]
    tap(phone, "result_title", "Lemon Garlic Chicken")
    assert _active(phone)["url"] == LEMON
    _address(phone, "no such words anywhere")
    assert _texts(phone, "no_results") and not _texts(phone, "result_title")


def test_an_unknown_site_shows_an_error_page_and_is_not_recorded() -> None:
    phone = _phone()
    visits = len(_state(phone)["history"])
    _address(phone, "www.nowhere-at-all.com")
    assert _active(phone)["url"] == "https://www.nowhere-at-all.com" and _texts(phone, "error_code")
    assert len(_state(phone)["history"]) == visits


def test_resolve_tells_pages_addresses_and_queries_apart() -> None:
    state = SimDevice(apps=APPS).get_state()["apps"]["browser"]
    assert web.resolve(state, "HTTPS://www.simmerspoon.com/recipe/834/") == LEMON
    assert web.resolve(state, "simmerspoon.com") == "https://simmerspoon.com/"
    assert web.resolve(state, "example.org/path") == "https://example.org/path"
    assert web.resolve(state, "beef stew") == web.search_url("beef stew")
    assert web.resolve(state, "  ") == web.search_url("")


def test_the_star_bookmarks_a_page_once() -> None:
    phone = _phone()
    _address(phone, SALMON)
    before = len(_state(phone)["bookmarks"])
    tap(phone, "menu_button")
    tap(phone, "menu_bookmark")
    marks = _state(phone)["bookmarks"]
    assert len(marks) == before + 1 and marks[-1]["url"] == SALMON and marks[-1]["title"] == "Salmon Teriyaki"
    tap(phone, "menu_button")
    assert node(phone, "menu_bookmark").desc == "Edit bookmark"
    tap(phone, "menu_bookmark")                               # a bookmarked page's star opens the bookmarks
    assert phone.current_route() == "/bookmarks" and len(_state(phone)["bookmarks"]) == before + 1


def test_the_star_is_off_where_there_is_no_page() -> None:
    phone = _phone()
    _address(phone, "beef")
    tap(phone, "menu_button")
    before = len(_state(phone)["bookmarks"])
    tap(phone, "menu_bookmark")
    assert len(_state(phone)["bookmarks"]) == before


def test_deleting_a_bookmark_asks_first() -> None:
    phone = _phone()
    phone.launch("browser", "/bookmarks")
    title = node(phone, "bookmark_item").desc                 # the newest bookmark, at the top
    _tap_desc(phone, "delete_bookmark", f"Delete bookmark {title}")
    tap(phone, "button2")
    assert any(b["title"] == title for b in _state(phone)["bookmarks"])
    _tap_desc(phone, "delete_bookmark", f"Delete bookmark {title}")
    tap(phone, "button1")
    titles = [b["title"] for b in _state(phone)["bookmarks"]]
    assert title not in titles and len(titles) == 11


def test_a_bookmark_opens_in_the_active_tab() -> None:
    phone = _phone()
    phone.launch("browser", "/bookmarks")
    _tap_desc(phone, "bookmark_item", "Echoes of Summer")
    assert phone.current_route() == "/" and _active(phone)["title"] == "Echoes of Summer"


def test_tabs_switch_close_and_close_all_after_confirming() -> None:
    phone = _phone()
    tap(phone, "tab_switcher")
    assert _texts(phone, "toolbar_title") == ["7 tabs"]
    _tap_desc(phone, "tab_card", "High school robotics team heads to world finals · harbordaily.com")
    assert _state(phone)["active_tab"] == "tab_1" and phone.current_route() == "/"
    tap(phone, "tab_switcher")
    _tap_desc(phone, "close_tab", "Close High school robotics team heads to world finals")
    state = _state(phone)
    assert [t["id"] for t in state["tabs"]] == ["tab_2", "tab_3", "tab_4", "tab_5", "tab_6", "tab_7"] and state["active_tab"] == "tab_2"
    tap(phone, "tabs_menu")
    tap(phone, "close_all_tabs")
    tap(phone, "button2")
    assert len(_state(phone)["tabs"]) == 6
    tap(phone, "tabs_menu")
    tap(phone, "close_all_tabs")
    tap(phone, "button1")
    assert _state(phone)["tabs"] == [] and _state(phone)["active_tab"] is None and _texts(phone, "empty")
    tap(phone, "new_tab")
    state = _state(phone)
    assert len(state["tabs"]) == 1 and state["tabs"][0]["url"] == web.NEW_TAB and state["active_tab"] == state["tabs"][0]["id"]
    _address(phone, "beef")                                   # the new tab browses
    assert web.search_query(_active(phone)["url"]) == "beef"


def test_history_removes_one_visit_and_filters() -> None:
    phone = _phone()
    phone.launch("browser", "/history")
    first = _state(phone)["history"][0]
    _tap_desc(phone, "remove_history_entry", f"Remove {first['title']}")
    assert first not in _state(phone)["history"] and len(_state(phone)["history"]) == 57
    tap(phone, "history_search")
    phone.type_text("openpedia")
    assert all("openpedia.org" in n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == "history_item")
    assert _texts(phone, "history_day")


@pytest.mark.parametrize("span, hours", [("hour", 1), ("day", 24), ("week", 24 * 7)])
def test_clear_browsing_data_removes_only_its_time_range(span: str, hours: int) -> None:
    phone = _phone()
    now = phone.get_state()["os"]["time_ms"]
    before = _state(phone)["history"]
    phone.launch("browser", "/history")
    tap(phone, "clear_browsing_data")
    tap(phone, f"range_{span}")
    tap(phone, "button1")
    after = _state(phone)["history"]
    assert after == [v for v in before if v["time_ms"] < now - hours * web.HOUR_MS]


def test_clear_browsing_data_cancelled_keeps_everything() -> None:
    phone = _phone()
    before = _state(phone)["history"]
    phone.launch("browser", "/history")
    tap(phone, "clear_browsing_data")
    tap(phone, "range_all")
    tap(phone, "button2")
    assert _state(phone)["history"] == before


def test_chinese_labels() -> None:
    phone = _phone("zh")
    tap(phone, "menu_button")
    assert {n.text for n in parse_nodes(phone.a11y_xml())} >= {"新标签页", "历史记录", "书签"}
    tap(phone, "button2")
    phone.launch("browser", "/history")
    assert _texts(phone, "history_day")[0].startswith("今天 - ")


@pytest.mark.parametrize("seed, language", [(0, "en"), (1, "zh"), (7, "en"), (11, "zh")])
def test_generated_worlds_keep_their_invariants(seed: int, language: str) -> None:
    phone = SimDevice(apps=APPS, language=language)
    phone.reset_state(seed)
    state, now = _state(phone), phone.get_state()["os"]["time_ms"]
    urls = [p["url"] for p in state["pages"]]
    assert len(set(urls)) == len(urls) and len({p["title"] for p in state["pages"]}) == len(urls)
    assert 20 <= len(urls) <= 60 and 4 <= len(state["sites"]) <= 6
    assert 3 <= len(state["tabs"]) <= 8 and 5 <= len(state["bookmarks"]) <= 15 and 20 <= len(state["history"]) <= 60
    assert len({b["url"] for b in state["bookmarks"]}) == len(state["bookmarks"])
    times = [v["time_ms"] for v in state["history"]]
    assert times == sorted(times, reverse=True) and times[0] < now
    for item in [*state["tabs"], *state["bookmarks"], *state["history"]]:
        page = web.page_at(state, item["url"])
        assert page is not None and (item["title"], item["host"]) == (page["title"], page["host"])
    assert web.active_tab(state) is not None
