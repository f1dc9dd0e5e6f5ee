"""Maps screens for finding places: home (search bar, category chips, Home and Work, recent places), search
with category, open-now and top-rated filters, and the place page (details, hours, save to lists, share,
directions)."""
from __future__ import annotations

from typing import Any

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.envs.l10n import counted
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import geo
from .app import APP
from .parts import category_name, empty, language, matches, place_row, remember, section

CHIPS_PER_ROW = 3


def search_bar(ctx: Ctx) -> ui.View:
    hint = ctx.t("Search here")
    return ui.Row([ui.Icon("⚲", size=20, color="muted"), ui.Text(hint, color="muted", flex=1)], pad=12, gap=8,
                  bg="surface", radius=24, rid="search_bar", desc=hint, on_click=lambda: ctx.navigate("/search"))


def set_label(ctx: Ctx, which: str) -> None:
    """Open the screen that sets Home or Work, its search box focused."""
    ctx.navigate("/label", which=which)
    ctx.focus("label_search_input")


def label_row(ctx: Ctx, which: str) -> ui.View:
    """The Home or Work shortcut: directions there when set, else the screen that sets it."""
    s = ctx.state
    name = ctx.t("Home") if which == "home" else ctx.t("Work")
    target = s[which]
    if target:
        item = geo.place(s, target)
        subtitle = item["address"]
        go = lambda: ctx.navigate("/directions", to=target)  # noqa: E731
    else:
        subtitle = ctx.t("Set location")
        go = lambda: set_label(ctx, which)  # noqa: E731
    edit = ui.IconButton("✎", ctx.t("Edit {name}", name=name), lambda: set_label(ctx, which), rid=f"edit_{which}")
    return ui.ListItem(name, subtitle=subtitle, leading=ui.Icon("🏠" if which == "home" else "💼", size=24),
                       trailing=edit, rid=f"label_{which}", desc=f"{name} · {subtitle}", on_click=go)


@APP.screen("/")
def home(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    chips = [ui.Chip(c["name"], False, lambda _v, c=c: ctx.navigate("/search", category=c["id"]),
                     rid="category_chip", flex=1) for c in s["categories"]]
    rows: list[ui.View | None] = [
        *[ui.Row(chips[i:i + CHIPS_PER_ROW], gap=6) for i in range(0, len(chips), CHIPS_PER_ROW)],
        section(ctx.t("Your places"), "places_header"),
        label_row(ctx, "home"), label_row(ctx, "work"),
        ui.ListItem(ctx.t("Saved"), subtitle=ctx.t("{counted} in your lists", counted=counted(len(s['saved']), 'place'), n_saved=len(s['saved'])),
                    leading=ui.Icon("🔖", size=24), trailing="›", rid="saved_entry", on_click=lambda: ctx.navigate("/saved")),
        section(ctx.t("Recent"), "recent_header"),
        *[place_row(ctx, geo.place(s, pid), rid="recent_item") for pid in s["recent"]],
    ]
    if not s["recent"]:
        rows.append(empty(ctx.t("Places you look at show up here")))
    top = ui.Column([ui.TopBar(ctx.t("Maps · {city}", city=s['city'])), ui.Column([search_bar(ctx)], pad=8)])
    return ui.Scaffold(ui.ScrollList(rows, rid="home_list", pad=8, gap=4), top=top)


# --- search ---------------------------------------------------------------------------------------

def results(ctx: Ctx, query: str, category_id: str, open_now: bool, top_rated: bool) -> list[dict[str, Any]]:
    """The places a search shows: matching the query and filters, nearest first (or best rated first)."""
    s = ctx.state
    found = [p for p in s["places"] if matches(ctx, p, query) and (not category_id or p["category"] == category_id)
             and (not open_now or geo.is_open(p, ctx.now))]
    here = s["location"]
    if top_rated:
        found.sort(key=lambda p: (-p["rating"], -p["reviews"]))
    else:
        found.sort(key=lambda p: geo.distance_km(here, p))
    return found


def _category_dialog(ctx: Ctx, current: str) -> ui.Dialog | None:
    if not ctx.local.get("dialog"):
        return None

    def close() -> None:
        ctx.local["dialog"] = None

    def pick(cid: str) -> None:
        ctx.local["category"] = cid
        close()

    options = [("", ctx.t("All categories"))] + [(c["id"], c["name"]) for c in ctx.state["categories"]]
    radios = [ui.Radio("category_option", current == cid, lambda cid=cid: pick(cid), label=name) for cid, name in options]
    return ui.Dialog(ctx.t("Category"), [ui.ScrollList(radios, rid="category_options", height=min(360, 40 * len(radios)))],
                     [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE)], on_dismiss=close)


