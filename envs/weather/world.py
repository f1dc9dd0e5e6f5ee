"""Weather in a generated world: a catalogue of cities with weather that fits the season and the phone's
date, and the owner's saved cities.

Every city's weather hangs together: the five forecast days start today, the hourly forecast covers the
rest of today from the current hour, the current conditions are the current hour's, and today's high and
low bound the hourly temperatures. Temperatures are stored in °C, wind in km/h (as in defaults.json).
Imported by the app's __init__ before the screens; it never imports them.
"""
from __future__ import annotations

import datetime as dt
import math
import random
from functools import lru_cache
from itertools import accumulate
from typing import Any

from mobilegym.sim.worldgen.draws import choice, indices, randint, sample, weighted
from mobilegym.sim.worldgen.pools import load_pool, read_pool

PACKAGE = __package__
DAYS = 5  # forecast days, today first
DRY = ("Sunny", "Partly cloudy", "Cloudy", "Fog", "Windy")
DRY_WEIGHTS = (28, 26, 22, 10, 14)
DRY_CUM = tuple(accumulate(DRY_WEIGHTS))
RAINY = ("Light rain", "Rain", "Showers", "Thunderstorm")
RAINY_CUM = {warm: tuple(accumulate((35, 30, 20, 15 if warm else 0))) for warm in (False, True)}  # by high >= 20
WET = frozenset(RAINY) | {"Snow"}
WIND_DIRS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
PRECIP = {"Sunny": (0, 10), "Partly cloudy": (5, 20), "Cloudy": (10, 40), "Fog": (10, 30), "Windy": (0, 20),
          "Light rain": (50, 75), "Rain": (70, 95), "Showers": (55, 80), "Thunderstorm": (60, 90), "Snow": (60, 90)}
