"""Calendar tasks.

Task index:
    CountEventsOnDate     query    L1  how many events a given day has
    EventStartTime        query    L1  when a named event starts
    NextEventToday        query    L2  the next event today and its start time
    CountEventsInWeek     query    L2  how many events this week / next week
    CreateEvent           operate  L2  add an event tomorrow / the day after at a time
    SetEventReminder      operate  L2  change an event's reminder
    DeleteEvent           operate  L2  delete a named event
    RescheduleEvent       operate  L3  move an event to another day, same time
    CreateDetailedEvent   operate  L3  add an event next week with location, calendar and reminder
    ClearDayAndCount      hybrid   L3  delete every event of a day and say how many there were
    FlightTaxiAndNumber   hybrid   L4  add a taxi before a flight and report the flight number
    EventToTodo           operate  L3  cross-app: a Notes to-do due on an event's day
    EventFromMessage      operate  L3  cross-app: an event from the dentist's text message
    ShareEventByMessage   operate  L3  cross-app: text a contact an event's day, time and place
    CoffeeAtTopCafe       operate  L4  Maps -> Calendar -> Messages: an event at the best-rated café, text its name
                                       and address (high risk)
"""
from __future__ import annotations

import datetime as dt

from mobilegym.judge import (AnswerTask, BaseTask, CriteriaTask, build_answer_checks, copy_state, normalize_text, rivals_for,
                             sim_datetime, sim_today)
from mobilegym.judge.matchers import TIME_TOLERANCE
from mobilegym.judge.result import check
from mobilegym.judge.timeutil import datetime_to_ms

from ..contacts.app import Contacts
from ..maps.app import RUNNER_UP_RATING, Maps
from ..messages.app import MESSAGES_READ_CHANGES, MESSAGES_SEND_CHANGES, Messages
from ..notes.app import NOTES_ADD_TODO_CHANGES, Notes
from ..l10n import localised
from ..spread import fit_count
from .app import (CALENDAR_ADD_EVENT_CHANGES, CALENDAR_CLEAR_DAY_CHANGES, CALENDAR_DELETE_EVENT_CHANGES,
                  CALENDAR_MOVE_EVENT_CHANGES, PREPARE_FOR, TAXI_TITLE, Calendar, week_bounds)
from mobilegym.envs.messages.world import pool as messages_pool


def fit_events(device, rng, days: list[str], target: int) -> None:
    """Make exactly ``target`` events fall on ``days`` (ISO dates): events there removed, or events of other days
    repeated on them (a fresh id, a day drawn from ``days``). Raises ValueError when no event is left to repeat."""
    events = copy_state(device)["apps"]["calendar"]["events"]
    on_days = lambda e: e["date"] in days  # noqa: E731
    outside = sorted((e for e in events if not on_days(e)), key=lambda e: e["id"])
    top = 1 + max((int(e["id"].rsplit("_", 1)[1]) for e in events if e["id"].rsplit("_", 1)[1].isdigit()), default=0)

    def add(k: int, _now: list) -> dict | None:
        return {**rng.choice(outside), "id": f"evt_{top + k}", "date": rng.choice(days)} if outside else None

    device.set_state({"apps": {"calendar": {"events": fit_count(events, on_days, target, rng, drop=lambda e: None,
                                                                add=add)}}})



