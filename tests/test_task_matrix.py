"""Every registered task: its negative cases score 0 on every world of the case matrix (tests/test_case_matrix.py
plays the oracle plan, which must score 1, and doing nothing, which must not, on the same worlds).

Plans act only through env.step (see mobilegym/oracle.py). Operate tasks run in grounded mode;
tasks with an answer also run in text mode.
"""
from __future__ import annotations

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.oracle import plans_for, run_plan

from .suites import REGISTRY, SEEDS, TASK_IDS


def _modes(task_id: str) -> list[str]:
    meta = REGISTRY.refs[task_id].metadata
    has_answer = meta.get("objective") in ("query", "hybrid") or meta.get("has_answer_fields")
    return ["grounded", "text"] if has_answer else ["grounded"]


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


@pytest.mark.parametrize("task_id, name, mode", NEGATIVE_CASES)
def test_negative_case_scores_zero(envs, task_id: str, name: str, mode: str) -> None:
    negative = next(p for p in plans_for(task_id) if p.name == name)
    for seed in SEEDS:
        reward, info, _ = run_plan(envs[mode], task_id, negative, seed)
        assert reward == 0.0, f"seed {seed}: " + _explain(info)
        assert info["task_error"] is None, info["task_error"]
