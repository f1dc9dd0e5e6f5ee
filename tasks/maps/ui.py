"""UI steps on Maps that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

import re

from mobilegym.envs.maps.geo import MODES
from mobilegym.oracle import Driver


def home(d: Driver) -> None:
    d.open_home("Maps", rid="search_bar")


def search(d: Driver, query: str) -> None:
    home(d)
    d.tap(rid="search_bar")
    d.type(query, rid="search_input")


def open_place(d: Driver, name: str) -> None:
    search(d, name)
    d.tap(rid="place_name", text=name)


def category_results(d: Driver, category: str, open_now: bool = False, top_rated: bool = False) -> list[str]:
    """The names a category search lists (nearest first, or best rated first), every row down to the end."""
    home(d)
    d.tap(rid="category_chip", text=category)
    if open_now:
        d.tap(rid="filter_open")
    if top_rated:
        d.tap(rid="sort_rating")
    seen: list[str] = []
    while True:
        seen += [t for t in d.texts("place_name") if t not in seen]
        if not d.scroll():
            return seen


def route_to(d: Driver, name: str, start: str | None = None) -> None:
    """Directions to a place (from Your location, or from ``start`` chosen by search or Home/Work)."""
    open_place(d, name)
    d.tap(rid="directions")
    if start is not None:
        d.tap(rid="route_from")
        if start in ("home", "work"):
            d.tap(rid=f"choose_{start}")
        else:
            d.type(start, rid="route_search_input")
            d.tap(rid="place_name", text=start)


def mode_minutes(d: Driver) -> dict[str, str]:
    """The time each mode's chip shows ("25 min", "1 hr 5 min")."""
    return {m: re.split(r" · ", d.find(rid=f"mode_{m}").text, maxsplit=1)[1] for m in MODES}


def minutes_of(text: str) -> int:
    hours = re.search(r"(\d+)\s*(?:hr|小时)", text)
    mins = re.search(r"(\d+)\s*(?:min|分钟)", text)
    return (int(hours.group(1)) * 60 if hours else 0) + (int(mins.group(1)) if mins else 0)


def address_of(d: Driver, name: str) -> str:
    open_place(d, name)
    return d.find(rid="place_address_text").text
