"""Scripted plans for the Browser suite: an oracle and realistic mistakes per task."""
from __future__ import annotations

import re

from mobilegym.calendar_words import WEEKDAYS
from mobilegym.oracle import Driver, negative, plan

from ..contacts.ui import collect, compose
from .ui import cook_line, go, search_and_open
from ..cross_app.ui import add_event


def _top(d: Driver) -> None:
    while d.scroll(-1):
        pass


def _collect(d: Driver, rid: str) -> list[tuple[str, str]]:
    """(text, desc) of every ``rid`` node down the screen's list (by desc, in order), then back to the top."""
    _top(d)
    seen: dict[str, str] = {}
    while True:
        for n in d.nodes():
            if n.short_id == rid and n.desc not in seen:
                seen[n.desc] = n.text
        if not d.scroll(1):
            break
    _top(d)
    return [(text, desc) for desc, text in seen.items()]


def _history(d: Driver, host: str, days: tuple[str, ...], whole: bool = False) -> list[tuple[str, str]]:
    """(day header, item desc) of the history rows of ``host`` under the day headers starting with one of ``days``
    ("Today", "Yesterday"), newest first: the history filtered by the host, read down to the first other day after
    them (``whole``: to the end)."""
    d.type(host, rid="history_search")
    d.key("back")
    _top(d)
    rows: list[tuple[str, str]] = []
    seen: set[str] = set()  # rows read on an earlier page: a scroll shows some again, above their day's header
    header, passed = "", False
    while True:
        for n in d.nodes():
            if n.short_id == "history_day":
                passed = passed or (header.startswith(days) and not n.text.startswith(days))
                header = n.text
            elif n.short_id == "history_item" and n.desc not in seen:
                seen.add(n.desc)
                if header.startswith(days) and _item_title(n.desc)[1] == host:
                    rows.append((header, n.desc))
        if (passed and not whole) or not d.scroll(1):
            break
    _top(d)
    return rows


def _item_title(desc: str) -> tuple[str, str]:
    """(title, host) of a history row's desc "YYYY-MM-DD HH:MM title · host"."""
    title, _, host = desc.split(" ", 2)[2].rpartition(" · ")
    return title, host


def _bookmark_page(d: Driver) -> None:
    d.tap(rid="menu_button")
    d.tap(rid="menu_bookmark")


def _open_menu_screen(d: Driver, rid: str) -> None:
    d.open_app("Browser")
    d.tap(rid="menu_button")
    d.tap(rid=rid)


# --- counting -------------------------------------------------------------------------------------------

def _tab_count(d: Driver) -> int:
    d.open_app("Browser")
    d.tap(rid="tab_switcher")
    return int(re.search(r"\d+", d.texts("toolbar_title")[0]).group())


@plan("browser.CountTabs")
def count_tabs(d: Driver) -> None:
    d.submit_answer([_tab_count(d)])
    d.complete()


@negative("browser.CountTabs", "counts one tab too many")
def count_tabs_off(d: Driver) -> None:
    d.submit_answer([_tab_count(d) + 1])
    d.complete()


@plan("browser.CountBookmarks")
def count_bookmarks(d: Driver) -> None:
    _open_menu_screen(d, "menu_bookmarks")
    d.submit_answer([len(_collect(d, "bookmark_item"))])
    d.complete()


@negative("browser.CountBookmarks", "counts the row left half in sight after a scroll twice")
def count_bookmarks_twice(d: Driver) -> None:
    _open_menu_screen(d, "menu_bookmarks")
    d.submit_answer([len(_collect(d, "bookmark_item")) + 1])
    d.complete()


# --- reading pages --------------------------------------------------------------------------------------

def _hours(d: Driver, day_en: str, day_zh: str) -> list[str]:
    row = d.find(rid="hours_row", contains=d.t(day_en, day_zh)) or d.reveal(rid="hours_row", contains=d.t(day_en, day_zh))
    return re.findall(r"\d\d:\d\d", row.desc)


@plan("browser.StoreSaturdayOpening")
def store_hours(d: Driver) -> None:
    search_and_open(d, d.params["store"]["title"])
    d.submit_answer(_hours(d, "Saturday", "星期六")[:1])
    d.complete()


@negative("browser.StoreSaturdayOpening", "reads Friday's opening time")
def store_hours_friday(d: Driver) -> None:
    search_and_open(d, d.params["store"]["title"])
    d.submit_answer(_hours(d, "Friday", "星期五")[:1])
    d.complete()


