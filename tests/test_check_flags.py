"""A check's pass flag agrees with what it reports: on the negative plans of tasks that compare mappings,
a check whose expected and actual mappings differ in their keys is never passed."""
from __future__ import annotations

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.oracle import plans_for, run_plan

TASKS = ["wallet.PayOverdueBills"]
SEEDS = range(5)


def _mismatched_passes(checks):
    """Checks whose expected and actual are mappings with different keys, yet passed."""
    return [c for c in checks if c.get("passed") and isinstance(c.get("expected"), dict)
            and isinstance(c.get("actual"), dict) and c["expected"].keys() != c["actual"].keys()]


@pytest.fixture(scope="module")
def env():
    return gym.make("MobileGym-v0", task=TASKS, eval_mode="text", obs_parts=("instruction",))


@pytest.mark.parametrize("task_id", TASKS)
@pytest.mark.parametrize("seed", SEEDS)
def test_no_check_passes_with_mismatched_mappings(env, task_id, seed):
    for plan in plans_for(task_id):
        _, info, _ = run_plan(env, task_id, plan, seed)
        assert not _mismatched_passes(info["judge"]["checks"]), f"{task_id} {plan.name} seed {seed}"


def test_a_missing_bill_fails_the_amounts_check(env):
    plan = next(p for p in plans_for("wallet.PayOverdueBills") if "only the first" in p.name)
    _, info, _ = run_plan(env, "wallet.PayOverdueBills", plan, 1)
    amounts = next(c for c in info["judge"]["checks"] if c["field"] == "amounts paid")
    assert amounts["passed"] is False and amounts["expected"].keys() != amounts["actual"].keys()
