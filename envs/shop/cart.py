"""Shop screens for buying: the cart (select, quantities, remove with a confirm dialog) and checkout (address,
shipping, order summary, place the order after a confirm dialog)."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.envs.layout import confirm
from mobilegym.envs.l10n import counted
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import catalog
from .app import APP
from .parts import empty, language, money, section
from .world import SHIPPING, order_number, shipping_fee


@APP.screen("/cart")
def cart(ctx: Ctx) -> ui.Scaffold:
    s, local = ctx.state, ctx.local
    lines = s["cart"]

    def set_qty(line: dict[str, Any], qty: int) -> None:
        line["qty"] = max(1, min(catalog.MAX_QTY, qty))

    def remove(line_id: str) -> None:
        s["cart"] = [i for i in s["cart"] if i["id"] != line_id]
        ctx.toast(ctx.t("Removed from cart"))

    rows: list[ui.View | None] = []
    for line in lines:
        item = catalog.product(s, line["product_id"])
        label = catalog.item_label(item["title"], line["variant"])
        qty = line["qty"]
        rows.append(ui.Card([
            ui.Row([ui.Checkbox("item_checkbox", line["selected"], lambda v, line=line: line.__setitem__("selected", v),
                                desc=label, width=32),
                    ui.Column([ui.Text(item["title"], size=15, bold=True, max_lines=2, rid="cart_item_title",
                                       on_click=lambda item=item: ctx.navigate("/product", id=item["id"])),
                               ui.Text(line["variant"], size=13, color="muted", rid="cart_item_variant")
                               if line["variant"] else None,
                               ui.Text(money(ctx, item["price"]), size=15, rid="cart_item_price")], gap=2, flex=1)],
                   gap=8),
            ui.Row([ui.IconButton("−", ctx.t("Decrease quantity of {label}", label=label),
                                  lambda line=line, q=qty: set_qty(line, q - 1), rid="qty_decrease", enabled=qty > 1),
                    ui.Text(str(qty), size=16, bold=True, align="center", width=32, rid="cart_qty",
                            desc=ctx.t("Quantity of {label}: {qty}", label=label, qty=qty)),
                    ui.IconButton("+", ctx.t("Increase quantity of {label}", label=label),
                                  lambda line=line, q=qty: set_qty(line, q + 1), rid="qty_increase",
                                  enabled=qty < catalog.MAX_QTY),
                    ui.Spacer(flex=1),
                    ui.IconButton("🗑", ctx.t("Remove {label}", label=label),
                                  lambda line=line: local.__setitem__("removing", line["id"]), rid="remove_item")],
                   gap=4),
        ], rid="cart_item"))
    if not lines:
        rows.append(empty(ctx.t("Your cart is empty")))
    selected = [i for i in lines if i["selected"]]
    count = sum(i["qty"] for i in selected)
    bottom = ui.Row([
        ui.Column([ui.Text(ctx.t("Subtotal ({counted})", counted=counted(count, 'item'), count=count), size=13, color="muted"),
                   ui.Text(money(ctx, catalog.cart_subtotal(s)), size=18, bold=True, rid="cart_total")], gap=2, flex=1),
        ui.Button(ctx.t("Checkout"), lambda: ctx.navigate("/checkout"), rid="checkout", enabled=bool(selected)),
    ], pad=12, gap=8, bg="surface")
    removing = next((i for i in lines if i["id"] == local.get("removing")), None)
    dialog = None
    if removing is not None:
        label = catalog.item_label(catalog.product(s, removing["product_id"])["title"], removing["variant"])
        dialog = confirm(ctx, "removing", ctx.t("Remove item?"),
                         ctx.t("Remove {label} from your cart?", label=label),
                         ctx.t("Remove"), lambda: remove(removing["id"]))
    return ui.Scaffold(ui.ScrollList(rows, rid="cart_list", pad=8, gap=8),
                       top=ui.TopBar(ctx.t("Cart"), on_back=ctx.back), bottom=bottom, dialog=dialog)


# --- checkout ---------------------------------------------------------------------------------------

def _checkout_lines(ctx: Ctx) -> list[dict[str, Any]]:
    """What is being bought: the "Buy now" product, or the cart's selected lines."""
    s, params = ctx.state, ctx.params
    if params.get("buy"):
        return [{"product_id": catalog.product(s, params["buy"])["id"], "variant": params.get("variant", ""),
                 "qty": int(params.get("qty", 1)), "cart_id": None}]
    return [{"product_id": i["product_id"], "variant": i["variant"], "qty": i["qty"], "cart_id": i["id"]}
            for i in s["cart"] if i["selected"]]


def place_order(ctx: Ctx, lines: list[dict[str, Any]], address_id: str, method: str) -> dict[str, Any]:
    """Record the order (not shipped yet), take its lines out of the cart, and return it."""
    s = ctx.state
    today = ctx.now.date()
    items = [{"product_id": line["product_id"], "title": catalog.product(s, line["product_id"])["title"],
              "variant": line["variant"], "qty": line["qty"], "price": catalog.product(s, line["product_id"])["price"]}
             for line in lines]
    subtotal = round(sum(i["price"] * i["qty"] for i in items), 2)
    free = all(catalog.product(s, i["product_id"])["free_shipping"] for i in items)
    fee = shipping_fee(method, subtotal, free, language(ctx))
    order_id = ctx.new_id("ord")
    placed = {"id": order_id, "number": order_number(random.Random(f"{ctx.os['time_ms']}|{order_id}"), language(ctx)),
              "placed": today.isoformat(), "status": "to_ship",
              "delivery_date": (today + dt.timedelta(days=SHIPPING[method][0])).isoformat(), "items": items,
              "address_id": address_id, "shipping": method, "shipping_fee": fee, "total": round(subtotal + fee, 2)}
    s["orders"].insert(0, placed)
    bought = {line["cart_id"] for line in lines if line["cart_id"]}
    s["cart"] = [i for i in s["cart"] if i["id"] not in bought]
    return placed


