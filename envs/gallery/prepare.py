"""Preparers of the Gallery app for JSON tasks (setup action ``prepare``)."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP
from .model import stamp
from .world import COLORS, make_photo


@APP.preparer("photo")
def photo(prep: Prep, id: str, subject: str | dict[str, str], place: str | dict[str, str] = "",
          city: str | dict[str, str] = "", min_days: int = 1, max_days: int = 20, trashed: bool = False) -> dict[str, Any]:
    """A camera photo with id ``id`` of ``subject`` taken at ``place`` in ``city`` (each one per language: {"en": ...,
    "zh": ...}) on a seeded minute ``min_days`` to ``max_days`` days ago that no other item was taken in;
    ``trashed`` puts it in the Trash (deleted a seeded hour or two ago)."""
    subject = in_language(subject, prep.language, "photo subject")
    place = in_language(place, prep.language, "place") if place else ""
    city = in_language(city, prep.language, "city") if city else ""
    photos = prep.state("gallery")["photos"]
    taken_minutes = {p["taken"] for p in photos}
    while True:
        taken = (prep.now - dt.timedelta(minutes=prep.rng.randint(min_days * 1440, max_days * 1440))).replace(
            second=prep.rng.randint(0, 59), microsecond=0)
        if stamp(taken) not in taken_minutes and 8 <= taken.hour <= 21:
            break
    device = next((p["device"] for p in photos if p["source"] == "camera"), "Pixel 8")
    record = make_photo(id, taken, source="camera", subject=subject, color=prep.rng.choice(COLORS), width=4080,
                        height=3072, size=prep.rng.randint(1_600_000, 6_400_000), device=device, place=place, city=city,
                        lens="back")
    if trashed:
        record.update(trashed=True, trashed_at=stamp(prep.now - dt.timedelta(minutes=prep.rng.randint(30, 180))))
    return {"apps": {"gallery": {"photos": [*[p for p in photos if p["id"] != id], record]}}}
