"""Samplers and preconditions of the gallery suite's cross-app tasks (Calendar events and Contacts birthdays
tied to the photos)."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Mapping

from mobilegym.envs.gallery import model
from mobilegym.envs.gallery.world import COLORS, make_photo, pools
from mobilegym.judge import BaseTask, copy_state, sim_datetime

from ..calendar.app import Calendar, day_label
from .app import MIN_NEAR_MISSES, Gallery, language

EVENT_DAYS = 40  # how far back an event with photos may be


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:5])


def _event_fits(e: Mapping[str, Any], events: list[Mapping[str, Any]], today: dt.date) -> bool:
    """A past timed event of the last EVENT_DAYS days, at a place, with a title and a place-and-day no other event
    has, lasting half an hour or more."""
    day = dt.date.fromisoformat(e["date"])
    return (not e["all_day"] and bool(e["location"]) and e["calendar"] != "Work" and today - dt.timedelta(days=EVENT_DAYS) <= day < today
            and _minutes(e["end"]) - _minutes(e["start"]) >= 30
            and sum(x["title"] == e["title"] for x in events) == 1
            and sum((x["location"], x["date"]) == (e["location"], e["date"]) for x in events) == 1)


def sample_event(rng: random.Random, calendar: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
    """A past event with a place (see :func:`_event_fits`): {"id", "title", "date", "location"}."""
    events = calendar["events"]
    fits = [e for e in events if _event_fits(e, events, sim_datetime(os_state).date())]
    if not fits:
        raise ValueError("calendar: no past event at a place in the last weeks")
    e = fits[rng.randrange(len(fits))]
    return {"id": e["id"], "title": e["title"], "date": e["date"], "location": e["location"]}


def prepare_state_with_past_event(doc: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A patch moving a timed event at a place into the last weeks when no past event fits (None otherwise)."""
    now = sim_datetime(doc["os"])
    events = doc["apps"]["calendar"]["events"]
    if any(_event_fits(e, events, now.date()) for e in events):
        return None
    movable = [e for e in events if not e["all_day"] and e["location"] and e["calendar"] != "Work" and _minutes(e["end"]) - _minutes(e["start"]) >= 30
               and sum(x["title"] == e["title"] for x in events) == 1]
    for _ in range(20):
        event = movable[rng.randrange(len(movable))]
        day = (now - dt.timedelta(days=rng.randint(2, EVENT_DAYS - 1))).date().isoformat()
        if not any((x["location"], x["date"]) == (event["location"], day) for x in events):
            return {"apps": {"calendar": {f"events[id={event['id']}]": {"date": day}}}}
    raise ValueError("calendar: no event to move into the last weeks")


def prepare_state_with_event_photos(doc: Mapping[str, Any], event: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A patch adding two to four camera photos taken at the event's place during it (in a city of the world's
    language)."""
    photos = list(doc["apps"]["gallery"]["photos"])
    pool = pools(doc["os"].get("language", "en"))
    city = pool["cities"][rng.randrange(len(pool["cities"]))]["city"]
    device = next((p["device"] for p in photos if p["source"] == "camera"), "Pixel 8")
    day = dt.date.fromisoformat(event["date"])
    full = next(e for e in doc["apps"]["calendar"]["events"] if e["id"] == event["id"])
    taken = {p["taken"] for p in photos}
    minutes = [m for m in range(_minutes(full["start"]), _minutes(full["end"]))
               if model.stamp(dt.datetime(day.year, day.month, day.day, m // 60, m % 60)) not in taken]
    subjects = pool["subjects"]
    for n, minute in enumerate(sorted(rng.sample(minutes, min(len(minutes), rng.randint(2, 4))))):
        moment = dt.datetime(day.year, day.month, day.day, minute // 60, minute % 60, rng.randrange(60))
        photos.append(make_photo(f"photo_event_{n + 1}", moment, source="camera",
                                 subject=subjects[rng.randrange(len(subjects))], color=COLORS[rng.randrange(len(COLORS))],
                                 width=4080, height=3072, size=rng.randint(1_600_000, 6_400_000), device=device,
                                 place=event["location"], city=city, lens="back"))
    return {"apps": {"gallery": {"photos": photos}}}


def _birthday_day(today: dt.date, birthday: str) -> dt.date | None:
    """This year's birthday (None on 29 February of a common year)."""
    try:
        return dt.date(today.year, int(birthday[5:7]), int(birthday[8:10]))
    except ValueError:
        return None


def sample_birthday_person(rng: random.Random, contacts: dict[str, Any]) -> str:
    """A contact with a phone, a birthday and a name no other contact has."""
    people = contacts["contacts"]
    fits = [c["name"] for c in people if c["phones"] and c["birthday"] and sum(x["name"] == c["name"] for x in people) == 1]
    if not fits:
        raise ValueError("contacts: nobody with a phone and a birthday")
    return fits[rng.randrange(len(fits))]


