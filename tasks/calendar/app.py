"""Accessor for the Calendar app's state: events, lookups, checks and samplers."""
from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any, Mapping

from mobilegym.calendar_words import MONTHS, WEEKDAYS, WEEKDAYS_ZH_FULL as WEEKDAYS_ZH
from mobilegym.judge import BaseApp, match_time, normalize_text, sim_today, unambiguous
from mobilegym.judge.matchers import TIME_TOLERANCE
from mobilegym.judge.result import check
from mobilegym.sim.clock import DEFAULT_START

CALENDAR_ADD_EVENT_CHANGES = ["calendar.events[+]"]  # the one event the task creates
CALENDAR_DELETE_EVENT_CHANGES = ["calendar.events[-title={title}]"]
CALENDAR_MOVE_EVENT_CHANGES = ["calendar.events[title={title}].date"]
CALENDAR_CLEAR_DAY_CHANGES = ["calendar.events[-*date={day.iso}]"]  # every event of the day, removed

NEW_TITLES = ["Dinner with Sam", "Piano lesson", "Coffee with Jordan", "Vet appointment", "Tax advisor call",
              "Climbing session", "Budget review", "Pick up dry cleaning", "Language exchange", "Team trivia night"]
NOT_PLACES = ("", "Phone", "Home", "Video call", "电话", "家", "视频会议")  # locations that name no place to meet
NEW_TITLES_ZH = ["和小周吃饭", "钢琴课试听", "和老同学喝茶", "带狗打疫苗", "报税咨询电话", "攀岩", "预算复盘", "取干洗衣服",
                 "语言交换", "团队桌游夜"]
NEW_LOCATIONS = {"en": ["Room 5A", "Blue Door Cafe", "Main Street Library", "Zoom", "Conference Room B", "City Hall"],
                 "zh": ["5A 会议室", "蓝门咖啡", "中山路图书馆", "腾讯会议", "B 会议室", "市民中心"]}
DENTIST_TITLES = {"en": ["Dental cleaning", "Teeth cleaning", "Dentist: cleaning"],
                  "zh": ["洗牙", "牙齿清洁", "看牙医：洗牙"]}
TAXI_TITLE = {"en": "Taxi to airport", "zh": "打车去机场"}  # the event FlightTaxiAndNumber asks for
PREPARE_FOR = {"en": "Prepare for {title}", "zh": "准备{title}"}  # the to-do EventToTodo asks for
_FLIGHT = re.compile(r"\b[A-Z]{2}\s?\d{3,4}\b")  # a flight number in an event's notes: UA 1542
_APPOINTMENT = re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\w*,?\s+([A-Z][a-z]{2})\w*\s+(\d{1,2})\s+at\s+"
                          r"(\d{1,2}:\d{2}\s*[AP]M)", re.IGNORECASE)
_APPOINTMENT_ZH = re.compile(r"(\d{1,2})月(\d{1,2})日(?:（周.）)?\s*(\d{1,2}:\d{2})")  # 3月19日（周四） 10:30


def day_label(iso: str, language: str = "en") -> str:
    """"2026-03-19" -> "Thursday, March 19" / "3月19日星期四"."""
    day = dt.date.fromisoformat(iso)
    if language == "zh":
        return f"{day.month}月{day.day}日{WEEKDAYS_ZH[day.weekday()]}"
    return f"{WEEKDAYS[day.weekday()]}, {MONTHS[day.month - 1]} {day.day}"


def _language(os_state: Mapping[str, Any] | None) -> str:
    return (os_state or {}).get("language", "en")


def week_bounds(day: dt.date, weeks_ahead: int = 0) -> tuple[str, str]:
    """(Monday, Sunday) as ISO dates of the week holding ``day``, shifted by ``weeks_ahead`` weeks."""
    monday = day - dt.timedelta(days=day.weekday()) + dt.timedelta(weeks=weeks_ahead)
    return monday.isoformat(), (monday + dt.timedelta(days=6)).isoformat()


def _start_date(os_state: Mapping[str, Any] | None) -> str:
    """The phone's date when an episode starts (samplers pick upcoming events from it); the canonical start
    date when no OS state is given."""
    return (sim_today(os_state) if os_state is not None else DEFAULT_START.date()).isoformat()


def _minutes(hhmm: str) -> int:
    hour, minute = hhmm.split(":")
    return int(hour) * 60 + int(minute)


