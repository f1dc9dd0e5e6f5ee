"""BaseApp accessors: reads that raise on missing data, init-vs-now comparisons, item lookup, checks."""
from __future__ import annotations

import re

import pytest

from mobilegym.judge import BaseApp, PathError

INIT = {"alarms": [{"id": "a1", "label": "Gym", "on": False}, {"id": "a2", "label": "Work", "on": True}],
        "name": None}
NOW = {"alarms": [{"id": "a1", "label": "Gym", "on": True}, {"id": "a2", "label": "Work", "on": True}],
       "name": None}


class Clock(BaseApp):
    pass


class Railway12306(BaseApp):
    app_id = "railway12306"


def test_app_ids():
    assert Clock.app_id == "clock" and Railway12306.app_id == "railway12306"


def test_reads():
    app = Clock(NOW, init=INIT)
    assert app.get(".alarms[id=a1].on") is True and app.get(".alarms[id=zz].on") is None
    assert app.require(".alarms[label={l}].id", {"l": "Work"}) == "a2"
    with pytest.raises(PathError):
        app.require(".alarms[id=zz].on")
    with pytest.raises(ValueError, match="is None"):
        app.require(".name")
    assert app.initial(".alarms[id=a1].on") is False
    assert app.changed(".alarms[id=a1].on") and not app.changed(".alarms[id=a2].on")
    with pytest.raises(ValueError, match="no initial state"):
        Clock(NOW).initial(".alarms")


def test_find():
    app = Clock(NOW)
    assert app.find(".alarms", label="Work")["id"] == "a2"
    assert [a["id"] for a in app.find_all(".alarms", on=True)] == ["a1", "a2"]
    assert app.find_all(".alarms", on=True, label="Gym") == [NOW["alarms"][0]]
    with pytest.raises(ValueError, match="no item"):
        app.find(".alarms", label="Run")
    with pytest.raises(ValueError, match="not a list"):
        Clock({"alarms": {"x": 1}}).find_all(".alarms", id="x")


def test_check_value():
    app = Clock(NOW)
    assert app.check_value("gym on", ".alarms[id=a1].on", True) == {
        "field": "gym on", "expected": True, "actual": True, "passed": True}
    assert not app.check_value("gym off", ".alarms[id=a1].on", False)["passed"]
    assert app.check_value("run gone", ".alarms[label=Run]", None)["passed"]
    assert app.check_value("label", ".alarms[0].label", re.compile("^G"))["passed"]
    assert not app.check_value("on is 1", ".alarms[id=a1].on", 1)["passed"]
