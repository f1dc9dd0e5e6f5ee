"""Pieces the Shop's screens share: product rows, section headers and the cart button."""
from __future__ import annotations

from typing import Any

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.envs.l10n import counted
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import catalog


def language(ctx: Ctx) -> str:
    return ctx.t("en")


def money(ctx: Ctx, amount: float) -> str:
    return catalog.money(ctx.state, amount)


def stars(ctx: Ctx, item: dict[str, Any]) -> str:
    """"4.5★ (1,234)": the rating and the number of reviews."""
    return f"{item['rating']:.1f}★ ({item['reviews']:,})"


def product_desc(ctx: Ctx, item: dict[str, Any]) -> str:
    """A product row's description: title, price, rating, reviews and free shipping."""
    parts = [item["title"], money(ctx, item["price"]),
             ctx.t("{rating:.1f} stars", rating=item['rating']),
             ctx.tn("{count:,} review", "{count:,} reviews", item['reviews'])]
    if item["free_shipping"]:
        parts.append(ctx.t("Free shipping"))
    return " · ".join(parts)


def product_row(ctx: Ctx, item: dict[str, Any], *, trailing: ui.View | None = None) -> ui.View:
    """A product in a list; a tap opens its page."""
    subtitle = f"{money(ctx, item['price'])} · {stars(ctx, item)}"
    if item["free_shipping"]:
        subtitle += " · " + ctx.t("Free shipping")
    return ui.ListItem(item["title"], subtitle=subtitle, leading=ui.Icon("▣", size=40, badge="primary", shape="square"),
                       trailing=trailing, rid="product_item", title_rid="product_title", desc=product_desc(ctx, item),
                       on_click=lambda: ctx.navigate("/product", id=item["id"]))


def section(title: str, rid: str) -> ui.View:
    """A section header of a list padded 8 dp: its text at the 16 dp margin."""
    return inset(ui.Text(title, size=13, bold=True, color="primary", height=32, rid=rid), MARGIN - 8)


def cart_button(ctx: Ctx) -> ui.View:
    count = sum(i["qty"] for i in ctx.state["cart"])
    return ui.IconButton("🛒", ctx.t("Cart, {counted}", counted=counted(count, 'item'), count=count), lambda: ctx.navigate("/cart"),
                         rid="cart")



def empty(text: str) -> ui.View:
    return ui.Text(text, color="muted", align="center", height=100, max_lines=2, rid="empty")
