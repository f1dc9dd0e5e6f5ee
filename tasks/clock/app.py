"""Accessor for the Clock app's state."""
from __future__ import annotations

import random
from typing import Any, Mapping

from mobilegym.judge import BaseApp, unambiguous
from mobilegym.judge.matchers import TIME_TOLERANCE

CLOCK_ADD_ALARM_CHANGES = ["clock.alarms[+]"]  # the one alarm the task creates
CLOCK_DELETE_ALARM_CHANGES = ["clock.alarms[-label={label}]"]  # the labelled alarm, and no other
CLOCK_TIMER_CHANGES = ["clock.timer"]
NEW_LABELS = {"en": ("Dentist", "Team meeting", "Call Mom", "Yoga", "Pick up kids"),
              "zh": ("看牙医", "团队会议", "给妈妈打电话", "瑜伽", "接孩子")}  # labels of alarms a task adds
MIN_SAME_TIME_ALARMS = 1  # AddAlarm: alarms already at the requested time under another label (one is moved there, off)
MIN_OTHER_STARTS = 1  # AlarmForFirstEvent: other start times among tomorrow's timed events (an event is added if none)


class Clock(BaseApp):
    """Alarms, timer and stopwatch."""

    def alarms(self) -> list[dict[str, Any]]:
        """Every alarm."""
        return self.require(".alarms")

    def alarm(self, label: str) -> dict[str, Any]:
        """The alarm with this label; raises ValueError when there is none."""
        return self.find(".alarms", label=label)

    def alarm_time(self, label: str) -> str:
        """The alarm's time as HH:MM."""
        alarm = self.alarm(label)
        return f"{alarm['hour']:02d}:{alarm['minute']:02d}"

    def enabled_count(self) -> int:
        """How many alarms are on."""
        return sum(1 for a in self.alarms() if a["enabled"])

    @staticmethod
    def sample_new_label(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A label no existing alarm uses (in the phone's language)."""
        taken = {a["label"] for a in state["alarms"]}
        pool = [label for label in NEW_LABELS[os_state.get("language", "en")] if label not in taken]
        if not pool:
            raise ValueError("every candidate alarm label is already taken")
        return rng.choice(pool)

    @staticmethod
    def sample_alarm_of_distinct_time(rng: random.Random, state: dict[str, Any]) -> str:
        """The label of an alarm set more than TIME_TOLERANCE minutes from every other alarm, so another
        alarm's time cannot pass for it."""
        pool = unambiguous(state["alarms"], lambda a: a["hour"] * 60 + a["minute"], TIME_TOLERANCE, period=24 * 60)
        if not pool:
            raise ValueError("clock: no alarm is set apart from every other")
        return rng.choice(pool)["label"]

    @staticmethod
    def prepare_state_with_alarm_at(state: Mapping[str, Any], hour: int, minute: int, rng: random.Random) -> dict[str, Any]:
        """A patch where MIN_SAME_TIME_ALARMS alarm rings at hour:minute, switched off (a random one is moved there
        when none does)."""
        if any((a["hour"], a["minute"]) == (hour, minute) for a in state["alarms"]):
            return {}
        moved = rng.choice(state["alarms"])
        return {"apps": {"clock": {f"alarms[id={moved['id']}]": {"hour": hour, "minute": minute, "time": f"{hour:02d}:{minute:02d}",
                                                                   "enabled": False}}}}

    @staticmethod
    def prepare_state_with_alarm_enabled(label: str, enabled: bool) -> dict[str, Any]:
        """A patch switching the labelled alarm on or off."""
        return {"apps": {"clock": {f"alarms[label={label}]": {"enabled": enabled}}}}


def check_alarm_added(clock_init: Mapping[str, Any], clock_now: Mapping[str, Any], hour: int, minute: int,
                      what: str) -> dict[str, Any]:
    """One check that Clock has one more enabled alarm at hour:minute than at the start (a new one, or one switched
    on or moved there; an alarm already set for that time does not count)."""
    from mobilegym.judge.result import check

    def count(clock: Mapping[str, Any]) -> int:
        return sum(1 for a in clock["alarms"] if (a["hour"], a["minute"], a["enabled"]) == (hour, minute, True))

    before = {(a["hour"], a["minute"], a["enabled"]) for a in clock_init["alarms"]}
    fresh = [f"{a['hour']:02d}:{a['minute']:02d}{'' if a['enabled'] else ' (off)'}" for a in clock_now["alarms"]
             if (a["hour"], a["minute"], a["enabled"]) not in before]
    return check(what, f"{hour:02d}:{minute:02d} (on)", fresh or "no new alarm", count(clock_now) > count(clock_init))


def minus_minutes(hhmm: str, minutes: int) -> tuple[int, int]:
    """(hour, minute) ``minutes`` before "HH:MM" (wrapping at midnight)."""
    total = (int(hhmm[:2]) * 60 + int(hhmm[3:]) - minutes) % (24 * 60)
    return total // 60, total % 60


def alarms_with_count(alarms: list[dict[str, Any]], language: str, rng: random.Random, total: int,
                      enabled: int | None = None) -> list[dict[str, Any]]:
    """``alarms`` grown (new labels from the pool, new times apart from the others) or cut to ``total`` alarms,
    then, when ``enabled`` is given, switched so that exactly that many are on."""
    from mobilegym.envs.clock import world as clock_world

    from ..spread import fit_count

    pool = [e for e in clock_world.pools(language)["alarms"]]
    next_id = 1 + max((int(a["id"].rsplit("_", 1)[1]) for a in alarms if a["id"].rsplit("_", 1)[1].isdigit()),
                      default=0)

    def add(k: int, now: list[dict[str, Any]]) -> dict[str, Any] | None:
        labels = {a["label"] for a in now}
        free = [e for e in pool if e["label"] not in labels]
        if not free:
            return None
        entry = rng.choice(free)
        taken = {a["hour"] * 60 + a["minute"] for a in now}
        when = clock_world.pick_time(rng, entry["from"], entry["to"], taken, clock_world.TIME_APART)
        return clock_world.alarm(f"alarm_{next_id + k}", when, entry["label"], rng.random() < clock_world.ENABLED_SHARE,
                                 clock_world.repeat_days(rng))

    out = fit_count(alarms, lambda a: True, total, rng, drop=lambda a: None, add=add)
    if enabled is not None:
        out = fit_count(out, lambda a: a["enabled"], enabled, rng, drop=lambda a: {**a, "enabled": False},
                        add=lambda k, now: next(({**a, "enabled": True} for a in rng.sample(now, len(now))
                                                 if not a["enabled"]), None))
    return out
