"""The Gallery of a generated world: camera photos on 5 to 9 days of the last six weeks (each day in one city of
the world's language, a few places in it, a video now and then), screenshots, saved downloads, a few favourites,
one to three user albums and one to eleven items in the Trash.

Invariants tasks rely on: ids are unique; ``taken`` (and ``trashed_at``) are "YYYY-MM-DD HH:MM" no later than the
phone's clock; camera items have a place and a city, screenshots and downloads have neither; no two items share a
``taken`` minute; user album names are unique and their photo ids exist."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.sim.worldgen import World, load_pool
from mobilegym.sim.worldgen.draws import choice, randint, sample
from mobilegym.sim.worldgen.pools import read_pool

from .model import stamp

PACKAGE = __package__
COLORS = ("#C0504D", "#2E8B57", "#3A7CA5", "#8E5EA2", "#B5651D", "#4F7942", "#C2185B", "#00897B", "#5C6BC0",
          "#6D8B3A", "#A0522D", "#1E88E5", "#7B68EE", "#708090", "#CC6677")
SCREEN = (1080, 2400)
SHAPES = ((4080, 3072), (3072, 4080), (4000, 2252))


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (read only)."""
    return load_pool(PACKAGE, "pools", language)


def make_photo(photo_id: str, taken: dt.datetime, *, source: str, subject: str, color: str, width: int, height: int,
               size: int, device: str = "", place: str = "", city: str = "", kind: str = "photo", lens: str = "",
               duration_s: int = 0) -> dict[str, Any]:
    """One photo record (see :mod:`envs.gallery.model`); its file name follows its source and moment."""
    when = stamp(taken)
    digits = f"{when[:4]}{when[5:7]}{when[8:10]}"
    clock = f"{when[11:13]}{when[14:16]}{taken.second:02d}"
    if source == "screenshots":
        name = f"Screenshot_{digits}-{clock}.png"
    elif source == "downloads":
        name = f"download_{digits}_{clock[:4]}.jpg"
    else:
        name = f"IMG_{digits}_{clock}.jpg" if kind == "photo" else f"VID_{digits}_{clock}.mp4"
    return {"id": photo_id, "name": name, "kind": kind, "source": source, "taken": when, "place": place,
            "city": city, "subject": subject, "color": color, "width": width, "height": height, "size": size,
            "device": device, "lens": lens, "duration_s": duration_s, "favorite": False, "trashed": False,
            "trashed_at": None, "edit": None}


class _Roll:
    """The photos being made: ids in order, one item per minute at most."""

    def __init__(self, rng: random.Random, now: dt.datetime) -> None:
        self.rng = rng
        self.now = now
        self.photos: list[dict[str, Any]] = []
        self.minutes: set[dt.datetime] = set()

    def free(self, moment: dt.datetime) -> bool:
        return moment <= self.now and moment not in self.minutes

    def add(self, taken: dt.datetime, **fields: Any) -> None:
        self.minutes.add(taken)
        taken = taken.replace(second=int(self.rng.random() * 60), microsecond=0)
        self.photos.append(make_photo(f"photo_{len(self.photos) + 1}", taken, color=choice(self.rng, COLORS), **fields))


def _camera(roll: _Roll, rng: random.Random, pool: dict[str, Any], device: str) -> None:
    """Outings on a few days: one city a day, a place or two, one to six shots, sometimes a short video."""
    draw = rng.random
    subjects, cities = pool["subjects"], pool["cities"]
    for offset in sorted(sample(rng, range(1, 43), 4 + int(draw() * 5)), reverse=True):
        day = roll.now - dt.timedelta(days=offset)
        where = cities[int(draw() * len(cities))]
        places = where["places"]
        first = int(draw() * len(places))
        second = (first + 1 + int(draw() * (len(places) - 1))) % len(places) if draw() < 0.5 else first
        for minute in sorted(sample(rng, range(8 * 60, 21 * 60), 1 + int(draw() * 6))):
            taken = day.replace(hour=minute // 60, minute=minute % 60)
            if not roll.free(taken):
                continue
            kind = draw()
            fields = dict(source="camera", subject=subjects[int(draw() * len(subjects))], device=device,
                          place=places[first if minute < 14 * 60 else second], city=where["city"],
                          lens="front" if 0.1 <= kind < 0.22 else "back")
            if kind < 0.1:
                seconds = 4 + int(draw() * 90)
                roll.add(taken, kind="video", width=1920, height=1080, size=seconds * (1_800_000 + int(draw() * 600_000)),
                         duration_s=seconds, **fields)
            else:
                width, height = (3264, 2448) if kind < 0.22 else SHAPES[int(draw() * len(SHAPES))]
                roll.add(taken, width=width, height=height, size=1_600_000 + int(draw() * 4_800_000), **fields)


def _screens_and_downloads(roll: _Roll, rng: random.Random, pool: dict[str, Any], device: str) -> None:
    for subject in sample(rng, pool["screenshots"], randint(rng, 3, 7)):
        taken = roll.now - dt.timedelta(minutes=randint(rng, 30, 40 * 1440))
        if taken.hour < 7 and taken + dt.timedelta(hours=9) <= roll.now:  # people take screenshots while awake
            taken += dt.timedelta(hours=9)
        if roll.free(taken):
            roll.add(taken, source="screenshots", subject=subject, device=device, width=SCREEN[0], height=SCREEN[1],
                     size=randint(rng, 180_000, 1_400_000))
    for subject in sample(rng, pool["downloads"], randint(rng, 1, 3)):
        taken = roll.now - dt.timedelta(minutes=randint(rng, 60, 60 * 1440))
        if roll.free(taken):
            width = choice(rng, (720, 1080, 1200))
            roll.add(taken, source="downloads", subject=subject, width=width,
                     height=choice(rng, (width, width * 4 // 3)), size=randint(rng, 60_000, 900_000))


def _albums(rng: random.Random, pool: dict[str, Any], camera: list[dict[str, Any]], now: dt.datetime) -> list[dict[str, Any]]:
    albums = []
    for i, name in enumerate(sample(rng, pool["albums"], randint(rng, 1, 3)), 1):
        members = sample(rng, camera, min(len(camera), max(1, min(len(camera) - 2, randint(rng, 1, 12)))))
        members.sort(key=lambda p: p["taken"])
        created = now - dt.timedelta(days=randint(rng, 1, 30), minutes=randint(rng, 0, 600))
        albums.append({"id": f"album_{i}", "name": name, "photo_ids": [p["id"] for p in members],
                       "created": stamp(created)})
    return albums


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("gallery")
    pool = read_pool(PACKAGE, "pools", world.language)
    device = choice(rng, pool["devices"])
    roll = _Roll(rng, world.now)
    _camera(roll, rng, pool, device)
    _screens_and_downloads(roll, rng, pool, device)
    photos = roll.photos
    camera = [p for p in photos if p["source"] == "camera"]
    for p in sample(rng, camera, min(len(camera), randint(rng, 1, 4))):
        p["favorite"] = True
    for p in sample(rng, photos, min(len(photos) - 4, randint(rng, 1, 11))):
        since = (world.now - dt.datetime.fromisoformat(p["taken"])).total_seconds() / 60
        p.update(trashed=True, trashed_at=stamp(world.now - dt.timedelta(minutes=randint(rng, 5, int(max(6, since - 1))))),
                 favorite=False)
    live_camera = [p for p in camera if not p["trashed"]]
    return {"photos": photos, "albums": _albums(rng, pool, live_camera, world.now),
            "camera": {"mode": "photo", "lens": "back"}}
