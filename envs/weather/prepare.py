"""Preconditions JSON tasks ask for with {"type": "prepare", "parameters": {"app": "weather", "with": ...}}."""
from __future__ import annotations

from typing import Any

from mobilegym.sim.app import Prep
from mobilegym.jsoncopy import copy_doc

from .app import APP
from .world import city_pool, make_city


def _with_cities(prep: Prep, ids: list[str]) -> list[dict[str, Any]]:
    """The catalogue with every city of ``ids`` in it (missing ones get today's weather), in pool order."""
    cities = {c["id"]: copy_doc(c) for c in prep.state("weather")["cities"]}
    pool = {c["id"]: c for c in city_pool()}
    for city_id in ids:
        if city_id not in cities:
            if city_id not in pool:
                raise ValueError(f"weather: no city {city_id!r} in the city pool")
            cities[city_id] = make_city(prep.rng, pool[city_id], prep.now)
    order = [c["id"] for c in city_pool() if c["id"] in cities]
    order += [c for c in cities if c not in order]  # cities of a hand-made state that the pool lacks
    return [cities[c] for c in order]


@APP.preparer("unsaved_cities")
def unsaved_cities(prep: Prep, ids: list[str]) -> dict[str, Any]:
    """The cities ``ids`` are in the catalogue and not among the saved cities."""
    saved = [c for c in prep.state("weather")["saved"] if c not in ids]
    return {"apps": {"weather": {"cities": _with_cities(prep, ids), "saved": saved}}}


@APP.preparer("listed_cities")
def listed_cities(prep: Prep, ids: list[str]) -> dict[str, Any]:
    """The cities ``ids`` are in the catalogue (saved or not, as they were)."""
    return {"apps": {"weather": {"cities": _with_cities(prep, ids)}}}


@APP.preparer("wind_in_ms")
def wind_in_ms(prep: Prep, city: str) -> dict[str, Any]:
    """The app shows wind in m/s, and ``city`` is in the catalogue with a fresh current wind; its current
    conditions also record ``wind_ms``, the speed as the app shows it, so a task can read the answer."""
    cities = _with_cities(prep, [city])
    kph = prep.rng.randint(4, 48)
    current = next(c for c in cities if c["id"] == city)["current"]
    current.update(wind_kph=kph, wind_ms=float(f"{kph / 3.6:.1f}"))
    return {"apps": {"weather": {"cities": cities, "wind_unit": "m/s"}}}


@APP.preparer("metric_units")
def metric_units(prep: Prep) -> dict[str, Any]:
    """Temperatures in °C and wind in km/h or m/s (anything but imperial)."""
    return {"apps": {"weather": {"unit": "C", "wind_unit": prep.rng.choice(("km/h", "m/s"))}}}