@plan("browser.RecipeCookTime")
def recipe_cook_time(d: Driver) -> None:
    search_and_open(d, d.params["recipe"]["title"])
    d.submit_answer([cook_line(d, "recipe_cook")])
    d.complete()


@negative("browser.RecipeCookTime", "reports the preparation time")
def recipe_prep_time(d: Driver) -> None:
    search_and_open(d, d.params["recipe"]["title"])
    d.submit_answer([cook_line(d, "recipe_prep")])
    d.complete()


def _last_showing(d: Driver, day: int) -> str:
    search_and_open(d, d.params["film"]["title"])
    d.reveal(rid="showtimes", index=day) if d.find(rid="showtimes", index=day) is None else None
    rows = _collect(d, "showtimes")
    return re.findall(r"\d\d:\d\d", rows[day][1])[-1]


@plan("browser.FilmLastShowing")
def film_last_showing(d: Driver) -> None:
    d.submit_answer([_last_showing(d, 1)])
    d.complete()


@negative("browser.FilmLastShowing", "reads today's last showing")
def film_last_today(d: Driver) -> None:
    d.submit_answer([_last_showing(d, 0)])
    d.complete()


# --- bookmarks ------------------------------------------------------------------------------------------

@plan("browser.BookmarkRecipe")
def bookmark_recipe(d: Driver) -> None:
    search_and_open(d, d.params["recipe"]["title"])
    _bookmark_page(d)
    d.complete()


@negative("browser.BookmarkRecipe", "bookmarks the recipe site's home page")
def bookmark_recipe_home(d: Driver) -> None:
    d.open_app("Browser")
    go(d, d.params["recipe"]["url"].split("/")[2])
    _bookmark_page(d)
    d.complete()


@negative("browser.BookmarkRecipe", "opens the recipe but never bookmarks it")
def bookmark_recipe_not(d: Driver) -> None:
    search_and_open(d, d.params["recipe"]["title"])
    d.complete()


def _delete_bookmark(d: Driver, title: str, adjust: int) -> None:
    _open_menu_screen(d, "menu_bookmarks")
    d.tap(rid="delete_bookmark", desc=d.t(f"Delete bookmark {title}", f"删除书签“{title}”"))
    d.tap(rid="button1")
    d.submit_answer([len(_collect(d, "bookmark_item")) + adjust])
    d.complete()


@plan("browser.DeleteBookmarkAndCount")
def delete_bookmark(d: Driver) -> None:
    _delete_bookmark(d, d.params["bookmark"]["title"], 0)


@negative("browser.DeleteBookmarkAndCount", "deletes the right bookmark, counts the old total")
def delete_bookmark_stale(d: Driver) -> None:
    _delete_bookmark(d, d.params["bookmark"]["title"], 1)


@negative("browser.DeleteBookmarkAndCount", "deletes another bookmark")
def delete_bookmark_other(d: Driver) -> None:
    _open_menu_screen(d, "menu_bookmarks")
    other = next(desc for _, desc in _collect(d, "bookmark_item") if desc != d.params["bookmark"]["title"])
    d.tap(rid="delete_bookmark", desc=d.t(f"Delete bookmark {other}", f"删除书签“{other}”"))
    d.tap(rid="button1")
    d.submit_answer([len(_collect(d, "bookmark_item"))])
    d.complete()


def _site_article(d: Driver, days: tuple[str, ...]) -> None:
    """Open the latest news article read on one of ``days`` from the history, and bookmark it."""
    _open_menu_screen(d, "menu_history")
    host = d.params["article"]["url"].split("/")[2]
    rows = [desc for _, desc in _history(d, host, days) if _item_title(desc)[0] != d.params["article"]["site"]]
    d.tap(rid="history_item", desc=rows[0])
    _bookmark_page(d)
    d.complete()


@plan("browser.BookmarkYesterdayArticle")
def bookmark_yesterday_article(d: Driver) -> None:
    _site_article(d, (d.t("Yesterday", "昨天"),))


