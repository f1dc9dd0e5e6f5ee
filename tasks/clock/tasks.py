"""Clock tasks.

Task index:
    CountAlarms           query    L1  how many alarms exist
    CountEnabledAlarms    query    L1  how many alarms are on
    AlarmTime             query    L1  when the labelled alarm rings
    ToggleAlarm           operate  L2  switch a labelled alarm on or off
    AddAlarm              operate  L3  create an alarm at a time with a label
    DeleteAlarmAndCount   hybrid   L2  delete an alarm and report how many remain
    AlarmForFirstEvent    operate  L4  Calendar -> Clock -> Messages: move an alarm to an hour before tomorrow's
                                       first event and switch it on, text its start time (high risk)
    WalkTimerAndText      operate  L3  Maps -> Clock -> Messages: a timer for the walk to a place, text the minutes
                                       (high risk)
"""
from __future__ import annotations

import datetime as dt

from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, build_answer_checks, copy_state, sim_today
from mobilegym.judge.matchers import TIME_TOLERANCE
from mobilegym.judge.result import check

from mobilegym.envs.maps import geo

from ..calendar.app import Calendar
from ..contacts.app import Contacts
from ..maps.app import MAPS_RECENT_CHANGES, MIN_GAP_MIN, Maps, minutes_text
from ..l10n import localised
from ..messages.app import MESSAGES_SEND_CHANGES, Messages
from .app import (alarms_with_count, CLOCK_ADD_ALARM_CHANGES, CLOCK_DELETE_ALARM_CHANGES, CLOCK_TIMER_CHANGES, MIN_OTHER_STARTS,
                  MIN_SAME_TIME_ALARMS, Clock, minus_minutes)


@localised(zh={"fields": [{"label": "闹钟数量"}]})
class CountAlarms(AnswerTask):
    """Verdict: the answer is the number of alarms in the list."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting"]
    templates = {"en": ["How many alarms are set in the Clock app?", "Count the alarms in the Clock app and tell me"],
                 "zh": ["时钟里一共设了几个闹钟？", "数一数时钟里有几个闹钟，告诉我"]}
    answer = (".alarms", len)
    answer_fields = [{"type": "number", "label": "Number of alarms"}]

    def set_up(self, device) -> None:
        """Three to fourteen alarms, the count drawn from twelve (tasks/spread.py)."""
        if not self.spreads:
            return
        state = copy_state(device)
        total = self.spread.count(3)
        device.set_state({"apps": {"clock": {"alarms": alarms_with_count(
            state["apps"]["clock"]["alarms"], state["os"].get("language", "en"), self.rng, total)}}})


@localised(zh={"fields": [{"label": "已开启的闹钟数"}]})
class CountEnabledAlarms(AnswerTask):
    """Verdict: the answer is the number of alarms that are switched on.
    Injection: when every alarm is on (or every one off), one of them is switched."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting", "state-reading"]
    templates = {"en": ["How many alarms are currently turned on?"], "zh": ["现在有几个闹钟是开着的？"]}
    answer = staticmethod(lambda task, apps_init: Clock(apps_init["clock"]).enabled_count())
    answer_fields = [{"type": "number", "label": "Alarms on"}]

    def set_up(self, device) -> None:
        """One to twelve alarms on, the count drawn from twelve (tasks/spread.py), and at least one off, so counting
        every alarm is wrong."""
        state = copy_state(device)
        alarms = state["apps"]["clock"]["alarms"]
        if self.spreads:
            on = self.spread.count(1)
            total = max(len(alarms), on + 1 + self.rng.randint(0, 2))
        else:  # the canonical phone: only one switched when every alarm is on (or off)
            on, total = min(max(1, sum(a["enabled"] for a in alarms)), len(alarms) - 1), len(alarms)
        device.set_state({"apps": {"clock": {"alarms": alarms_with_count(
            alarms, state["os"].get("language", "en"), self.rng, total, enabled=on)}}})