@APP.screen("/checkout")
def checkout(ctx: Ctx) -> ui.Scaffold:
    s, local = ctx.state, ctx.local
    lines = _checkout_lines(ctx)
    lang = language(ctx)
    chosen = next((a for a in s["addresses"] if a["id"] == local.get("address_id")), None) or catalog.default_address(s)
    method = local.get("shipping", "standard")
    subtotal = round(sum(catalog.product(s, line["product_id"])["price"] * line["qty"] for line in lines), 2)
    free = all(catalog.product(s, line["product_id"])["free_shipping"] for line in lines)
    fees = {m: shipping_fee(m, subtotal, free, lang) for m in SHIPPING}
    total = round(subtotal + fees[method], 2)
    today = ctx.now.date()

    def fee_text(m: str) -> str:
        return ctx.t("FREE") if fees[m] == 0 else money(ctx, fees[m])

    def place() -> None:
        placed = place_order(ctx, lines, chosen["id"], method)
        ctx.toast(ctx.t("Order placed, thank you!"))
        ctx.replace("/order", id=placed["id"])

    shipping_names = {"standard": "Standard", "express": "Express"}
    rows: list[ui.View | None] = [section(ctx.t("Deliver to"), "address_header")]
    if chosen is not None:
        rows.append(ui.ListItem(f"{chosen['name']} · {chosen['label']}",
                                subtitle=f"{chosen['street']}, {chosen['city']} {chosen['region']} {chosen['postcode']}",
                                trailing=ctx.t("Change"), rid="address_row",
                                on_click=lambda: local.__setitem__("dialog", "address")))
    else:
        rows.append(ui.ListItem(ctx.t("Add a delivery address"), trailing="›", rid="add_address",
                                on_click=lambda: ctx.navigate("/address/edit")))
    rows.append(section(ctx.t("Shipping", context="checkout"), "shipping_header"))
    for m, name in shipping_names.items():
        arrives = catalog.short_date(lang, today + dt.timedelta(days=SHIPPING[m][0]))
        pick = (lambda m=m: local.__setitem__("shipping", m))
        rows.append(ui.ListItem(f"{ctx.t(name)} · {fee_text(m)}", subtitle=ctx.t("Arrives {arrives}", arrives=arrives),
                                trailing=ui.Radio(None, method == m, pick), rid=f"shipping_{m}", on_click=pick))
    rows += [section(ctx.t("Payment"), "payment_header"),
             ui.ListItem(s["payment"]["card"], leading=ui.Icon("▭", size=24), rid="payment_method"),
             section(ctx.t("Items"), "items_header")]
    for line in lines:
        item = catalog.product(s, line["product_id"])
        rows.append(ui.ListItem(item["title"], subtitle=" · ".join(x for x in (line["variant"], f"×{line['qty']}") if x),
                                trailing=money(ctx, item["price"] * line["qty"]), rid="checkout_item",
                                title_rid="checkout_item_title"))
    rows += [
        ui.Row([ui.Text(ctx.t("Items", context="checkout"), flex=1), ui.Text(money(ctx, subtotal), rid="items_subtotal")], pad=8),
        ui.Row([ui.Text(ctx.t("Shipping"), flex=1), ui.Text(fee_text(method), rid="shipping_fee")], pad=8),
        ui.Row([ui.Text(ctx.t("Order total"), bold=True, flex=1),
                ui.Text(money(ctx, total), bold=True, rid="order_total")], pad=8),
    ]
    dialog = confirm(ctx, "confirm_order", ctx.t("Place your order?"),
                     ctx.t("{money} will be charged to your {card}.", money=money(ctx, total), card=s['payment']['card']),
                     ctx.t("Place order"), place)
    if local.get("dialog") == "address":
        def pick(address_id: str) -> None:
            local.update(address_id=address_id, dialog=None)

        radios = [ui.ListItem(a["label"], subtitle=f"{a['street']}, {a['city']}", rid="address_option",
                              desc=f"{a['label']} · {a['street']}", on_click=lambda a=a: pick(a["id"]),
                              trailing=ui.Radio(None, chosen is not None and a["id"] == chosen["id"],
                                                lambda a=a: pick(a["id"])))
                  for a in s["addresses"]]
        dialog = ui.Dialog(ctx.t("Choose an address"), radios,
                           [ui.Button(ctx.t("Cancel"), lambda: local.__setitem__("dialog", None), style="text",
                                      rid=ui.NEGATIVE)], on_dismiss=lambda: local.__setitem__("dialog", None))
    bottom = ui.Row([ui.Text(money(ctx, total), size=18, bold=True, flex=1),
                     ui.Button(ctx.t("Place order"), lambda: local.__setitem__("confirm_order", True),
                               rid="place_order", enabled=chosen is not None and bool(lines))], pad=12, bg="surface")
    return ui.Scaffold(ui.ScrollList(rows, rid="checkout_list", pad=8, gap=4),
                       top=ui.TopBar(ctx.t("Checkout", context="checkout"), on_back=ctx.back), bottom=bottom, dialog=dialog)
