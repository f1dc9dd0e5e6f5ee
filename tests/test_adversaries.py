"""The adversary suite's machinery (Driver hooks, forks, candidates, hedges) and its random agent.

The suite itself (no adversary is paid, on any task, mode or seed) runs in tests/test_case_matrix.py.
"""
from __future__ import annotations

import json
import random
import time

import pytest

from mobilegym.actions import MAX_TEXT
from mobilegym.eval import Case, Runner, Tally
from mobilegym.eval.adversaries import (ADVERSARIES, CATALOGUES, RANDOM_ONE_STEP_BOUND, pick_victim, play,
                                        random_rollouts, wrong_targets)
from mobilegym.eval.candidates import Candidates
from mobilegym.eval.phrasings import HEDGES, hedged, wrong_value
from mobilegym.device.sim import SimDevice

from .suites import ADVERSARIES_BY_CASE, SEEDS, TASK_IDS

RANDOM_ROLLOUTS = 50  # per one-step task: the bound allows one win in 50


# --- the machinery ------------------------------------------------------------------------------------------

def test_every_adversary_applies_somewhere_and_task_kinds_decide_which() -> None:
    applied = {name for names in ADVERSARIES_BY_CASE.values() for name in names}
    assert applied == {a.name for a in ADVERSARIES}
    by_case = {case: set(names) for case, names in ADVERSARIES_BY_CASE.items()}
    assert by_case[Case("clock.sync_alarms_to_watch", "grounded", 0)] == {"null", "random", "delete+abort", "change+abort"}
    hybrid = by_case[Case("clock.DeleteAlarmAndCount", "text", 1)]
    assert {"operation+shotgun", "answer without operation", "operation without answer", "hedge"} <= hybrid
    assert "random" not in hybrid and "shotgun" not in hybrid
    assert "operation without answer" in by_case[Case("clock.CountAlarms", "grounded", 0)]
    assert "operation without answer" not in by_case[Case("clock.CountAlarms", "text", 0)]
    assert Case("clock.AddAlarm", "text", 0) not in by_case


def test_driver_hooks_rewrite_params_answers_and_text(suite_runner: Runner) -> None:
    case = Case("clock.AddAlarm", "grounded", 0)
    true = suite_runner.oracle(case)
    other = {**true.params, "label": true.params["label"] + " two"}
    driver, judge = suite_runner.replay(case, params=other, text_filter=lambda rid, text: text.upper())
    assert driver.params == other and driver.info["params"] == true.params
    assert ("label_input", other["label"]) in driver.typed
    labels = [a["label"] for a in suite_runner.envs["grounded"].unwrapped.device.get_state()["apps"]["clock"]["alarms"]]
    assert other["label"].upper() in labels and not judge["success"]


def test_forks_reproduce_the_oracle_and_an_answer_can_be_left_out(suite_runner: Runner) -> None:
    for mode in ("grounded", "text"):
        run = suite_runner.oracle(Case("clock.DeleteAlarmAndCount", mode, 1))
        assert run.forkable and run.terminal == {"type": "complete"}
        assert suite_runner.answer_instead(run, run.answer)["success"]
        assert suite_runner.finish_after(run, {})["success"]
        assert not suite_runner.answer_instead(run, None)["success"]
        assert not suite_runner.answer_instead(run, [run.answer[0] + 1])["success"]


def test_each_fork_runs_a_json_tasks_postconfig_again(suite_runner: Runner) -> None:
    run = suite_runner.oracle(Case("settings.dark_theme_on", "grounded", 0))  # postconfig: go home
    device = suite_runner.envs["grounded"].unwrapped.device
    for _ in range(2):
        suite_runner.resume(run, "finish")
        assert device.current_app() == "settings"
        assert suite_runner.finish_after(run, {})["success"] and device.current_app() != "settings"


def test_wrong_targets_change_one_parameter_and_skip_replays_that_end_the_same(suite_runner: Runner) -> None:
    case = Case("clock.ToggleAlarm", "grounded", 0)
    run = suite_runner.oracle(case)
    alternatives = suite_runner.alternatives(run, 20)
    assert alternatives and all(sum(p[k] != run.params[k] for k in p) == 1 for _, p in alternatives)
    assert suite_runner.alternatives(run, 20) == alternatives
    for target in wrong_targets(suite_runner, case):
        # the plan taps the labelled alarm's switch whatever "enabled" says: same outcome, not a wrong target
        assert target.same_outcome == target.params.startswith("enabled=")


