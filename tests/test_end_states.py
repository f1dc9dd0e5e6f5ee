"""A goal that accepts several end states allows each of them: for every task declaring ``end_states``, a right
plan reaches each one (the oracle the first, ``oracle.alternative`` plans the others) and is paid with no
side-effect failure; and every task whose goal uses a check accepting several end states declares them."""
from __future__ import annotations

import inspect

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.judge import default_registry
from mobilegym.judge.python.tasks import BaseTask
from mobilegym.oracle import END_STATE, plans_for, run_plan

REG = default_registry()
SEEDS = range(3)
# Accessor checks whose message accepts several end states (their docstring says so).
MULTI_END_MARK = "or deleted for good"


def _task_classes() -> dict[str, type[BaseTask]]:
    out = {}
    for task_id, ref in REG.refs.items():
        cls = getattr(ref, "cls", None) or getattr(ref, "task_cls", None)
        if isinstance(cls, type) and issubclass(cls, BaseTask):
            out[task_id] = cls
    return out


CLASSES = _task_classes()
MULTI = sorted(t for t, cls in CLASSES.items() if len(cls.end_states) > 1)


def _multi_end_checks() -> set[str]:
    """Names of accessor methods whose docstring says they accept several end states."""
    import mobilegym.judge as judge

    names = set()
    for cls in {c for c in _all_subclasses(judge.BaseApp)}:
        for name, fn in vars(cls).items():
            if callable(fn) and MULTI_END_MARK in (inspect.getdoc(fn) or ""):
                names.add(name)
    return names


def _all_subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_all_subclasses(sub)]
    return out


def test_the_registry_exposes_task_classes() -> None:
    assert len(CLASSES) > 200 and "files.DeleteOldDownloads" in MULTI
    assert REG.refs["files.DeleteOldDownloads"].metadata["end_states"] == ["in Trash", "deleted for good"]


def test_every_goal_accepting_several_end_states_declares_them() -> None:
    checks = _multi_end_checks()
    assert checks == {"check_in_trash_or_deleted"}, checks
    missing = sorted(t for t, cls in CLASSES.items()
                     if any(f".{name}(" in inspect.getsource(cls.check_goals) for name in checks)
                     and len(cls.end_states) < 2)
    assert not missing, f"goals accept 'in Trash or deleted' but declare no end_states: {missing}"


@pytest.fixture(scope="module")
def env():
    return gym.make("MobileGym-v0", task=MULTI, eval_mode="text", obs_parts=("instruction",))


@pytest.mark.parametrize("task_id", MULTI)
def test_each_end_state_has_a_right_plan(task_id: str) -> None:
    names = {p.name for p in plans_for(task_id) if p.expect_success}
    wanted = {"oracle", *(END_STATE + s for s in CLASSES[task_id].end_states[1:])}
    assert wanted <= names, f"{task_id}: no right plan for {sorted(wanted - names)}"


@pytest.mark.parametrize("task_id", MULTI)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_accepted_end_state_passes_the_side_effect_check(env, task_id: str, seed: int) -> None:
    for plan in (p for p in plans_for(task_id) if p.expect_success):
        reward, info, _ = run_plan(env, task_id, plan, seed)
        failing = [c for c in info["judge"]["checks"] if not c.get("passed")]
        assert reward == 1.0 and not failing, f"{task_id} {plan.name} seed {seed}: {failing}"