@localised(zh={"fields": [{"label": "闹钟时间", "hint": "例如 07:30"}]})
class AlarmTime(AnswerTask):
    """Verdict: the answer gives the labelled alarm's time (within five minutes). Sampled among alarms set more
    than five minutes from every other, so another alarm's time cannot pass."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = {"en": ["What time is the '{label}' alarm set for?"], "zh": ["“{label}”闹钟定在几点？"]}
    parameters = {"label": {"sampler": Clock.sample_alarm_of_distinct_time}}
    answer_fields = [{"type": "text", "label": "Alarm time", "hint": "e.g. 07:30", "matcher": "time"}]

    def get_answer(self, input):
        return Clock(input.apps_init["clock"]).alarm_time(self.p.label)

    def check_goals(self, input):
        return build_answer_checks(self.get_answer(input), input.answer, "alarm_time", tolerance=TIME_TOLERANCE)


@localised(zh={"labels": {"enabled": {True: "打开", False: "关闭"}}})
class ToggleAlarm(CriteriaTask):
    """Verdict: the labelled alarm is in the requested state.
    Injection: the alarm starts in the opposite state."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["toggle"]
    templates = {"en": ["{enabled} the '{label}' alarm"], "zh": ["{enabled}“{label}”闹钟", "把“{label}”闹钟{enabled}"]}
    parameters = {"label": {"source": ".alarms[*].label"},
                  "enabled": {"type": "bool", "values": {"Turn on": True, "Turn off": False}}}
    criteria = {".alarms[label={label}].enabled": "{enabled}"}

    def inject(self, device) -> None:
        device.set_state(Clock.prepare_state_with_alarm_enabled(self.p.label, not self.p.enabled))


class AddAlarm(CriteriaTask):
    """Verdict: an alarm with the new label exists at the requested time and is on."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["form-filling", "time-picker"]
    templates = {"en": ["Add an alarm at {hour:02d}:{minute:02d} labeled '{label}'",
                        "Set a new alarm for {hour:02d}:{minute:02d} and name it '{label}'"],
                 "zh": ["添加一个 {hour:02d}:{minute:02d} 的闹钟，标签为“{label}”",
                        "新建一个 {hour:02d}:{minute:02d} 的闹钟，命名为“{label}”"]}
    parameters = {"label": {"sampler": Clock.sample_new_label},
                  "hour": {"type": "int", "min": 5, "max": 10},
                  "minute": {"type": "enum", "values": [0, 15, 30, 45]}}
    criteria = {".alarms[label={label}].hour": "{hour}", ".alarms[label={label}].minute": "{minute}",
                ".alarms[label={label}].enabled": True}
    expected_changes = CLOCK_ADD_ALARM_CHANGES

    def inject(self, device) -> None:
        state = copy_state(device)["apps"]["clock"]
        device.set_state(Clock.prepare_state_with_alarm_at(state, self.p.hour, self.p.minute, self.rng))

    def distractors(self, apps, os_state):
        alarms = Clock(apps["clock"]).alarms()
        return {"alarms already set": (len(alarms), 2),
                "an alarm at that time under another label": (sum((a["hour"], a["minute"]) == (self.p.hour, self.p.minute)
                                                                  for a in alarms), MIN_SAME_TIME_ALARMS)}


@localised(zh={"fields": [{"label": "剩余闹钟数"}]})
class DeleteAlarmAndCount(BaseTask):
    """Verdict: the labelled alarm is gone, and the answer is how many alarms remain."""

    objective = "hybrid"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion", "counting"]
    templates = {"en": ["Delete the '{label}' alarm, then tell me how many alarms are left"],
                 "zh": ["删除“{label}”闹钟，然后告诉我还剩几个闹钟"]}
    parameters = {"label": {"source": ".alarms[*].label"}}
    expected_changes = CLOCK_DELETE_ALARM_CHANGES
    answer_fields = [{"type": "number", "label": "Alarms left"}]

    def check_goals(self, input):
        clock = Clock(input.apps["clock"])
        remaining = len(Clock(input.apps_init["clock"]).alarms()) - 1
        return [clock.check_value(f"alarm '{self.p.label}' deleted", f".alarms[label={self.p.label}]", None),
                *build_answer_checks(remaining, input.answer, field="alarms_left")]


# --- cross-app ---------------------------------------------------------------------------------------------

EARLY_EVENT_TITLES = {"en": ("Breakfast briefing", "Early site check", "Morning stand-up with suppliers"),
                      "zh": ("早餐简报会", "清晨现场检查", "供应商晨会")}  # no Calendar pool has these


def sample_early_event(rng, state, os_state) -> dict:
    """{title, start, end}: a morning event for tomorrow (07:00 to 09:30 on the half hour; set-up adds it, so
    tomorrow has a timed event, though the world may hold an earlier one)."""
    title = rng.choice(EARLY_EVENT_TITLES["zh" if os_state.get("language") == "zh" else "en"])
    start = rng.randrange(14, 20) * 30
    return {"title": title, "start": f"{start // 60:02d}:{start % 60:02d}",
            "end": f"{start // 60 + 1:02d}:{start % 60:02d}"}


def first_event_tomorrow(calendar, os_state) -> tuple[dict, list[str]]:
    """The timed event that starts first tomorrow, and the other start times of tomorrow's timed events."""
    tomorrow = (sim_today(os_state) + dt.timedelta(days=1)).isoformat()
    timed = sorted((e for e in calendar["events"] if e["date"] == tomorrow and not e["all_day"]),
                   key=lambda e: e["start"])
    return timed[0], sorted({e["start"] for e in timed[1:] if e["start"] != timed[0]["start"]})


