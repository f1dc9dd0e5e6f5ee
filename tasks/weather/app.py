"""Accessor for the Weather app's state (temperatures are stored in °C, wind in km/h)."""
from __future__ import annotations

import copy
import datetime as dt
import random
from typing import Any, Mapping, Sequence

from mobilegym.envs.weather.screens import CONDITIONS
from mobilegym.envs.weather.world import PRECIP, RAINY
from mobilegym.judge import BaseApp, sim_datetime, sim_today
from mobilegym.judge.result import check
from mobilegym.sim.strings import translate

WEATHER_ADD_CITY_CHANGES = ["weather.saved[+]"]  # one city saved, none removed
WEATHER_REMOVE_CITY_CHANGES = ["weather.saved[-]"]  # one city removed, none added
WEATHER_UNIT_CHANGES = ["weather.unit"]
MIN_RAINY_DAYS = 2  # RainyDays: rainy forecast days, at least (dry days after today turn to showers), one dry day kept
CONDITION_LABELS = list(CONDITIONS)
NEAR_MISS = 2  # °C: a runner-up this close below the warmest day or city is a near miss
MIN_NEAR_MISS = 1  # WarmestDay, WarmestDayPicnic, AddWarmestCity: near misses, at least (prepare_state_with_runner_up)
SNOW_MAX, RAIN_MIN, STORM_MIN = 2, 3, 10  # a day's high (°C) for snow, at most; for rain and thunderstorms, at least
NEAR_CONDITION = {"Sunny": "Partly cloudy", "Partly cloudy": "Cloudy", "Cloudy": "Partly cloudy", "Fog": "Cloudy",
                  "Windy": "Partly cloudy", "Light rain": "Rain", "Rain": "Light rain", "Showers": "Rain",
                  "Thunderstorm": "Rain", "Snow": "Cloudy"}  # the condition a day turns to so as to differ
CONDITION_LABELS_ZH = [translate("mobilegym.envs.weather", "zh", c) for c in CONDITIONS]  # as a Chinese phone names them, in the same order


def fahrenheit(celsius: float) -> int:
    """°C to °F as the app rounds it."""
    return round(celsius * 9 / 5 + 32)


def new_alarm_times(clock_init: Mapping[str, Any], clock_now: Mapping[str, Any]) -> list[tuple[int, int, bool]]:
    """(hour, minute, enabled) of every alarm that is new, or changed in time or switch, since the start."""
    before = {(a["hour"], a["minute"], a["enabled"]) for a in clock_init["alarms"]}
    return [(a["hour"], a["minute"], a["enabled"]) for a in clock_now["alarms"]
            if (a["hour"], a["minute"], a["enabled"]) not in before]


def near_misses(temps: Sequence[float]) -> int:
    """How many of ``temps`` are below the warmest by NEAR_MISS °C or less."""
    return sum(max(temps) - NEAR_MISS <= t < max(temps) for t in temps)


def warmest_day_distractors(state: Mapping[str, Any], city_id: str) -> dict[str, tuple[int, int]]:
    """The warmest forecast day's rivals (WarmestDay, WarmestDayPicnic): days NEAR_MISS °C or less below it, and
    the other forecast days."""
    highs = [d["high"] for d in Weather(state).city(city_id)["forecast"]]
    return {"days 1-2 °C below the warmest": (near_misses(highs), MIN_NEAR_MISS),
            "other forecast days": (len(highs) - 1, 4)}


def forecast_facts(day: Mapping[str, Any]) -> dict[str, Any]:
    """What a text giving a forecast day must state: its condition, and its high and low in °C."""
    return {"condition": day["condition"], "high": f"{day['high']:g}°C", "low": f"{day['low']:g}°C"}