@negative("browser.BookmarkYesterdayArticle", "bookmarks the latest article read on another day")
def bookmark_other_day_article(d: Driver) -> None:
    _open_menu_screen(d, "menu_history")
    host, site = d.params["article"]["url"].split("/")[2], d.params["article"]["site"]
    yesterday = d.t("Yesterday", "昨天")
    read = {_item_title(desc)[0] for _, desc in _history(d, host, (yesterday,))}
    days = (d.t("Today", "今天"), *map(str, range(1, 10)),
            *WEEKDAYS)
    rows = [desc for _, desc in _history(d, host, days, whole=True) if _item_title(desc)[0] not in read | {site}]
    d.tap(rid="history_item", desc=rows[0])
    _bookmark_page(d)
    d.complete()


def _recipe_times(d: Driver) -> list[tuple[str, int, int]]:
    """(url, prep, cook) of every recipe on the recipe site, opening each from the site's home page."""
    d.open_app("Browser")
    go(d, d.t("recipes", "菜谱"))
    home = next(n for n in d.nodes() if n.short_id == "search_result" and re.match(r"^https://[^/]+/$", n.desc))
    d.tap(rid="search_result", desc=home.desc)
    found = []
    for _, url in _collect(d, "link"):
        d.tap(rid="link", desc=url)
        found.append((url, cook_line(d, "recipe_prep"), cook_line(d, "recipe_cook")))
        d.tap(rid="page_back")
    return found


@plan("browser.BookmarkQuickestRecipe")
def bookmark_quickest(d: Driver) -> None:
    times = _recipe_times(d)
    d.tap(rid="link", desc=min(times, key=lambda t: t[2])[0])
    _bookmark_page(d)
    d.complete()


@negative("browser.BookmarkQuickestRecipe", "bookmarks the recipe with the shortest total time")
def bookmark_quickest_total(d: Driver) -> None:
    times = _recipe_times(d)
    quickest = min(times, key=lambda t: t[2])
    total = min((t for t in times if t is not quickest), key=lambda t: t[1] + t[2])
    d.tap(rid="link", desc=total[0])
    _bookmark_page(d)
    d.complete()


# --- tabs -------------------------------------------------------------------------------------------------

def _close_tabs(d: Driver, host: str, limit: int | None = None) -> None:
    d.open_app("Browser")
    d.tap(rid="tab_switcher")
    closed = 0
    while limit is None or closed < limit:
        cards = [desc for _, desc in _collect(d, "tab_card") if desc.endswith(f" · {host}")]
        if not cards:
            break
        title = cards[0][:-len(f" · {host}")]
        d.tap(rid="close_tab", desc=d.t(f"Close {title}", f"关闭“{title}”"))
        closed += 1
    d.complete()


@plan("browser.CloseSiteTabs")
def close_site_tabs(d: Driver) -> None:
    _close_tabs(d, d.params["site"]["host"])


@negative("browser.CloseSiteTabs", "closes only the first tab of the site")
def close_site_tabs_one(d: Driver) -> None:
    _close_tabs(d, d.params["site"]["host"], limit=1)


@negative("browser.CloseSiteTabs", "closes every tab")
def close_site_tabs_all(d: Driver) -> None:
    d.open_app("Browser")
    d.tap(rid="tab_switcher")
    d.tap(rid="tabs_menu")
    d.tap(rid="close_all_tabs")
    d.tap(rid="button1")
    d.complete()


@plan("browser.close_all_tabs")
def close_all_tabs(d: Driver) -> None:
    d.tap(rid="tab_switcher")
    d.tap(rid="tabs_menu")
    d.tap(rid="close_all_tabs")
    d.tap(rid="button1")
    d.complete()


@negative("browser.close_all_tabs", "cancels the confirmation")
def close_all_tabs_cancel(d: Driver) -> None:
    d.tap(rid="tab_switcher")
    d.tap(rid="tabs_menu")
    d.tap(rid="close_all_tabs")
    d.tap(rid="button2")
    d.complete()


# --- history --------------------------------------------------------------------------------------------

def _delete_site_visits(d: Driver, host: str, today_only: bool) -> None:
    _open_menu_screen(d, "menu_history")
    days = (d.t("Today", "今天"),) if today_only else (d.t("Today", "今天"), d.t("Yesterday", "昨天"), *map(str, range(1, 10)),
                                                       *WEEKDAYS)
    while True:
        rows = _history(d, host, days, whole=not today_only)
        if not rows:
            break
        for _, desc in rows:
            title = _item_title(desc)[0]
            _top(d)
            d.tap(rid="remove_history_entry", desc=d.t(f"Remove {title}", f"删除“{title}”"))
        if today_only:
            break
    d.complete()


