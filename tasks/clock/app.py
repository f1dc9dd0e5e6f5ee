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
