"""The Gallery's data model: photo and album records, what each album shows, search, and the operations the
screens perform (favourite, trash, restore, albums, edits, the camera's shutter). Pure functions of the app's
state dict; no screen code.

A photo record: ``id``, ``name`` (IMG_/VID_/Screenshot_ file name), ``kind`` (photo | video), ``source``
(camera | screenshots | downloads: the folder it was saved to), ``taken`` ("YYYY-MM-DD HH:MM"), ``place`` and
``city`` ("" when unknown), ``subject`` (what it shows), ``color`` (its thumbnail), ``width`` x ``height``
pixels, ``size`` bytes, ``device``, ``lens`` (back | front | ""), ``duration_s`` (videos), ``favorite``,
``trashed``, ``trashed_at`` and ``edit`` (None, or the saved edit {rotation, crop, filter})."""
from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from mobilegym.calendar_words import WEEKDAY_PAIRS as WEEKDAYS, MONTH_ABBRS as MONTHS, MONTHS as MONTHS_LONG

Photo = dict[str, Any]
Error = tuple[str, dict[str, Any]] | None  # (English template, fields), or None when it worked
Translate = Callable[..., str]  # a screen's ctx.t: English text (a template with fields) in the phone's language

SOURCES = ("camera", "screenshots", "downloads")
SOURCE_NAMES = {"camera": "Camera", "screenshots": "Screenshots", "downloads": "Downloads"}
FAVORITES = "favorites"
FILTERS = ("none", "vivid", "west", "palma", "metro", "eiffel", "blush")
FILTER_NAMES = {"none": "Original", "vivid": "Vivid", "west": "West", "palma": "Palma", "metro": "Metro",
                "eiffel": "Eiffel", "blush": "Blush"}  # translated in the catalog's "filter" context
CROPS = ("original", "square", "4:3", "16:9")
CROP_NAMES = {"original": "Original", "square": "Square", "4:3": "4:3", "16:9": "16:9"}  # in the "crop" context
NO_EDIT = {"rotation": 0, "crop": "original", "filter": "none"}
MAX_ALBUM_NAME = 60


# --- dates ----------------------------------------------------------------------------------------------------------

def stamp(moment: dt.datetime) -> str:
    """"2026-03-12 14:15"."""
    return f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d} {moment.hour:02d}:{moment.minute:02d}"


def parse_stamp(text: str) -> dt.datetime:
    return dt.datetime(int(text[:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]), int(text[14:16]))


def day_header(t: Translate, day: dt.date, today: dt.date) -> str:
    """The header of a day in the grid: "Today", "Yesterday", "Thu, Mar 12", "Thu, Mar 12, 2025"."""
    if day == today:
        return t("Today")
    if day == today - dt.timedelta(days=1):
        return t("Yesterday")
    en_week, zh_week = WEEKDAYS[day.weekday()]
    fields = {"weekday": en_week, "weekday_zh": zh_week, "month_abbr": MONTHS[day.month - 1], "month": day.month,
              "day": day.day}
    if day.year == today.year:
        return t("{weekday}, {month_abbr} {day}", **fields)
    return t("{weekday}, {month_abbr} {day}, {year}", **fields, year=day.year)


def taken_text(t: Translate, text: str) -> str:
    """The full date of the details sheet: "Thu, March 12, 2026 · 14:15" / "2026年3月12日 周四 14:15"."""
    when = parse_stamp(text)
    en_week, zh_week = WEEKDAYS[when.weekday()]
    return t("{weekday}, {month_name} {day}, {year} · {time}", weekday=en_week, weekday_zh=zh_week,
             month_name=MONTHS_LONG[when.month - 1], month=when.month, day=when.day, year=when.year, time=f"{when:%H:%M}")


def size_text(size: int) -> str:
    """"3.4 MB" / "812 kB" (decimal units, as Android shows them)."""
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    return f"{max(1, round(size / 1000))} kB"


def duration_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


# --- reading ------------------------------------------------------------------------------------------------------

def photo_by_id(state: dict[str, Any], photo_id: str) -> Photo | None:
    return next((p for p in state["photos"] if p["id"] == photo_id), None)