@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    local = ctx.local
    category_id = local.get("category", ctx.params.get("category", ""))
    open_now, top_rated = local.get("open_now", False), local.get("top_rated", False)
    found = results(ctx, local.get("query", ""), category_id, open_now, top_rated)
    label = geo.category(ctx.state, category_id)["name"] if category_id else ctx.t("All categories")
    chips = ui.Row([
        ui.Chip(label, bool(category_id), lambda _v: local.__setitem__("dialog", "category"), rid="filter_category", flex=1),
        ui.Chip(ctx.t("Open now"), open_now, lambda v: local.__setitem__("open_now", v), rid="filter_open", flex=1),
        ui.Chip(ctx.t("Top rated"), top_rated, lambda v: local.__setitem__("top_rated", v), rid="sort_rating",
                flex=1)], gap=6, pad=8)

    def open_place(item: dict[str, Any]) -> None:
        remember(ctx, item["id"])
        ctx.navigate("/place", id=item["id"])

    makers = [lambda: inset(ui.Text(ctx.tn("{count} place", "{count} places", len(found), context="search"), size=13, color="muted",
                                     height=28, rid="result_count"), MARGIN - 8)]
    makers += [lambda p=p: place_row(ctx, p, lambda p=p: open_place(p)) for p in found]
    if not found:
        makers.append(lambda: empty(ctx.t("No places found. Try other words or filters.")))
    body = ui.Column([
        ui.Column([ctx.field("search_input", "query", hint=ctx.t("Search here"), ime_action="search")], pad=8),
        chips, ui.ScrollList(ui.Rows(makers, lambda make: make()), rid="search_results", pad=8)])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Search"), on_back=ctx.back),
                       dialog=_category_dialog(ctx, category_id))


# --- place ----------------------------------------------------------------------------------------

def _save_dialog(ctx: Ctx, item: dict[str, Any]) -> ui.Dialog:
    s = ctx.state

    def close() -> None:
        ctx.local["dialog"] = None

    def toggle(list_id: str, on: bool) -> None:
        entry = next((e for e in s["saved"] if e["place_id"] == item["id"] and e["list"] == list_id), None)
        name = ctx.t(geo.LIST_NAMES[list_id])
        if on and entry is None:
            s["saved"].insert(0, {"id": ctx.new_id("sv"), "place_id": item["id"], "list": list_id})
            ctx.toast(ctx.t("Saved to {name}", name=name))
        elif not on and entry is not None:
            s["saved"].remove(entry)
            ctx.toast(ctx.t("Removed from {name}", name=name))

    lists = geo.saved_lists(s, item["id"])
    boxes = [ui.Checkbox("list_option", lid in lists, lambda on, lid=lid: toggle(lid, on), label=ctx.t(geo.LIST_NAMES[lid]))
             for lid in geo.LIST_IDS]
    return ui.Dialog(ctx.t("Save to list"), boxes,
                     [ui.Button(ctx.t("Done"), close, style="text", rid=ui.POSITIVE)], on_dismiss=close)


def _share_dialog(ctx: Ctx, item: dict[str, Any]) -> ui.Dialog:
    def close() -> None:
        ctx.local["dialog"] = None

    text = f"{item['name']}, {item['address']}" if language(ctx) == "en" else f"{item['name']}，{item['address']}"

    def to_messages() -> None:
        close()
        ctx.open_app("messages", "/compose", body=text)

    def copy() -> None:
        close()
        ctx.toast(ctx.t("Address copied"))

    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("Messages"), leading=ui.Icon("✉", size=20), rid="share_messages", on_click=to_messages),
        ui.ListItem(ctx.t("Copy address"), leading=ui.Icon("⎘", size=20), rid="share_copy", on_click=copy),
    ]
    return ui.Dialog(ctx.t("Share “{name}”", name=item['name']), rows,
                     [ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE)], on_dismiss=close)


@APP.screen("/place")
def place_page(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    item = geo.place(s, ctx.params["id"])
    lang = language(ctx)
    lists = geo.saved_lists(s, item["id"])
    which = ctx.local.get("dialog")
    dialog = _save_dialog(ctx, item) if which == "save" else _share_dialog(ctx, item) if which == "share" else None
    saved_as = [ctx.t(geo.LIST_NAMES[lid]) for lid in lists]
    labels = [ctx.t(name) for key, name in geo.LABELS.items() if s[key] == item["id"]]
    rows: list[ui.View | None] = [
        ui.Text(item["name"], size=22, bold=True, max_lines=2, rid="place_title"),
        ui.Text(f"{item['rating']:.1f}★ · " + ctx.tn("{count:,} review", "{count:,} reviews", item['reviews'])
                + f" · {category_name(ctx, item)}", size=14, color="muted", rid="place_rating"),
        ui.Row([ui.Button(ctx.t("Directions"), lambda: ctx.navigate("/directions", to=item["id"]), rid="directions",
                          flex=1),
                ui.Button(ctx.t("Saved") if lists else ctx.t("Save"),
                          lambda: ctx.local.__setitem__("dialog", "save"), style="outlined",
                          rid="save", flex=1),
                ui.Button(ctx.t("Share"), lambda: ctx.local.__setitem__("dialog", "share"), style="outlined",
                          rid="share", flex=1)], gap=8),
        ui.ListItem(item["address"], leading=ui.Icon("📍", size=22), rid="place_address", title_rid="place_address_text"),
        ui.ListItem(geo.status_text(lang, item, ctx.now), subtitle=geo.hours_text(lang, item),
                    leading=ui.Icon("🕐", size=22), rid="place_hours"),
        ui.ListItem(ctx.t("{distance_text} from your location", distance_text=geo.distance_text(lang, geo.distance_km(s['location'], item))),
                    leading=ui.Icon("🚶", size=22), rid="place_distance"),
    ]
    if saved_as or labels:
        rows.append(ui.ListItem(ctx.t("In your lists: ") + ", ".join(labels + saved_as),
                                leading=ui.Icon("🔖", size=22), rid="place_lists"))
    return ui.Scaffold(ui.ScrollList(rows, rid="place_detail", pad=16, gap=8),
                       top=ui.TopBar(category_name(ctx, item), on_back=ctx.back), dialog=dialog)
