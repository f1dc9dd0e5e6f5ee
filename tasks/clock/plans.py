"""Scripted plans for the Clock suite: an oracle and realistic mistakes per task."""
from __future__ import annotations

import datetime as dt

from mobilegym.oracle import Driver, negative, plan
from ..maps.ui import minutes_of, mode_minutes, route_to
from ..contacts.ui import compose
from ..calendar.ui import day_events, open_day, today


def _alarm_rows(d: Driver) -> list[tuple[str, str, bool]]:
    """(time, label, on) for every alarm on the list screen, scrolling through it and back to the top."""
    rows: dict[str, tuple[str, str]] = {}
    switches: dict[str, bool] = {}
    while d.scroll(-1):
        pass
    while True:
        switches.update({n.desc: n.checked for n in d.nodes() if n.short_id == "alarm_switch"})
        rows.update({n.desc: tuple(n.desc.split(" ", 1)) for n in d.nodes() if n.short_id == "alarm_item"})
        if not d.scroll(1):
            break
    while d.scroll(-1):
        pass
    return [(time, label, switches[label]) for time, label in rows.values()]


@plan("clock.CountAlarms")
def count_alarms(d: Driver) -> None:
    d.open_app("Clock")
    d.submit_answer([len(_alarm_rows(d))])
    d.complete()


@negative("clock.CountAlarms", "counts one too many")
def count_alarms_off_by_one(d: Driver) -> None:
    d.open_app("Clock")
    d.submit_answer([len(_alarm_rows(d)) + 1])
    d.complete()


@plan("clock.CountEnabledAlarms")
def count_enabled(d: Driver) -> None:
    d.open_app("Clock")
    d.submit_answer([sum(on for *_, on in _alarm_rows(d))])
    d.complete()


@negative("clock.CountEnabledAlarms", "counts every alarm, not just those on")
def count_enabled_all(d: Driver) -> None:
    d.open_app("Clock")
    d.submit_answer([len(_alarm_rows(d))])
    d.complete()


@plan("clock.AlarmTime")
def alarm_time(d: Driver) -> None:
    d.open_app("Clock")
    d.submit_answer([next(t for t, label, _ in _alarm_rows(d) if label == d.params["label"])])
    d.complete()


@negative("clock.AlarmTime", "reads the next alarm in the list")
def alarm_time_neighbour(d: Driver) -> None:
    d.open_app("Clock")
    rows = _alarm_rows(d)
    index = next(i for i, (_, label, _) in enumerate(rows) if label == d.params["label"])
    d.submit_answer([rows[(index + 1) % len(rows)][0]])
    d.complete()


@plan("clock.ToggleAlarm")
def toggle_alarm(d: Driver) -> None:
    d.open_app("Clock")
    d.tap(rid="alarm_switch", desc=d.params["label"])
    d.complete()


@negative("clock.ToggleAlarm", "toggles a different alarm")
def toggle_other_alarm(d: Driver) -> None:
    d.open_app("Clock")
    other = next(label for _, label, _ in _alarm_rows(d) if label != d.params["label"])
    d.tap(rid="alarm_switch", desc=other)
    d.complete()


def _new_alarm(d: Driver, hour: int, minute: int, label: str) -> None:
    d.open_app("Clock")
    d.tap(rid="add_alarm")
    d.pick_time(hour, minute, rid="alarm_time_input")
    d.type(label, rid="label_input")
    d.tap(rid="save_alarm")
    d.complete()


@plan("clock.AddAlarm")
def add_alarm(d: Driver) -> None:
    _new_alarm(d, d.params["hour"], d.params["minute"], d.params["label"])


@negative("clock.AddAlarm", "sets the minute five off")
def add_alarm_wrong_minute(d: Driver) -> None:
    _new_alarm(d, d.params["hour"], (d.params["minute"] + 5) % 60, d.params["label"])


@negative("clock.AddAlarm", "forgets the label")
def add_alarm_no_label(d: Driver) -> None:
    _new_alarm(d, d.params["hour"], d.params["minute"], "")


def _delete_and_count(d: Driver, label: str, adjust: int) -> None:
    d.open_app("Clock")
    d.long_press(rid="alarm_item", contains=label)
    d.tap(rid="button1")
    d.submit_answer([len(_alarm_rows(d)) + adjust])
    d.complete()


@plan("clock.DeleteAlarmAndCount")
def delete_and_count(d: Driver) -> None:
    _delete_and_count(d, d.params["label"], 0)


@negative("clock.DeleteAlarmAndCount", "deletes the right alarm, counts the old total")
def delete_and_count_stale(d: Driver) -> None:
    _delete_and_count(d, d.params["label"], 1)


@negative("clock.DeleteAlarmAndCount", "deletes the wrong alarm")
def delete_wrong_alarm(d: Driver) -> None:
    d.open_app("Clock")
    other = next(label for _, label, _ in _alarm_rows(d) if label != d.params["label"])
    _delete_and_count(d, other, 0)



@plan("clock.enable_gym_alarm")
def enable_gym_alarm(d: Driver) -> None:
    d.tap(rid="alarm_switch", desc=d.t("Gym", "健身"))
    d.complete()