def album_by_id(state: dict[str, Any], album_id: str) -> dict[str, Any] | None:
    return next((a for a in state["albums"] if a["id"] == album_id), None)


def newest_first(photos: list[Photo]) -> list[Photo]:
    return sorted(photos, key=lambda p: (p["taken"], p["id"]), reverse=True)


def live(state: dict[str, Any]) -> list[Photo]:
    """Every photo and video out of the Trash, newest first."""
    return newest_first([p for p in state["photos"] if not p["trashed"]])


def trashed(state: dict[str, Any]) -> list[Photo]:
    """What the Trash holds, most recently deleted first."""
    return sorted((p for p in state["photos"] if p["trashed"]), key=lambda p: (p["trashed_at"] or "", p["id"]),
                  reverse=True)


def album_photos(state: dict[str, Any], album_id: str) -> list[Photo] | None:
    """What an album shows, newest first: a folder album (camera, screenshots, downloads), favorites, or a user
    album; None when there is no such album."""
    if album_id in SOURCES:
        return [p for p in live(state) if p["source"] == album_id]
    if album_id == FAVORITES:
        return [p for p in live(state) if p["favorite"]]
    album = album_by_id(state, album_id)
    if album is None:
        return None
    members = set(album["photo_ids"])
    return [p for p in live(state) if p["id"] in members]


def album_name(t: Translate, state: dict[str, Any], album_id: str) -> str:
    if album_id in SOURCES:
        return t(SOURCE_NAMES[album_id])
    if album_id == FAVORITES:
        return t("Favourites")
    album = album_by_id(state, album_id)
    return album["name"] if album else ""


def by_day(photos: list[Photo]) -> list[tuple[dt.date, list[Photo]]]:
    """Photos (newest first) grouped by the day they were taken, newest day first."""
    groups: list[tuple[dt.date, list[Photo]]] = []
    for p in photos:
        day = parse_stamp(p["taken"]).date()
        if groups and groups[-1][0] == day:
            groups[-1][1].append(p)
        else:
            groups.append((day, [p]))
    return groups


def date_words(t: Translate, day: dt.date) -> list[str]:
    """What a search for a date matches: "march 12", "mar 12", "2026-03-12", "3月12日"."""
    return [f"{MONTHS_LONG[day.month - 1]} {day.day}".casefold(), f"{MONTHS[day.month - 1]} {day.day}".casefold(),
            day.isoformat(), f"{day.month}月{day.day}日", f"{day.year}年{day.month}月{day.day}日"]


def search(t: Translate, state: dict[str, Any], query: str) -> list[Photo]:
    """Live photos whose place, city, subject or kind contains ``query``, or whose date it is (case-insensitive;
    "March 1" finds that day, not March 10), newest first."""
    wanted = " ".join(query.split()).casefold()
    if not wanted:
        return []
    hits = []
    for p in live(state):
        words = [p["place"].casefold(), p["city"].casefold(), p["subject"].casefold(),
                 t(SOURCE_NAMES[p["source"]]).casefold(), t("video") if p["kind"] == "video" else ""]
        if any(wanted in w for w in words if w) or wanted in date_words(t, parse_stamp(p["taken"]).date()):
            hits.append(p)
    return hits


def edited_size(p: Photo) -> tuple[int, int]:
    """Width and height after the saved edit (a quarter turn swaps them, a crop trims them)."""
    width, height = p["width"], p["height"]
    edit = p["edit"] or NO_EDIT
    if edit["crop"] != "original":
        long_side, short_side = max(width, height), min(width, height)
        ratio = {"square": 1.0, "4:3": 4 / 3, "16:9": 16 / 9}[edit["crop"]]
        long_side = min(long_side, round(short_side * ratio))
        width, height = (long_side, short_side) if width >= height else (short_side, long_side)
    if edit["rotation"] in (90, 270):
        width, height = height, width
    return width, height


# --- operations -----------------------------------------------------------------------------------------------------

def set_favorite(state: dict[str, Any], photo_ids: list[str], on: bool) -> None:
    for p in state["photos"]:
        if p["id"] in photo_ids and not p["trashed"]:
            p["favorite"] = on


