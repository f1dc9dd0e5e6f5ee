"""Helpers the cross-app tasks share: samplers over one app's state, and checks that join several apps.

The cross-app suite has no app of its own: tasks read each app through its suite's accessor
(``tasks/<app>/app.py``); what is here joins them.
"""
from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any, Mapping

from mobilegym.envs.calendar.world import pools as calendar_pools
from mobilegym.languages import LANGUAGES
from mobilegym.envs.contacts.numbers import new_number, same_number
from mobilegym.envs.contacts.screens import next_birthday
from mobilegym.envs.messages.world import intro_patterns
from mobilegym.envs.messages.world import pool as messages_pool
from mobilegym.envs.notes.world import pools as notes_pools
from mobilegym.judge import normalize_text, sim_today, unambiguous
from mobilegym.judge.answers import MAX_PROSE_CHARS
from mobilegym.judge.mentions import LATIN
from mobilegym.judge.result import check

from ..calendar.app import NOT_PLACES, describe_event
from ..contacts.app import NEW_PEOPLE, NEW_PEOPLE_ZH, Contacts
from ..messages.app import NEW_NUMBER_MARKERS, Messages
from ..music.app import Music

BIRTHDAY_WORDS = ("birthday", "生日")  # what a birthday event's title must say, in either language
PICNIC = {"en": "Picnic", "zh": "野餐"}  # the event WarmestDayPicnic asks for
PICNIC_SLOT = ("12:00", "14:00")
MIN_SONG_GRIPES = 1  # RecommendedSongAndReply: other contacts' texts naming another song (prepare_state_with_song_gripe)
MIN_OTHER_NEWCOMERS = 1  # SaveNewNumberWithNote: other new numbers saying you met elsewhere (prepare_state_with_other_newcomer)


def _minutes(hhmm: str) -> int:
    hour, minute = hhmm.split(":")
    return int(hour) * 60 + int(minute)


def hhmm(minutes: int) -> str:
    """Minutes of the day as "HH:MM"."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def upcoming_timed(state: Mapping[str, Any], os_state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Timed events from the phone's date on, with a unique title, a place, and a start after 00:30."""
    today = sim_today(os_state).isoformat()
    titles = [e["title"] for e in state["events"]]
    return [e for e in state["events"] if e["date"] >= today and not e["all_day"] and titles.count(e["title"]) == 1
            and e["location"] not in NOT_PLACES and _minutes(e["start"]) >= 30]