FIRST_APPS = ("answer_sheet", "calendar", "clock", "contacts", "messages", "music", "notes", "settings", "weather")


def test_shotgun_lists_every_kind_of_candidate_within_the_action_limit() -> None:
    everything = Candidates.from_state(SimDevice().get_state()).answer_shotgun()
    assert len(everything) <= MAX_TEXT  # every app's values: cut, each kind in proportion
    pool = Candidates.from_state(SimDevice(apps=FIRST_APPS).get_state())  # few enough that each named value fits
    shot = f", {pool.answer_shotgun()}, "
    for value in ("Alice Chen", "Wake up", "Lotus Studio", "482913", "0", "120", "Monday", "Fri, Mar 20",
                  "August 27, 1987", "06:30", "22:15", "MG-1 Pro", "Partly cloudy"):
        assert f", {value}, " in shot, value
    assert len(pool.answer_shotgun()) <= MAX_TEXT and len(pool.answer_shotgun(500)) <= 500
    assert "25°" in pool.content_shotgun() and "Thunderstorm" in pool.content_shotgun()
    assert "conv_01" not in shot and "#1E88E5" not in shot  # ids and colours are no answers


def test_hedges_and_wrong_values_keep_the_kind_and_shape() -> None:
    pool = Candidates.from_state(SimDevice().get_state())
    rng = random.Random(0)
    assert [wrong_value(v, 2026, pool, rng) for v in (4, "47.3", "482913", "07:15", "2 PM", "Fri, Mar 20")] == \
        [5, "48.3", "482914", "08:15", "3 PM", "Sat, Mar 21"]
    name = wrong_value("Grace Liu", 2026, pool, rng)
    assert name != "Grace Liu" and len(name.split()) == 2
    assert hedged([4, "Gym"], [5, "Gym"], HEDGES["W (not T)"]) == ["5 (not 4)", "Gym"]
    assert hedged([["Ann", "Bo"]], [["Ann", "Cy"]], HEDGES["T或W"]) == [["Ann", "Bo或Cy"]]


def test_destruction_picks_user_data_nothing_else_points_to(suite_runner: Runner) -> None:
    for task_id in ("music.RenamePlaylist", "weather.AddCity", "calendar.DeleteEvent", "home.OpenApp"):
        case = Case(task_id, "grounded", 0)
        app, key, item = pick_victim(suite_runner, suite_runner.oracle(case))
        assert key not in CATALOGUES.get(app, ())
        state = suite_runner.oracle(case).initial["apps"][app]
        assert item in state[key] and (isinstance(item, str) or json.dumps(state).count(json.dumps(item["id"])) == 1)
        [outcome] = play(suite_runner, case, "oracle+delete")
        assert outcome.judge["error"] is None and outcome.variant.startswith("delete")


# --- the random agent -------------------------------------------------------------------------------------------------

def test_random_agent_rarely_solves_a_one_step_task(suite_runner: Runner, adversary_tally: Tally) -> None:
    """Random actions may be paid only on one-step tasks, and there on at most RANDOM_ONE_STEP_BOUND (10%) of rollouts."""
    one_step = [t for t in TASK_IDS if suite_runner.facts(t).one_step]
    assert one_step, "no one-step task: the bound is vacuous"
    started = time.perf_counter()
    rollouts = {t: random_rollouts(suite_runner, t, SEEDS, RANDOM_ROLLOUTS) for t in one_step}
    adversary_tally.seconds += time.perf_counter() - started
    adversary_tally.add(o for outcomes in rollouts.values() for o in outcomes)
    rates = {t: sum(o.paid for o in outcomes) / len(outcomes) for t, outcomes in rollouts.items()}
    assert not any(o.beat_the_judge for outcomes in rollouts.values() for o in outcomes), rates
    assert all(rate <= RANDOM_ONE_STEP_BOUND for rate in rates.values()), rates