@plan("browser.DeleteTodaySiteHistory")
def delete_today_site_history(d: Driver) -> None:
    _delete_site_visits(d, d.params["site"]["host"], today_only=True)


@negative("browser.DeleteTodaySiteHistory", "deletes every visit to the site, older ones too")
def delete_all_site_history(d: Driver) -> None:
    _delete_site_visits(d, d.params["site"]["host"], today_only=False)


@negative("browser.DeleteTodaySiteHistory", "clears the last 24 hours of browsing data")
def clear_last_day(d: Driver) -> None:
    _open_menu_screen(d, "menu_history")
    d.tap(rid="clear_browsing_data")
    d.tap(rid="range_day")
    d.tap(rid="button1")
    d.complete()


# --- infeasible -----------------------------------------------------------------------------------------

@plan("browser.incognito_tab")
def incognito_tab(d: Driver) -> None:
    d.open_app("Browser")
    d.tap(rid="menu_button")
    d.abort("The Browser has no incognito mode: its menu offers only a new tab, history and bookmarks")


@negative("browser.incognito_tab", "opens an ordinary new tab and calls it done")
def incognito_new_tab(d: Driver) -> None:
    d.open_app("Browser")
    d.tap(rid="menu_button")
    d.tap(rid="menu_new_tab")
    d.complete()


# --- TextedRecipeBookmarkReply --------------------------------------------------------------------------------

def _texted_recipe(d: Driver) -> str:
    """The title of the recipe the contact asks about, read in their Messages thread."""
    d.open_app("Messages")
    d.tap(rid="conversation_item", desc=d.params["name"])
    text = next(t for t in reversed([n.text for n in collect(d, "message_text")]) if "recipe on" in t or "的做法" in t)
    return text.split("“", 1)[1].split("”", 1)[0] if "“" in text else text.split('"')[1]


def _recipe_reply(d: Driver, title: str, bookmark: bool = True, rid: str = "recipe_cook") -> None:
    search_and_open(d, title)
    if bookmark:
        _bookmark_page(d)
    minutes = cook_line(d, rid)
    compose(d, d.params["name"], d.t(f"It cooks for {minutes} min. Bookmarked it too!", f"要煮{minutes}分钟，我也收藏了！"))
    d.complete()


@plan("browser.TextedRecipeBookmarkReply")
def texted_recipe_bookmark_reply(d: Driver) -> None:
    _recipe_reply(d, _texted_recipe(d))


@negative("browser.TextedRecipeBookmarkReply", "answers with the preparation time")
def texted_recipe_prep_time(d: Driver) -> None:
    _recipe_reply(d, _texted_recipe(d), rid="recipe_prep")


@negative("browser.TextedRecipeBookmarkReply", "replies with the cooking time but never bookmarks")
def texted_recipe_no_bookmark(d: Driver) -> None:
    _recipe_reply(d, _texted_recipe(d), bookmark=False)


# --- StoreVisitSaturday ------------------------------------------------------------------------------------------

def _store_visit(d: Driver, day_en: str = "Saturday", day_zh: str = "星期六", text: bool = True,
                 shift_day: int = 0) -> None:
    import datetime as dt


    search_and_open(d, d.params["store"]["title"])
    opens = _hours(d, day_en, day_zh)[0]
    day = dt.date.fromisoformat(d.params["saturday"]["iso"]) + dt.timedelta(days=shift_day)
    end = f"{min(int(opens[:2]) + 1, 23):02d}{opens[2:]}"
    add_event(d, d.params["store"]["title"], day, opens, end)
    if text:
        compose(d, d.params["name"], d.t(f"Let's meet at {d.params['store']['title']} at {opens} on Saturday",
                                         f"周六{opens}在{d.params['store']['title']}见"))
    d.complete()


@plan("browser.StoreVisitSaturday")
def store_visit_saturday(d: Driver) -> None:
    _store_visit(d)


@negative("browser.StoreVisitSaturday", "reads Friday's opening time")
def store_visit_friday_hours(d: Driver) -> None:
    _store_visit(d, "Friday", "星期五")


@negative("browser.StoreVisitSaturday", "adds the event but never texts")
def store_visit_no_text(d: Driver) -> None:
    _store_visit(d, text=False)


@negative("browser.StoreVisitSaturday", "puts the visit on Sunday")
def store_visit_sunday(d: Driver) -> None:
    _store_visit(d, shift_day=1)
