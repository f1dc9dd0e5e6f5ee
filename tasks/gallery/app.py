"""Accessor for the Gallery app's state: photos and videos (place, city, subject, when taken, source, favourite,
Trash, saved edit) and user albums, with the samplers, preconditions and checks of the gallery tasks."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Mapping, Sequence

from mobilegym.envs.gallery import model
from mobilegym.envs.gallery.world import COLORS, make_photo
from mobilegym.judge import BaseApp, normalize_text
from mobilegym.judge.result import check
from mobilegym.sim.strings import translate

from ..calendar.app import day_label

CLIP_STARTS = (5, 12, 20, 30)  # the shortest video RecordVideo asks for, in seconds
CLIP_SLACK = 4  # ... and how much longer it may run

GALLERY_FAVORITE_CHANGES = ["gallery.photos[*].favorite"]  # the check says which
GALLERY_TRASH_CHANGES = ["gallery.photos[*].trashed", "gallery.photos[*].trashed_at", "gallery.photos[-*]"]
GALLERY_RESTORE_CHANGES = ["gallery.photos[id={photo.id}].trashed", "gallery.photos[id={photo.id}].trashed_at"]
GALLERY_EDIT_CHANGES = ["gallery.photos[id={photo.id}].edit"]
GALLERY_NEW_ALBUM_CHANGES = ["gallery.albums[+]"]
GALLERY_RENAME_ALBUM_CHANGES = ["gallery.albums[id={album.id}].name"]
GALLERY_DELETE_ALBUM_CHANGES = ["gallery.albums[-id={album.id}]"]
GALLERY_EMPTY_TRASH_CHANGES = ["gallery.photos[-*trashed=true]"]
GALLERY_CAPTURE_CHANGES = ["gallery.photos[+]"]  # the one photo or video the task takes
NEW_ALBUMS = {"en": ("Day out", "Highlights", "Memories", "Trip album", "To print"),
              "zh": ("出游", "精彩瞬间", "回忆", "旅行相册", "待冲印")}
RENAMES = {"en": ("Keepers", "Good times", "Archive", "Shared with family"), "zh": ("珍藏", "美好时光", "归档", "和家人分享")}
FILTERS = ("vivid", "west", "palma", "metro", "eiffel", "blush")
MIN_PLACE_PHOTOS = 2  # FavouritePlacePhotos, AddPlaceToAlbumAndCount: photos at the place, at least (one added when short)
MIN_NEAR_MISSES = 1  # photos beside the asked ones that fail one condition (another place, day, city or subject), each kind


def language(os_state: Mapping[str, Any]) -> str:
    return os_state.get("language", "en")


def same_name(expected: str, actual: str) -> bool:
    """Equal up to case and spacing."""
    return normalize_text(expected) == normalize_text(actual)


class Gallery(BaseApp):
    """Photos, videos and albums."""

    def photos(self) -> list[dict[str, Any]]:
        return self.require(".photos")

    def live(self) -> list[dict[str, Any]]:
        """Items out of the Trash, newest first."""
        return model.live(self.state)

    def by_id(self, photo_id: str) -> dict[str, Any] | None:
        return model.photo_by_id(self.state, photo_id)

    def albums(self) -> list[dict[str, Any]]:
        return self.require(".albums")

    def camera(self) -> list[dict[str, Any]]:
        """Live camera photos and videos, newest first."""
        return [p for p in self.live() if p["source"] == "camera"]

    def at_place(self, place: str) -> list[dict[str, Any]]:
        return [p for p in self.camera() if p["place"] == place]

    def in_city(self, city: str) -> list[dict[str, Any]]:
        return [p for p in self.camera() if p["city"] == city]

    def taken_on(self, iso: str) -> list[dict[str, Any]]:
        """Live camera items taken on a day (YYYY-MM-DD)."""
        return [p for p in self.camera() if p["taken"][:10] == iso]

    def beside(self, iso: str) -> list[dict[str, Any]]:
        """Live camera items of the day before and the day after ``iso``."""
        day = dt.date.fromisoformat(iso)
        return [*self.taken_on((day - dt.timedelta(days=1)).isoformat()), *self.taken_on((day + dt.timedelta(days=1)).isoformat())]

    def screenshots(self) -> list[dict[str, Any]]:
        return [p for p in self.live() if p["source"] == "screenshots"]

    def new_albums(self) -> list[dict[str, Any]]:
        before = {a["id"] for a in self.initial(".albums")}
        return [a for a in self.albums() if a["id"] not in before]

    # --- checks -------------------------------------------------------------------------------

    def check_others_unchanged(self, but: Sequence[str]) -> dict[str, Any]:
        """Every item there was at the start, but ``but``, is still there exactly as it was."""
        now = {p["id"]: p for p in self.photos()}
        changed = sorted(f"{p['subject'] or p['name']} ({p['id']})" for p in self.initial(".photos")
                         if p["id"] not in but and now.get(p["id"]) != p)
        return check("other photos untouched", [], changed, not changed)

    def check_albums_unchanged(self, but: Sequence[str] = ()) -> dict[str, Any]:
        now = {a["id"]: a for a in self.albums()}
        changed = sorted(a["name"] for a in self.initial(".albums") if a["id"] not in but and now.get(a["id"]) != a)
        return check("other albums untouched", [], changed, not changed)

    def check_set(self, what: str, ids: Sequence[str], expected: Sequence[str]) -> dict[str, Any]:
        """``ids`` are exactly ``expected`` (as sets), shown by subject."""
        def names(group: Sequence[str]) -> list[str]:
            return sorted(f"{(self.by_id(i) or {}).get('subject', '?')} ({i})" for i in group)
        return check(what, names(expected), names(ids), set(ids) == set(expected))

    def check_in_trash_or_deleted(self, what: str, ids: Sequence[str]) -> dict[str, Any]:
        """Every item of ``ids`` is in the Trash or deleted for good."""
        left = sorted(p["subject"] or p["name"] for p in self.photos() if p["id"] in ids and not p["trashed"])
        return check(what, "in Trash or deleted", left or "in Trash or deleted", not left)

    # --- samplers -----------------------------------------------------------------------------

    @staticmethod
    def _choose(rng: random.Random, items: Sequence[Any], what: str) -> Any:
        if not items:
            raise ValueError(f"gallery: no {what}")
        return items[rng.randrange(len(items))]

    @staticmethod
    def sample_clip(rng: random.Random, state: dict[str, Any]) -> dict[str, int]:
        """A video length to record, {min, max} seconds: the ranges lie apart, so recording for another range
        (or far longer) misses this one."""
        low = rng.choice(CLIP_STARTS)
        return {"min": low, "max": low + CLIP_SLACK}

    @staticmethod
    def sample_city(rng: random.Random, state: dict[str, Any]) -> str:
        """A city the camera has photos from."""
        return Gallery._choose(rng, sorted({p["city"] for p in Gallery(state).camera()}), "city with photos")

    @staticmethod
    def sample_photo_place(rng: random.Random, state: dict[str, Any]) -> str:
        """A place whose camera items are all photos (no video), at least one not a favourite yet."""
        g = Gallery(state)
        places = sorted({p["place"] for p in g.camera()})
        fits = [pl for pl in places if all(p["kind"] == "photo" for p in g.at_place(pl))
                and not all(p["favorite"] for p in g.at_place(pl))]
        return Gallery._choose(rng, fits, "place with two photos")

    @staticmethod
    def _album_days(state: dict[str, Any]) -> list[str]:
        """Days with two or more camera items, all photos, and no screenshot or download."""
        g = Gallery(state)
        days = sorted({p["taken"][:10] for p in g.camera()})
        return [d for d in days if len(g.taken_on(d)) >= 2 and all(p["kind"] == "photo" for p in g.taken_on(d))
                and not any(p["taken"][:10] == d for p in g.live() if p["source"] != "camera")]

    @staticmethod
    def prepare_state_with_album_day(state: dict[str, Any], rng: random.Random, now: dt.datetime,
                                     pool: Mapping[str, Any]) -> dict[str, Any] | None:
        """A patch adding two or three photos at one place on a recent day with no items, when no day fits an album
        of the day (None otherwise)."""
        if Gallery._album_days(state):
            return None
        return Gallery.photos_on_free_day(state, rng, now, pool)

    @staticmethod
    def photos_on_free_day(state: dict[str, Any], rng: random.Random, now: dt.datetime,
                           pool: Mapping[str, Any]) -> dict[str, Any]:
        """A patch adding two or three photos at one place of a city on a recent day with no items."""
        used = {p["taken"][:10] for p in state["photos"]}
        days = [d for n in range(2, 41) if (d := (now - dt.timedelta(days=n)).date()).isoformat() not in used]
        day = Gallery._choose(rng, days, "free day")
        where = pool["cities"][rng.randrange(len(pool["cities"]))]
        photos = list(state["photos"])
        for n in range(rng.randint(2, 3)):
            taken = Gallery.free_minute({"photos": photos}, day, rng, now)
            photos.append(Gallery.camera_photo(f"photo_day_{n + 1}", taken, rng, pool, where["places"][0], where["city"]))
        return {"apps": {"gallery": {"photos": photos}}}

    @staticmethod
    def camera_photo(photo_id: str, taken: dt.datetime, rng: random.Random, pool: Mapping[str, Any], place: str,
                     city: str, subject: str | None = None) -> dict[str, Any]:
        """A back-camera photo taken at ``place`` (a random subject of the pool unless given)."""
        return make_photo(photo_id, taken, source="camera",
                          subject=subject or pool["subjects"][rng.randrange(len(pool["subjects"]))],
                          color=COLORS[rng.randrange(len(COLORS))], width=4080, height=3072,
                          size=rng.randint(1_600_000, 6_400_000), device="Pixel 8", place=place, city=city, lens="back")

    @staticmethod
    def prepare_state_with_city_count(state: Mapping[str, Any], rng: random.Random, now: dt.datetime,
                                      pool: Mapping[str, Any], city: str, target: int) -> dict[str, Any]:
        """A patch leaving exactly ``target`` live camera items taken in ``city``: some deleted (and taken out of
        their albums), or photos added at the city's places on the days it already has."""
        from ..spread import fit_count

        here = Gallery(dict(state)).in_city(city)
        places = sorted({p["place"] for p in here})
        days = sorted({dt.date.fromisoformat(p["taken"][:10]) for p in here})

        def add(k: int, items: list[dict[str, Any]]) -> dict[str, Any]:
            taken = Gallery.free_minute({"photos": items}, days[rng.randrange(len(days))], rng, now)
            return Gallery.camera_photo(f"photo_city_{k + 1}", taken, rng, pool, places[rng.randrange(len(places))], city)

        ids = {p["id"] for p in here}
        photos = fit_count(list(state["photos"]), lambda p: p["id"] in ids or p["id"].startswith("photo_city_"),
                           target, rng, drop=lambda p: None, add=add)
        kept = {p["id"] for p in photos}
        albums = [{**a, "photo_ids": [i for i in a["photo_ids"] if i in kept]} for a in state["albums"]]
        return {"apps": {"gallery": {"photos": photos, "albums": albums}}}

    @staticmethod
    def other_place(rng: random.Random, pool: Mapping[str, Any], place: str, city: str) -> str:
        """Another place of ``city`` in the pool (a made-up one when the pool has none)."""
        places = [pl for c in pool["cities"] if c["city"] == city for pl in c["places"] if pl != place]
        return places[rng.randrange(len(places))] if places else f"{city} Centre"

    @staticmethod
    def add_near_misses(state: Mapping[str, Any], rng: random.Random, now: dt.datetime, pool: Mapping[str, Any],
                        misses: Sequence[tuple[dt.date, str, str, str | None]]) -> dict[str, Any] | None:
        """A patch adding one camera photo per (day, place, city, subject) of ``misses`` (None when there is none)."""
        photos = list(state["photos"])
        for n, (day, place, city, subject) in enumerate(misses, 1):
            taken = Gallery.free_minute({"photos": photos}, day, rng, now)
            photos.append(Gallery.camera_photo(f"photo_near_{n}", taken, rng, pool, place, city, subject))
        return {"apps": {"gallery": {"photos": photos}}} if misses else None

    @staticmethod
    def prepare_state_with_place_company(state: Mapping[str, Any], rng: random.Random, now: dt.datetime,
                                         pool: Mapping[str, Any], place: str) -> dict[str, Any] | None:
        """A patch making the place hold MIN_PLACE_PHOTOS live camera photos, and its city a photo elsewhere
        (on the day of the place's newest item); None when they are there."""
        g = Gallery(state)
        there = g.at_place(place)
        day, city = dt.date.fromisoformat(there[0]["taken"][:10]), there[0]["city"]
        misses = [(day, place, city, None)] * max(0, MIN_PLACE_PHOTOS - len(there))
        if sum(p["place"] != place for p in g.in_city(city)) < MIN_NEAR_MISSES:
            misses.append((day, Gallery.other_place(rng, pool, place, city), city, None))
        return Gallery.add_near_misses(state, rng, now, pool, misses)

    @staticmethod
    def prepare_state_with_look_alikes(state: Mapping[str, Any], rng: random.Random, now: dt.datetime,
                                       pool: Mapping[str, Any], photo_id: str) -> dict[str, Any] | None:
        """A patch adding, on the photo's day, a photo of its subject at another place of its city and one of
        another subject at its place, each when the library has none (None when it has both)."""
        g = Gallery(state)
        photo = g.by_id(photo_id)
        day, place, city, subject = dt.date.fromisoformat(photo["taken"][:10]), photo["place"], photo["city"], photo["subject"]
        others = [p for p in g.live() if p["id"] != photo_id]
        misses = []
        if sum(p["subject"] == subject for p in others) < MIN_NEAR_MISSES:
            misses.append((day, Gallery.other_place(rng, pool, place, city), city, subject))
        if sum(p["place"] == place for p in others) < MIN_NEAR_MISSES:
            subjects = [x for x in pool["subjects"] if x != subject]
            misses.append((day, place, city, subjects[rng.randrange(len(subjects))]))
        return Gallery.add_near_misses(state, rng, now, pool, misses)

    @staticmethod
    def prepare_state_with_newer_elsewhere(state: Mapping[str, Any], rng: random.Random, now: dt.datetime,
                                           pool: Mapping[str, Any], photo_id: str) -> dict[str, Any] | None:
        """A patch adding a photo in another city taken after the photo (between 08:00 and 21:00 when a minute
        is free then) when no live camera item is (None otherwise)."""
        g = Gallery(state)
        photo = g.by_id(photo_id)
        if sum(p["taken"] > photo["taken"] and p["city"] != photo["city"] for p in g.camera()) >= MIN_NEAR_MISSES:
            return None
        after, taken = dt.datetime.fromisoformat(photo["taken"]), {p["taken"] for p in state["photos"]}
        moments = [m for k in range(1, int((now - after).total_seconds() // 60))
                   if model.stamp(m := after + dt.timedelta(minutes=k)) not in taken]
        moments = [m for m in moments if 8 <= m.hour < 21] or moments
        cities = [c for c in pool["cities"] if c["city"] != photo["city"]]
        where = cities[rng.randrange(len(cities))]
        moment = moments[rng.randrange(len(moments))].replace(second=rng.randrange(60))
        record = Gallery.camera_photo("photo_near_1", moment, rng, pool, where["places"][0], where["city"])
        return {"apps": {"gallery": {"photos": [*state["photos"], record]}}}

    @staticmethod
    def prepare_state_with_album_items(state: Mapping[str, Any], album_id: str, place: str) -> dict[str, Any] | None:
        """A patch putting the newest live camera photo taken elsewhere in the album when it shows no item (None
        otherwise), so its count is not just the photos added."""
        if model.album_photos(state, album_id):
            return None
        album = model.album_by_id(state, album_id)
        extra = next(p["id"] for p in Gallery(state).camera() if p["place"] != place)
        return {"apps": {"gallery": {f"albums[id={album_id}]": {"photo_ids": [*album["photo_ids"], extra]}}}}

    @staticmethod
    def prepare_state_with_screenshot_elsewhere(state: Mapping[str, Any], rng: random.Random, now: dt.datetime,
                                                subjects: Sequence[str], iso: str) -> dict[str, Any] | None:
        """A patch adding a screenshot the day before ``iso`` when every live screenshot was taken that day (None
        otherwise)."""
        if sum(p["taken"][:10] != iso for p in Gallery(state).screenshots()) >= MIN_NEAR_MISSES:
            return None
        record = Gallery._screenshot(state, rng, now, dt.date.fromisoformat(iso) - dt.timedelta(days=1), subjects, 2)
        return {"apps": {"gallery": {"photos": [*state["photos"], record]}}}

    @staticmethod
    def prepare_state_with_day_before(state: Mapping[str, Any], rng: random.Random, now: dt.datetime,
                                      pool: Mapping[str, Any], iso: str, other_city: bool = False) -> dict[str, Any] | None:
        """A patch adding a photo the day before ``iso`` (at the day's first place, or in another city with
        ``other_city``) when the days beside it hold fewer than MIN_NEAR_MISSES such items (None otherwise)."""
        g = Gallery(state)
        first = g.taken_on(iso)[-1]
        beside = [p for p in g.beside(iso) if not other_city or p["city"] != first["city"]]
        if len(beside) >= MIN_NEAR_MISSES:
            return None
        day = dt.date.fromisoformat(iso) - dt.timedelta(days=1)
        if not other_city:
            return Gallery.add_near_misses(state, rng, now, pool, [(day, first["place"], first["city"], None)])
        cities = [c for c in pool["cities"] if c["city"] != first["city"]]
        where = cities[rng.randrange(len(cities))]
        return Gallery.add_near_misses(state, rng, now, pool, [(day, where["places"][0], where["city"], None)])

    @staticmethod
    def sample_album_day(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, Any]:
        """A day with two or more camera photos (no video, no screenshot or download that day) and a new album
        name: {"iso", "label", "name"}."""
        g = Gallery(state)
        iso = Gallery._choose(rng, Gallery._album_days(state), "day with two photos")
        taken = {a["name"].casefold() for a in g.albums()}
        name = Gallery._choose(rng, [n for n in NEW_ALBUMS[language(os_state)] if n.casefold() not in taken], "album name")
        return {"iso": iso, "label": day_label(iso, language(os_state)), "name": name}

    @staticmethod
    def _unique_photos(state: dict[str, Any]) -> list[dict[str, Any]]:
        """Live camera photos whose subject and place no other item shares."""
        g = Gallery(state)
        pairs = [(p["subject"], p["place"]) for p in g.photos()]
        return [p for p in g.camera() if p["kind"] == "photo" and pairs.count((p["subject"], p["place"])) == 1]

    @staticmethod
    def sample_unique_photo(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A live camera photo, found once by its subject and place, not edited yet: {"id", "subject", "place",
        "city", "label"}."""
        photos = [p for p in Gallery._unique_photos(state) if p["edit"] is None]
        p = Gallery._choose(rng, sorted(photos, key=lambda p: p["id"]), "unique photo")
        return {"id": p["id"], "subject": p["subject"], "place": p["place"], "city": p["city"],
                "label": day_label(p["taken"][:10], language(os_state))}

    @staticmethod
    def sample_trashed_photo(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A camera photo in the Trash whose subject and place no other item shares."""
        g = Gallery(state)
        pairs = [(p["subject"], p["place"]) for p in g.photos()]
        fits = [p for p in g.photos() if p["trashed"] and p["source"] == "camera" and p["kind"] == "photo"
                and pairs.count((p["subject"], p["place"])) == 1]
        p = Gallery._choose(rng, sorted(fits, key=lambda p: p["id"]), "photo in the Trash")
        return {"id": p["id"], "subject": p["subject"], "place": p["place"], "city": p["city"]}

    @staticmethod
    def sample_filter_city(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A city with two or more camera photos, its newest photo's id (videos are not photos), and a filter:
        {"city", "id", "filter", "filter_name"}."""
        g = Gallery(state)
        cities = sorted({p["city"] for p in g.camera()})
        newest = {c: next(p for p in g.in_city(c) if p["kind"] == "photo") for c in cities
                  if sum(p["kind"] == "photo" for p in g.in_city(c)) >= 2}
        fits = [c for c in sorted(newest) if newest[c]["edit"] is None]
        city = Gallery._choose(rng, fits, "city with two photos")
        key = FILTERS[rng.randrange(len(FILTERS))]
        name = translate(model.__package__, language(os_state), model.FILTER_NAMES[key], context="filter")
        return {"city": city, "id": newest[city]["id"], "filter": key, "filter_name": name}

    @staticmethod
    def sample_album(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A user album: {"id", "name"}."""
        a = Gallery._choose(rng, Gallery(state).albums(), "user album")
        return {"id": a["id"], "name": a["name"]}

    @staticmethod
    def sample_rename(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A user album and a new name no album has: {"id", "name", "new_name"}."""
        albums = Gallery(state).albums()
        a = Gallery._choose(rng, albums, "user album")
        taken = {x["name"].casefold() for x in albums}
        new = Gallery._choose(rng, [n for n in RENAMES[language(os_state)] if n.casefold() not in taken], "new name")
        return {"id": a["id"], "name": a["name"], "new_name": new}

    @staticmethod
    def sample_place_and_album(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
        """A place with only photos, some of them not in a user album yet: {"place", "album", "album_id"}."""
        g = Gallery(state)
        places = sorted({p["place"] for p in g.camera()})
        pairs = [(pl, a) for pl in places if all(p["kind"] == "photo" for p in g.at_place(pl))
                 for a in g.albums() if any(p["id"] not in a["photo_ids"] for p in g.at_place(pl))]
        place, album = Gallery._choose(rng, pairs, "place and album")
        return {"place": place, "album": album["name"], "album_id": album["id"]}

    @staticmethod
    def prepare_state_with_place_outside_album(state: dict[str, Any]) -> dict[str, Any] | None:
        """A patch taking a place's photos out of the first album when every place's photos are in every album
        (None otherwise)."""
        try:
            Gallery.sample_place_and_album(random.Random(0), state)
            return None
        except ValueError:
            pass
        g = Gallery(state)
        places = sorted({p["place"] for p in g.camera() if all(q["kind"] == "photo" for q in g.at_place(p["place"]))})
        album = g.albums()[0]
        ids = {p["id"] for p in g.at_place(places[0])}
        return {"apps": {"gallery": {f"albums[id={album['id']}]": {
            "photo_ids": [i for i in album["photo_ids"] if i not in ids]}}}}

    @staticmethod
    def sample_screenshot_day(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A day with two or more live screenshots: {"iso", "label"}."""
        shots = Gallery(state).screenshots()
        days = sorted({p["taken"][:10] for p in shots})
        iso = Gallery._choose(rng, [d for d in days if sum(p["taken"][:10] == d for p in shots) >= 2],
                              "day with two screenshots")
        return {"iso": iso, "label": day_label(iso, language(os_state))}

    # --- preconditions ------------------------------------------------------------------------

    @staticmethod
    def free_minute(state: dict[str, Any], day: dt.date, rng: random.Random, now: dt.datetime) -> dt.datetime:
        """A minute of ``day`` between 08:00 and 21:00, before ``now``, no item was taken in."""
        taken = {p["taken"] for p in state["photos"]}
        minutes = [m for m in range(8 * 60, 21 * 60)
                   if (moment := dt.datetime(day.year, day.month, day.day, m // 60, m % 60)) < now
                   and model.stamp(moment) not in taken]
        minute = minutes[rng.randrange(len(minutes))]
        return dt.datetime(day.year, day.month, day.day, minute // 60, minute % 60, rng.randrange(60))

    @staticmethod
    def prepare_state_with_trashed_photo(state: dict[str, Any], rng: random.Random, now: dt.datetime) -> dict[str, Any] | None:
        """A patch moving a uniquely described camera photo to the Trash when none is there (None otherwise)."""
        if any(p["trashed"] and p["source"] == "camera" and p["kind"] == "photo" for p in state["photos"]):
            try:
                Gallery.sample_trashed_photo(random.Random(0), state)
                return None
            except ValueError:
                pass
        photo = Gallery._choose(rng, Gallery._unique_photos(state), "unique photo")
        when = model.stamp(now - dt.timedelta(minutes=rng.randint(20, 600)))
        return {"apps": {"gallery": {f"photos[id={photo['id']}]": {"trashed": True, "trashed_at": when, "favorite": False}}}}

    @staticmethod
    def prepare_state_with_screenshot_pair(state: dict[str, Any], rng: random.Random, now: dt.datetime,
                                           subjects: Sequence[str]) -> dict[str, Any] | None:
        """A patch adding a screenshot on the day of the newest screenshot when no day has two (None otherwise)."""
        shots = Gallery(state).screenshots()
        days = [p["taken"][:10] for p in shots]
        if any(days.count(d) >= 2 for d in days):
            return None
        day = dt.date.fromisoformat(days[0]) if days else (now - dt.timedelta(days=2)).date()
        photos = list(state["photos"])
        for n in range(1 if days else 2):
            photos.append(Gallery._screenshot({"photos": photos}, rng, now, day, subjects, n))
        return {"apps": {"gallery": {"photos": photos}}}

    @staticmethod
    def _screenshot(state: dict[str, Any], rng: random.Random, now: dt.datetime, day: dt.date,
                    subjects: Sequence[str], n: int) -> dict[str, Any]:
        taken = Gallery.free_minute(state, day, rng, now)
        device = next((p["device"] for p in state["photos"] if p["device"]), "Pixel 8")
        record = make_photo(f"photo_shot_{n}", taken, source="screenshots", subject=subjects[rng.randrange(len(subjects))],
                            color=COLORS[rng.randrange(len(COLORS))], width=1080, height=2400,
                            size=rng.randint(180_000, 1_400_000), device=device)
        return record

    @staticmethod
    def prepare_state_with_screenshot(state: dict[str, Any], rng: random.Random, now: dt.datetime,
                                      subjects: Sequence[str]) -> dict[str, Any] | None:
        """A patch adding a screenshot yesterday when there is none out of the Trash (None otherwise)."""
        if Gallery(state).screenshots():
            return None
        record = Gallery._screenshot(state, rng, now, (now - dt.timedelta(days=1)).date(), subjects, 0)
        return {"apps": {"gallery": {"photos": [*state["photos"], record]}}}

