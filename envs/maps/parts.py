"""Pieces the Maps screens share: the language, place rows and their descriptions, section headers, the
search bar."""
from __future__ import annotations

from typing import Any, Callable

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import geo
from .world import MAX_RECENT


def language(ctx: Ctx) -> str:
    return ctx.t("en")


def category_name(ctx: Ctx, item: dict[str, Any]) -> str:
    return geo.category(ctx.state, item["category"])["name"]


def glyph(ctx: Ctx, item: dict[str, Any]) -> str:
    return geo.category(ctx.state, item["category"])["glyph"]


def away(ctx: Ctx, item: dict[str, Any]) -> str:
    """The road distance from the phone's location."""
    return geo.distance_text(language(ctx), geo.distance_km(ctx.state["location"], item))


def place_subtitle(ctx: Ctx, item: dict[str, Any]) -> str:
    """"4.5★ (312) · Cafés · 1.2 km" then the opening status."""
    lang = language(ctx)
    return (f"{item['rating']:.1f}★ ({item['reviews']:,}) · {category_name(ctx, item)} · {away(ctx, item)}\n"
            f"{geo.status_text(lang, item, ctx.now)}")


def place_row(ctx: Ctx, item: dict[str, Any], on_click: Callable[[], None] | None = None, *,
              trailing: ui.View | None = None, rid: str = "place_item") -> ui.View:
    """A place in a list: name, rating, category, distance and whether it is open; a tap opens its page."""
    subtitle = place_subtitle(ctx, item)
    return ui.ListItem(item["name"], subtitle=subtitle, leading=ui.Icon(glyph(ctx, item), size=36, badge="primary"),
                       trailing=trailing, rid=rid, title_rid="place_name",
                       desc=f"{item['name']} · {item['address']} · " + subtitle.replace("\n", " · "),
                       on_click=on_click or (lambda: ctx.navigate("/place", id=item["id"])))


def section(title: str, rid: str) -> ui.View:
    return inset(ui.Text(title, size=13, bold=True, color="primary", height=32, rid=rid), MARGIN - 8)



def empty(text: str) -> ui.View:
    return ui.Text(text, color="muted", align="center", height=100, max_lines=2, rid="empty")


def matches(ctx: Ctx, item: dict[str, Any], query: str) -> bool:
    """The query (case-insensitive) is in the place's name, address or category."""
    q = query.strip().casefold()
    return not q or any(q in text.casefold() for text in (item["name"], item["address"], category_name(ctx, item)))


def remember(ctx: Ctx, place_id: str) -> None:
    """Put a place at the top of the recently viewed ones."""
    recent = [p for p in ctx.state["recent"] if p != place_id]
    ctx.state["recent"] = [place_id, *recent][:MAX_RECENT]
