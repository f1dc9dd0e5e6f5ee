"""How the Trains app writes fares, seat classes, journey times, availability and dates, in the phone's language."""
from __future__ import annotations

import datetime as dt
from typing import Any, Mapping

from mobilegym.calendar_words import MONTH_ABBRS as MONTHS, WEEKDAY_PAIRS as WEEKDAYS
from mobilegym.sim.app import Ctx

from .timetable import PLENTY

CLASS_NAMES = {"second": "Second class", "first": "First class", "business": "Business class"}
SHORT_CLASS = {"second": "2nd", "first": "1st", "business": "Business"}
STATUS = {"paid": "Paid", "completed": "Travelled", "refunded": "Refunded"}
ME = "Me"  # the owner's own passenger entry, as 12306 marks it


def passenger_label(ctx: Ctx, passenger: Mapping[str, Any]) -> str:
    """A passenger's name, the owner's marked: "Alex Kim (Me)" / "王芳（本人）"."""
    if not passenger["self"]:
        return passenger["name"]
    return ctx.t("{name} ({me})", name=passenger['name'], me=ctx.t(ME))


def fare(value: float) -> str:
    """"¥553" / "¥553.5" (fares are whole or half yuan)."""
    return f"¥{value:,.0f}" if value == int(value) else f"¥{value:,.1f}"


def class_name(ctx: Ctx, seat_class: str) -> str:
    return ctx.t(CLASS_NAMES[seat_class])


def short_class(ctx: Ctx, seat_class: str) -> str:
    return ctx.t(SHORT_CLASS[seat_class])


def duration(ctx: Ctx, minutes: int) -> str:
    """"4h 05m" / "4小时5分"."""
    return ctx.t("{value}h {value_2:02d}m", value=minutes // 60, value_2=minutes % 60)


def seats_text(ctx: Ctx, left: int) -> str:
    """"Available" / "12 left" / "Sold out" (有 / 12张 / 无)."""
    if left == PLENTY:
        return ctx.t("Available")
    return ctx.t("{left} left", left=left) if left else ctx.t("Sold out")


def day_text(ctx: Ctx, iso: str) -> str:
    """"Fri, Mar 20" / "3月20日 周五"."""
    day = dt.date.fromisoformat(iso)
    en, zh = WEEKDAYS[day.weekday()]
    return ctx.t("{en}, {months} {day}", en=en, months=MONTHS[day.month - 1], day=day.day, month=day.month, zh=zh)


def status_text(ctx: Ctx, status: str) -> str:
    return ctx.t(STATUS[status], context="order_status")


def seat_text(ctx: Ctx, seat: str) -> str:
    """"05-12F" -> "Car 5, seat 12F" / "05车12F号"."""
    car, number = seat.split("-")
    return ctx.t("Car {int}, seat {number}", int=int(car), number=number, car=car)


def masked_id(number: str) -> str:
    """An ID number as lists show it: the first four and last four characters."""
    return number[:4] + "*" * (len(number) - 8) + number[-4:]


def station_name(state: Mapping[str, Any], station_id: str) -> str:
    return next((s["name"] for s in state["stations"] if s["id"] == station_id), station_id)