def trash(state: dict[str, Any], photo_ids: list[str], now: dt.datetime) -> None:
    """Move photos to the Trash (they leave every album's view; their album membership stays for a restore)."""
    for p in state["photos"]:
        if p["id"] in photo_ids and not p["trashed"]:
            p.update(trashed=True, trashed_at=stamp(now))


def restore(state: dict[str, Any], photo_ids: list[str]) -> None:
    for p in state["photos"]:
        if p["id"] in photo_ids and p["trashed"]:
            p.update(trashed=False, trashed_at=None)


def delete_forever(state: dict[str, Any], photo_ids: list[str]) -> None:
    """Remove photos for good (from the albums too)."""
    state["photos"][:] = [p for p in state["photos"] if p["id"] not in photo_ids]
    for album in state["albums"]:
        album["photo_ids"] = [i for i in album["photo_ids"] if i not in photo_ids]


def _name_error(state: dict[str, Any], name: str, but: str | None = None) -> Error:
    if not name:
        return "Enter a title", {}
    if len(name) > MAX_ALBUM_NAME:
        return "Titles can have up to {limit} characters", {"limit": MAX_ALBUM_NAME}
    if any(a["name"].casefold() == name.casefold() and a["id"] != but for a in state["albums"]):
        return "An album with this title already exists", {}
    return None


def create_album(state: dict[str, Any], name: str, album_id: str, now: dt.datetime) -> Error:
    name = " ".join(name.split())
    error = _name_error(state, name)
    if error is None:
        state["albums"].append({"id": album_id, "name": name, "photo_ids": [], "created": stamp(now)})
    return error


def rename_album(state: dict[str, Any], album_id: str, name: str) -> Error:
    name = " ".join(name.split())
    album = album_by_id(state, album_id)
    if album is None:
        return "This album no longer exists", {}
    error = _name_error(state, name, but=album_id)
    if error is None:
        album["name"] = name
    return error


def delete_album(state: dict[str, Any], album_id: str) -> None:
    """Remove a user album; its photos stay in the library."""
    state["albums"][:] = [a for a in state["albums"] if a["id"] != album_id]


def add_to_album(state: dict[str, Any], album_id: str, photo_ids: list[str]) -> int:
    """Add photos to a user album (keeping its order, no duplicates); how many were new."""
    album = album_by_id(state, album_id)
    if album is None:
        return 0
    fresh = [i for i in photo_ids if i not in album["photo_ids"]]
    album["photo_ids"].extend(fresh)
    return len(fresh)


def remove_from_album(state: dict[str, Any], album_id: str, photo_ids: list[str]) -> None:
    album = album_by_id(state, album_id)
    if album is not None:
        album["photo_ids"] = [i for i in album["photo_ids"] if i not in photo_ids]


def save_edit(state: dict[str, Any], photo_id: str, edit: dict[str, Any]) -> None:
    """Save an edit on a photo (an edit equal to none clears it)."""
    p = photo_by_id(state, photo_id)
    if p is not None:
        clean = {"rotation": edit["rotation"] % 360, "crop": edit["crop"], "filter": edit["filter"]}
        p["edit"] = None if clean == NO_EDIT else clean


def capture(state: dict[str, Any], photo_id: str, now: dt.datetime, *, kind: str, lens: str, device: str,
            color: str, duration_s: int = 0) -> Photo:
    """The shutter: a new photo (or video) in Camera, taken now with the phone's camera."""
    back = lens == "back"
    width, height = ((4080, 3072) if back else (3264, 2448)) if kind == "photo" else (1920, 1080)
    size = (width * height // 4 if kind == "photo" else duration_s * 2_100_000) + now.minute * 1000 + now.second
    prefix = "IMG" if kind == "photo" else "VID"
    record = {"id": photo_id, "name": f"{prefix}_{now:%Y%m%d_%H%M%S}.{'jpg' if kind == 'photo' else 'mp4'}",
              "kind": kind, "source": "camera", "taken": stamp(now), "place": "", "city": "",
              "subject": "", "color": color, "width": width, "height": height, "size": size, "device": device,
              "lens": lens, "duration_s": duration_s, "favorite": False, "trashed": False, "trashed_at": None,
              "edit": None}
    state["photos"].append(record)
    return record