@localised(zh={"fields": [{"label": "日程数量"}]})
class CountEventsOnDate(AnswerTask):
    """Verdict: the answer is the number of events on the day (days without events count 0)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting", "date-navigation"]
    templates = {"en": ["How many events do I have on {day.label}?", "How many things are on my calendar for {day.label}?"],
                 "zh": ["我{day.label}有几个日程？", "{day.label}我的日历上有几项安排？"]}
    parameters = {"day": {"sampler": Calendar.sample_day, "fields": ["iso", "label"]}}
    answer = staticmethod(lambda task, apps_init: len(Calendar(apps_init["calendar"]).events_on(task.p.day["iso"])))
    answer_fields = [{"type": "number", "label": "Number of events"}]

    def inject(self, device) -> None:
        """Zero to nine events that day, the count drawn uniformly (tasks/spread.py)."""
        if self.spreads:
            fit_events(device, self.rng, [self.p.day["iso"]], self.spread.count(0, 10))


@localised(zh={"fields": [{"label": "开始时间", "hint": "例如 14:30"}]})
class EventStartTime(AnswerTask):
    """Verdict: the answer names the event's start time (within five minutes). Sampled among events starting
    more than five minutes from every other, so another event's time cannot pass."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval", "search"]
    templates = {"en": ["What time does '{title}' start?", "When does my '{title}' begin?"],
                 "zh": ["“{title}”几点开始？", "我的“{title}”什么时候开始？"]}
    parameters = {"title": {"sampler": Calendar.sample_event_of_distinct_start}}
    answer_fields = [{"type": "text", "label": "Start time", "hint": "e.g. 14:30", "matcher": "time"}]

    def get_answer(self, input):
        return Calendar(input.apps_init["calendar"]).event(self.p.title)["start"]

    def check_goals(self, input):
        return build_answer_checks(self.get_answer(input), input.answer, "start_time", tolerance=TIME_TOLERANCE)


@localised(zh={"fields": [{"label": "日程标题", "hint": "例如 周例会"},
                          {"label": "开始时间", "hint": "例如 14:30"}]})
class NextEventToday(AnswerTask):
    """Verdict: the answer names the first event today that starts after the phone's current time, and its start.
    Injection: the clock is set to {hour}:10 today so the next event varies."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval", "temporal-reasoning"]
    templates = {"en": ["What's my next event today, and what time does it start?",
                        "What is the next thing on my calendar today and when does it begin?"],
                 "zh": ["我今天的下一个日程是什么？几点开始？", "今天日历上接下来是什么安排？什么时候开始？"]}
    parameters = {"hour": {"type": "int", "min": 8, "max": 17}}
    answer_fields = [{"type": "text", "label": "Event title", "hint": "e.g. Weekly sync"},
                     {"type": "text", "label": "Start time", "hint": "e.g. 14:30", "matcher": "time"}]

    def inject(self, device) -> None:
        today = sim_today(copy_state(device)["os"])
        device.set_state({"os": {"time_ms": datetime_to_ms(dt.datetime.combine(today, dt.time(self.p.hour, 10)))}})

    def get_answer(self, input):
        event = Calendar(input.apps_init["calendar"]).next_event(sim_datetime(input.os_init))
        return {"title": event["title"], "start": event["start"]}

    def check_goals(self, input):
        expected = self.get_answer(input)
        return build_answer_checks(expected, input.answer, rivals={"title": rivals_for(expected["title"], input.apps_init)},
                                   tolerance={"start": TIME_TOLERANCE})


@localised(zh={"fields": [{"label": "日程数量"}]})
class CountEventsInWeek(AnswerTask):
    """Verdict: the answer is the number of events from Monday to Sunday of the asked week."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["counting", "date-navigation"]
    templates = {"en": ["How many events are on my calendar {week}, from {span}?",
                        "Count my calendar events {week} ({span})"],
                 "zh": ["从{span}，我的日历上一共有几个日程？", "数一数{span}这几天我日历上的日程"]}
    parameters = {"week": {"type": "enum", "values": {"this week": 0, "next week": 1}},
                  "span": {"sampler": Calendar.sample_week_label}}
    answer_fields = [{"type": "number", "label": "Number of events"}]

    def inject(self, device) -> None:
        """Six to seventeen events that week, the count drawn from twelve (tasks/spread.py)."""
        if not self.spreads:
            return
        state = copy_state(device)
        first, _ = week_bounds(sim_today(state["os"]), self.p.week)
        days = [(dt.date.fromisoformat(first) + dt.timedelta(days=i)).isoformat() for i in range(7)]
        fit_events(device, self.rng, days, self.spread.count(6))

    def get_answer(self, input):
        return Calendar(input.apps_init["calendar"]).count_between(*week_bounds(sim_today(input.os_init), self.p.week))