def test_cli_prints_the_table_and_rejects_unknown_names(capsys: pytest.CaptureFixture[str]) -> None:
    from mobilegym.cli import main

    assert main(["adversaries", "--suite", "adversaries", "--task", "clock.AddAlarm", "--adversary", "null",
                 "--seeds", "0", "--failures"]) == 0
    out = capsys.readouterr().out
    assert "Adversary suite (seeds 0)" in out and "null" in out and "(none)" in out
    assert main(["adversaries", "--adversary", "bribe"]) == 2
    assert "unknown adversary bribe" in capsys.readouterr().err


@pytest.mark.parametrize("task_id", ["weather.TomorrowCondition", "maps.FastestMode"])
def test_a_fixed_choice_is_never_paid_and_plays_only_choice_fields(suite_runner: Runner, task_id: str) -> None:
    outcomes = [o for seed in range(6) for o in play(suite_runner, Case(task_id, "grounded", seed), "fixed choice")]
    assert len(outcomes) == 12 and not [o.explain() for o in outcomes if o.beat_the_judge]
    assert any(not o.skipped for o in outcomes)
    assert play(suite_runner, Case("clock.CountAlarms", "grounded", 0), "fixed choice") == []


def test_paying_twice_is_failed_and_a_repeated_edit_is_not_counted(suite_runner: Runner) -> None:
    case = Case("wallet.TransferToContact", "grounded", 0)
    [twice] = play(suite_runner, case, "pay twice")
    run = suite_runner.oracle(case)
    start, once = run.initial["apps"]["wallet"], run.final_apps["wallet"]
    now = suite_runner.env(case).unwrapped.device.get_state()["apps"]["wallet"]
    assert len(now["transactions"]) - len(start["transactions"]) == 2 * (len(once["transactions"]) - len(start["transactions"])) > 0
    assert not twice.skipped and not twice.paid and twice.judge["error"] is None
    for task_id in ("clock.AddAlarm", "wallet.PayBill"):  # the same edit again; a paid bill cannot be paid again
        [again] = play(suite_runner, Case(task_id, "grounded", 0), "pay twice")
        assert again.skipped


def test_a_cancelled_confirmation_changes_nothing_and_is_not_paid(suite_runner: Runner) -> None:
    case = Case("shop.BuyVariant", "grounded", 0)
    [cancelled] = play(suite_runner, case, "skip confirmation")
    assert cancelled.variant == "cancel Place order" and not cancelled.skipped and not cancelled.paid
    now = suite_runner.env(case).unwrapped.device.get_state()["apps"]["shop"]
    assert now["orders"] == suite_runner.oracle(case).initial["apps"]["shop"]["orders"]
    [none] = play(suite_runner, Case("clock.AddAlarm", "grounded", 0), "skip confirmation")
    assert none.skipped and none.variant == "cancel no confirm dialog"


def test_each_part_of_a_cross_app_task_is_needed_and_reading_is_no_part(suite_runner: Runner) -> None:
    outcomes = play(suite_runner, Case("browser.StoreVisitSaturday", "grounded", 0), "one part undone")
    assert sorted(o.variant for o in outcomes) == ["calendar as it started", "messages as it started"]  # not browser
    assert not [o.explain() for o in outcomes if o.paid]
    assert play(suite_runner, Case("clock.AddAlarm", "grounded", 0), "one part undone") == []


@pytest.mark.parametrize("action", [
    {"type": "open_app", "app": "clock/alarm/edit"},  # a deep link as an app id
    {"type": "open_app", "app": "intent://alarm#Intent;scheme=clock;end"},
    {"type": "open_app", "app": "clock", "route": "/alarm/edit"},
    {"type": "shell", "command": "mobilegym state patch {}"},  # the ADB server's harness command
    {"type": "intent", "uri": "clock://alarm/edit"},
])
def test_no_action_skips_the_ui(suite_runner: Runner, action: dict) -> None:
    """An agent reaches a screen only as a user does (open_app starts an app at its home screen): deep links,
    intents and shell commands are refused and leave the phone as it was."""
    from mobilegym.actions import InvalidAction

    driver = suite_runner.start(Case("clock.AddAlarm", "grounded", 0))
    before = driver.env.device.get_state()
    with pytest.raises(InvalidAction):
        driver.outer.step(action)
    assert driver.env.device.get_state() == before
