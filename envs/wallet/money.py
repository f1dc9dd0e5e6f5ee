"""How the Wallet shows money, dates and categories, in the phone's language."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.calendar_words import MONTHS, WEEKDAY_PAIRS as WEEKDAYS
from mobilegym.envs.l10n import counted
from mobilegym.sim.app import Ctx

SYMBOLS = {"USD": "$", "CNY": "¥"}
CATEGORIES = {"dining": "Dining", "groceries": "Groceries", "shopping": "Shopping", "transport": "Transport",
              "entertainment": "Entertainment", "health": "Health", "transfer": "Transfers", "bills": "Bills"}


def amount_text(state: dict[str, Any], value: float, signed: bool = False) -> str:
    """"$1,234.50" (with ``signed``: "+$50.00" / "-$12.30") in the wallet's currency."""
    symbol = SYMBOLS[state["currency"]]
    sign = ("-" if value < 0 else "+") if signed else ("-" if value < 0 else "")
    return f"{sign}{symbol}{abs(value):,.2f}"


def category_text(ctx: Ctx, category: str) -> str:
    return ctx.t(CATEGORIES[category])


def short_date(ctx: Ctx, iso: str) -> str:
    """"Mar 20" / "3月20日"."""
    day = dt.date.fromisoformat(iso)
    return ctx.t("{months} {day}", months=MONTHS[day.month - 1][:3], day=day.day, month=day.month)


def long_date(ctx: Ctx, iso: str) -> str:
    """"Friday, March 20, 2026" / "2026年3月20日 周五"."""
    day = dt.date.fromisoformat(iso)
    en, zh = WEEKDAYS[day.weekday()]
    return ctx.t("{strftime}, {months} {day}, {year}", strftime=day.strftime('%A'), months=MONTHS[day.month - 1], day=day.day, year=day.year, month=day.month, zh=zh)


def month_text(ctx: Ctx, month: str) -> str:
    """"2026-03" -> "March 2026" / "2026年3月"."""
    year, number = int(month[:4]), int(month[5:7])
    return ctx.t("{months} {year}", months=MONTHS[number - 1], year=year, number=number)


def due_text(ctx: Ctx, bill: dict[str, Any]) -> str:
    """Where a bill stands on the phone's date: paid, overdue, due today or in some days."""
    if bill["paid"]:
        return ctx.t("Paid {short_date}", short_date=short_date(ctx, bill['paid_on']))
    days = (dt.date.fromisoformat(bill["due"]) - ctx.now.date()).days
    if days < 0:
        return ctx.t("Overdue · was due {short_date}", short_date=short_date(ctx, bill['due']))
    if days == 0:
        return ctx.t("Due today")
    return ctx.t("Due {short_date} · in {counted}", short_date=short_date(ctx, bill['due']), counted=counted(days, 'day'), days=days)


def card_text(ctx: Ctx, card: dict[str, Any]) -> str:
    """"Chase debit •••• 4821" / "招商银行 储蓄卡 (4821)"."""
    return ctx.t("{bank} {kind} •••• {last4}", bank=card['bank'], kind=ctx.t(card["kind"]), last4=card['last4'])