@localised(zh={"labels": {"day": {1: "明天", 2: "后天"}}})
class CreateEvent(BaseTask):
    """Verdict: exactly one event was added, with the title, the day (relative to the phone's date) and the times."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["form-filling", "date-navigation"]
    templates = {"en": ["Add '{title}' to my calendar {day} from {slot.start} to {slot.end}",
                        "Put '{title}' on my calendar for {day}, {slot.start} to {slot.end}"],
                 "zh": ["在我的日历上添加“{title}”，时间是{day} {slot.start} 到 {slot.end}",
                        "把“{title}”排进日历：{day} {slot.start}-{slot.end}"]}
    parameters = {"title": {"sampler": Calendar.sample_new_title},
                  "day": {"type": "enum", "values": {"tomorrow": 1, "the day after tomorrow": 2}},
                  "slot": {"sampler": Calendar.sample_slot, "fields": ["start", "end"]}}
    expected_changes = CALENDAR_ADD_EVENT_CHANGES

    def check_goals(self, input):
        cal = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        date = (sim_today(input.os_init) + dt.timedelta(days=self.p.day)).isoformat()
        added = cal.new_events()
        return [cal.check_event("new event", cal.new_event(self.p.title),
                                {"title": self.p.title, "date": date, "all_day": False,
                                 "start": self.p.slot["start"], "end": self.p.slot["end"]}),
                check("events added", 1, len(added), len(added) == 1)]


@localised(zh={"labels": {"reminder": {10: "10 分钟", 30: "30 分钟", 60: "1 小时"}}})
class SetEventReminder(CriteriaTask):
    """Verdict: the event's reminder is the requested number of minutes.
    Injection: the event starts with a different reminder (or none)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["form-filling", "search"]
    templates = {"en": ["Remind me {reminder} before '{title}'", "Set the reminder for '{title}' to {reminder} before"],
                 "zh": ["在“{title}”开始前 {reminder}提醒我", "把“{title}”的提醒改成提前 {reminder}"]}
    parameters = {"title": {"sampler": Calendar.sample_upcoming_event},
                  "reminder": {"type": "enum", "values": {"10 minutes": 10, "30 minutes": 30, "1 hour": 60}}}
    criteria = {".events[title={title}].reminder": "{reminder}"}

    def inject(self, device) -> None:
        others = [m for m in (None, 10, 30, 60) if m != self.p.reminder]
        device.set_state(Calendar.prepare_state_with_event(self.p.title, reminder=self.rng.choice(others)))


class DeleteEvent(BaseTask):
    """Verdict: the named event is gone and no other event was deleted."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Delete '{title}' from my calendar", "'{title}' was cancelled, remove it from my calendar"],
                 "zh": ["从日历里删除“{title}”", "“{title}”取消了，把它从日历里删掉"]}
    parameters = {"title": {"sampler": Calendar.sample_upcoming_event}}
    expected_changes = CALENDAR_DELETE_EVENT_CHANGES

    def check_goals(self, input):
        init = Calendar(input.apps_init["calendar"])
        cal = Calendar(input.apps["calendar"])
        target = init.event(self.p.title)["id"]
        return [cal.check_deleted(target, self.p.title),
                cal.check_others_kept({e["id"] for e in init.events()} - {target})]


class RescheduleEvent(BaseTask):
    """Verdict: the same event (by id) now falls on the new day with unchanged times, and it was not duplicated."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["form-filling", "search", "date-navigation"]
    templates = {"en": ["Move '{title}' to {new_day.label}, keeping the same time",
                        "'{title}' has to be pushed to {new_day.label}. Same start and end time, please update my "
                        "calendar",
                        "Reschedule my '{title}' for {new_day.label} at the time it already has"],
                 "zh": ["把“{title}”改到{new_day.label}，时间不变",
                        "“{title}”要推迟到{new_day.label}，开始和结束时间都不变，请更新我的日历",
                        "把我的“{title}”改到{new_day.label}，还是原来的时间"]}
    parameters = {"title": {"sampler": Calendar.sample_upcoming_event},
                  "new_day": {"sampler": Calendar.sample_new_date, "fields": ["iso", "label"]}}
    expected_changes = CALENDAR_MOVE_EVENT_CHANGES

    def distractors(self, apps, os_state):
        return {"other events": (len(Calendar(apps["calendar"]).events()) - 1, 2)}

    def check_goals(self, input):
        before = Calendar(input.apps_init["calendar"]).event(self.p.title)
        cal = Calendar(input.apps["calendar"])
        copies = cal.events_titled(self.p.title)
        return [cal.check_event("rescheduled event", cal.by_id(before["id"]),
                                {"date": self.p.new_day["iso"], "start": before["start"], "end": before["end"]}),
                check(f"events titled '{self.p.title}'", 1, len(copies), len(copies) == 1)]