@negative("clock.enable_gym_alarm", "switches another alarm instead")
def enable_gym_alarm_wrong(d: Driver) -> None:
    d.tap(rid="alarm_switch", desc=next(label for _, label, _ in _alarm_rows(d) if label != d.t("Gym", "健身")))
    d.complete()


def _add_alarm(d: Driver, day: str) -> None:
    d.open_app("Clock")
    d.tap(rid="add_alarm")
    d.pick_time(6, 45, rid="alarm_time_input")
    d.type(d.t("Run", "跑步"), rid="label_input")
    d.tap(rid=f"day_{day}")
    d.tap(rid="save_alarm")
    d.complete()


@plan("clock.add_run_alarm")
def add_run_alarm(d: Driver) -> None:
    _add_alarm(d, "Sat")


@negative("clock.add_run_alarm", "repeats on Sunday instead of Saturday")
def add_run_alarm_sunday(d: Driver) -> None:
    _add_alarm(d, "Sun")


@plan("clock.lunch_alarm_time")
def lunch_alarm_time(d: Driver) -> None:
    d.open_app("Clock")
    d.submit_answer([next(t for t, label, _ in _alarm_rows(d) if label == d.t("Lunch", "午饭"))])
    d.complete()


@negative("clock.lunch_alarm_time", "reads the alarm below Lunch in the list")
def lunch_alarm_wrong(d: Driver) -> None:
    d.open_app("Clock")
    rows = _alarm_rows(d)
    index = next(i for i, (_, label, _) in enumerate(rows) if label == d.t("Lunch", "午饭"))
    d.submit_answer([rows[(index + 1) % len(rows)][0]])
    d.complete()


@plan("clock.sync_alarms_to_watch")
def sync_alarms_to_watch(d: Driver) -> None:
    d.open_app("Clock")
    d.abort("The Clock app has no way to sync alarms to a watch")


@negative("clock.sync_alarms_to_watch", "claims the alarms were synced")
def sync_alarms_claims(d: Driver) -> None:
    d.open_app("Clock")
    d.complete()


# --- AlarmForFirstEvent ---------------------------------------------------------------------------------------

def _alarm_for_first_event(d: Driver, lead: int = 60, switch_on: bool = True, second: bool = False) -> None:

    tomorrow = today(d) + dt.timedelta(days=1)
    open_day(d, tomorrow)
    starts = [when.split(" – ")[0] for _, when in day_events(d) if " – " in when]
    start = starts[1] if second else starts[0]
    moment = dt.datetime.strptime(start, "%H:%M") - dt.timedelta(minutes=lead)
    d.open_app("Clock")
    label = d.params["label"]
    d.tap(rid="alarm_item", desc=next(n.desc for n in _all_alarm_nodes(d) if n.desc.split(" ", 1)[1] == label))
    d.pick_time(moment.hour, moment.minute, rid="alarm_time_input")
    d.tap(rid="save_alarm")
    if switch_on:
        d.tap(rid="alarm_switch", desc=label)
    compose(d, d.params["name"], d.t(f"My first meeting tomorrow starts at {start}.", f"我明天第一个日程{start}开始。"))
    d.complete()


def _all_alarm_nodes(d: Driver) -> list:
    """The alarm rows, scrolling until the task's label shows."""
    label = d.params["label"]
    while d.scroll(-1):
        pass
    while True:
        rows = [n for n in d.nodes() if n.short_id == "alarm_item"]
        if any(n.desc.split(" ", 1)[1] == label for n in rows) or not d.scroll(1):
            return rows


@plan("clock.AlarmForFirstEvent")
def alarm_for_first_event(d: Driver) -> None:
    _alarm_for_first_event(d)


@negative("clock.AlarmForFirstEvent", "moves the alarm but leaves it off")
def alarm_for_first_event_off(d: Driver) -> None:
    _alarm_for_first_event(d, switch_on=False)


@negative("clock.AlarmForFirstEvent", "sets it to the event's start time")
def alarm_for_first_event_at_start(d: Driver) -> None:
    _alarm_for_first_event(d, lead=0)


# --- WalkTimerAndText -------------------------------------------------------------------------------------------

def _walk_timer(d: Driver, mode: str = "walk", start: bool = True) -> None:

    route_to(d, d.params["place"]["name"])
    minutes = minutes_of(mode_minutes(d)[mode])
    d.open_app("Clock")
    d.tap(rid="tab_1")
    d.type(str(minutes), rid="minutes_input", clear=True)
    d.type("0", rid="seconds_input", clear=True)
    if start:
        d.tap(rid="start")
    compose(d, d.params["name"], d.t(f"I'm walking over, I'll be there in {minutes} minutes.", f"我走过去，{minutes}分钟后到。"))
    d.complete()


@plan("clock.WalkTimerAndText")
def walk_timer_and_text(d: Driver) -> None:
    _walk_timer(d)


@negative("clock.WalkTimerAndText", "uses the transit time")
def walk_timer_transit(d: Driver) -> None:
    _walk_timer(d, mode="transit")


@negative("clock.WalkTimerAndText", "sets the timer but never starts it")
def walk_timer_not_started(d: Driver) -> None:
    _walk_timer(d, start=False)