def prepare_state_with_birthday_photos(doc: Mapping[str, Any], name: str, rng: random.Random) -> dict[str, Any]:
    """A patch moving the contact's birthday (keeping the year) to a recent day with camera photos that no other
    contact was born on (month and day)."""
    today = sim_datetime(doc["os"]).date()
    contacts = doc["apps"]["contacts"]["contacts"]
    person = next(c for c in contacts if c["name"] == name)
    others = {c["birthday"][5:] for c in contacts if c["birthday"] and c is not person}
    days = sorted({p["taken"][:10] for p in Gallery(doc["apps"]["gallery"]).camera()
                   if p["taken"][:4] == str(today.year) and p["taken"][5:10] not in others and _birthday_day(today, person["birthday"][:4] + p["taken"][4:10])})
    patch: dict[str, Any] = {"apps": {"contacts": {}}}
    if days:
        day = days[rng.randrange(len(days))]
    else:  # no photo day this year is free: photos yesterday (today on 1 January)
        now = sim_datetime(doc["os"])
        moment = now - dt.timedelta(days=1) if (now - dt.timedelta(days=1)).year == now.year else now
        day = moment.date().isoformat()
        photos = list(doc["apps"]["gallery"]["photos"])
        pool = pools(doc["os"].get("language", "en"))
        where = pool["cities"][rng.randrange(len(pool["cities"]))]
        for n in range(rng.randint(1, 3)):
            taken = Gallery.free_minute({"photos": photos}, moment.date(), rng, now)
            photos.append(make_photo(f"photo_birthday_{n + 1}", taken, source="camera",
                                     subject=pool["subjects"][rng.randrange(len(pool["subjects"]))],
                                     color=COLORS[rng.randrange(len(COLORS))], width=4080, height=3072,
                                     size=rng.randint(1_600_000, 6_400_000), device="Pixel 8", place=where["places"][0],
                                     city=where["city"], lens="back"))
        patch["apps"]["gallery"] = {"photos": photos}
    patch["apps"]["contacts"][f"contacts[id={person['id']}]"] = {"birthday": person["birthday"][:4] + day[4:]}
    return patch


def sample_city_day(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
    """A day whose camera items were all taken in one city: {"iso", "label", "city"}."""
    g = Gallery(state)
    days = sorted({p["taken"][:10] for p in g.camera()})
    fits = []
    for iso in days:
        cities = {p["city"] for p in g.taken_on(iso)}
        if len(cities) == 1:
            fits.append((iso, cities.pop()))
    if not fits:
        raise ValueError("gallery: no day with photos from one city")
    iso, city = fits[rng.randrange(len(fits))]
    return {"iso": iso, "label": day_label(iso, language(os_state)), "city": city}



EVENT_PHOTO_PARAMETERS = {"event": {"sampler": sample_event, "fields": ["id", "title", "date", "location"]},
                          "person": {"source": "contacts:.contacts[*].name"}}
"""The parameters of a task about the photos taken at a past Calendar event, sent to a contact."""


def prepare_past_event(task: BaseTask, device) -> None:
    """``set_up`` of an event-photo task: move an event into the last weeks when no past event fits."""
    patch = prepare_state_with_past_event(copy_state(device), task.rng)
    if patch is not None:
        device.set_state(patch)


def add_event_photos(task: BaseTask, device) -> None:
    """``inject`` of an event-photo task: two to four photos taken at the event's place during it, and the
    near misses :func:`prepare_state_with_event_near_misses` plants."""
    device.set_state(prepare_state_with_event_photos(copy_state(device), task.p.event, task.rng))
    patch = prepare_state_with_event_near_misses(copy_state(device), task.p.event, task.rng)
    if patch is not None:
        device.set_state(patch)


def _split_event_photos(apps: Mapping[str, Any], event_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The live camera photos taken at the event's place on its day, there on other days, and elsewhere that day."""
    event = Calendar(apps["calendar"]).find(".events", id=event_id)
    g = Gallery(apps["gallery"])
    there, that_day = g.at_place(event["location"]), g.taken_on(event["date"])
    return ([p for p in there if p["taken"][:10] == event["date"]], [p for p in there if p["taken"][:10] != event["date"]],
            [p for p in that_day if p["place"] != event["location"]])


def prepare_state_with_event_near_misses(doc: Mapping[str, Any], event: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A patch adding a photo at the event's place the day before and one elsewhere in its photos' city that day,
    each when there are fewer than MIN_NEAR_MISSES such photos (None when there are)."""
    wanted, other_days, elsewhere = _split_event_photos(doc["apps"], event["id"])
    day, city = dt.date.fromisoformat(event["date"]), wanted[0]["city"]
    pool = pools(doc["os"].get("language", "en"))
    misses = [(day - dt.timedelta(days=1), event["location"], city, None)] * (len(other_days) < MIN_NEAR_MISSES)
    if len(elsewhere) < MIN_NEAR_MISSES:
        misses.append((day, Gallery.other_place(rng, pool, event["location"], city), city, None))
    return Gallery.add_near_misses(doc["apps"]["gallery"], rng, sim_datetime(doc["os"]), pool, misses)


def event_distractors(task: BaseTask, apps: Mapping[str, Any], os_state: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """``distractors`` of an event-photo task: its photos, and the photos one condition (day or place) away."""
    wanted, other_days, elsewhere = _split_event_photos(apps, task.p.event["id"])
    return {"photos of the event": (len(wanted), 2), "photos there on other days": (len(other_days), MIN_NEAR_MISSES),
            "photos elsewhere that day": (len(elsewhere), MIN_NEAR_MISSES)}


def event_photos(task: BaseTask, input) -> list[dict[str, Any]]:
    """The photos of the starting library taken at the event's place on its day."""
    return _split_event_photos({"calendar": input.apps_init["calendar"], "gallery": input.apps_init["gallery"]},
                               task.p.event["id"])[0]