def sample_event_apart_by(key: str):
    """A sampler of the title of an upcoming timed event (unique title, with a place) whose ``key`` ("start" or
    "end") is more than a minute from every other candidate's, so an alarm set for another event's time is
    never right."""
    def sampler(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        pool = unambiguous(upcoming_timed(state, os_state), lambda e: _minutes(e[key]), 0, period=24 * 60)
        if not pool:
            raise ValueError(f"calendar: no upcoming event whose {key} time is unique")
        return rng.choice(pool)["title"]

    sampler.__name__ = sampler.__qualname__ = f"sample_event_apart_by_{key}"
    sampler.__doc__ = f"The title of an upcoming event whose {key} time no other candidate shares."
    return sampler


sample_event_apart_by_start = sample_event_apart_by("start")
sample_event_apart_by_end = sample_event_apart_by("end")


def attendee_line(name: str, language: str) -> str:
    """The "With X." line (zh "参加：X。") the Calendar writes in an event's notes."""
    return calendar_pools(language)["with"].replace("{names}", name)


def prepare_state_with_attendee(calendar: Mapping[str, Any], title: str, name: str, language: str) -> dict[str, Any]:
    """A patch making ``name`` the one attendee in the notes of the event ``title`` (any other "With ..." line
    replaced, the rest of the notes kept)."""
    event = next(e for e in calendar["events"] if e["title"] == title)
    kept = re.sub(r"\s*(?:With [^.]*\.|参加：[^。]*。)", "", event["notes"]).strip()
    line = attendee_line(name, language)
    notes = (f"{kept} {line}" if language == "en" else f"{kept}{line}") if kept else line
    return {"apps": {"calendar": {f"events[title={title}]": {"notes": notes}}}}


def next_birthday_people(contacts: list[dict[str, Any]], os_state: Mapping[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """(ISO date, contacts) of the soonest birthday from the phone's date (today counts): everyone it is."""
    today = sim_today(os_state)
    dated = [(next_birthday(c["birthday"], today), c) for c in contacts if c["birthday"]]
    if not dated:
        raise ValueError("contacts: nobody has a birthday set")
    first = min(day for day, _ in dated)
    return first.isoformat(), [c for day, c in dated if day == first]


def is_birthday_title(title: str, name: str) -> bool:
    """A title naming the person and saying birthday ("Ana's birthday", "安娜的生日")."""
    text = normalize_text(title)
    return normalize_text(name) in text and any(word in text for word in BIRTHDAY_WORDS)


def check_birthday_event(new_events: list[dict[str, Any]], iso: str, people: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One check that a new all-day event on ``iso`` is titled as the birthday of one of ``people``; also the
    people the passing events name (the one to greet)."""
    named = [p for p in people if any(e["date"] == iso and e["all_day"] and is_birthday_title(e["title"], p["name"])
                                      for e in new_events)]
    expected = " or ".join(f"all-day '{p['name']}'s birthday' on {iso}" for p in people)
    actual = "; ".join(describe_event(e) for e in new_events) or "no new event"
    return check("birthday event", expected, actual, bool(named)), named


# --- new numbers that introduced themselves, and where they met the owner ----------------------------------

INTRO_PLACES = {language: messages_pool(language)["intro_places"] for language in LANGUAGES}


def introduced_places(messages: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(name, address, place) of every unsaved number that introduced itself and says where they met (exactly one
    of the pools' places in its texts)."""
    places = [p for pool in INTRO_PLACES.values() for p in pool]
    found = []
    for conv in messages["conversations"]:
        texts = [m["text"] for m in conv["messages"] if m["incoming"]]
        if not any(marker in t.casefold() for t in texts for marker in NEW_NUMBER_MARKERS):
            continue
        name = next((m.group(1).strip() for t in texts for m in (p.search(t) for p in intro_patterns()) if m), None)
        named = [p for p in places if any(p in t for t in texts)]
        if name is not None and len(named) == 1:
            found.append((name, conv["address"], named[0]))
    return found


def sample_introduced_with_place(rng: random.Random, state: dict[str, Any]) -> str:
    """The name a new number introduced itself with, whose texts say where you met."""
    names = sorted({name for name, _, _ in introduced_places(state)})
    if not names:
        raise ValueError("messages: no new number says where you met")
    return rng.choice(names)


def where_met(messages: Mapping[str, Any], name: str) -> tuple[str, str, list[str]]:
    """(number, place, the other places of the pools) of the new number that introduced itself as ``name``."""
    number, place = next((a, p) for n, a, p in introduced_places(messages) if n == name)
    return number, place, [p for pool in INTRO_PLACES.values() for p in pool if p != place]


def other_newcomers(messages: Mapping[str, Any], name: str) -> list[tuple[str, str, str]]:
    """(name, address, place) of the other new numbers that introduced themselves and met you somewhere else than
    ``name``."""
    found = introduced_places(messages)
    place = next(p for n, _, p in found if n == name)
    return [f for f in found if f[0] != name and f[2] != place]


def prepare_state_with_other_newcomer(doc: Mapping[str, Any], name: str, rng: random.Random) -> dict[str, Any] | None:
    """A patch where another new number (a name nobody has) introduced itself a day ago and says you met somewhere
    else than ``name``, unless MIN_OTHER_NEWCOMERS such numbers have (None)."""
    messages, contacts = doc["apps"]["messages"], doc["apps"]["contacts"]["contacts"]
    if len(other_newcomers(messages, name)) >= MIN_OTHER_NEWCOMERS:
        return None
    language = doc["os"].get("language", "en")
    taken = {c["name"] for c in contacts} | {n for n, _, _ in introduced_places(messages)}
    who = rng.choice([n for n in (NEW_PEOPLE_ZH if language == "zh" else NEW_PEOPLE) if n not in taken])
    where = rng.choice([p for p in INTRO_PLACES[language] if p != where_met(messages, name)[1]])
    lines = [t.format(name=who, where=where) for t in rng.choice(messages_pool(language)["intros"])]
    number = new_number(rng, language, [c["address"] for c in messages["conversations"]]
                        + [p["number"] for c in contacts for p in c["phones"]])
    start = doc["os"]["time_ms"] - 26 * 3600 * 1000
    texts = [{"id": f"msg_newcomer_{i}", "text": text, "time_ms": start + i * 60_000, "incoming": True}
             for i, text in enumerate(lines)]
    return {"apps": {"messages": {"conversations[]": {"id": "conv_newcomer", "address": number, "unread": 0,
                                                      "messages": texts}}}}


# --- an errands note naming whom the items are for ----------------------------------------------------------

ERRANDS = {"en": {"title": "Errands", "line": "Pick up for {name}:"}, "zh": {"title": "跑腿清单", "line": "帮{name}带："}}


def grocery_items(language: str) -> list[str]:
    """The Notes pools' grocery items, without any that another contains (so each is read apart)."""
    items = notes_pools(language)["grocery"]["items"]
    return [i for i in items if not any(i != j and normalize_text(i) in normalize_text(j) for j in items)]


def sample_errands(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, Any]:
    """{title, items}: an errands note (not a title in use) and three grocery items it will list."""
    language = os_state.get("language", "en")
    title = ERRANDS[language]["title"]
    if any(normalize_text(n["title"]) == normalize_text(title) for n in state["notes"]):
        raise ValueError(f"notes: a note called {title!r} already exists")
    return {"title": title, "items": rng.sample(grocery_items(language), 3)}


def prepare_state_with_errands(errands: Mapping[str, Any], name: str, os_state: Mapping[str, Any]) -> dict[str, Any]:
    """A patch adding the errands note: a line naming ``name``, then the items, one a line (written yesterday)."""
    language = os_state.get("language", "en")
    stamp = f"{(sim_today(os_state) - dt.timedelta(days=1)).isoformat()} 19:05"
    body = "\n".join([ERRANDS[language]["line"].replace("{name}", name), *errands["items"]])
    return {"apps": {"notes": {"notes[]": {"id": "note_errands", "title": errands["title"], "body": body,
                                           "pinned": False, "created": stamp, "updated": stamp}}}}


# --- a text naming a playlist ---------------------------------------------------------------------------------

def _name_pattern(name: str) -> re.Pattern[str]:
    """A name as written in prose: its words in order, each maybe pluralised ("Sing in the Showers")."""
    words = name.split()
    body = r"\s+".join(re.escape(w) + "s?" for w in words)
    return re.compile(rf"(?<!{LATIN}){body}(?!{LATIN})", re.IGNORECASE)  # Chinese prose runs into a name: no edge


def check_names_one(field: str, texts: list[str], name: str, others: list[str]) -> dict[str, Any]:
    """One check that ``texts`` (together, no longer than prose is read) name ``name`` and none of ``others``
    (outside mentions of ``name``)."""
    text = "\n".join(texts)
    named = len(text) <= MAX_PROSE_CHARS and _name_pattern(name).search(text) is not None
    rest = _name_pattern(name).sub(" ", text)
    rivals = [o for o in others if _name_pattern(o).search(rest)]
    ok = named and not rivals
    return check(field, name, text or "nothing sent", ok)


# --- a song recommended by text, and another song a text names ------------------------------------------------

def song_gripes(apps: Mapping[str, Any], name: str, song_id: str) -> list[str]:
    """Incoming texts from other numbers than the contact ``name``'s that quote a library song other than
    ``song_id``."""
    numbers = [p["number"] for p in Contacts(apps["contacts"]).contact(name)["phones"]]
    titles = [s["title"] for s in apps["music"]["songs"] if s["id"] != song_id]
    quoted = [q for t in titles for q in (f'"{t}"', f"《{t}》")]
    return [m["text"] for c in apps["messages"]["conversations"] if not any(same_number(c["address"], n) for n in numbers)
            for m in c["messages"] if m["incoming"] and any(q in m["text"] for q in quoted)]


def prepare_state_with_song_gripe(doc: Mapping[str, Any], name: str, song_id: str, playlist_id: str,
                                  rng: random.Random) -> dict[str, Any] | None:
    """A patch where another contact texted, three hours ago, that they are tired of another song missing from the
    playlist, unless MIN_SONG_GRIPES texts name another song (None)."""
    apps = doc["apps"]
    if len(song_gripes(apps, name, song_id)) >= MIN_SONG_GRIPES:
        return None
    music = apps["music"]
    members = next(p for p in music["playlists"] if p["id"] == playlist_id)["song_ids"]
    song = rng.choice([s for s in music["songs"] if s["id"] != song_id and s["id"] not in members])
    who = rng.choice([c for c in Contacts(apps["contacts"]).contacts() if c["phones"] and c["name"] != name])
    text = Music.gripe_text(Music._song_ref(music, song), doc["os"].get("language", "en"))
    return Messages.prepare_state_with_text_from(apps["messages"], who["phones"][0]["number"], "song_gripe", text,
                                                 doc["os"]["time_ms"] - 2 * 3600 * 1000)
