"""Reading the Shop's state: lookups, money and dates as the screens print them, cart and order sums.
Pure functions of the app's state, shared by the screens and the task suite."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.calendar_words import MONTH_ABBRS as MONTHS, WEEKDAY_ABBRS as WEEKDAYS, WEEKDAY_CHARS as WEEKDAYS_ZH
from mobilegym.sim.records import record

STATUSES = ("to_ship", "shipped", "delivered", "cancelled")
MAX_QTY = 10


def product(state: dict[str, Any], product_id: str) -> dict[str, Any]:
    return record(state["products"], product_id, "product")


def category(state: dict[str, Any], category_id: str) -> dict[str, Any]:
    return record(state["categories"], category_id, "category")


def order(state: dict[str, Any], order_id: str) -> dict[str, Any]:
    return record(state["orders"], order_id, "order")


def address(state: dict[str, Any], address_id: str) -> dict[str, Any]:
    return record(state["addresses"], address_id, "address")


def default_address(state: dict[str, Any]) -> dict[str, Any] | None:
    return next((a for a in state["addresses"] if a["default"]), None)


def money(state: dict[str, Any], amount: float) -> str:
    """$1,234.50 or ¥1,234.00."""
    return f"{state['currency']}{amount:,.2f}"


def item_label(title: str, variant: str) -> str:
    """A product with its variant: "Trail Running Shoes (US 9)"."""
    return f"{title} ({variant})" if variant else title


def short_date(language: str, day: dt.date) -> str:
    """Thu, Mar 19 / 3月19日 周四."""
    if language == "zh":
        return f"{day.month}月{day.day}日 周{WEEKDAYS_ZH[day.weekday()]}"
    return f"{WEEKDAYS[day.weekday()]}, {MONTHS[day.month - 1]} {day.day}"


def long_date(language: str, day: dt.date) -> str:
    """Mar 19, 2026 / 2026年3月19日."""
    if language == "zh":
        return f"{day.year}年{day.month}月{day.day}日"
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def line_total(state: dict[str, Any], cart_item: dict[str, Any]) -> float:
    return round(product(state, cart_item["product_id"])["price"] * cart_item["qty"], 2)


def cart_subtotal(state: dict[str, Any], only_selected: bool = True) -> float:
    """The price of the cart's (selected) items."""
    return round(sum(line_total(state, i) for i in state["cart"] if i["selected"] or not only_selected), 2)


def order_subtotal(order_: dict[str, Any]) -> float:
    return round(sum(i["price"] * i["qty"] for i in order_["items"]), 2)
