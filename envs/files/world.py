"""The Files app of a generated world: the phone's shared storage (Download, Documents, DCIM/Camera, Pictures,
Music, Movies and a few folders of the owner's), 30 to 120 files with realistic names in the world's language,
seeded sizes and dates in the weeks before today, a few files in the Trash.

Invariants tasks rely on: file ids are unique, no two files of one folder share a name, every file's folder
is in ``folders`` (each with its ``path`` and its own ``name``, the path's last part), ``modified`` (and ``trashed_at``) are "YYYY-MM-DD HH:MM" no later than the phone's clock,
and camera photos are named IMG_<date>_<time>.jpg after the moment they were taken.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.sim.worldgen import World
from mobilegym.sim.worldgen.draws import choice, randint, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
STANDARD_FOLDERS = ("Alarms", "DCIM", "DCIM/Camera", "Documents", "Download", "Movies", "Music", "Pictures",
                    "Pictures/Screenshots", "Ringtones")
CAMERA = "DCIM/Camera"
KB = 1000


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (shared: read only)."""
    return read_pool(PACKAGE, "pools", language)


def stamp(moment: dt.datetime) -> str:
    """"2026-03-12 14:15"."""
    return moment.isoformat(" ", "minutes")


def make_file(file_id: str, name: str, folder: str, size: int, modified: dt.datetime | str) -> dict[str, Any]:
    """One file record of the Files app's state."""
    return {"id": file_id, "name": name, "folder": folder, "size": int(size),
            "modified": modified if isinstance(modified, str) else stamp(modified), "trashed": False,
            "trashed_at": None}


class _Storage:
    """The files being made: unique names per folder, ids in order."""

    def __init__(self, rng: random.Random, now: dt.datetime) -> None:
        self.rng = rng
        self.now = now
        self.files: list[dict[str, Any]] = []
        self.taken: set[tuple[str, str]] = set()
        self.moments: dict[str, dt.datetime] = {}  # file id -> when it was last modified

    def ago(self, low_days: float, high_days: float) -> dt.datetime:
        """A moment between ``low_days`` and ``high_days`` before now, to the minute (a night-time draw moves to
        the morning when that is still in the past: people save files while awake)."""
        moment = self.now - dt.timedelta(minutes=randint(self.rng, int(low_days * 1440), int(high_days * 1440)))
        if moment.hour < 7 and moment + dt.timedelta(hours=8) <= self.now:
            moment += dt.timedelta(hours=8)
        return moment.replace(second=0, microsecond=0)

    def add(self, name: str, folder: str, size: int, modified: dt.datetime) -> dict[str, Any] | None:
        if (folder, name) in self.taken:
            return None
        self.taken.add((folder, name))
        record = make_file(f"file_{len(self.files) + 1}", name, folder, size, modified)
        self.files.append(record)
        self.moments[record["id"]] = modified
        return record


def _fill(template: str, rng: random.Random, pool: dict[str, Any], world: World, when: dt.datetime) -> str:
    month = world.t(when.strftime("%B"), f"{when.month}月")
    return template.format(city=choice(rng, pool["cities"]), restaurant=choice(rng, pool["restaurants"]),
                           year=when.year - 1, month=month, n=randint(rng, 2, 48), owner=world.owner.name,
                           vendor=choice(rng, pool["vendors"]), q=randint(rng, 1, 4))


