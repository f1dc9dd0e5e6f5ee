"""The Maps directions screen: a start ("Your location" by default) and a destination, each chosen by searching
(or Your location, Home, Work), a swap button, the four travel modes with their times, and the chosen mode's
duration, distance and arrival time."""
from __future__ import annotations

import datetime as dt

from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import geo
from .app import APP
from .parts import empty, language, matches, place_row

SUGGESTIONS = 8


def end_name(ctx: Ctx, end: str) -> str:
    return ctx.t("Your location") if end == geo.HERE else geo.place(ctx.state, end)["name"]


def _chooser(ctx: Ctx, which: str) -> list[ui.View | None]:
    """The rows that pick a route end: Your location, Home, Work, then the places matching the typed text."""
    s, local = ctx.state, ctx.local

    def choose(end: str) -> None:
        local[which] = end
        local["editing"] = None
        local["where"] = ""

    query = local.get("where", "")
    rows: list[ui.View | None] = [
        ctx.field("route_search_input", "where", hint=ctx.t("Search for a place or address")),
        ui.ListItem(ctx.t("Your location"), leading=ui.Icon("📍", size=24), rid="choose_here",
                    on_click=lambda: choose(geo.HERE))]
    for label in ("home", "work"):
        if s[label]:
            name = ctx.t("Home") if label == "home" else ctx.t("Work")
            rows.append(ui.ListItem(name, subtitle=geo.place(s, s[label])["address"],
                                    leading=ui.Icon("🏠" if label == "home" else "💼", size=24), rid=f"choose_{label}",
                                    on_click=lambda pid=s[label]: choose(pid)))
    if query.strip():
        found = [p for p in s["places"] if matches(ctx, p, query)][:SUGGESTIONS]
        rows += [place_row(ctx, p, lambda p=p: choose(p["id"]), rid="suggestion_item") for p in found]
        if not found:
            rows.append(empty(ctx.t("No places found")))
    return rows


def _summary(ctx: Ctx, start: str, end: str, mode: str) -> list[ui.View | None]:
    lang = language(ctx)
    if start == end:
        return [empty(ctx.t("Start and destination are the same"))]
    trip = geo.route(ctx.state, start, end)
    chips = [ui.Chip(f"{ctx.t(geo.MODE_LABELS[m])} · {geo.duration_text(lang, trip['minutes'][m])}", m == mode,
                     lambda _v, m=m: ctx.local.__setitem__("mode", m), rid=f"mode_{m}", flex=1)
             for m in geo.MODES]
    took = trip["minutes"][mode]
    arrive = (ctx.now + dt.timedelta(minutes=took)).strftime("%H:%M")
    return [
        ui.Row(chips[:2], gap=6), ui.Row(chips[2:], gap=6),
        ui.Card([
            ui.Text(ctx.t(geo.MODE_LABELS[mode]), size=13, color="muted", rid="route_mode"),
            ui.Text(geo.duration_text(lang, took), size=26, bold=True, rid="route_duration"),
            ui.Text(geo.distance_text(lang, trip["km"]), size=15, rid="route_distance"),
            ui.Text(ctx.t("Arrive at {arrive}", arrive=arrive), size=15, color="muted", rid="route_arrival"),
        ]),
    ]


@APP.screen("/directions")
def directions(ctx: Ctx) -> ui.Scaffold:
    local = ctx.local
    start = local.get("from", ctx.params.get("from", geo.HERE))
    end = local.get("to", ctx.params.get("to", ""))
    mode = local.get("mode", "drive")
    editing = local.get("editing")

    def choose_end(which: str) -> None:
        local.update(editing=which, where="")
        ctx.focus("route_search_input")

    def swap() -> None:
        if end:
            local.update({"from": end, "to": start})

    ends = ui.Row([
        ui.Column([
            ui.ListItem(end_name(ctx, start), subtitle=ctx.t("Start"), leading=ui.Icon("◎", size=20), rid="route_from",
                        title_rid="route_from_text", on_click=lambda: choose_end("from")),
            ui.ListItem(end_name(ctx, end) if end else ctx.t("Choose destination"), subtitle=ctx.t("Destination"),
                        leading=ui.Icon("📍", size=20), rid="route_to", title_rid="route_to_text",
                        on_click=lambda: choose_end("to"))], flex=1),
        ui.IconButton("⇅", ctx.t("Swap start and destination"), swap, rid="swap", enabled=bool(end))], gap=4)
    if editing:
        body: list[ui.View | None] = _chooser(ctx, editing)
    elif not end:
        body = [ends, empty(ctx.t("Choose a destination to see routes"))]
    else:
        body = [ends, *_summary(ctx, start, end, mode)]
    title = (ctx.t("Choose start") if editing == "from" else ctx.t("Choose destination")) if editing \
        else ctx.t("Directions")
    return ui.Scaffold(ui.ScrollList(body, rid="directions_list", pad=12, gap=8),
                       top=ui.TopBar(title, on_back=ctx.back),
                       on_back=(lambda: local.update(editing=None)) if editing else None)