@localised(zh={"labels": {"calendar": {"Work": "工作", "Personal": "个人", "Family": "家庭"},
                          "reminder": {10: "10 分钟", 30: "30 分钟", 60: "1 小时"}}})
class CreateDetailedEvent(BaseTask):
    """Verdict: one new event with the title on next week's weekday, the times, location, calendar and reminder."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["form-filling", "date-navigation", "temporal-reasoning"]
    templates = {"en": [
        "Schedule '{title}' next week on {day.label} from {slot.start} to {slot.end} at {location}, in my "
        "{calendar} calendar, with a reminder {reminder} before",
        "Next week, on {day.label}, I have '{title}' at {location}, {slot.start}-{slot.end}. Add it to the "
        "{calendar} calendar and remind me {reminder} ahead",
    ], "zh": [
        "在{day.label} {slot.start} 到 {slot.end} 安排“{title}”，地点是“{location}”，放进“{calendar}”日历，提前 {reminder}提醒我",
        "{day.label}我在“{location}”有个“{title}”，{slot.start}-{slot.end}。把它加到“{calendar}”日历，提前 {reminder}提醒我",
    ]}
    parameters = {"title": {"sampler": Calendar.sample_new_title},
                  "weekday": {"type": "enum", "values": {"Monday": 0, "Tuesday": 1, "Wednesday": 2, "Thursday": 3,
                                                         "Friday": 4}},
                  "day": {"sampler": Calendar.sample_day_next_week, "fields": ["iso", "label"]},
                  "slot": {"sampler": Calendar.sample_slot, "fields": ["start", "end"]},
                  "location": {"sampler": Calendar.sample_location},
                  "calendar": {"type": "enum", "values": {"Work": "Work", "Personal": "Personal", "Family": "Family"}},
                  "reminder": {"type": "enum", "values": {"10 minutes": 10, "30 minutes": 30, "1 hour": 60}}}
    expected_changes = CALENDAR_ADD_EVENT_CHANGES

    def distractors(self, apps, os_state):
        return {"calendars to choose from": (len({e["calendar"] for e in Calendar(apps["calendar"]).events()}), 3)}

    def check_goals(self, input):
        cal = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        added = cal.new_events()
        return [cal.check_event("new event", cal.new_event(self.p.title),
                                {"date": self.p.day["iso"], "all_day": False, "start": self.p.slot["start"],
                                 "end": self.p.slot["end"], "location": self.p.location, "calendar": self.p.calendar,
                                 "reminder": self.p.reminder}),
                check("events added", 1, len(added), len(added) == 1)]


@localised(zh={"fields": [{"label": "删除的日程数"}]})
class ClearDayAndCount(BaseTask):
    """Verdict: every event of the day is deleted, no other event is, and the answer is how many were deleted.
    Injection: two to nine events that day (with one, deleting only the first would be the whole task), the
    count drawn uniformly (tasks/spread.py)."""

    objective = "hybrid"
    difficulty = "L3"
    high_risk = True
    capabilities = ["deletion", "counting", "date-navigation"]
    composition = "aggregate"
    templates = {"en": ["I'm taking {day.label} off: delete every event that day and tell me how many you removed",
                        "Clear my calendar for {day.label} completely, then tell me how many events were cancelled"],
                 "zh": ["我{day.label}请假：删掉那天的所有日程，再告诉我删了几个",
                        "把{day.label}的日程全部清空，然后告诉我取消了几个日程"]}
    parameters = {"day": {"sampler": Calendar.sample_busy_day, "fields": ["iso", "label"]}}
    expected_changes = CALENDAR_CLEAR_DAY_CHANGES
    answer_fields = [{"type": "number", "label": "Events removed"}]

    def distractors(self, apps, os_state):
        calendar = Calendar(apps["calendar"])
        doomed = len(calendar.events_on(self.p.day["iso"]))
        return {"events to delete": (doomed, 2), "events on other days to keep": (len(calendar.events()) - doomed, 2)}

    def inject(self, device) -> None:
        state = copy_state(device)
        calendar = Calendar(state["apps"]["calendar"])
        device.set_state(calendar.prepare_state_with_more_events(self.rng, self.p.day["iso"], self.rng.randint(0, 3),
                                                                 state["os"].get("language", "en")))
        if self.spreads:
            fit_events(device, self.rng, [self.p.day["iso"]], self.spread.count(2, 8))

    def check_goals(self, input):
        init = Calendar(input.apps_init["calendar"])
        cal = Calendar(input.apps["calendar"])
        doomed = init.events_on(self.p.day["iso"])
        left = [e["title"] for e in cal.events_on(self.p.day["iso"])]
        return [check(f"events on {self.p.day['iso']}", [], left, not left),
                cal.check_others_kept({e["id"] for e in init.events()} - {e["id"] for e in doomed}),
                *build_answer_checks(len(doomed), input.answer, field="events_removed")]


@localised(zh={"fields": [{"label": "航班号", "hint": "例如 MU 5101"}]})
class FlightTaxiAndNumber(BaseTask):
    """Verdict: a new 'Taxi to airport' event ('打车去机场' on a Chinese phone) on the flight's day ends two hours
    before departure and lasts one hour, and the answer gives the flight number written in the flight event's notes."""

    objective = "hybrid"
    difficulty = "L4"
    capabilities = ["form-filling", "temporal-reasoning", "information-retrieval"]
    composition = "sequential"
    templates = {"en": [
        "Before my '{flight}' I need a ride: add an event 'Taxi to airport' on the same day that lasts one hour "
        "and ends two hours before the flight departs. Also tell me the flight number.",
        "Look up '{flight}' in my calendar. Book a one-hour slot called 'Taxi to airport' that same day, ending "
        "2 hours before takeoff, and let me know the flight number.",
    ], "zh": [
        "坐“{flight}”之前我要打车：在同一天添加一个“打车去机场”日程，时长一小时，在航班起飞前两小时结束。另外告诉我航班号。",
        "在日历里找到“{flight}”。同一天安排一个一小时的“打车去机场”，在起飞前 2 小时结束，并告诉我航班号。",
    ]}
    parameters = {"flight": {"sampler": Calendar.sample_flight}}
    expected_changes = CALENDAR_ADD_EVENT_CHANGES
    answer_fields = [{"type": "text", "label": "Flight number", "hint": "e.g. DL 88"}]

    def distractors(self, apps, os_state):
        calendar = Calendar(apps["calendar"])
        return {"other flight numbers": (len(calendar.flight_numbers()) - 1, 1), "other events": (len(calendar.events()) - 1, 2)}

    def check_goals(self, input):
        init = Calendar(input.apps_init["calendar"])
        flight = init.event(self.p.flight)
        depart = dt.datetime.strptime(flight["start"], "%H:%M")
        end = (depart - dt.timedelta(hours=2)).strftime("%H:%M")
        start = (depart - dt.timedelta(hours=3)).strftime("%H:%M")
        cal = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        number = init.flight_number(self.p.flight)
        return [cal.check_event("taxi event", cal.new_event(TAXI_TITLE[self.language]),
                                {"date": flight["date"], "all_day": False, "start": start, "end": end}),
                *build_answer_checks(number, input.answer, "flight_number",
                                     rivals=[n for n in init.flight_numbers() if n != number])]


