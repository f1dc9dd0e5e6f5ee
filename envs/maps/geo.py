"""Reading the Maps state: places by id, distances and travel times by mode, opening hours at a moment, and the
words the screens print them in. Pure functions of the app's state, shared by the screens and the task suite.

Travel is consistent: the road distance between two points is the straight line times ROAD_FACTOR plus a little
(one distance for every mode); walking is the slowest mode on any trip, cycling beats walking, driving pays
parking and the traffic of its two ends (each point has a congestion), transit pays the wait and the walk to
its stops."""
from __future__ import annotations

import datetime as dt
import math
from typing import Any

from mobilegym.calendar_words import WEEKDAYS, WEEKDAYS_ZH
from mobilegym.sim.records import record

MODES = ("drive", "transit", "walk", "bike")
MODE_LABELS = {"drive": "Drive", "transit": "Transit", "walk": "Walk", "bike": "Bike"}  # English: the catalog translates
HERE = "here"  # the id of "Your location" as a route's end
ROAD_FACTOR = 1.25
WALK_KMH, BIKE_KMH, DRIVE_KMH, TRANSIT_KMH = 4.8, 14.0, 36.0, 25.0
PARKING_MIN, BIKE_MIN, TRANSIT_WAIT_MIN = 2, 1, 7
LIST_IDS = ("favourites", "want_to_go")
LIST_NAMES = {"favourites": "Favourites", "want_to_go": "Want to go"}
LABELS = {"home": "Home", "work": "Work"}


def place(state: dict[str, Any], place_id: str) -> dict[str, Any]:
    return record(state["places"], place_id, "place")


def category(state: dict[str, Any], category_id: str) -> dict[str, Any]:
    return record(state["categories"], category_id, "category")


def point(state: dict[str, Any], end: str) -> dict[str, Any]:
    """A route's end: "here" (the phone's location) or a place id."""
    return state["location"] if end == HERE else place(state, end)


def distance_km(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The road distance between two points, to 0.1 km (at least 0.3 km)."""
    straight = math.hypot(a["x"] - b["x"], a["y"] - b["y"])
    return max(0.3, round(straight * ROAD_FACTOR + 0.2, 1))


def minutes(a: dict[str, Any], b: dict[str, Any], mode: str) -> int:
    """Minutes from a to b by ``mode`` (whole minutes, at least 1)."""
    km = distance_km(a, b)
    if mode == "walk":
        value = km / WALK_KMH * 60
    elif mode == "bike":
        value = km / BIKE_KMH * 60 + BIKE_MIN
    elif mode == "drive":
        traffic = 1 + (a["congestion"] + b["congestion"]) / 2
        value = km / (DRIVE_KMH / traffic) * 60 + PARKING_MIN
    elif mode == "transit":
        value = km / TRANSIT_KMH * 60 + TRANSIT_WAIT_MIN
    else:
        raise ValueError(f"maps: no travel mode {mode!r}; known: {', '.join(MODES)}")
    return max(1, round(value))


def route(state: dict[str, Any], start: str, end: str) -> dict[str, Any]:
    """{distance, minutes by mode} between two ends ("here" or place ids)."""
    a, b = point(state, start), point(state, end)
    return {"km": distance_km(a, b), "minutes": {m: minutes(a, b, m) for m in MODES}}


def hhmm(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def parse_hhmm(text: str) -> int:
    hour, minute = text.split(":")
    return int(hour) * 60 + int(minute)


def always_open(item: dict[str, Any]) -> bool:
    return item["open"] == "00:00" and item["close"] == "24:00" and not item["closed_days"]


def is_open(item: dict[str, Any], moment: dt.datetime) -> bool:
    """Open at ``moment`` (hours are the same every day but the closed days; close is exclusive)."""
    if moment.weekday() in item["closed_days"]:
        return False
    now = moment.hour * 60 + moment.minute
    return parse_hhmm(item["open"]) <= now < parse_hhmm(item["close"])


def duration_text(language: str, total: int) -> str:
    """"25 min", "1 hr 5 min" / "25分钟", "1小时5分钟"."""
    hours, mins = divmod(total, 60)
    if language == "zh":
        return (f"{hours}小时" if hours else "") + (f"{mins}分钟" if mins or not hours else "")
    return " ".join(x for x in ((f"{hours} hr" if hours else ""), (f"{mins} min" if mins or not hours else "")) if x)


def distance_text(language: str, km: float) -> str:
    return f"{km:.1f} km" if language == "en" else f"{km:.1f}公里"


def hours_text(language: str, item: dict[str, Any]) -> str:
    """"Open 24 hours" or "08:00–20:00", with the closed days."""
    if item["open"] == "00:00" and item["close"] == "24:00":
        text = "Open 24 hours" if language == "en" else "24小时营业"
    else:
        text = f"{item['open']}–{item['close']}"
    if item["closed_days"]:
        if language == "en":
            text += " · Closed " + ", ".join(WEEKDAYS[d] for d in item["closed_days"])
        else:
            text += " · " + "、".join(WEEKDAYS_ZH[d] for d in item["closed_days"]) + "休息"
    return text


def status_text(language: str, item: dict[str, Any], moment: dt.datetime) -> str:
    """"Open · Closes 20:00", "Closed · Opens 09:00", "Open 24 hours" as of ``moment``."""
    if item["open"] == "00:00" and item["close"] == "24:00" and moment.weekday() not in item["closed_days"]:
        return "Open 24 hours" if language == "en" else "24小时营业"
    if is_open(item, moment):
        return f"Open · Closes {item['close']}" if language == "en" else f"营业中 · {item['close']}打烊"
    if moment.weekday() in item["closed_days"]:
        return "Closed today" if language == "en" else "今日休息"
    return f"Closed · Opens {item['open']}" if language == "en" else f"休息中 · {item['open']}开门"


def saved_lists(state: dict[str, Any], place_id: str) -> list[str]:
    """The lists a place is saved in."""
    return [s["list"] for s in state["saved"] if s["place_id"] == place_id]


def in_list(state: dict[str, Any], list_id: str) -> list[dict[str, Any]]:
    """The places saved in a list, newest first."""
    return [place(state, s["place_id"]) for s in state["saved"] if s["list"] == list_id]
