"""Fidelity: screens behave as the real apps' do where a player would notice, and what a task needs shows.

Each check guards a class of fault found by playing from screenshots: typed text that reaches no field,
a conversation that hides what was just sent, a result count for a search nobody ran.
"""
from __future__ import annotations

import datetime as dt
import re

import pytest

from mobilegym.screen_text import Node, parse_nodes
from mobilegym.sim import ui
from mobilegym.sim.app import SimApp, installed_apps
from mobilegym.sim.clock import from_ms
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .uitools import node, tap

APPS: dict[str, SimApp] = installed_apps()
KEYBOARD = "com.google.android.inputmethod.latin"
# pages that show their content under a search box, which takes the focus when tapped (as on Android): Gallery's
# Search tab (its bottom-navigation page) and Browser's history (the list, with a box to filter it)
UNFOCUSED = {("gallery", "/search"): "search_input", ("browser", "/history"): "history_search"}


def _phone(seed: int = 37, language: str = "en") -> Phone:
    phone = SimDevice(language=language)
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


# --- facts a screenshot shows whole ----------------------------------------------------------------------------

def _cut_texts(phone: Phone) -> list[str]:
    """The texts drawn cut with an ellipsis on the current screen (what a screenshot cannot read whole): a text
    view is laid out, and so has lines, only when it is on screen."""
    return [view.value for root in phone.frame().app_roots() for view in root.walk()
            if isinstance(view, ui.Text) and view._lines and view._lines[-1].endswith("…")
            and not view.value.endswith("…")]


def _trains_screens(phone: Phone) -> dict[str, list[str]]:
    """The cut texts of the Trains screens a booking passes through, on the route between the two stations with
    the longest names (the booking screen is left open)."""
    stations = sorted(phone.peek_state()["apps"]["trains"]["stations"], key=lambda s: (-len(s["name"]), s["id"]))
    phone.launch("trains", "/")
    tap(phone, "from_station")
    phone.type_text(stations[0]["name"])                      # the picker's search box has the focus
    phone.tap(*next(n for n in _nodes(phone) if n.short_id == "station_option" and n.desc == stations[0]["name"]).center)
    cut = {"search form": _cut_texts(phone)}
    day = (from_ms(phone.time_ms()).date() + dt.timedelta(days=2)).isoformat()
    phone.launch("trains", f"/results?from={stations[0]['id']}&to={stations[1]['id']}&date={day}")
    cut["results"] = _cut_texts(phone)
    tap(phone, "train_item")
    cut["train"] = _cut_texts(phone)
    phone.tap(*next(n for n in _nodes(phone) if n.short_id.startswith("book_") and n.clickable).center)
    cut["book"] = _cut_texts(phone)
    return cut


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("seed", range(6))
def test_train_and_forum_facts_show_whole(seed: int, language: str) -> None:
    """Stations, dates and routes on Trains' results and booking screens, and authors and titles in Forum's feed,
    are what tasks ask about: no text there is cut with an ellipsis."""
    phone = _phone(seed, language)
    cut = _trains_screens(phone)
    phone.launch("forum")
    cut["forum feed"] = _cut_texts(phone)
    assert not {k: v for k, v in cut.items() if v}


def test_forum_feed_shows_each_posts_author_on_screen() -> None:
    phone = _phone()
    phone.launch("forum")
    nodes = _nodes(phone)
    rows = [n for n in nodes if n.short_id == "post_item"][:-1]  # the last may show only its title
    shown = " ".join(n.text for n in nodes)
    assert rows
    for row in rows:
        author = re.search(r" · by (.+?) · ", row.desc).group(1)
        assert author in shown, f"{author} is only in the content-desc"


@pytest.mark.parametrize("language, mark", [("en", " (Me)"), ("zh", "（本人）")])
def test_the_booking_screen_marks_the_owner(language: str, mark: str) -> None:
    phone = _phone(690, language)
    _trains_screens(phone)
    owner = next(p for p in phone.peek_state()["apps"]["trains"]["passengers"] if p["self"])
    labels = [n.text for n in _nodes(phone) if n.short_id == "passenger_check"]
    assert owner["name"] + mark in labels and sum(mark in t for t in labels) == 1
    margin = 12 * phone.screen_size[0] / 360                   # the checkboxes keep off the screen's edge
    assert all(n.bounds[0] >= margin for n in _nodes(phone) if n.short_id == "passenger_check")


# --- count and noun agree ------------------------------------------------------------------------------------

