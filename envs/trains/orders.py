"""Trains orders: upcoming and past trips, an order's tickets, and cancelling a paid trip for a refund (the fee
depends on how soon the train leaves) after a confirmation."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from .app import APP
from .parts import detail_row, header, tabs
from .text import class_name, day_text, fare, seat_text, station_name, status_text
from .timetable import refund_fee


def departure(order: dict[str, Any]) -> dt.datetime:
    return dt.datetime.fromisoformat(f"{order['date']}T{order['depart']}")


def is_upcoming(order: dict[str, Any], now: dt.datetime) -> bool:
    """A paid trip whose train has not left yet."""
    return order["status"] == "paid" and departure(order) > now


def _find(ctx: Ctx) -> dict[str, Any]:
    found = next((o for o in ctx.state["orders"] if o["id"] == ctx.params.get("id")), None)
    if found is None:
        raise KeyError(f"trains: no order {ctx.params.get('id')!r}")
    return found


def _order_row(ctx: Ctx, order: dict[str, Any], upcoming: bool) -> ui.View:
    route = f"{station_name(ctx.state, order['from'])} → {station_name(ctx.state, order['to'])}"
    count = len(order["passengers"])
    people = ctx.tn("{count} passenger", "{count} passengers", count)
    state = "" if upcoming else f" · {status_text(ctx, order['status'] if order['status'] != 'paid' else 'completed')}"
    return ui.ListItem(f"{order['train']} {route}",
                       subtitle=f"{day_text(ctx, order['date'])} {order['depart']}–{order['arrive']} · {people}{state}",
                       trailing=ui.Text(fare(order["total"]), size=15, rid="order_total"), title_rid="order_title",
                       title_lines=2,
                       rid="order_item", desc=f"{order['train']} {order['date']} {route}",
                       on_click=lambda: ctx.navigate("/order", id=order["id"]))


@APP.screen("/orders")
def orders(ctx: Ctx) -> ui.Scaffold:
    tab = ctx.local.get("tab", 0)
    now = ctx.now
    upcoming = sorted((o for o in ctx.state["orders"] if is_upcoming(o, now)), key=departure)
    past = sorted((o for o in ctx.state["orders"] if not is_upcoming(o, now)), key=departure, reverse=True)
    shown = upcoming if tab == 0 else past
    rows: list[ui.View | None] = [_order_row(ctx, o, tab == 0) for o in shown]
    if not rows:
        rows.append(ui.Text(ctx.t("No upcoming trips") if tab == 0 else ctx.t("No past trips"),
                            color="muted", align="center", height=96, rid="empty"))
    switch = ui.Tabs([ctx.t("Upcoming ({n_upcoming})", n_upcoming=len(upcoming)), ctx.t("Past")], tab,
                     lambda i: ctx.local.update(tab=i), rid_prefix="orders_tab")
    return ui.Scaffold(ui.Column([switch, ui.ScrollList(rows, rid="order_list")]),
                       top=ui.TopBar(ctx.t("My orders")), bottom=tabs(ctx, "/orders"))


@APP.screen("/order")
def order_detail(ctx: Ctx) -> ui.Scaffold:
    order = _find(ctx)
    now = ctx.now
    upcoming = is_upcoming(order, now)
    fee = refund_fee(order["total"], departure(order), now)
    status = order["status"] if order["status"] != "paid" or upcoming else "completed"

    def cancel() -> None:
        order.update(status="refunded", refund=round(order["total"] - fee, 2))
        ctx.local["cancelling"] = False
        ctx.toast(ctx.t("Refund of {fare} on its way", fare=fare(order['refund'])))

    rows: list[ui.View | None] = [
        ui.Text(ctx.t("Payment successful"), size=18, bold=True, color="primary", align="center", height=40,
                rid="success_title") if ctx.params.get("done") == "1" and upcoming else None,
        inset(ui.Card([
            ui.Text(f"{order['train']} · {day_text(ctx, order['date'])}", size=15, bold=True, rid="order_train"),
            ui.Text(f"{order['depart']} {station_name(ctx.state, order['from'])} → "
                    f"{order['arrive']} {station_name(ctx.state, order['to'])}", size=14, max_lines=2, rid="order_route"),
        ]), MARGIN - 12, MARGIN - 12),
        detail_row(ctx.t("Status"), status_text(ctx, status), "order_status"),
        detail_row(ctx.t("Seat class"), class_name(ctx, order["seat_class"]), "order_class"),
        header(ctx.t("Tickets")),
        *[ui.ListItem(x["name"], subtitle=seat_text(ctx, x["seat"]), trailing=fare(order["price"]),
                      title_rid="ticket_name", rid="ticket_item") for x in order["passengers"]],
        detail_row(ctx.t("Total"), fare(order["total"]), "order_paid"),
        detail_row(ctx.t("Refunded"), fare(order["refund"]), "order_refund") if order["status"] == "refunded" else None,
        detail_row(ctx.t("Order number"), order["number"], "order_number"),
        ui.Row([ui.Button(ctx.t("Cancel trip", context="order_detail"), lambda: ctx.local.update(cancelling=True), style="outlined",
                          rid="cancel_order", flex=1)], pad=16) if upcoming else None,
    ]
    dialog = None
    if ctx.local.get("cancelling") and upcoming:
        body = ctx.t("You paid {fare}. The cancellation fee is {fare_2}, so {fare_3} will be refunded.", fare=fare(order['total']), fare_2=fare(fee), fare_3=fare(order['total'] - fee))
        dialog = ui.Dialog(ctx.t("Cancel {train} on {day_text}?", train=order['train'], day_text=day_text(ctx, order['date'])),
                           body,
                           [ui.Button(ctx.t("Keep trip"), lambda: ctx.local.update(cancelling=False),
                                      style="text", rid=ui.NEGATIVE),
                            ui.Button(ctx.t("Cancel trip"), cancel, style="text", rid=ui.POSITIVE)],
                           on_dismiss=lambda: ctx.local.update(cancelling=False))
    return ui.Scaffold(ui.ScrollList(rows, rid="order_detail", gap=4),
                       top=ui.TopBar(ctx.t("Order details"), on_back=ctx.back), dialog=dialog)
