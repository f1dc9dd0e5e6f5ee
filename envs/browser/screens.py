"""Browser screens: the page in the active tab with its toolbar and menu, the address bar, the tab switcher,
bookmarks and history (with clear browsing data)."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.envs.l10n import counted
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx
from mobilegym.sim.clock import from_ms

from . import pages, web
from .app import APP

RANGES = [("hour", "Last hour"), ("day", "Last 24 hours"), ("week", "Last 7 days"), ("all", "All time")]


def _lang(ctx: Ctx) -> str:
    return pages.language(ctx)


def open_url(ctx: Ctx, url: str, *, in_new_tab: bool = False) -> None:
    """Show ``url`` in the active tab (or a new one; a new one also when no tab is open), record the visit, and
    bring the page screen to its top."""
    s = ctx.state
    tab = web.active_tab(s)
    if tab is None or in_new_tab:
        web.new_tab(s, ctx.new_id("tab"), url, _lang(ctx))
    else:
        web.go(s, tab, url, _lang(ctx))
    web.record_visit(s, url, ctx.new_id("visit"), ctx.os["time_ms"], _lang(ctx))
    _scroll_to_top(ctx)


def _scroll_to_top(ctx: Ctx) -> None:
    for entry in ctx.os["stacks"].get(APP.id, []):
        if entry["path"] == "/":
            entry["local"].pop("scroll", None)


def _tab_button(ctx: Ctx) -> ui.View:
    count = len(ctx.state["tabs"])
    return ui.IconButton(str(count) if count < 100 else ":D", ctx.t("Switch or close tabs, {count} open", count=count),
                         lambda: ctx.navigate("/tabs"), rid="tab_switcher", size=20)


def _menu(ctx: Ctx, tab: dict[str, Any] | None) -> ui.Dialog | None:
    if not ctx.local.get("menu"):
        return None
    s = ctx.state

    def close() -> None:
        ctx.local["menu"] = False

    def then(action: Any) -> Any:
        def run() -> None:
            close()
            action()
        return run

    page = web.page_at(s, tab["url"]) if tab else None
    marked = page is not None and any(b["url"] == page["url"] for b in s["bookmarks"])

    def bookmark() -> None:
        s["bookmarks"].append({"id": ctx.new_id("bm"), "url": page["url"], "title": page["title"], "host": page["host"],
                               "created_ms": ctx.os["time_ms"]})
        ctx.toast(ctx.t("Bookmarked"))

    def forward() -> None:
        web.step(s, tab, 1, _lang(ctx))
        _scroll_to_top(ctx)

    icons = ui.Row([
        ui.IconButton("→", ctx.t("Forward"), then(forward) if tab and tab["forward"] else None,
                      rid="menu_forward", enabled=bool(tab and tab["forward"])),
        ui.IconButton("★" if marked else "☆", ctx.t("Edit bookmark") if marked else ctx.t("Bookmark"),
                      then(lambda: ctx.navigate("/bookmarks")) if marked else then(bookmark),
                      rid="menu_bookmark", enabled=page is not None),
    ], gap=8)
    rows = [icons,
            ui.ListItem(ctx.t("New tab"), rid="menu_new_tab",
                        on_click=then(lambda: open_url(ctx, web.NEW_TAB, in_new_tab=True))),
            ui.ListItem(ctx.t("History"), rid="menu_history", on_click=then(lambda: ctx.navigate("/history"))),
            ui.ListItem(ctx.t("Bookmarks"), rid="menu_bookmarks", on_click=then(lambda: ctx.navigate("/bookmarks")))]
    return ui.Dialog(tab["title"] if tab else ctx.t("Browser"), rows,
                     [ui.Button(ctx.t("Close"), close, style="text", rid=ui.NEGATIVE)], on_dismiss=close)


@APP.screen("/")
def browser(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    tab = web.active_tab(s)
    url = tab["url"] if tab else web.NEW_TAB

    def omnibox() -> None:
        ctx.navigate("/omnibox")

    def back() -> None:
        web.step(s, tab, -1, _lang(ctx))
        _scroll_to_top(ctx)

    query = web.search_query(url)
    shown = query if query is not None else ("" if url == web.NEW_TAB else url.removeprefix("https://").rstrip("/"))
    bar = ui.Row([ui.Text(shown or ctx.t("Search or type web address"), size=15,
                          color=None if shown else "muted", flex=1)],
                 pad=10, bg="surface", radius=20, flex=1, rid="url_bar", desc=url if shown else "", on_click=omnibox)
    can_back = bool(tab and tab["back"])
    top = ui.Row([ui.IconButton("←", ctx.t("Back"), back if can_back else None, rid="page_back", enabled=can_back),
                  bar, _tab_button(ctx),
                  ui.IconButton("⋮", ctx.t("More options"), lambda: ctx.local.__setitem__("menu", True), rid="menu_button")],
                 gap=2, pad=4, height=56, bg="background")
    go = lambda target: open_url(ctx, target)  # noqa: E731
    page = web.page_at(s, url)
    if page is not None:
        rows = pages.RENDER[page["kind"]](ctx, page, go)
    elif query is not None:
        rows = pages.results(ctx, query, go)
    elif url == web.NEW_TAB:
        rows = pages.new_tab_page(ctx, omnibox)
    else:
        rows = pages.unreachable(ctx, url)
    return ui.Scaffold(ui.ScrollList(rows, rid="page_content", pad=16, gap=8), top=top, dialog=_menu(ctx, tab),
                       on_back=back if can_back else None)  # Back goes back in the tab, then leaves the app


@APP.screen("/omnibox", focus="url_input")
def omnibox(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    typed = ctx.local.get("typed", "")

    def go(url: str) -> None:
        ctx.back()
        open_url(ctx, url)

    def submit() -> None:
        if typed.strip():
            go(web.resolve(s, typed))

    field = ctx.field("url_input", "typed", hint=ctx.t("Search or type web address"), ime_action="go",
                      on_submit=submit, flex=1)
    top = ui.Row([ui.IconButton("←", ctx.t("Navigate up"), ctx.back, rid="navigate_up"), field,
                   ui.IconButton("✕", ctx.t("Clear"), lambda: ctx.local.__setitem__("typed", ""), rid="clear_input")
                   if typed else None], gap=4, pad=4, height=64, bg="surface")
    rows: list[ui.View | None] = []
    words = typed.strip()
    if words:
        rows.append(ui.ListItem(ctx.t("Search for “{words}”", words=words), leading=ui.Icon("⚲", size=20),
                                rid="search_suggestion", on_click=lambda: go(web.search_url(words))))
        seen: list[str] = []
        for item in [*s["bookmarks"], *s["history"]]:
            if item["url"] in seen or words.casefold() not in f"{item['title']} {item['url']}".casefold():
                continue
            seen.append(item["url"])
            rows.append(ui.ListItem(item["title"], subtitle=item["url"], leading=ui.Icon("◷", size=20), rid="suggestion",
                                    desc=item["url"], on_click=lambda u=item["url"]: go(u)))
            if len(seen) == 5:
                break
    return ui.Scaffold(ui.ScrollList(rows, rid="suggestions", pad=8), top=top)


@APP.screen("/tabs")
def tabs(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    local = ctx.local

    def select(tab_id: str) -> None:
        s["active_tab"] = tab_id
        ctx.back()

    def close(tab_id: str) -> None:
        index = next(i for i, t in enumerate(s["tabs"]) if t["id"] == tab_id)
        s["tabs"].pop(index)
        if s["active_tab"] == tab_id:
            s["active_tab"] = s["tabs"][min(index, len(s["tabs"]) - 1)]["id"] if s["tabs"] else None

    def close_all() -> None:
        s["tabs"].clear()
        s["active_tab"] = None
        local["dialog"] = None

    def add() -> None:
        ctx.back()
        open_url(ctx, web.NEW_TAB, in_new_tab=True)

    cards = []
    for tab in s["tabs"]:
        cards.append(ui.Card([
            ui.Row([ui.Text(tab["title"], size=14, bold=True, max_lines=2, flex=1, rid="tab_title"),
                    ui.IconButton("✕", ctx.t("Close {title}", title=tab['title']),
                                  lambda t=tab["id"]: close(t), rid="close_tab", width=36, height=36, size=18)], gap=2),
            ui.Image(tab["host"] or ctx.t("New tab"), color="primary" if tab["id"] == s["active_tab"] else "muted", height=72),
            ui.Text(tab["host"] or ctx.t("New tab"), size=12, color="muted", rid="tab_host"),
        ], rid="tab_card", desc=f"{tab['title']} · {tab['host'] or ctx.t('New tab')}", selected=tab["id"] == s["active_tab"], flex=1,
            on_click=lambda t=tab["id"]: select(t)))
    rows: list[ui.View | None] = [ui.Row(cards[i:i + 2] + ([ui.Spacer(flex=1)] if len(cards[i:i + 2]) == 1 else []), gap=8)
                                  for i in range(0, len(cards), 2)]
    if not cards:
        rows.append(ui.Text(ctx.t("No open tabs"), color="muted", align="center", height=120, rid="empty"))
    dialog = None
    if local.get("dialog") == "menu":
        dialog = ui.Dialog(ctx.t("Tabs"), [
            ui.ListItem(ctx.t("Close all tabs"), rid="close_all_tabs", enabled=bool(cards),
                        on_click=lambda: local.__setitem__("dialog", "confirm"))],
            [ui.Button(ctx.t("Cancel"), lambda: local.__setitem__("dialog", None), style="text", rid=ui.NEGATIVE)],
            on_dismiss=lambda: local.__setitem__("dialog", None))
    elif local.get("dialog") == "confirm":
        dialog = ui.Dialog(ctx.t("Close all tabs?"),
                           [ui.Text(ctx.t("{counted} will be closed.", counted=counted(len(cards), 'tab'), n_cards=len(cards)), max_lines=2)],
                           [ui.Button(ctx.t("Cancel"), lambda: local.__setitem__("dialog", None), style="text", rid=ui.NEGATIVE),
                            ui.Button(ctx.t("Close all"), close_all, style="text", rid=ui.POSITIVE)],
                           on_dismiss=lambda: local.__setitem__("dialog", None))
    top = ui.TopBar(ctx.tn("{count} tab", "{count} tabs", len(cards)), on_back=ctx.back, actions=[
        ui.IconButton("+", ctx.t("New tab"), add, rid="new_tab"),
        ui.IconButton("⋮", ctx.t("More options"), lambda: local.__setitem__("dialog", "menu"), rid="tabs_menu")])
    return ui.Scaffold(ui.ScrollList(rows, rid="tab_grid", pad=12, gap=8), top=top, dialog=dialog)


def _open_from_list(ctx: Ctx, url: str) -> None:
    ctx.back()
    open_url(ctx, url)


@APP.screen("/bookmarks")
def bookmarks(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    local = ctx.local
    rows: list[ui.View | None] = []
    for b in sorted(s["bookmarks"], key=lambda b: -b["created_ms"]):
        rows.append(ui.ListItem(b["title"], subtitle=b["url"].removeprefix("https://"), leading=ui.Icon("★", size=20, color="primary"),
                                trailing=ui.IconButton("✕", ctx.t("Delete bookmark {title}", title=b['title']),
                                                       lambda b=b: local.__setitem__("delete", b["id"]), rid="delete_bookmark"),
                                title_rid="bookmark_title", rid="bookmark_item", desc=b["title"],
                                on_click=lambda b=b: _open_from_list(ctx, b["url"])))
    if not rows:
        rows.append(ui.Text(ctx.t("No bookmarks yet"), color="muted", align="center", height=120, rid="empty"))
    dialog = None
    target = next((b for b in s["bookmarks"] if b["id"] == local.get("delete")), None)
    if target is not None:
        def delete() -> None:
            s["bookmarks"].remove(target)
            local["delete"] = None
            ctx.toast(ctx.t("Bookmark deleted"))

        dialog = ui.Dialog(ctx.t("Delete bookmark?"), [ui.Text(target["title"], max_lines=2)],
                           [ui.Button(ctx.t("Cancel"), lambda: local.__setitem__("delete", None), style="text", rid=ui.NEGATIVE),
                            ui.Button(ctx.t("Delete"), delete, style="text", rid=ui.POSITIVE)],
                           on_dismiss=lambda: local.__setitem__("delete", None))
    return ui.Scaffold(ui.ScrollList(rows, rid="bookmark_list", pad=8), top=ui.TopBar(ctx.t("Bookmarks"), on_back=ctx.back),
                       dialog=dialog)


def _day_header(ctx: Ctx, day: dt.date, today: dt.date) -> str:
    label = f"{pages.day_label(ctx, day)}, {day.year}" if ctx.t("en") == "en" else f"{day.year}年{pages.day_label(ctx, day)}"
    prefix = {0: ctx.t("Today"), 1: ctx.t("Yesterday")}.get((today - day).days)
    return f"{prefix} - {label}" if prefix else label


@APP.screen("/history")
def history(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    local = ctx.local
    words = local.get("query", "").strip().casefold()
    today = ctx.now.date()
    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("Clear browsing data…"), leading=ui.Icon("🗑", size=20), rid="clear_browsing_data",
                    on_click=lambda: local.update(clearing=True, span="hour"))]
    shown_day = None
    for v in s["history"]:
        if words and words not in f"{v['title']} {v['url']}".casefold():
            continue
        moment = from_ms(v["time_ms"])
        if moment.date() != shown_day:
            shown_day = moment.date()
            rows.append(inset(ui.Text(_day_header(ctx, shown_day, today), size=14, bold=True, color="primary", height=36,
                                      rid="history_day"), MARGIN - 8))  # the list is padded 8 dp

        def remove(v: dict[str, Any] = v) -> None:
            s["history"].remove(v)

        time = moment.strftime("%H:%M")
        rows.append(ui.ListItem(v["title"], subtitle=f"{time} · {v['host']}", title_rid="history_title",
                                trailing=ui.IconButton("✕", ctx.t("Remove {title}", title=v['title']), remove,
                                                       rid="remove_history_entry"),
                                rid="history_item", desc=f"{shown_day.isoformat()} {time} {v['title']} · {v['host']}",
                                on_click=lambda v=v: _open_from_list(ctx, v["url"])))
    if not s["history"]:
        rows.append(ui.Text(ctx.t("Pages you visit appear here"), color="muted", align="center",
                            height=120, max_lines=2, rid="empty"))
    dialog = None
    if local.get("clearing"):
        def clear() -> None:
            removed = web.clear_history(s, local["span"], ctx.os["time_ms"])
            local["clearing"] = False
            ctx.toast(ctx.t("Cleared {counted}", counted=counted(removed, 'visit'), removed=removed))

        radios = [ui.Radio(f"range_{key}", local["span"] == key, lambda k=key: local.__setitem__("span", k), ctx.t(label))
                  for key, label in RANGES]
        dialog = ui.Dialog(ctx.t("Clear browsing data"),
                           [ui.Text(ctx.t("Time range"), size=13, color="muted"), *radios],
                           [ui.Button(ctx.t("Cancel"), lambda: local.__setitem__("clearing", False), style="text", rid=ui.NEGATIVE),
                            ui.Button(ctx.t("Clear data"), clear, style="text", rid=ui.POSITIVE)],
                           on_dismiss=lambda: local.__setitem__("clearing", False))
    body = ui.Column([ui.Column([ctx.field("history_search", "query", hint=ctx.t("Search your history"),
                                           ime_action="search")], pad=8),
                      ui.ScrollList(rows, rid="history_list", pad=8)])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("History"), on_back=ctx.back), dialog=dialog)