ONE_PLURAL = re.compile(r"(?<![\d.,])1 (?!(?:bus|class|gas|plus|pass)\b)([a-z]{2,}s)\b")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_screen_reads_one_with_a_plural(seed: int) -> None:
    """"1 items", "1 comments": every bare screen of every app, on worlds where small counts occur."""
    phone, bad = _phone(seed), []
    for app_id, app in APPS.items():
        for path in app.screens:
            try:
                phone.launch(app_id, path)
            except Exception:  # needs route params
                continue
            for n in _nodes(phone):
                for text in (n.text, n.desc):
                    if ONE_PLURAL.search(text):
                        bad.append((app_id, path, text))
    assert not bad


# --- one reading of each instruction ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_the_quickest_recipe_is_quickest_by_either_reading(seed: int) -> None:
    """"The shortest cooking time": the recipe page shows Prep and Cook; the prepared world makes the recipe with
    the shortest Cook also the one with the shortest Prep + Cook, so both readings name it."""
    from mobilegym.tasks.browser.app import Browser

    phone = _phone(seed)
    phone.set_state(Browser.prepare_state_with_one_quickest_recipe(phone.copy_state()["apps"]["browser"]))
    recipes = [p for p in phone.peek_state()["apps"]["browser"]["pages"] if p["kind"] == "recipe"]
    by_cook = sorted(recipes, key=lambda p: p["cook_min"])
    by_total = sorted(recipes, key=lambda p: p["cook_min"] + p["prep_min"])
    assert by_cook[0] is by_total[0]
    assert by_cook[0]["cook_min"] < by_cook[1]["cook_min"]
    assert by_total[0]["cook_min"] + by_total[0]["prep_min"] < by_total[1]["cook_min"] + by_total[1]["prep_min"]


# --- instructions read as a person writes ----------------------------------------------------------------------

ARTICLE_SLOT = re.compile(r"\b(?:the|a|an) \{")
DOUBLED_ARTICLE = re.compile(r"\b(?:the|a|an) (?:The|A|An) ")


def _tasks_with_an_article_before_a_value() -> list[str]:
    from .suites import REGISTRY, TASK_IDS

    found = []
    for task_id in TASK_IDS:
        cls = getattr(REGISTRY.refs[task_id], "cls", None)
        templates = cls.templates_for("en") if cls is not None and cls.templates else []
        if any(ARTICLE_SLOT.search(t) for t in templates):
            found.append(task_id)
    return found


def test_a_value_starting_with_an_article_replaces_the_templates() -> None:
    from mobilegym.judge.state.templating import render_prose

    title = {"title": "The Lighthouse Keeper's Daughter"}
    assert render_prose("Order me the {title}.", title) == "Order me The Lighthouse Keeper's Daughter."
    assert render_prose("Find a {title}", {"title": "An Old Map"}) == "Find An Old Map"
    assert render_prose("Open the {title}", {"title": "Theory"}) == "Open the Theory"
    assert render_prose("{title} is the one", title) == "The Lighthouse Keeper's Daughter is the one"


@pytest.mark.parametrize("task_id", _tasks_with_an_article_before_a_value())
def test_no_instruction_doubles_an_article(task_id: str) -> None:
    import gymnasium as gym

    env = gym.make("MobileGym-v0", task=task_id, obs_parts=("instruction",))
    try:
        for seed in range(6):
            obs, _ = env.reset(seed=seed)
            assert not DOUBLED_ARTICLE.search(obs["instruction"]), obs["instruction"]
    finally:
        env.close()


@pytest.mark.parametrize("seed", [512, *range(8)])
def test_the_friends_money_is_their_newest_transfer(seed: int) -> None:
    """OrderForFriendAndChange: "the money they sent me" is the friend's newest transfer in Wallet (a world
    transfer from them later the same day once made the plan and a player read another amount)."""
    import gymnasium as gym

    env = gym.make("MobileGym-v0", task="shop.OrderForFriendAndChange", obs_parts=("instruction",))
    _, info = env.reset(seed=seed)
    txns = env.unwrapped.device.peek_state()["apps"]["wallet"]["transactions"]
    theirs = [t for t in txns if t["kind"] == "transfer_in" and t["counterparty"] == info["params"]["name"]]
    env.close()
    assert max(theirs, key=lambda t: (t["date"], t["time"]))["id"] == "txn_task_money"


# --- text sits in the middle of its control ---------------------------------------------------------------------

