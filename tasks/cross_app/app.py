"""Helpers the cross-app tasks share: samplers over one app's state, and checks that join several apps.

The cross-app suite has no app of its own: tasks read each app through its suite's accessor
(``tasks/<app>/app.py``); what is here joins them.
"""
from __future__ import annotations

import random
import re
from typing import Any, Mapping

from mobilegym.envs.calendar.world import pools as calendar_pools
from mobilegym.envs.contacts.screens import next_birthday
from mobilegym.judge import normalize_text, sim_today, unambiguous
from mobilegym.judge.result import check

from ..calendar.app import NOT_PLACES, describe_event

BIRTHDAY_WORDS = ("birthday", "生日")  # what a birthday event's title must say, in either language
PICNIC = {"en": "Picnic", "zh": "野餐"}  # the event WarmestDayPicnic asks for
PICNIC_SLOT = ("12:00", "14:00")


def _minutes(hhmm: str) -> int:
    hour, minute = hhmm.split(":")
    return int(hour) * 60 + int(minute)


def hhmm(minutes: int) -> str:
    """Minutes of the day as "HH:MM"."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _upcoming_timed(state: Mapping[str, Any], os_state: Mapping[str, Any]) -> list[dict[str, Any]]:
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
        pool = unambiguous(_upcoming_timed(state, os_state), lambda e: _minutes(e[key]), 0, period=24 * 60)
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