class EventToTodo(BaseTask):
    """Verdict: Notes has one new open to-do 'Prepare for <event>' ('准备<event>' on a Chinese phone) due on the
    event's date (read from Calendar)."""

    objective = "operate"
    difficulty = "L3"
    scope = "cross-app"
    related_apps = ["calendar", "notes"]
    capabilities = ["cross-app", "information-retrieval", "form-filling"]
    templates = {"en": ["Add a to-do 'Prepare for {title}' in Notes, due on the day of that event in my calendar",
                        "I need to get ready for '{title}'. Create the to-do 'Prepare for {title}' with its due date "
                        "set to the event's date"],
                 "zh": ["在笔记里添加待办“准备{title}”，截止日期设为日历里这个日程的那一天",
                        "我得为“{title}”做准备。新建待办“准备{title}”，截止日期设成这个日程的日期"]}
    parameters = {"title": {"sampler": Calendar.sample_upcoming_event}}
    expected_changes = NOTES_ADD_TODO_CHANGES

    def distractors(self, apps, os_state):
        return {"other events": (len(Calendar(apps["calendar"]).events()) - 1, 2)}

    def check_goals(self, input):
        event = Calendar(input.apps_init["calendar"]).event(self.p.title)
        notes = Notes(input.apps["notes"], init=input.apps_init["notes"])
        return [notes.check_todo("new to-do", notes.new_todo(PREPARE_FOR[self.language].format(title=self.p.title)),
                                 {"done": False, "due": event["date"]}),
                check("to-dos added", 1, len(notes.new_todos()), len(notes.new_todos()) == 1)]


