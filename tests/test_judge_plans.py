"""The example Python tasks of the clock and settings suites that need no other app, judged through env.step:
each oracle plan scores 1 and each scripted mistake scores 0, in both evaluation modes."""
from __future__ import annotations

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.judge import PyTaskRef, default_registry
from mobilegym.oracle import plans_for, run_plan

from .uitools import CORE_APPS

TASKS = sorted(r.id for r in default_registry().refs.values()
               if isinstance(r, PyTaskRef) and r.id.split(".")[0] in ("clock", "settings")
               and set(r.metadata.get("related_apps") or [r.metadata["app"]]) <= set(CORE_APPS))


@pytest.fixture(scope="module")
def envs():
    made = {mode: gym.make("MobileGym-v0", task=TASKS, eval_mode=mode, apps=CORE_APPS, render_scale=0.25,
                           obs_parts=("a11y",)) for mode in ("grounded", "text")}
    yield made
    for env in made.values():
        env.close()


def test_every_example_task_has_an_oracle_and_a_negative():
    assert len(TASKS) >= 10
    for task_id in TASKS:
        plans = plans_for(task_id)
        assert any(p.expect_success for p in plans) and any(not p.expect_success for p in plans), task_id


@pytest.mark.parametrize("mode", ["grounded", "text"])
@pytest.mark.parametrize("task_id", TASKS)
def test_plans(envs, task_id, mode):
    for seed in (0, 1):
        for the_plan in plans_for(task_id):
            reward, info, _ = run_plan(envs[mode], task_id, the_plan, seed)
            judge = info["judge"]
            assert judge["error"] is None, (the_plan.name, judge)
            assert reward == (1.0 if the_plan.expect_success else 0.0), (the_plan.name, seed, judge)
            if the_plan.expect_success:
                assert judge["clean"], (the_plan.name, judge["side_effects"])
