"""Shop screens of the account: orders (tabs by status, the order page, cancelling an unshipped order after a
confirm dialog) and addresses (list, set the default, the add/edit form)."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.envs.layout import confirm
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import catalog
from .app import APP
from .parts import empty, language, money, section

TABS = (("All", None), ("To ship", "to_ship"), ("Shipped", "shipped"), ("Delivered", "delivered"))
STATUS_LABELS = {"to_ship": "Not shipped yet", "shipped": "Shipped", "delivered": "Delivered", "cancelled": "Cancelled"}


def delivery_line(ctx: Ctx, order: dict[str, Any]) -> str:
    """When the order arrives (or arrived), as the order list and page say it."""
    lang = language(ctx)
    day = dt.date.fromisoformat(order["delivery_date"])
    if order["status"] == "delivered":
        return ctx.t("Delivered {short_date}", short_date=catalog.short_date(lang, day))
    if order["status"] == "cancelled":
        return ctx.t("Cancelled")
    return ctx.t("Arriving {short_date}", short_date=catalog.short_date(lang, day))


def order_title(ctx: Ctx, order: dict[str, Any]) -> str:
    first = order["items"][0]["title"]
    more = len(order["items"]) - 1
    return first + (ctx.t(" and {more} more", more=more, value=more + 1) if more else "")


@APP.screen("/orders")
def orders(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    tab = ctx.local.get("tab", 0)
    status = TABS[tab][1]
    shown = [o for o in s["orders"] if status is None or o["status"] == status]
    rows: list[ui.View | None] = []
    for o in shown:
        line = delivery_line(ctx, o)
        rows.append(ui.ListItem(order_title(ctx, o), subtitle=f"{line} · {money(ctx, o['total'])}",
                                leading=ui.Icon("📦", size=32), rid="order_item", title_rid="order_title",
                                desc=f"{order_title(ctx, o)} · {line} · {money(ctx, o['total'])}",
                                on_click=lambda o=o: ctx.navigate("/order", id=o["id"])))
    if not rows:
        rows.append(empty(ctx.t("No orders here")))
    top = ui.Column([ui.TopBar(ctx.t("Your orders"), on_back=ctx.back),
                     ui.Tabs([ctx.t(label) for label, _ in TABS], tab,
                             lambda i: ctx.local.update(tab=i, scroll={}), rid_prefix="tab")])
    return ui.Scaffold(ui.ScrollList(rows, rid="order_list", pad=8), top=top)


@APP.screen("/order")
def order_page(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    o = catalog.order(s, ctx.params["id"])
    lang = language(ctx)
    address = next((a for a in s["addresses"] if a["id"] == o["address_id"]), None)

    def cancel_order() -> None:
        o["status"] = "cancelled"
        ctx.toast(ctx.t("Your order was cancelled"))

    rows: list[ui.View | None] = [
        ui.Text(ctx.t(STATUS_LABELS[o["status"]]), size=20, bold=True,
                rid="order_status"),
        ui.Text(delivery_line(ctx, o), size=15, rid="order_delivery"),
        ui.Text(ctx.t("Order # {number}", number=o['number']), size=13, color="muted", rid="order_number"),
        ui.Text(ctx.t("Placed on {long_date}", long_date=catalog.long_date(lang, dt.date.fromisoformat(o['placed']))),
                size=13, color="muted", rid="order_placed"),
        section(ctx.t("Items"), "items_header"),
        *[ui.ListItem(i["title"], subtitle=" · ".join(x for x in (i["variant"], f"×{i['qty']}") if x),
                      trailing=money(ctx, i["price"] * i["qty"]), rid="order_line", title_rid="order_line_title",
                      on_click=lambda i=i: ctx.navigate("/product", id=i["product_id"])) for i in o["items"]],
        section(ctx.t("Ship to"), "ship_to_header"),
        ui.Text(f"{address['name']}, {address['street']}, {address['city']} {address['region']} {address['postcode']}"
                if address else ctx.t("Address removed"), max_lines=3, rid="order_address"),
        section(ctx.t("Order summary"), "summary_header"),
        ui.Row([ui.Text(ctx.t("Items", context="order_page"), flex=1), ui.Text(money(ctx, catalog.order_subtotal(o)))]),
        ui.Row([ui.Text(ctx.t("Shipping") + (ctx.t(" (Express)") if o["shipping"] == "express" else ""),
                        flex=1),
                ui.Text(money(ctx, o["shipping_fee"]), rid="order_shipping_fee")]),
        ui.Row([ui.Text(ctx.t("Order total"), bold=True, flex=1),
                ui.Text(money(ctx, o["total"]), bold=True, rid="order_total")]),
    ]
    if o["status"] == "to_ship":
        rows.append(ui.Button(ctx.t("Cancel order"), lambda: ctx.local.__setitem__("cancelling", True),
                              style="outlined", rid="cancel_order"))
    dialog = confirm(ctx, "cancelling", ctx.t("Cancel this order?"),
                     ctx.t("{order_title} will not be shipped and {money} will be refunded.", order_title=order_title(ctx, o), money=money(ctx, o['total'])),
                     ctx.t("Cancel order"), cancel_order, cancel=ctx.t("Keep order"))
    return ui.Scaffold(ui.ScrollList(rows, rid="order_detail", pad=16, gap=6),
                       top=ui.TopBar(ctx.t("Order details"), on_back=ctx.back), dialog=dialog)


# --- addresses --------------------------------------------------------------------------------------

def set_default(state: dict[str, Any], address_id: str) -> None:
    for a in state["addresses"]:
        a["default"] = a["id"] == address_id


@APP.screen("/addresses")
def addresses(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state

    def make_default(a: dict[str, Any]) -> None:
        set_default(s, a["id"])
        ctx.toast(ctx.t("{label} is now your default address", label=a['label']))

    rows: list[ui.View | None] = []
    for a in s["addresses"]:
        rows.append(ui.Card([
            ui.ListItem(f"{a['label']} · {a['name']}",
                        subtitle=f"{a['street']}, {a['city']} {a['region']} {a['postcode']} · {a['phone']}",
                        trailing=ctx.t("Default") if a["default"] else "✎", rid="address_item",
                        title_rid="address_title", desc=f"{a['label']} · {a['street']}" +
                        (ctx.t(" · default") if a["default"] else ""),
                        on_click=lambda a=a: ctx.navigate("/address/edit", id=a["id"])),
            None if a["default"] else ui.Row([
                ui.Button(ctx.t("Set as default"), lambda a=a: make_default(a), style="text",
                          rid="set_default", desc=ctx.t("Set {label} as default", label=a['label'])),
                ui.Spacer(flex=1)]),
        ], pad=4, gap=0))
    if not rows:
        rows.append(empty(ctx.t("No saved addresses")))
    rows.append(ui.Button(ctx.t("+ Add a new address"), lambda: ctx.navigate("/address/edit"),
                          style="outlined", rid="add_address"))
    return ui.Scaffold(ui.ScrollList(rows, rid="address_list", pad=8, gap=8),
                       top=ui.TopBar(ctx.t("Your addresses"), on_back=ctx.back))


FIELDS = (("label", "address_label_input", "Label (e.g. Home)", False),
          ("name", "address_name_input", "Full name", True),
          ("phone", "address_phone_input", "Phone number", True),
          ("street", "address_street_input", "Street address", True),
          ("city", "address_city_input", "City", True),
          ("region", "address_region_input", "State / Province", True),
          ("postcode", "address_postcode_input", "ZIP / Postal code", True))


@APP.screen("/address/edit")
def edit_address(ctx: Ctx) -> ui.Scaffold:
    s, local = ctx.state, ctx.local
    existing = catalog.address(s, ctx.params["id"]) if ctx.params.get("id") else None
    source = existing or {key: "" for key, *_ in FIELDS}
    make_default = local.get("make_default", bool(existing and existing["default"]) or not s["addresses"])

    def save() -> None:
        values = {key: local.get(key, source[key]).strip() for key, *_ in FIELDS}
        missing = [ctx.t(label) for key, _, label, required in FIELDS if required and not values[key]]
        if missing:
            ctx.toast(ctx.t("Enter the {lower}", lower=missing[0].lower(), missing=missing[0]))
            return
        digits = "".join(ch for ch in values["phone"] if ch.isdigit())
        if len(digits) < 6 or any(not (ch.isdigit() or ch in " +-()") for ch in values["phone"]):
            ctx.toast(ctx.t("Enter a valid phone number"))
            return
        values["label"] = values["label"] or ctx.t("Address")
        if existing is not None:
            existing.update(values)
            target = existing
        else:
            target = {"id": ctx.new_id("addr"), **values, "default": False}
            s["addresses"].append(target)
        if make_default:
            set_default(s, target["id"])
        ctx.toast(ctx.t("Address saved"))
        ctx.back()

    body: list[ui.View | None] = []
    for key, rid, label, _ in FIELDS:
        body += [ui.Text(ctx.t(label), size=13, color="primary", height=24),
                 ctx.field(rid, key, source[key], hint=ctx.t(label))]
    body += [ui.Checkbox("default_checkbox", make_default, lambda v: local.__setitem__("make_default", v),
                         label=ctx.t("Make this my default address"),
                         enabled=not (existing and existing["default"])),
             ui.Spacer(8),
             ui.Row([ui.Spacer(flex=1), ui.Button(ctx.t("Cancel"), ctx.back, style="text", rid="cancel"),
                     ui.Button(ctx.t("Save"), save, rid="save_address")], gap=8)]
    title = ctx.t("Edit address") if existing else ctx.t("Add a new address")
    return ui.Scaffold(ui.ScrollList(body, rid="address_form", pad=16, gap=4), top=ui.TopBar(title, on_back=ctx.back))