@localised(zh={"labels": {"length": {30: "30 分钟", 45: "45 分钟", 60: "一个小时"}}})
class EventFromMessage(BaseTask):
    """Verdict: one new event with the title on the date and at the time the dentist's text message gives (Sunrise
    Dental's; 阳光口腔's on a Chinese phone), lasting the asked length (the appointment is read from the Messages
    app's state)."""

    objective = "operate"
    difficulty = "L3"
    scope = "cross-app"
    related_apps = ["calendar", "messages"]
    capabilities = ["cross-app", "information-retrieval", "form-filling"]
    templates = {"en": ["The dentist texted me about a cleaning appointment. Put it in my calendar as '{title}', "
                        "{length} long",
                        "Add the cleaning appointment from the Sunrise Dental text message to my calendar, titled "
                        "'{title}' and lasting {length}"],
                 "zh": ["牙医发短信提醒我洗牙预约。把它加到日历里，标题为“{title}”，时长 {length}",
                        "把阳光口腔短信里的洗牙预约加到日历里，标题为“{title}”，时长 {length}"]}
    parameters = {"title": {"sampler": Calendar.sample_dentist_title},
                  "length": {"type": "enum", "values": {"30 minutes": 30, "45 minutes": 45, "an hour": 60}}}
    expected_changes = [*CALENDAR_ADD_EVENT_CHANGES, *MESSAGES_READ_CHANGES]

    def distractors(self, apps, os_state):
        return {"other conversations": (len(Messages(apps["messages"]).conversations()) - 1, 2)}

    def check_goals(self, input):
        when = Calendar.appointment_in_messages(input.apps_init["messages"]["conversations"],
                                                messages_pool(self.language)["appointment"]["sender"],
                                                sim_today(input.os_init).year)
        start = dt.datetime.strptime(when["start"], "%H:%M")
        end = (start + dt.timedelta(minutes=self.p.length)).strftime("%H:%M")
        cal = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        added = cal.new_events()
        return [cal.check_event("new event", cal.new_event(self.p.title),
                                {"date": when["date"], "all_day": False, "start": when["start"], "end": end}),
                check("events added", 1, len(added), len(added) == 1)]