def _upcoming(state: Mapping[str, Any], os_state: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The timed events from the start date on whose title is unique (so a title names one of them)."""
    titles = [e["title"] for e in state["events"]]
    pool = [e for e in state["events"]
            if e["date"] >= _start_date(os_state) and not e["all_day"] and titles.count(e["title"]) == 1]
    if not pool:
        raise ValueError("calendar: no upcoming timed event with a unique title")
    return pool


def _by_count(rng: random.Random, days: list[str], state: Mapping[str, Any]) -> str:
    """One of ``days``: first a number of events among those the days have, then a day with that many (so
    how many events the picked day has varies as much as the calendar allows)."""
    counts = {d: sum(1 for e in state["events"] if e["date"] == d) for d in days}
    count = rng.choice(sorted(set(counts.values())))
    return rng.choice([d for d in days if counts[d] == count])


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def describe_event(event: Mapping[str, Any] | None) -> str:
    """A readable one-line summary for checks."""
    if event is None:
        return "no such event"
    when = "all day" if event["all_day"] else f"{event['start']}-{event['end']}"
    where = f" @ {event['location']}" if event["location"] else ""
    return f"{event['title']} {event['date']} {when}{where}"


class Calendar(BaseApp):
    """Events with a date, start/end times (None when all-day), location, notes, calendar and reminder."""

    # --- data ----------------------------------------------------------------------------------

    def events(self) -> list[dict[str, Any]]:
        """Every event."""
        return self.require(".events")

    def event(self, title: str) -> dict[str, Any]:
        """The event with this exact title; raises ValueError when there is none."""
        return self.find(".events", title=title)

    def events_titled(self, title: str) -> list[dict[str, Any]]:
        """Events whose title equals ``title`` after normalisation (case, spaces)."""
        want = normalize_text(title)
        return [e for e in self.events() if normalize_text(e["title"]) == want]

    def events_on(self, iso: str) -> list[dict[str, Any]]:
        """The events of a day: all-day first, then by start time."""
        return sorted((e for e in self.events() if e["date"] == iso),
                      key=lambda e: (not e["all_day"], e["start"] or "", e["title"]))

    def count_between(self, first: str, last: str) -> int:
        """How many events fall on dates first..last (inclusive, ISO dates)."""
        return sum(1 for e in self.events() if first <= e["date"] <= last)

    def other_values(self, key: str, taken: list[str]) -> list[str]:
        """The distinct values of an event field (title, location) other than ``taken`` (normalised; for
        locations, also those that name no place): the rivals of a fact a text states about an event."""
        skip = {normalize_text(v) for v in (*taken, *(NOT_PLACES if key == "location" else ()))}
        return list(dict.fromkeys(e[key] for e in self.events() if normalize_text(e[key]) not in skip))

    def next_event(self, moment: dt.datetime) -> dict[str, Any]:
        """The first timed event on ``moment``'s day starting at or after it; raises ValueError if none."""
        later = [e for e in self.events_on(moment.date().isoformat())
                 if not e["all_day"] and _minutes(e["start"]) >= moment.hour * 60 + moment.minute]
        if not later:
            raise ValueError(f"no event left on {moment:%Y-%m-%d} after {moment:%H:%M}")
        return later[0]

    def new_events(self) -> list[dict[str, Any]]:
        """Events that were not in the initial state."""
        if self.init is None:
            raise ValueError("calendar: new_events needs the initial state")
        old = {e["id"] for e in self.init["events"]}
        return [e for e in self.events() if e["id"] not in old]

    def new_event(self, title: str) -> dict[str, Any] | None:
        """The newly created event with this title (normalised), or None."""
        want = normalize_text(title)
        return next((e for e in self.new_events() if normalize_text(e["title"]) == want), None)

    def by_id(self, event_id: str) -> dict[str, Any] | None:
        """The event with this id, or None when it is gone."""
        return next((e for e in self.events() if e["id"] == event_id), None)

    def flight_number(self, title: str) -> str:
        """The flight number ("UA 1542") written in the event's notes."""
        match = _FLIGHT.search(self.event(title)["notes"])
        if match is None:
            raise ValueError(f"calendar: event {title!r} names no flight number in its notes")
        return match.group(0)

    def flight_numbers(self) -> list[str]:
        """Every flight number written in the events' notes (the rivals of one of them)."""
        return list(dict.fromkeys(m.group(0) for e in self.events() for m in _FLIGHT.finditer(e["notes"])))

    @staticmethod
    def appointment_in_messages(conversations: list[dict[str, Any]], keyword: str, year: int) -> dict[str, str]:
        """The appointment ({"date", "start"}) in the latest incoming message mentioning ``keyword``."""
        found = [m for c in conversations for m in c["messages"] if m["incoming"] and keyword in m["text"]]
        if not found:
            raise ValueError(f"messages: no incoming message mentions {keyword!r}")
        return Calendar.appointment_in_text(max(found, key=lambda m: m["time_ms"])["text"], year)

    @staticmethod
    def appointment_in_text(text: str, year: int) -> dict[str, str]:
        """The date and time of "Thu, Mar 19 at 10:30 AM" (or "3月19日（周四） 10:30") in a message, as
        {"date": ISO, "start": "HH:MM"}."""
        zh = _APPOINTMENT_ZH.search(text)
        if zh is not None:
            hour, minute = zh.group(3).split(":")
            return {"date": dt.date(year, int(zh.group(1)), int(zh.group(2))).isoformat(),
                    "start": f"{int(hour):02d}:{minute}"}
        match = _APPOINTMENT.search(text)
        if match is None:
            raise ValueError(f"no 'Day, Mon D at H:MM AM' appointment in {text!r}")
        month = [m[:3].lower() for m in MONTHS].index(match.group(1).lower()) + 1
        clock = dt.datetime.strptime(match.group(3).upper().replace(" ", ""), "%I:%M%p")
        return {"date": dt.date(year, month, int(match.group(2))).isoformat(), "start": clock.strftime("%H:%M")}

    # --- checks --------------------------------------------------------------------------------

    @staticmethod
    def check_event(field: str, event: Mapping[str, Any] | None, expected: Mapping[str, Any]) -> dict[str, Any]:
        """One check that ``event`` exists and has every expected field value.

        Times compare as times of day (``"9:30"`` equals ``"09:30"``), text fields after normalisation.
        """
        def same(key: str, want: Any) -> bool:
            have = event[key] if event is not None else None
            if key in ("start", "end") and want is not None:
                return have is not None and match_time(want, have, tolerance_minutes=0)
            if isinstance(want, str):
                return have is not None and normalize_text(have) == normalize_text(want)
            return have == want

        shown = {k: (event[k] if event is not None else None) for k in expected}
        passed = event is not None and all(same(k, v) for k, v in expected.items())
        return check(field, dict(expected), shown if event is not None else "no such event", passed)

    def check_deleted(self, event_id: str, title: str) -> dict[str, Any]:
        """The event with this id is gone."""
        event = self.by_id(event_id)
        return check(f"event '{title}' deleted", "deleted", describe_event(event) if event else "deleted",
                     event is None)

    def check_others_kept(self, kept_ids: set[str]) -> dict[str, Any]:
        """Every event in ``kept_ids`` still exists (nothing else was deleted by mistake)."""
        ids = {e["id"] for e in self.events()}
        missing = sorted(kept_ids - ids)
        return check("other events kept", "none missing", missing or "none missing", not missing)

    # --- samplers ------------------------------------------------------------------------------

    @staticmethod
    def sample_upcoming_event(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """The title of a timed event from the phone's date on, whose title is unique."""
        return rng.choice(_upcoming(state, os_state))["title"]

    @staticmethod
    def sample_event_of_distinct_start(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """The title of an upcoming event (as sample_upcoming_event) starting more than TIME_TOLERANCE minutes
        from every other's start, so another event's time cannot pass for it."""
        pool = unambiguous(_upcoming(state, os_state), lambda e: _minutes(e["start"]), TIME_TOLERANCE, period=24 * 60)
        if not pool:
            raise ValueError("calendar: no upcoming event starts apart from every other")
        return rng.choice(pool)["title"]

    @staticmethod
    def sample_event_with_place(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """The title of an upcoming timed event with a unique title and a location."""
        titles = [e["title"] for e in state["events"]]
        pool = [e["title"] for e in state["events"] if e["date"] >= _start_date(os_state) and not e["all_day"]
                and e["location"] not in NOT_PLACES and titles.count(e["title"]) == 1]
        if not pool:
            raise ValueError("calendar: no upcoming event with a location")
        return rng.choice(pool)

    @staticmethod
    def sample_day(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """One of the next 14 days from the phone's date (some have no events; picked by how many events they
        have, so the count varies): {"iso", "label"}."""
        start = dt.date.fromisoformat(_start_date(os_state))
        iso = _by_count(rng, [(start + dt.timedelta(days=i)).isoformat() for i in range(14)], state)
        return {"iso": iso, "label": day_label(iso, _language(os_state))}

    @staticmethod
    def sample_week_label(rng: random.Random, state: dict[str, Any], params: dict[str, Any],
                          os_state: Mapping[str, Any]) -> str:
        """The Monday-to-Sunday week ``params["week"]`` weeks after the phone's current one (its current one
        without that parameter), spelled out: "Monday, March 16 to Sunday, March 22" (Chinese:
        "3月16日星期一到3月22日星期日")."""
        first, last = week_bounds(sim_today(os_state), params.get("week", 0))
        language = _language(os_state)
        joined = "{}到{}" if language == "zh" else "{} to {}"
        return joined.format(day_label(first, language), day_label(last, language))

    @staticmethod
    def sample_day_next_week(rng: random.Random, state: dict[str, Any], params: dict[str, Any],
                             os_state: Mapping[str, Any]) -> dict[str, str]:
        """Day ``params["weekday"]`` (0 = Monday) of the week after the phone's current one: {"iso", "label"}."""
        monday, _ = week_bounds(sim_today(os_state), 1)
        iso = (dt.date.fromisoformat(monday) + dt.timedelta(days=params["weekday"])).isoformat()
        return {"iso": iso, "label": day_label(iso, _language(os_state))}

    @staticmethod
    def sample_busy_day(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """An upcoming day with at least two events (picked by how many it has): {"iso", "label"}."""
        dates = [e["date"] for e in state["events"] if e["date"] >= _start_date(os_state)]
        pool = sorted({d for d in dates if dates.count(d) >= 2})
        if not pool:
            raise ValueError("calendar: no upcoming day has two events")
        iso = _by_count(rng, pool, state)
        return {"iso": iso, "label": day_label(iso, _language(os_state))}

    @staticmethod
    def sample_new_title(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """An event title no existing event uses (in the phone's language)."""
        taken = {normalize_text(e["title"]) for e in state["events"]}
        titles = NEW_TITLES_ZH if os_state.get("language") == "zh" else NEW_TITLES
        pool = [t for t in titles if normalize_text(t) not in taken]
        if not pool:
            raise ValueError("calendar: every candidate title is taken")
        return rng.choice(pool)

    @staticmethod
    def sample_slot(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A start and end time: {"start": "HH:MM", "end": "HH:MM"} between 08:00 and 20:00."""
        start = rng.randrange(8 * 4, 19 * 4) * 15
        length = rng.choice([30, 45, 60, 90])
        return {"start": _hhmm(start), "end": _hhmm(start + length)}

    @staticmethod
    def sample_new_date(rng: random.Random, state: dict[str, Any], params: dict[str, Any],
                        os_state: Mapping[str, Any]) -> dict[str, str]:
        """A date 1-3 days after the event ``params["title"]``: {"iso", "label"}."""
        event = next(e for e in state["events"] if e["title"] == params["title"])
        iso = (dt.date.fromisoformat(event["date"]) + dt.timedelta(days=rng.randint(1, 3))).isoformat()
        return {"iso": iso, "label": day_label(iso, _language(os_state))}

    @staticmethod
    def sample_location(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A place for a new event (in the phone's language)."""
        return rng.choice(NEW_LOCATIONS[_language(os_state)])

    @staticmethod
    def sample_dentist_title(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A title for the dentist appointment (in the phone's language)."""
        return rng.choice(DENTIST_TITLES[_language(os_state)])

    @staticmethod
    def sample_flight(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """The title (unique) of an upcoming timed flight event: its notes carry the flight number."""
        titles = [e["title"] for e in state["events"]]
        pool = [e["title"] for e in state["events"]
                if e["date"] >= _start_date(os_state) and not e["all_day"] and _FLIGHT.search(e["notes"])
                and titles.count(e["title"]) == 1 and _minutes(e["start"]) >= 3 * 60]
        if not pool:
            raise ValueError("calendar: no upcoming flight event")
        return rng.choice(pool)

    def prepare_state_with_more_events(self, rng: random.Random, iso: str, count: int, language: str) -> dict[str, Any]:
        """A patch adding ``count`` timed events on day ``iso`` (titles from the world pools that no event of
        the day has, in free slots of the day), so how many events the day has varies."""
        from mobilegym.envs.calendar.world import pools

        pool = pools(language)
        events = list(self.events())
        day = [e for e in events if e["date"] == iso]
        busy = [(_minutes(e["start"]), _minutes(e["end"])) for e in day if not e["all_day"]]
        titles = [t for t in dict.fromkeys(spec["title"] for spec in pool["events"])
                  if "{" not in t and t not in {e["title"] for e in day}]
        for i in range(count):
            for _ in range(50):
                start, length = rng.randrange(7 * 4, 21 * 4) * 15, rng.choice([30, 45, 60])
                if all(start + length <= s or start >= e for s, e in busy):
                    break
            else:
                break
            title = titles.pop(rng.randrange(len(titles)))
            busy.append((start, start + length))
            events.append({"id": f"evt_more_{i + 1}", "title": title, "date": iso, "start": _hhmm(start),
                           "end": _hhmm(start + length), "all_day": False, "location": "", "notes": "",
                           "calendar": "Personal", "reminder": None})
        return {"apps": {"calendar": {"events": events}}}

    @staticmethod
    def prepare_state_with_event(title: str, **fields: Any) -> dict[str, Any]:
        """A patch setting fields of the event with this title."""
        return {"apps": {"calendar": {f"events[title={title}]": fields}}}