PRECIP_STEPS = {condition: (lo // 5, hi // 5) for condition, (lo, hi) in PRECIP.items()}  # in steps of 5%
# the home regions a phone's owner tends to save cities from
REGION_WEIGHTS = {"en": {"cn": 1, "asia": 2, "mideast": 2, "africa": 2, "europe": 5, "americas": 5, "oceania": 3},
                  "zh": {"cn": 8, "asia": 3, "mideast": 1, "africa": 1, "europe": 2, "americas": 2, "oceania": 2}}
MIN_SAVED, MAX_SAVED = 3, 7
MIN_CATALOGUE, MAX_CATALOGUE = 24, 44


def city_pool() -> list[dict[str, Any]]:
    """Every city the app can know, with its climate (annual mean, seasonal swing, rain share, day range)."""
    return load_pool(PACKAGE, "cities")


def _precip(rng: random.Random, condition: str) -> int:
    return 5 * randint(rng, *PRECIP_STEPS[condition])


def _precips(rng: random.Random, condition: str, count: int) -> list[int]:
    """``[_precip(rng, condition) for _ in range(count)]``, drawn in bulk."""
    lo, hi = PRECIP_STEPS[condition]
    return [5 * (lo + step) for step in indices(rng, hi - lo + 1, count)]


@lru_cache(maxsize=64)
def _season_curve(first: dt.date, south: bool) -> tuple[float, ...]:
    """The seasonal swing's cosine on the forecast days from ``first`` (warmest around 20 July in the north,
    20 January in the south)."""
    peak = 19 if south else 200
    days = (first + dt.timedelta(days=offset) for offset in range(DAYS))
    return tuple(math.cos(2 * math.pi * (day.timetuple().tm_yday - peak) / 365.25) for day in days)


def _day_condition(rng: random.Random, climate: dict[str, Any], high: int) -> str:
    if rng.random() < climate["wet"] + 0.08:
        if high <= 2 or (high <= 5 and rng.random() < 0.5):
            return "Snow"
        return weighted(rng, RAINY, RAINY_CUM[high >= 20])
    return weighted(rng, DRY, DRY_CUM)


_RISE = tuple(1 - math.cos(math.pi * (hour - 5) / 10) for hour in range(24))  # the morning curve, per hour


@lru_cache(maxsize=4096)
def _day_temps(low: int, high: int, start: int) -> tuple[int, ...]:
    """A day's temperatures for hours ``start``..23: coolest at 05:00, warmest at 15:00, cooling through
    the evening."""
    return tuple(low if hour <= 5 else round(low + (high - low) * _RISE[hour] / 2) if hour <= 15
                 else round(high - (high - low) * 0.6 * (hour - 15) / 8) for hour in range(start, 24))


def _hourly(rng: random.Random, today: dict[str, Any], start: int, wet_from: int | None) -> list[dict[str, Any]]:
    """Hours ``start``..23 of today. A wet day is wet from ``wet_from`` for a few hours, cloudy around it.
    Each hour's precipitation is one ``randint``; they are drawn in bulk (``indices``, the same stream)."""
    condition, high, low, day_precip = today["condition"], today["high"], today["low"], today["precip"]
    hours = range(start, 24)
    if condition in WET:
        assert wet_from is not None
        end = min(24, wet_from + randint(rng, 3, 9))
        before = choice(rng, ("Cloudy", "Partly cloudy", "Cloudy"))
        last = condition if condition in ("Snow", "Thunderstorm") else "Light rain"
        conds, precips = [], []
        for hour, step in zip(hours, indices(rng, 4, len(hours))):  # randint(0, 3) and randint(1, 4)
            if wet_from <= hour < end:
                conds.append(condition if hour < end - 1 else last)
                precips.append(max(50, day_precip - 5 * step))
            else:
                conds.append(before if hour < wet_from else "Cloudy")
                precips.append(5 * (1 + step))
    elif condition == "Fog":
        foggy = max(0, 11 - start)
        conds = ["Fog"] * foggy + ["Cloudy"] * (len(hours) - foggy)
        precips = _precips(rng, "Fog", foggy) + _precips(rng, "Cloudy", len(hours) - foggy)
    else:
        conds = [condition] * len(hours)
        precips = [min(day_precip, precip) for precip in _precips(rng, condition, len(hours))]
    return [{"hour": hour, "temp": temp, "condition": cond, "precip": precip}
            for hour, temp, cond, precip in zip(hours, _day_temps(low, high, start), conds, precips)]


def _current(rng: random.Random, climate: dict[str, Any], hour: dict[str, Any]) -> dict[str, Any]:
    condition, temp = hour["condition"], hour["temp"]
    wind = randint(rng, 32, 55) if condition == "Windy" else randint(rng, 3, 30)
    if condition in WET or condition == "Fog":
        humidity = randint(rng, 75, 98)
    elif condition == "Cloudy":
        humidity = randint(rng, 50, 85)
    else:
        humidity = randint(rng, 20, 70) if climate["wet"] >= 0.15 else randint(rng, 12, 40)
    if temp <= 14:
        feels = temp - max(1, round(wind / 10))
    elif temp >= 26:
        feels = temp + (2 if humidity > 60 else 1)
    else:
        feels = temp + choice(rng, (-2, -1, 1))
    return {"temp": temp, "feels_like": feels, "humidity": humidity, "wind_kph": wind,
            "wind_dir": choice(rng, WIND_DIRS), "condition": condition}


def make_city(rng: random.Random, climate: dict[str, Any], now: dt.datetime, *,
              rain_later: bool = False) -> dict[str, Any]:
    """A catalogue city: its names and today's weather at ``now``. With ``rain_later`` it is dry now and
    rain starts later today."""
    drift, days = rng.gauss(0, 2.0), []
    season = _season_curve(now.date(), climate["south"])
    for offset in range(DAYS):
        drift = 0.6 * drift + rng.gauss(0, 2.2)
        mean = climate["mean"] + climate["amp"] * season[offset] + drift
        spread = climate["diurnal"] * rng.uniform(0.7, 1.2)
        high, low = round(mean + spread / 2), round(mean - spread / 2)
        low = min(low, high - 2)
        condition = _day_condition(rng, climate, high)
        if condition in WET:  # wet days run cooler and closer
            high -= randint(rng, 0, 2)
            low = min(low, high - 2)
        days.append({"day": offset, "condition": condition, "high": high, "low": low,
                     "precip": _precip(rng, condition)})
    today = days[0]
    if rain_later and today["condition"] not in RAINY:
        today["condition"] = weighted(rng, RAINY, RAINY_CUM[today["high"] >= 20])
        today["precip"] = _precip(rng, today["condition"])
    wet_from = None
    if today["condition"] in WET:
        later = rain_later or rng.random() < 0.6
        wet_from = randint(rng, now.hour + 1, 21) if later else randint(rng, max(0, now.hour - 4), now.hour)
    hourly = _hourly(rng, today, now.hour, wet_from)
    return {"id": climate["id"], "name": climate["name"], "name_zh": climate["name_zh"],
            "country": climate["country"], "country_zh": climate["country_zh"],
            "current": _current(rng, climate, hourly[0]), "forecast": days, "hourly": hourly}


def _rainy_days(city: dict[str, Any]) -> int:
    return sum(d["condition"] in RAINY for d in city["forecast"])


def _has_unique_warmest_later(city: dict[str, Any]) -> bool:
    highs = [d["high"] for d in city["forecast"]]
    return highs.count(max(highs)) == 1 and highs.index(max(highs)) > 0


def _dry_now_rain_later(city: dict[str, Any]) -> bool:
    return (city["current"]["condition"] not in RAINY
            and any(h["condition"] in RAINY for h in city["hourly"][1:]))


def _ensure_variety(world: Any, cities: dict[str, dict[str, Any]], saved: list[str],
                    climates: dict[str, dict[str, Any]]) -> None:
    """Make sure the saved cities offer what the tasks ask about: rain coming later today somewhere, a city
    with some (not all) rainy days, one whose warmest day is a single later day, and one whose weather
    changes tomorrow."""
    rng = world.rng("weather|variety")
    if not any(_dry_now_rain_later(cities[c]) for c in saved):
        pick = choice(rng, saved)
        cities[pick] = make_city(world.rng(f"weather|{pick}|rain"), climates[pick], world.now, rain_later=True)
    if not any(0 < _rainy_days(cities[c]) < DAYS for c in saved):
        city = cities[choice(rng, saved)]
        day = city["forecast"][randint(rng, 1, DAYS - 1)]
        if _rainy_days(city) == 0:
            day["condition"] = "Light rain"
        else:
            day["condition"] = choice(rng, ("Cloudy", "Partly cloudy"))
        day["precip"] = _precip(rng, day["condition"])
    if not any(_has_unique_warmest_later(cities[c]) for c in saved):
        city = cities[choice(rng, saved)]
        highs = [d["high"] for d in city["forecast"]]
        day = city["forecast"][randint(rng, 1, DAYS - 1)]
        day["high"] = max(highs) + randint(rng, 1, 2)
    if not any(cities[c]["forecast"][1]["condition"] != cities[c]["current"]["condition"] for c in saved):
        city = cities[choice(rng, saved)]
        day = city["forecast"][1]
        day["condition"] = next(c for c in ("Partly cloudy", "Cloudy") if c != city["current"]["condition"])
        day["precip"] = _precip(rng, day["condition"])


def generate(world: Any) -> dict[str, Any]:
    """The Weather app's state in ``world``."""
    rng = world.rng("weather")
    pool = read_pool(PACKAGE, "cities")
    climates = {c["id"]: c for c in pool}
    weights = REGION_WEIGHTS[world.language]
    saved: list[str] = []
    n_saved = randint(rng, MIN_SAVED, MAX_SAVED)
    candidates = list(pool)
    while len(saved) < n_saved:
        pick = rng.choices(candidates, [weights[c["region"]] for c in candidates])[0]
        candidates.remove(pick)
        saved.append(pick["id"])
    others = [c["id"] for c in pool if c["id"] not in saved]
    size = randint(rng, MIN_CATALOGUE, MAX_CATALOGUE)
    listed = set(saved) | set(sample(rng, others, size - len(saved)))
    cities = {c["id"]: make_city(world.rng(f"weather|{c['id']}"), c, world.now)
              for c in pool if c["id"] in listed}
    _ensure_variety(world, cities, saved, climates)
    fahrenheit = rng.random() < (0.25 if world.language == "en" else 0.05)
    return {
        "unit": "F" if fahrenheit else "C",
        "wind_unit": rng.choices(("km/h", "m/s", "mph"), (6, 3, 2 if world.language == "en" else 0))[0],
        "alerts": rng.random() < 0.75,
        "saved": saved,
        "cities": [cities[c["id"]] for c in pool if c["id"] in cities],
    }