def _ink_rows(phone: Phone, bounds: tuple[int, int, int, int]) -> tuple[int, int]:
    """The first and last pixel rows inside ``bounds`` (inset from the rounded edge) holding the label's ink."""
    import numpy as np

    x1, y1, x2, y2 = bounds
    box = phone.screenshot()[y1 + 3:y2 - 3, x1 + (x2 - x1) // 4:x2 - (x2 - x1) // 4].astype(int)
    background = box[0, 0]
    rows = np.nonzero((np.abs(box - background).sum(axis=2) > 120).any(axis=1))[0]
    return y1 + 3 + int(rows[0]), y1 + 3 + int(rows[-1])


# labels without descenders (a Latin "g" or "p" hangs below the line and lowers the ink's middle)
@pytest.mark.parametrize("language, query, rids", [
    ("en", "a", ("filter_price", "sort_button")),
    ("zh", "包", ("filter_category", "filter_price", "filter_rating", "filter_free_shipping", "sort_button"))])
def test_chip_labels_sit_in_the_middle_in_every_script(language: str, query: str, rids: tuple[str, ...]) -> None:
    phone = _phone(58, language)
    phone.launch("shop", "/search")
    phone.type_text(query)
    phone.key("back")                                          # the keyboard down: the filters in full
    for rid in rids:
        bounds = node(phone, rid).bounds
        top, bottom = _ink_rows(phone, bounds)
        middle = (bounds[1] + bounds[3]) / 2
        assert abs((top + bottom) / 2 - middle) <= 4.5, (rid, top, bottom, bounds)  # 1.5 dp at density 3


# --- a navigation drawer is a drawer -----------------------------------------------------------------------------

def test_mails_folders_slide_in_from_the_left_as_a_drawer() -> None:
    phone = _phone()
    phone.launch("mail")
    tap(phone, "open_drawer")
    nodes = _nodes(phone)
    drawer = node(phone, "drawer").bounds
    status = next(n for n in nodes if n.short_id == "status_bar").bounds
    navigation = next(n for n in nodes if n.short_id == "navigation_bar").bounds
    width = phone.screen_size[0]
    assert drawer[0] == 0 and drawer[1] == status[3] and drawer[3] == navigation[1]   # the start edge, full height
    assert width - drawer[2] >= 56 * width / 360                                      # the screen shows beside it
    assert not any(n.short_id.startswith("button") for n in nodes)                    # no dialog buttons
    phone.tap(width - 20, (drawer[1] + drawer[3]) // 2)                               # the dimmed screen closes it
    assert "drawer" not in {n.short_id for n in _nodes(phone)}
    tap(phone, "open_drawer")
    tap(phone, "drawer_item", index=1)                                                # a folder: shown, drawer shut
    assert "drawer" not in {n.short_id for n in _nodes(phone)}


# --- generated data a person finds plausible ----------------------------------------------------------------------

@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_shop_sells_what_its_name_says(language: str) -> None:
    """A product's seller is one of its category's specialists or a general store, never a shop named for
    another trade."""
    from mobilegym.envs.shop.world import pools, sellers_for

    pool = pools(language)
    general = set(pool["sellers"])
    specialists = {s for c in pool["categories"] for s in c["sellers"]}
    assert not general & specialists
    for seed in range(10):
        shop = _phone(seed, language).peek_state()["apps"]["shop"]
        names = {c["id"]: c["name"] for c in shop["categories"]}
        for product in shop["products"]:
            assert product["seller"] in sellers_for(pool, names[product["category_id"]]), product


@pytest.mark.parametrize("language", ["en", "zh"])
def test_recipe_times_are_the_dishs_own(language: str) -> None:
    """Each dish draws its preparation and cooking time from its own range in the pool (pancakes cook in 10-20
    minutes, a beef stew for hours), never from one range for every dish."""
    from mobilegym.sim.worldgen.pools import read_pool

    ranges = {r["name"]: (r["prep_min"], r["cook_min"]) for r in read_pool("mobilegym.envs.browser", "pools",
                                                                           language)["recipes"]}
    for seed in range(20):
        pages = _phone(seed, language).peek_state()["apps"]["browser"]["pages"]
        for page in (p for p in pages if p["kind"] == "recipe"):
            (prep_lo, prep_hi), (cook_lo, cook_hi) = ranges[page["title"]]
            assert prep_lo <= page["prep_min"] <= prep_hi and cook_lo <= page["cook_min"] <= cook_hi, page["title"]
    if language == "en":
        assert ranges["Pancakes"][1][1] <= 20 and ranges["Beef Stew"][1][0] >= 60
