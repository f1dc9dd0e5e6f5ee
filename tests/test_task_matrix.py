"""Every registered task: its oracle plan scores 1, its negative cases and doing nothing score 0.

Plans act only through env.step (see mobilegym/oracle.py). Operate tasks run in grounded mode;
tasks with an answer also run in text mode.
"""
from __future__ import annotations

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.judge import default_registry
from mobilegym.oracle import plans_for, run_plan

SEEDS = tuple(range(20))  # every task on twenty generated worlds
REGISTRY = default_registry()
TASK_IDS = sorted(REGISTRY.refs)


def _modes(task_id: str) -> list[str]:
    meta = REGISTRY.refs[task_id].metadata
    has_answer = meta.get("objective") in ("query", "hybrid") or meta.get("has_answer_fields")
    return ["grounded", "text"] if has_answer else ["grounded"]


ORACLE_CASES = [(t, m, s) for t in TASK_IDS for m in _modes(t) for s in SEEDS]
NEGATIVE_CASES = [(t, p.name, m) for t in TASK_IDS for p in plans_for(t) if not p.expect_success for m in _modes(t)]


@pytest.fixture(scope="module")
def envs() -> dict[str, gym.Env]:
    return {mode: gym.make("MobileGym-v0", task=TASK_IDS, eval_mode=mode, obs_parts=("a11y",))
            for mode in ("grounded", "text")}


def _explain(info: dict) -> str:
    judge = info.get("judge") or {}
    return f"error={judge.get('error')} checks={judge.get('checks')}"


def test_registry_loaded_every_suite_without_errors() -> None:
    assert not REGISTRY.errors, REGISTRY.errors
    assert len(TASK_IDS) >= 80 and len(REGISTRY.suites) >= 8


def test_every_task_has_an_oracle_and_a_negative_case() -> None:
    missing_oracle = [t for t in TASK_IDS if not any(p.expect_success for p in plans_for(t))]
    missing_negative = [t for t in TASK_IDS if not any(not p.expect_success for p in plans_for(t))]
    assert not missing_oracle, f"tasks without an oracle plan: {missing_oracle}"
    assert not missing_negative, f"tasks without a negative case: {missing_negative}"


def test_plans_only_name_registered_tasks() -> None:
    from mobilegym.oracle import all_plans

    assert not set(all_plans()) - set(TASK_IDS)


@pytest.mark.parametrize("task_id, mode, seed", ORACLE_CASES)
def test_oracle_plan_scores_one(envs, task_id: str, mode: str, seed: int) -> None:
    oracle = next(p for p in plans_for(task_id) if p.expect_success)
    reward, info, _ = run_plan(envs[mode], task_id, oracle, seed)
    assert reward == 1.0, _explain(info)
    assert info["judge"]["success"] and info["task_error"] is None


@pytest.mark.parametrize("task_id, name, mode", NEGATIVE_CASES)
def test_negative_case_scores_zero(envs, task_id: str, name: str, mode: str) -> None:
    negative = next(p for p in plans_for(task_id) if p.name == name)
    for seed in SEEDS:
        reward, info, _ = run_plan(envs[mode], task_id, negative, seed)
        assert reward == 0.0, f"seed {seed}: " + _explain(info)
        assert info["task_error"] is None, info["task_error"]


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_doing_nothing_scores_zero(envs, task_id: str) -> None:
    for mode in _modes(task_id):
        for seed in SEEDS:
            envs[mode].reset(seed=seed, options={"task": task_id})
            *_, info = envs[mode].step({"type": "complete"})
            assert info["judge"]["score"] == 0.0 and info["task_error"] is None, _explain(info)
