"""Preparers of the Clock app for JSON tasks (setup action ``prepare``)."""
from __future__ import annotations

from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP
from .world import TIME_APART, alarm as make_alarm, pick_time, repeat_days


@APP.preparer("alarm")
def alarm(prep: Prep, label: str | dict[str, str], earliest: str = "05:00", latest: str = "22:55",
          enabled: bool | None = None, id: str | None = None) -> dict[str, Any]:
    """An alarm labelled ``label`` (one per language: {"en": ..., "zh": ...}) rings more than TIME_APART minutes
    from every other alarm: one that exists keeps its time when it can; a new one (on, seeded repeat days) rings at
    a seeded time in [earliest, latest]; ``enabled`` sets its switch; ``id`` names it (tasks find it by id)."""
    label = in_language(label, prep.language, "alarm label")
    alarms = prep.state("clock")["alarms"]
    found = next((a for a in alarms if a["label"] == label), None)
    others = {a["hour"] * 60 + a["minute"] for a in alarms if a is not found}
    when = found["hour"] * 60 + found["minute"] if found else -1
    if found is None or any(abs(when - t) <= TIME_APART for t in others):  # an alarm that exists keeps its time
        when = pick_time(prep.rng, earliest, latest, others, apart=TIME_APART)
    if found is None:
        numbers = [int(a["id"].rsplit("_", 1)[1]) for a in alarms if a["id"].rsplit("_", 1)[-1].isdigit()]
        new = make_alarm(id or f"alarm_{max(numbers, default=0) + 1}", when, label,
                         True if enabled is None else enabled, repeat_days(prep.rng))
        return {"apps": {"clock": {"alarms[]": new}}}
    changes = {k: v for k, v in make_alarm(found["id"], when, label, found["enabled"], []).items()
               if k in ("hour", "minute", "time")}
    if enabled is not None:
        changes["enabled"] = enabled
    if id is not None:
        changes["id"] = id
    return {"apps": {"clock": {f"alarms[id={found['id']}]": changes}}}