class AlarmForFirstEvent(BaseTask):
    """Verdict: the labelled alarm (the same one, by id) now rings an hour before tomorrow's first timed event
    starts and is on (set-up switches it off), and the contact got a text stating that start time (no other start
    time of tomorrow's events). Injection: a morning event tomorrow (an earlier one of the world's may come first)."""

    scope = "cross-app"
    app = "clock"
    related_apps = ["calendar", "clock", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "time-arithmetic", "time-picker", "messaging"]
    templates = {"en": ["Look up my first event tomorrow in Calendar (not counting all-day ones). Change my "
                        "'{label}' alarm in Clock to one hour before it starts and make sure it's switched on, then "
                        "text {name} what time that event starts.",
                        "Move the '{label}' alarm so it rings an hour before tomorrow's first timed Calendar event, "
                        "turn it on, and let {name} know by text when that event begins."],
                 "zh": ["在日历里查一下我明天的第一个日程（全天日程不算），把时钟里的“{label}”闹钟改到它开始前一小时并打开，再发短信告诉"
                        "{name}这个日程几点开始。"]}
    parameters = {"label": {"source": ".alarms[*].label"}, "event": {"sampler": sample_early_event},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = ["clock.alarms[label={label}]", *MESSAGES_SEND_CHANGES]

    def inject(self, device) -> None:
        doc = copy_state(device)
        tomorrow = (sim_today(doc["os"]) + dt.timedelta(days=1)).isoformat()
        event = self.p.event
        device.set_state({"apps": {
            "calendar": {"events[]": {"id": "evt_clock_first", "title": event["title"], "date": tomorrow,
                                      "start": event["start"], "end": event["end"], "all_day": False, "location": "",
                                      "notes": "", "calendar": "Work", "reminder": 30}},
            **Clock.prepare_state_with_alarm_enabled(self.p.label, False)["apps"]}})
        doc = copy_state(device)
        if len(first_event_tomorrow(doc["apps"]["calendar"], doc["os"])[1]) < MIN_OTHER_STARTS:
            device.set_state(Calendar(doc["apps"]["calendar"]).prepare_state_with_more_events(
                self.rng, tomorrow, MIN_OTHER_STARTS, doc["os"].get("language", "en")))

    def distractors(self, apps, os_state):
        return {"other start times tomorrow": (len(first_event_tomorrow(apps["calendar"], os_state)[1]), MIN_OTHER_STARTS),
                "other alarms": (len(Clock(apps["clock"]).alarms()) - 1, 2)}

    def check_goals(self, input):
        first, others = first_event_tomorrow(input.apps_init["calendar"], input.os_init)
        hour, minute = minus_minutes(first["start"], 60)
        before = Clock(input.apps_init["clock"]).alarm(self.p.label)
        now = next((a for a in input.apps["clock"]["alarms"] if a["id"] == before["id"]), None)
        got = f"{now['hour']:02d}:{now['minute']:02d}{'' if now['enabled'] else ' (off)'}" if now else "deleted"
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [check(f"alarm '{self.p.label}'", f"{hour:02d}:{minute:02d} (on)", got,
                      now is not None and (now["hour"], now["minute"], now["enabled"]) == (hour, minute, True)),
                *messages.check_sent_facts(self.p.name, numbers, {"start": first["start"]}, rivals={"start": others},
                                           os_state=input.os_init)]


def sample_walk_target(rng, state) -> dict[str, str]:
    """A public Maps place a 5 to 59 minute walk from your location, the walk at least MIN_GAP_MIN minutes from every
    other mode's time and no other place the same walk away (another place's timer never passes)."""
    walks = {p["id"]: geo.route(state, geo.HERE, p["id"])["minutes"] for p in state["places"]}
    counts = [t["walk"] for t in walks.values()]
    pool = []
    for p in Maps._public(state):
        trip = walks[p["id"]]
        if (5 <= trip["walk"] < 60 and counts.count(trip["walk"]) == 1
                and all(abs(trip["walk"] - trip[m]) >= MIN_GAP_MIN for m in geo.MODES if m != "walk")):
            pool.append(p)
    if not pool:
        raise ValueError("maps: no place within an hour's walk apart from the other modes")
    chosen = rng.choice(pool)
    return {"id": chosen["id"], "name": chosen["name"]}


class WalkTimerAndText(BaseTask):
    """Verdict: the Clock timer is running and was set to exactly the walking time Maps gives from your location to
    the place (set-up stops it first), and the contact got a text stating that many minutes (no other mode's time).
    """

    scope = "cross-app"
    app = "maps"
    related_apps = ["maps", "clock", "messages", "contacts"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "form-filling", "messaging"]
    templates = {"en": ["I'm walking to {place.name} now. Start a Clock timer for the walking time Maps gives from my "
                        "location, then text {name} how many minutes until I get there.",
                        "Check in Maps how long the walk from my location to {place.name} takes, start a timer in Clock "
                        "for exactly that long, and let {name} know by text how many minutes I'll be."],
                 "zh": ["我现在步行去{place.name}。在地图里查从我的位置步行过去要多久，在时钟里开一个同样时长的计时器，再发短信告诉"
                        "{name}我还要多少分钟到。"]}
    parameters = {"place": {"sampler": sample_walk_target}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*CLOCK_TIMER_CHANGES, *MESSAGES_SEND_CHANGES, *MAPS_RECENT_CHANGES]

    def set_up(self, device):
        timer = copy_state(device)["apps"]["clock"]["timer"]
        device.set_state({"apps": {"clock": {"timer": {**timer, "running": False, "started_at_ms": None,
                                                        "remaining_s": timer["duration_s"]}}}})

    def distractors(self, apps, os_state):
        trip = geo.route(apps["maps"], geo.HERE, self.p.place["id"])["minutes"]
        return {"other modes' times under an hour": (sum(trip[m] < 60 for m in geo.MODES if m != "walk"), 2)}

    def check_goals(self, input):
        lang = "zh" if self.language == "zh" else "en"
        trip = geo.route(input.apps_init["maps"], geo.HERE, self.p.place["id"])["minutes"]
        timer = Clock(input.apps["clock"]).require(".timer")
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        rivals = [minutes_text(trip[m], lang) for m in geo.MODES if m != "walk" and trip[m] < 60]
        return [check("timer", f"running, {trip['walk']} min", f"{'running' if timer['running'] else 'stopped'}, "
                      f"{timer['duration_s'] // 60} min {timer['duration_s'] % 60} s",
                      bool(timer["running"]) and timer["duration_s"] == trip["walk"] * 60),
                *messages.check_sent_facts(self.p.name, numbers, {"time": minutes_text(trip["walk"], lang)},
                                           rivals={"time": rivals}, os_state=input.os_init)]