class Weather(BaseApp):
    """Saved cities and the city catalogue with current conditions, hourly and five-day forecasts."""

    def city(self, city_id: str) -> dict[str, Any]:
        """A catalogue city by id."""
        return self.find(".cities", id=city_id)

    def saved(self) -> list[str]:
        """Ids of the saved cities, in list order."""
        return list(self.require(".saved"))

    def current(self, city_id: str) -> dict[str, Any]:
        """Current conditions of a city."""
        return self.city(city_id)["current"]

    def day(self, city_id: str, offset: int) -> dict[str, Any]:
        """The forecast ``offset`` days from today (0 = today)."""
        return self.city(city_id)["forecast"][offset]

    def warmest_day(self, city_id: str) -> int:
        """Offset of the day with the highest high (raises when it is not unique)."""
        highs = [d["high"] for d in self.city(city_id)["forecast"]]
        if highs.count(max(highs)) != 1:
            raise ValueError(f"weather: {city_id} has no unique warmest day ({highs})")
        return highs.index(max(highs))

    def rainy_days(self, city_id: str) -> list[int]:
        """Offsets of the forecast days with rain of any kind."""
        return [d["day"] for d in self.city(city_id)["forecast"] if d["condition"] in RAINY]

    def rain_start_hour(self, city_id: str, after_hour: int) -> int:
        """The first hour after ``after_hour`` whose condition is rainy; raises when rain never starts."""
        for entry in self.city(city_id)["hourly"]:
            if entry["hour"] > after_hour and entry["condition"] in RAINY:
                return entry["hour"]
        raise ValueError(f"weather: no rain after {after_hour}:00 in {city_id}")

    def warmest_of(self, city_ids: list[str]) -> str:
        """The id of the city with the highest current temperature."""
        return max(city_ids, key=lambda c: self.current(c)["temp"])

    def check_saved_list(self, expected: list[str]) -> dict[str, Any]:
        """The saved cities are exactly ``expected`` (order aside)."""
        actual = self.saved()
        return check("saved cities", sorted(expected), sorted(actual), sorted(actual) == sorted(expected))

    # --- samplers ----------------------------------------------------------------------------------

    @staticmethod
    def _pick(rng: random.Random, cities: list[dict[str, Any]], what: str) -> dict[str, str]:
        if not cities:
            raise ValueError(f"weather: no city is {what}")
        city = rng.choice(cities)
        return {"id": city["id"], "name": city["name"], "name_zh": city["name_zh"]}

    @staticmethod
    def sample_saved_city(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A saved city as {id, name, name_zh}."""
        return Weather._pick(rng, [c for c in state["cities"] if c["id"] in state["saved"]], "saved")

    @staticmethod
    def _unsaved_pool(state: dict[str, Any], params: dict[str, Any]) -> tuple[list[dict[str, Any]], set[float]]:
        """The unsaved cities differing in current temperature from the cities already sampled, and those
        cities' temperatures."""
        taken = {p["id"] for p in params.values() if isinstance(p, dict) and "id" in p}
        temps = {c["current"]["temp"] for c in state["cities"] if c["id"] in taken}
        return [c for c in state["cities"] if c["id"] not in state["saved"] and c["id"] not in taken
                and c["current"]["temp"] not in temps], temps

    @staticmethod
    def sample_unsaved_city(rng: random.Random, state: dict[str, Any], params: dict[str, Any]) -> dict[str, str]:
        """A catalogue city that is not saved, differing in current temperature from the cities already
        sampled (so "the warmest" of several is unambiguous)."""
        return Weather._pick(rng, Weather._unsaved_pool(state, params)[0], "unsaved and distinct")

    @staticmethod
    def sample_unsaved_rival(rng: random.Random, state: dict[str, Any], params: dict[str, Any]) -> dict[str, str]:
        """Like sample_unsaved_city, one of the nearest in current temperature to the warmest city sampled so far
        (within NEAR_MISS °C when any is): the warmest of them all has a close runner-up."""
        pool, temps = Weather._unsaved_pool(state, params)
        if temps and pool:
            gap = {c["id"]: abs(c["current"]["temp"] - max(temps)) for c in pool}
            pool = [c for c in pool if gap[c["id"]] <= max(min(gap.values()), NEAR_MISS)]
        return Weather._pick(rng, pool, "unsaved and distinct")

    @staticmethod
    def sample_city_changing_tomorrow(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A saved city whose forecast condition tomorrow differs from its condition now."""
        return Weather._pick(rng, [c for c in state["cities"] if c["id"] in state["saved"]
                                   and c["forecast"][1]["condition"] != c["current"]["condition"]],
                             "saved with a change of weather tomorrow")

    @staticmethod
    def sample_warmer_pair(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """Two saved cities {warm, warm_zh, warm_id, cool, cool_zh, cool_id}, the first strictly warmer now
        (and the cooler not at 0 °C, where the difference would be the warmer city's temperature)."""
        saved = [c for c in state["cities"] if c["id"] in state["saved"]]
        pairs = [(a, b) for a in saved for b in saved
                 if a["current"]["temp"] > b["current"]["temp"] and b["current"]["temp"] != 0]
        if not pairs:
            raise ValueError("weather: no two saved cities differ in temperature")
        warm, cool = rng.choice(pairs)
        return {"warm": warm["name"], "warm_zh": warm["name_zh"], "warm_id": warm["id"],
                "cool": cool["name"], "cool_zh": cool["name_zh"], "cool_id": cool["id"]}

    @staticmethod
    def sample_city_with_warmest_day(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A saved city whose warmest forecast day is unique and not today."""
        def ok(city: dict[str, Any]) -> bool:
            highs = [d["high"] for d in city["forecast"]]
            return highs.count(max(highs)) == 1 and highs.index(max(highs)) > 0

        return Weather._pick(rng, [c for c in state["cities"] if c["id"] in state["saved"] and ok(c)],
                             "saved with a unique warmest day after today")

    @staticmethod
    def sample_city_with_some_rain(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A saved city where some, but not all, of the five forecast days are rainy."""
        def ok(city: dict[str, Any]) -> bool:
            return 0 < sum(d["condition"] in RAINY for d in city["forecast"]) < len(city["forecast"])

        return Weather._pick(rng, [c for c in state["cities"] if c["id"] in state["saved"] and ok(c)],
                             "saved with rain on some days")

    @staticmethod
    def sample_city_with_rain_later(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A saved city where it is dry now and rain starts later today."""
        def ok(city: dict[str, Any]) -> bool:
            return city["current"]["condition"] not in RAINY and any(h["condition"] in RAINY for h in city["hourly"])

        return Weather._pick(rng, [c for c in state["cities"] if c["id"] in state["saved"] and ok(c)],
                             "saved, dry now, with rain later today")


def prepare_state_with_rainy_days(state: Mapping[str, Any], city_id: str, rng: random.Random) -> dict[str, Any]:
    """A patch giving the city MIN_RAINY_DAYS rainy forecast days: dry days after today (never its last dry day)
    turn to showers."""
    forecast = [dict(d) for d in Weather(state).city(city_id)["forecast"]]
    dry = [d for d in forecast[1:] if d["condition"] not in RAINY]
    missing = min(MIN_RAINY_DAYS - (len(forecast) - len(dry) - (forecast[0]["condition"] not in RAINY)),
                  len(dry) - (forecast[0]["condition"] in RAINY))
    if missing <= 0:
        return {}
    for day in rng.sample(dry, missing):
        day.update(condition="Showers", precip=max(day["precip"], 60))
    return {"apps": {"weather": {f"cities[id={city_id}]": {"forecast": forecast}}}}


def _city_patch(cities: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {"apps": {"weather": {f"cities[id={c['id']}]": {k: c[k] for k in ("current", "forecast", "hourly")}
                                 for c in cities}}}


def _shift_day(city: dict[str, Any], offset: int, delta: float) -> None:
    """Move forecast day ``offset`` of ``city`` (in place) ``delta`` °C, high and low; today's hourly and current
    temperatures move with it. Snow warmed above SNOW_MAX °C turns to light rain."""
    day = city["forecast"][offset]
    day.update(high=day["high"] + delta, low=day["low"] + delta)
    today = [*city["hourly"], city["current"]] if offset == 0 else []
    for entry in today:
        entry["temp"] += delta
    if today:
        city["current"]["feels_like"] += delta
    if day["condition"] == "Snow" and day["high"] > SNOW_MAX:
        day["precip"] = min(day["precip"], PRECIP["Light rain"][1])
        for entry in (day, *today):
            entry["condition"] = "Light rain" if entry["condition"] == "Snow" else entry["condition"]


def prepare_state_with_runner_up(state: Mapping[str, Any], rng: random.Random, city_id: str | None = None,
                                 among: Sequence[str] = ()) -> dict[str, Any]:
    """A patch giving the warmest a runner-up NEAR_MISS °C or less below it: among the forecast days of ``city_id``
    (by high) or the cities ``among`` (by current temperature). The nearest rival (not snowing, when any) warms up,
    today's temperatures all moving with it; {} when a near miss is there already."""
    cities = [copy.deepcopy(Weather(state).city(c)) for c in ([city_id] if city_id else among)]
    if city_id:
        spots = [(cities[0], day["day"], day["high"]) for day in cities[0]["forecast"]]
    else:
        spots = [(city, 0, city["current"]["temp"]) for city in cities]
    top = max(t for *_, t in spots)
    rivals = [s for s in spots if s[2] < top]
    if near_misses([t for *_, t in spots]) or not rivals:
        return {}
    dry = [s for s in rivals if s[0]["forecast"][s[1]]["condition"] != "Snow"] or rivals
    nearest = max(t for *_, t in dry)
    city, offset, temp = rng.choice([s for s in dry if s[2] == nearest])
    _shift_day(city, offset, top - rng.randint(1, NEAR_MISS) - temp)
    return _city_patch([city])


def prepare_state_with_distinct_highs(state: Mapping[str, Any], city_id: str) -> dict[str, Any]:
    """A patch moving tomorrow's forecast in the city a degree (cooler when it snows, else warmer) when its high in °F
    is today's; {} when they differ."""
    city = copy.deepcopy(Weather(state).city(city_id))
    today, tomorrow = city["forecast"][:2]
    if fahrenheit(today["high"]) != fahrenheit(tomorrow["high"]):
        return {}
    _shift_day(city, 1, -1 if tomorrow["condition"] == "Snow" else 1)
    return _city_patch([city])


def prepare_state_with_tomorrow(state: Mapping[str, Any], city_id: str, condition: str,
                                rng: random.Random) -> dict[str, Any]:
    """A patch making tomorrow's forecast in the city ``condition``, its temperatures moved to suit (snow at SNOW_MAX
    °C or colder, rain from RAIN_MIN °C, thunderstorms from STORM_MIN °C), and, when it is ``condition`` now,
    today's ``condition`` turned to the nearest other one (NEAR_CONDITION), so the weather still changes."""
    city = copy.deepcopy(Weather(state).city(city_id))
    day = city["forecast"][1]
    low, high = PRECIP[condition]
    day.update(condition=condition, precip=5 * rng.randint(low // 5, high // 5))
    least = STORM_MIN if condition == "Thunderstorm" else RAIN_MIN
    if condition == "Snow" and day["high"] > SNOW_MAX:
        _shift_day(city, 1, rng.randint(SNOW_MAX - 2, SNOW_MAX) - day["high"])
    elif condition in RAINY and day["high"] < least:
        _shift_day(city, 1, least + rng.randint(0, 2) - day["high"])
    if city["current"]["condition"] == condition:
        for entry in (city["forecast"][0], *city["hourly"], city["current"]):
            entry["condition"] = NEAR_CONDITION[condition] if entry["condition"] == condition else entry["condition"]
    return _city_patch([city])


def prepare_state_with_metric_units(device: Any, wind: bool = False) -> None:
    """Temperatures in °C (and wind in km/h with ``wind``), the units a task's answer is asked in."""
    device.set_state({"apps": {"weather": {"unit": "C", **({"wind_unit": "km/h"} if wind else {})}}})


def forecast_date(os_state: Mapping[str, Any], offset: int) -> dt.date:
    """The calendar date of forecast day ``offset`` on the phone's clock."""
    return sim_today(os_state) + dt.timedelta(days=offset)


def current_hour(os_state: Mapping[str, Any]) -> int:
    """The phone's current hour."""
    return sim_datetime(os_state).hour