class ShareEventByMessage(BaseTask):
    """Verdict: what was texted to the contact (any of their numbers) states the event's day, start time and
    place, and no other day, time or event place."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    scope = "cross-app"
    related_apps = ["calendar", "messages", "contacts"]
    capabilities = ["cross-app", "information-retrieval", "messaging"]
    templates = {"en": ["Text {contact} when and where my '{title}' is",
                        "Send {contact} a message with the start time and the place of '{title}' from my calendar"],
                 "zh": ["发短信告诉{contact}我的“{title}”是什么时候、在哪里",
                        "给{contact}发条短信，写上我日历里“{title}”的开始时间和地点"]}
    parameters = {"title": {"sampler": Calendar.sample_event_with_place},
                  "contact": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_SEND_CHANGES

    def distractors(self, apps, os_state):
        calendar = Calendar(apps["calendar"])
        return {"other event places": (len(calendar.other_values("location", [calendar.event(self.p.title)["location"]])), 2)}

    def check_goals(self, input):
        calendar = Calendar(input.apps_init["calendar"])
        event = calendar.event(self.p.title)
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.contact)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return messages.check_sent_facts(
            self.p.contact, numbers, {"day": event["date"], "start time": event["start"], "place": event["location"]},
            rivals={"place": calendar.other_values("location", [event["location"]])}, os_state=input.os_init)


# --- CoffeeAtTopCafe ---------------------------------------------------------------------------------------------

COFFEE_SLOTS = ({"start": "10:30", "end": "11:30"}, {"start": "15:00", "end": "16:00"}, {"start": "16:30", "end": "17:30"})


def sample_coffee_slot(rng, state) -> dict[str, str]:
    """{start, end}: one of the coffee slots."""
    return dict(rng.choice(COFFEE_SLOTS))


class CoffeeAtTopCafe(BaseTask):
    """Verdict: one new Calendar event naming the contact in its title, on the day from the start to the end, with
    the best-rated café of Maps as its location; and the contact got a text stating that café's name (no other place
    of Maps) and address (no other address). Injection: the best café is rated 0.2 above the next."""

    scope = "cross-app"
    app = "calendar"
    related_apps = ["maps", "calendar", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["search", "form-filling", "cross-app-transfer", "messaging"]
    templates = {"en": ["Set up coffee with {name} on {day.label} from {slot.start} to {slot.end} at the highest-rated "
                        "café in Maps: add it to Calendar titled 'Coffee with {name}' with the café as the location, then "
                        "text {name} the café's name and address.",
                        "Find the best-rated café in Maps, put 'Coffee with {name}' there in my calendar on {day.label}, "
                        "{slot.start} to {slot.end}, and send {name} a text with the café's name and its address."],
                 "zh": ["约{name}{day.label}{slot.start}到{slot.end}去地图里评分最高的咖啡馆喝咖啡：在日历里加一个“和{name}喝咖啡”"
                        "的日程，地点填这家咖啡馆，再把咖啡馆的名字和地址发短信告诉{name}。"]}
    parameters = {"day": {"sampler": Calendar.sample_day, "fields": ["iso", "label"]},
                  "slot": {"sampler": sample_coffee_slot},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*CALENDAR_ADD_EVENT_CHANGES, *MESSAGES_SEND_CHANGES, "maps.recent"]

    def distractors(self, apps, os_state):
        best = Maps.best_rated(apps["maps"], "cafe")
        others = [p["rating"] for p in apps["maps"]["places"] if p["category"] == "cafe" and p is not best]
        return {"other cafés": (len(others), 2),
                f"cafés {RUNNER_UP_RATING} below the best": (sum(r >= round(best["rating"] - RUNNER_UP_RATING, 1) for r in others), 1)}

    def set_up(self, device):
        maps = copy_state(device)["apps"]["maps"]
        device.set_state(Maps.prepare_state_with_clear_best(maps, "cafe", "none"))
        if near := Maps.prepare_state_with_runner_up(copy_state(device)["apps"]["maps"], "cafe"):
            device.set_state(near)

    def check_goals(self, input):
        maps = input.apps_init["maps"]
        cafe = Maps.best_rated(maps, "cafe")
        if cafe is None:
            raise ValueError("maps: no single best-rated café")
        calendar = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        found = [e for e in calendar.new_events() if normalize_text(self.p.name) in normalize_text(e["title"])]
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        rivals = {"cafe": [p["name"] for p in maps["places"] if p["id"] != cafe["id"]],
                  "address": [p["address"] for p in maps["places"] if p["id"] != cafe["id"]]}
        return [Calendar.check_event("coffee event", found[0] if len(found) == 1 else None,
                                     {"date": self.p.day["iso"], "all_day": False, "start": self.p.slot["start"],
                                      "end": self.p.slot["end"], "location": cafe["name"]}),
                *messages.check_sent_facts(self.p.name, numbers, {"cafe": cafe["name"], "address": cafe["address"]},
                                           rivals=rivals, os_state=input.os_init)]
