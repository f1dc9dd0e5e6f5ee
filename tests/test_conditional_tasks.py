"""A conditional task pays only the branch its world calls for: weather.RainyEventReschedule moves the event off a
rainy day and keeps it on a dry one, so an agent that always moves it, or never does, is not paid."""
from __future__ import annotations

import datetime as dt

from mobilegym.eval import Case, Runner
from mobilegym.judge import default_registry

TASK = "weather.RainyEventReschedule"
SEEDS = range(20)


def _worlds(runner: Runner) -> dict[bool, list[Case]]:
    """Cases of the task by whether its event day is rainy."""
    by_rain: dict[bool, list[Case]] = {True: [], False: []}
    for seed in SEEDS:
        case = Case(TASK, "grounded", seed)
        by_rain[runner.oracle(case).params["event"]["rain"]].append(case)
    return by_rain


def _move_to(runner: Runner, case: Case, date: str) -> dict:
    run = runner.oracle(case)
    return runner.finish_after(run, {"apps": {"calendar": {"events[id=evt_weather_city]": {"date": date}}}})


def test_both_branches_occur_and_the_wrong_one_is_not_paid(suite_runner: Runner) -> None:
    by_rain = _worlds(suite_runner)
    assert len(by_rain[True]) >= 10 and len(by_rain[False]) >= 3, {k: len(v) for k, v in by_rain.items()}
    for case in by_rain[False]:  # moving the event anyway (to the next day) is not paid
        day = dt.date.fromisoformat(suite_runner.oracle(case).params["event"]["date"])
        judge = _move_to(suite_runner, case, (day + dt.timedelta(days=1)).isoformat())
        assert not judge["success"] and judge["error"] is None, judge["checks"]
    for case in by_rain[True]:  # keeping the event on the rainy day is not paid
        judge = _move_to(suite_runner, case, suite_runner.oracle(case).params["event"]["date"])
        assert not judge["success"] and judge["error"] is None, judge["checks"]


def test_the_task_is_registered_as_conditional() -> None:
    assert default_registry().refs[TASK].metadata["composition"] == "conditional"