def _camera(s: _Storage, rng: random.Random) -> None:
    """Photos on a few days of the last six weeks (several a day), and a video or two."""
    for offset in sorted(sample(rng, range(1, 43), randint(rng, 4, 9))):
        day = (s.now - dt.timedelta(days=offset)).date()
        for minute in sorted(sample(rng, range(8 * 60, 22 * 60), randint(rng, 1, 7))):
            taken = dt.datetime(day.year, day.month, day.day, minute // 60, minute % 60)
            name = f"IMG_{day.year:04d}{day.month:02d}{day.day:02d}_{minute // 60:02d}{minute % 60:02d}{randint(rng, 0, 59):02d}.jpg"
            s.add(name, CAMERA, randint(rng, 1400, 6800) * KB + randint(rng, 0, 999), taken)
    for _ in range(randint(rng, 0, 3)):
        taken = s.ago(1, 40)
        s.add(f"VID_{taken:%Y%m%d_%H%M%S}.mp4", CAMERA, randint(rng, 18_000, 420_000) * KB, taken)


def _pictures(s: _Storage, rng: random.Random) -> None:
    for _ in range(randint(rng, 2, 8)):
        taken = s.ago(0.2, 50)
        s.add(f"Screenshot_{taken:%Y%m%d-%H%M%S}.png", "Pictures/Screenshots", randint(rng, 180, 1600) * KB, taken)


def _invoices(s: _Storage, rng: random.Random, pool: dict[str, Any], world: World) -> None:
    """Two to five invoice PDFs in Download (one a month per vendor), sometimes an older one in Documents."""
    for vendor in sample(rng, pool["vendors"], randint(rng, 2, 5)):
        when = s.ago(1, 75)
        month = world.t(f"{when:%Y-%m}", f"{when.year}年{when.month}月")
        s.add(world.t(f"Invoice_{vendor}_{month}.pdf", f"发票_{vendor}_{month}.pdf"), "Download",
              randint(rng, 60, 480) * KB + randint(rng, 0, 999), when)


def _downloads(s: _Storage, rng: random.Random, pool: dict[str, Any], world: World) -> None:
    for entry in sample(rng, pool["downloads"], randint(rng, 6, 15)):
        when = s.ago(0.1, 90)
        s.add(_fill(entry["name"], rng, pool, world, when), "Download", randint(rng, *entry["kb"]) * KB + randint(rng, 0, 999),
              when)


def _documents(s: _Storage, rng: random.Random, pool: dict[str, Any], world: World, folders: list[str]) -> None:
    for entry in sample(rng, pool["documents"], randint(rng, 4, 8)):
        when = s.ago(2, 300)
        s.add(_fill(entry["name"], rng, pool, world, when), "Documents", randint(rng, *entry["kb"]) * KB + randint(rng, 0, 999),
              when)
    people = world.contacts()
    for template in sample(rng, pool["person_docs"], randint(rng, 1, 3)):
        s.add(template.format(person=choice(rng, people).name), "Documents", randint(rng, 8, 900) * KB, s.ago(1, 120))
    events = world.app_state("calendar")["events"]
    for template in sample(rng, pool["event_docs"], randint(rng, 1, 2)) if events else ():
        s.add(template.format(event=choice(rng, events)["title"]), "Documents", randint(rng, 40, 9000) * KB, s.ago(0.5, 30))
    for folder in folders:
        for template in pool["folder_docs"].get(folder, ()):
            if rng.random() < 0.75:
                when = s.ago(3, 400)
                s.add(_fill(template, rng, pool, world, when), folder, randint(rng, 20, 4000) * KB + randint(rng, 0, 999), when)


def _media(s: _Storage, rng: random.Random, pool: dict[str, Any], world: World) -> None:
    music = world.app_state("music")
    artists = {a["id"]: a["name"] for a in music["artists"]}
    for song in sample(rng, music["songs"], min(len(music["songs"]), randint(rng, 2, 8))):
        s.add(f"{artists[song['artist_id']]} - {song['title']}.mp3", "Music", song["duration_s"] * 40 * KB, s.ago(20, 500))
    for name in sample(rng, pool["videos"], randint(rng, 0, 2)):
        s.add(name, "Movies", randint(rng, 120_000, 1_900_000) * KB, s.ago(5, 200))


def _duplicates(s: _Storage, rng: random.Random) -> None:
    """Half the worlds have a download saved twice or three times ("name (1).pdf", same size)."""
    pdfs = [f for f in s.files if f["folder"] == "Download" and f["name"].endswith(".pdf")]
    if pdfs and rng.random() < 0.5:
        original = choice(rng, pdfs)
        saved = s.moments[original["id"]]
        for copy in range(1, randint(rng, 2, 3)):
            later = min(s.now, saved + dt.timedelta(minutes=randint(rng, 1, 3 * 1440))).replace(second=0, microsecond=0)
            s.add(f"{original['name'][:-4]} ({copy}).pdf", "Download", original["size"], later)


def _trash(s: _Storage, rng: random.Random) -> None:
    for record in sample(rng, [f for f in s.files if f["folder"] != CAMERA], randint(rng, 1, 6)):
        since = max(0.05, (s.now - s.moments[record["id"]]).total_seconds() / 86400)
        record.update(trashed=True, trashed_at=stamp(s.ago(0.02, min(since, 25))))


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("files")
    pool = pools(world.language)
    s = _Storage(rng, world.now)
    user = sorted(sample(rng, pool["user_folders"], randint(rng, 2, 4)))
    _camera(s, rng)
    _pictures(s, rng)
    _invoices(s, rng, pool, world)
    _downloads(s, rng, pool, world)
    _documents(s, rng, pool, world, user)
    _media(s, rng, pool, world)
    _duplicates(s, rng)
    _trash(s, rng)
    about = world.app_state("settings")["about"]
    folder_paths = sorted({*STANDARD_FOLDERS, *user, *("/".join(p.split("/")[:i]) for p in user
                                                       for i in range(1, p.count("/") + 1))})
    return {"folders": [{"id": f"dir_{i}", "path": path, "name": path.rsplit("/", 1)[-1]}
                        for i, path in enumerate(folder_paths, 1)],
            "files": s.files, "sort": "name",
            "storage": {"total_gb": about["storage_total_gb"], "used_gb": about["storage_used_gb"]}}
