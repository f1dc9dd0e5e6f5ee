"""UI steps on Weather that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

import re

from mobilegym.oracle import Driver


def city(d: Driver, key: str = "city") -> str:
    """The name of the city parameter ``key`` as the phone's language writes it."""
    return d.params[key][d.t("name", "name_zh")]


def degrees(text: str) -> int:
    """"-3°" -> -3."""
    return int(text.strip().rstrip("°CF"))


def open_saved_city(d: Driver, name: str) -> None:
    d.open_app("Weather")
    d.tap(rid="city_item", desc=name)


def forecast(d: Driver) -> list[tuple[str, str, int, int]]:
    """(day label, condition, high, low) of the five forecast rows of the open city page."""
    days = []
    for desc in d.collect("forecast_item"):
        label, rest = re.split(r": |：", desc, maxsplit=1)
        condition, high, low, _ = re.split(r", |，", rest)
        days.append((label, condition, degrees(high.split()[-1]), degrees(low.split()[-1])))
    return days


def set_alarm(d: Driver, hour: int, minute: int = 0) -> None:
    d.open_app("Clock")
    d.tap(rid="add_alarm")
    d.pick_time(hour, minute, rid="alarm_time_input")
    d.tap(rid="save_alarm")


def send_text(d: Driver, name: str, text: str) -> None:
    """In Messages: a new message to a contact picked from the suggestions."""
    d.open_app("Messages")
    d.tap(rid="new_message")
    d.type(name, rid="recipient_input")
    d.tap(rid="suggestion_name", text=name)
    d.type(text, rid="message_input")
    d.tap(rid="send")
